"""How ε auditors run: one thread per process for the numerical libraries.

Many small fits run side by side in worker processes; one BLAS/OpenMP thread each keeps
them from fighting over few cores, so timings measure the auditors, not the contention.
See docs/methods/epsilon-benchmark.md.
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
