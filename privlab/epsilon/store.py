"""Stored tables of the known-ε benchmark, and worker processes that die with their sweep.

A table is trusted only with its completion marker (checksum, row count); a damaged one
is recomputed with a warning. Workers exit when the sweep's process dies and report
their progress through tick files. See docs/methods/epsilon-benchmark.md.
"""

from __future__ import annotations

import io
import json
import os
import queue
import shutil
import tempfile
import threading
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable, Iterator

import pandas as pd

from privlab.hashing import bytes_hash


def marker_path(path: Path) -> Path:
    """The completion marker of a stored table: ``<file>.done``.

    Example:
        >>> marker_path(Path("cache/a.csv")).name
        'a.csv.done'
    """
    return path.with_name(path.name + ".done")


def _replace_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)  # a reader sees the old file or the whole new one
    finally:
        tmp.unlink(missing_ok=True)


def store_table(frame: pd.DataFrame, path: Path) -> Path:
    """Write ``frame`` as CSV at ``path``, then its completion marker, last.

    The old marker goes first, so a killed process leaves a table that is refused.

    Returns:
        ``path``.

    Example:
        >>> import tempfile
        >>> p = store_table(pd.DataFrame({"a": [1.5, 2.0]}), Path(tempfile.mkdtemp()) / "t.csv")
        >>> read_stored(p, lambda f: None, "demo table")["a"].tolist()
        [1.5, 2.0]
    """
    path = Path(path)
    marker_path(path).unlink(missing_ok=True)
    data = frame.to_csv(index=False).encode("utf-8")
    _replace_bytes(path, data)
    meta = {"rows": len(frame), "columns": [str(c) for c in frame.columns],
            "sha256": bytes_hash(data)}
    _replace_bytes(marker_path(path), json.dumps(meta).encode("utf-8"))
    return path


def read_stored(path: Path, problem: Callable[[pd.DataFrame], str | None],
                what: str) -> pd.DataFrame | None:
    """The table stored at ``path``; None when there is none or it is damaged.

    Args:
        path: the CSV written by :func:`store_table`.
        problem: the caller's check of the parsed table: why it is not the expected
            one, or None.
        what: what the table is, for the warning (e.g. ``"ε-benchmark setting"``).

    Returns:
        The table, or None; a damaged table also warns (``RuntimeWarning``), naming the
        file and the fault.

    Example:
        >>> import tempfile
        >>> p = Path(tempfile.mkdtemp()) / "t.csv"
        >>> read_stored(p, lambda f: None, "demo table") is None  # nothing stored yet
        True
        >>> _ = store_table(pd.DataFrame({"a": [1]}), p)
        >>> _ = p.write_bytes(b"a\\n")  # cut short
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     gone = read_stored(p, lambda f: None, "demo table") is None
        >>> gone, "t.csv" in str(caught[0].message)
        (True, True)
    """
    path = Path(path)
    marker = marker_path(path)
    if not path.exists() and not marker.exists():
        return None
    frame = None
    try:
        data = path.read_bytes()
        meta = json.loads(marker.read_text(encoding="utf-8")) if marker.is_file() else None
        if meta is None:
            reason = f"its completion marker {marker.name} is missing"
        elif not isinstance(meta, dict) or meta.get("sha256") != bytes_hash(data):
            reason = "its bytes do not match the checksum in its completion marker"
        else:
            frame = pd.read_csv(io.BytesIO(data))
            reason = (f"it has {len(frame)} rows, its completion marker says {meta.get('rows')}"
                      if len(frame) != meta.get("rows") else problem(frame))
    except (OSError, ValueError, pd.errors.ParserError) as exc:  # JSON and UTF-8 errors too
        reason = f"it cannot be read ({type(exc).__name__}: {exc})"
    if reason is None:
        return frame
    warnings.warn(f"The stored {what} {path} is damaged: {reason}. Recomputing it.",
                  RuntimeWarning, stacklevel=2)
    return None


#: The watch a worker runs, as source. Run through the builtin ``exec`` as a pool's
#: initializer it reaches a new worker without importing privlab (whose import takes
#: seconds, during which a killed sweep's worker would live on).
_WATCH_SOURCE = """
import os, threading, time
parent, interval, first = {parent}, {interval}, os.getppid()

def parent_gone():
    try:
        os.kill(parent, 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, owned by someone else
        return False
    return False

if first != parent and parent_gone():  # the sweep died while this worker started
    os._exit(1)

def watch():
    while True:
        time.sleep(interval)
        if os.getppid() != first:  # orphaned: adopted by another process
            os._exit(1)  # no cleanup: whoever would use the result is gone

threading.Thread(target=watch, name="{name}", daemon=True).start()
"""
_WATCH_THREAD = "privlab-exit-with-parent"


def _watch_source(parent: int, interval: float) -> str:
    """The watch's source for one parent and polling interval."""
    return _WATCH_SOURCE.format(parent=int(parent), interval=float(interval),
                                name=_WATCH_THREAD)


def exit_with_parent(parent: int, interval: float = 0.25) -> bool:
    """Make this worker process exit soon after ``parent`` (the sweep's process) dies.

    A daemon thread polls the parent process id. Does nothing in the sweep's own
    process, in a worker already watching, or off POSIX.

    Args:
        parent: process id of the sweep (``os.getpid()`` there).
        interval: seconds between checks.

    Returns:
        True when this call started the watch.

    Example:
        >>> exit_with_parent(os.getpid())  # the sweep's own process: nothing to watch
        False
    """
    if parent == os.getpid() or os.name != "posix" or any(
            thread.name == _WATCH_THREAD for thread in threading.enumerate()):
        return False
    exec(_watch_source(parent, interval), {})  # noqa: S102 - our own constant source
    return True


def worker_pool(n_jobs: int, **options) -> "joblib.Parallel":
    """A joblib ``Parallel`` on loky worker processes that die with this process.

    Each worker runs the watch of :func:`exit_with_parent` before any task (POSIX only).

    Args:
        n_jobs: worker processes.
        options: further ``Parallel`` options, e.g. ``return_as="generator"``.
    """
    from joblib import Parallel

    if os.name != "posix":
        return Parallel(n_jobs=n_jobs, backend="loky", **options)
    return Parallel(n_jobs=n_jobs, backend="loky", initializer=exec,
                    initargs=(_watch_source(os.getpid(), 0.1), {}), **options)


def tick_file(path: str) -> None:
    """Count one unit of work done (in a worker process): one byte appended to ``path``."""
    with open(path, "ab") as out:
        out.write(b".")


@contextmanager
def tick_folder() -> Iterator[Path]:
    """A temporary folder for the :func:`tick_file` counts of one sweep (removed after)."""
    folder = Path(tempfile.mkdtemp(prefix="privlab-ticks-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def ticked_results(produce: Callable[[], Iterable], folder: Path,
                   report: Callable[[int], None], every: float = 0.5) -> Iterator:
    """Yield what ``produce()`` yields, reporting the units counted in ``folder`` meanwhile.

    ``produce`` runs in a thread, so a listener set in this one hears the workers'
    progress; ``report(units)`` is called when the count changes, at most every
    ``every`` seconds. An error raised by ``produce`` is raised here.

    Example:
        >>> import time
        >>> with tick_folder() as folder:
        ...     def produce():
        ...         for k in range(2):
        ...             tick_file(str(folder / "a")); time.sleep(0.3); yield k
        ...     seen = []
        ...     list(ticked_results(produce, folder, seen.append, every=0.05)), seen[-1]
        ([0, 1], 2)
    """
    done = object()
    results: queue.Queue = queue.Queue()

    def pump() -> None:
        try:
            for item in produce():
                results.put((True, item))
            results.put((True, done))
        except BaseException as exc:  # handed to the waiting thread
            results.put((False, exc))

    threading.Thread(target=pump, daemon=True, name="privlab-ticked-results").start()
    counted = 0
    while True:
        try:
            ok, item = results.get(timeout=every)
        except queue.Empty:
            now = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
            if now != counted:
                counted = now
                report(now)
            continue
        if not ok:
            raise item
        if item is done:
            return
        yield item


__all__ = ["exit_with_parent", "marker_path", "read_stored", "store_table", "tick_file",
           "tick_folder", "ticked_results", "worker_pool"]
