"""Run a per-item detector (OCR, face detection) on all cores, results in input order.

Detectors such as :func:`privlab.vision.ocr.read_text` and
:func:`privlab.vision.faces.detect_faces` work one image at a time and hold a model per
process. :func:`parallel_map` starts ``workers`` fresh processes (spawned, so no thread
or model state is copied from this one), each limited to one thread so that they do not
compete for cores, and maps the function over the items.
"""

from __future__ import annotations

import functools
import os
from typing import Any, Callable

from privlab.errors import invalid, item_list, wrong_type

_ONE_THREAD = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


def _one_thread() -> None:
    for name in _ONE_THREAD:
        os.environ[name] = "1"


def _call(fn: Callable, kwargs: dict, indexed: tuple[int, Any]) -> Any:
    index, item = indexed
    try:
        return fn(item, **kwargs)
    except Exception as exc:
        exc.add_note(f"(raised by {getattr(fn, '__name__', fn)!s} on item {index})")
        raise


def parallel_map(fn: Callable, items, *, workers: int | None = None, **kwargs) -> list:
    """``[fn(item, **kwargs) for item in items]``, computed by ``workers`` processes.

    Args:
        fn: a module-level function (it is sent to the workers by name), e.g.
            ``privlab.vision.faces.detect_faces``.
        items: the inputs (images as arrays or paths; anything picklable).
        workers: processes to use (default: the number of cores); 1 runs here, serially.
        **kwargs: passed to every call, e.g. ``threshold=0.8``.

    Returns:
        The results, in the order of ``items``.

    Raises:
        TypeError: ``fn`` is not callable, or ``items`` is not a list of items.
        ValueError: ``workers`` below 1.
        Exception: the first error of ``fn``, with a note naming the item's index.

    Example:
        >>> import math
        >>> parallel_map(math.factorial, [3, 4, 5], workers=1)
        [6, 24, 120]
    """
    caller = "parallel_map"
    if not callable(fn):
        raise wrong_type("fn", caller, "a function", fn)
    items = item_list(items, "items", caller)
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise invalid("workers", caller, "an int >= 1", workers)
    call = functools.partial(_call, fn, kwargs)
    if workers == 1 or len(items) < 2:
        return [call(pair) for pair in enumerate(items)]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(workers, len(items)), mp_context=context,
                             initializer=_one_thread) as pool:
        return list(pool.map(call, enumerate(items)))


__all__ = ["parallel_map"]
