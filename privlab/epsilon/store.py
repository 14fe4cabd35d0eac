"""Stored tables of the known-ε benchmark, and worker processes that die with their sweep.

:func:`store_table` writes a table as CSV and then, last, a completion marker beside it
(``<file>.done``: row count, columns, SHA-256 of the bytes). :func:`read_stored` returns a
stored table only when the marker is there, the checksum and row count match and the
caller's own check passes; a damaged table (cut short, emptied, overwritten, or left
without its marker by a killed process) is reported with a ``RuntimeWarning`` naming the
file, and the caller recomputes it. :func:`exit_with_parent` makes a pool worker exit
when the process that started the sweep dies; :func:`worker_pool` starts workers that
run it first thing, before any task reaches them. :func:`ticked_results` lets the
sweep's process report the work its workers count with :func:`tick_file` (a pair
audited) while it waits for their results.
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
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)  # a reader sees the old file or the whole new one
    finally:
        tmp.unlink(missing_ok=True)


def store_table(frame: pd.DataFrame, path: Path) -> Path:
    """Write ``frame`` as CSV at ``path``, then its completion marker, last.

    The old marker is removed first, so a process killed in between leaves a table that
    :func:`read_stored` refuses rather than one it trusts.

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
        problem: the caller's check of the parsed table: why it is not the expected one
            (row count, columns, empty cells, whose setting it is), or None.
        what: what the table is, for the warning (e.g. ``"ε-benchmark setting"``).

    Returns:
        The table (floats read back exactly: pandas reads the shortest repr), or None: the caller computes it again. A
        damaged table also raises a ``RuntimeWarning`` that names the file and the fault.

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
    return _WATCH_SOURCE.format(parent=int(parent), interval=float(interval),
                                name=_WATCH_THREAD)


def exit_with_parent(parent: int, interval: float = 0.25) -> bool:
    """Make this worker process exit soon after ``parent`` (the sweep's process) dies.

    A killed sweep would otherwise leave its pool workers computing (or still starting)
    for minutes. A daemon thread polls the parent process id: an orphan is adopted by
    another process, so ``os.getppid()`` changes, and the worker exits at once (its
    unfinished setting is not stored, and a rerun computes it). A worker whose sweep
    died before this call exits at once. Called in the sweep's own process, in a worker
    already watching, or where orphans keep their parent id (not POSIX), it does
    nothing; there the worker still ends when the pool's pipes close after its current
    task.

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

    Each worker runs the watch of :func:`exit_with_parent` as its initializer, before
    it takes any task and without importing privlab: a sweep killed while its workers
    are still starting leaves none behind for more than about a second. Where orphans
    keep their parent id (not POSIX) no watch is installed.

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
    """Yield what ``produce()`` yields, while waiting calling ``report(units)`` with the
    units counted so far in ``folder``'s files (each time the count changes, at most
    every ``every`` seconds).

    ``produce`` runs in a thread (a worker pool's results, say); this process's thread
    keeps reporting, so a listener set here (:mod:`privlab.progress`) hears the workers'
    progress. An error raised by ``produce`` is raised here.

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
