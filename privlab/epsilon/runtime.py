"""How ε auditors run: one thread per process for the numerical libraries.

The known-ε benchmark runs many small fits (logistic regressions on a few hundred rows,
kernel matrices of a few hundred points) side by side in worker processes. Left alone,
BLAS and OpenMP start one thread per core in every worker, and on a machine with few
cores the threads fight over them: a ROC-HT audit then takes several times longer than
on one thread. Every place that runs auditors — the sweep's workers, the Laplace
reference, study 06 and the timing script — does so inside :func:`auditor_threads`, so
timings are comparable and measure the auditors, not the contention.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from privlab.errors import invalid

#: Threads each numerical library may use while auditors run (per process).
AUDITOR_THREADS = 1


@contextmanager
def auditor_threads(limit: int = AUDITOR_THREADS) -> Iterator[None]:
    """Limit BLAS and OpenMP thread pools to ``limit`` threads inside the block.

    Args:
        limit: threads per library (a positive integer; the default is the runner's).

    Raises:
        PrivlabValueError: ``limit`` not a positive integer.

    Example:
        >>> from threadpoolctl import threadpool_info
        >>> with auditor_threads():
        ...     {p["num_threads"] for p in threadpool_info()} <= {1}
        True
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise invalid("limit", "auditor_threads", "a positive integer", limit)
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limit):
        yield


__all__ = ["AUDITOR_THREADS", "auditor_threads"]
