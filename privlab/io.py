"""Reading and writing the files privlab exchanges with users, and its on-disk caches.

One JSON-lines reader that names the file and line of every refusal, one error builder
for a bad record, one atomic writer (a partial file is never left under the final
name), and the one cache layer (:class:`SQLiteCache`, :func:`cache_key`) the embedding
and LLM answer caches share.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import stat
import time
import warnings
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from privlab.errors import PrivlabValueError, invalid, wrong_type
from privlab.hashing import bytes_hash


def refuse_record(caller: str, expected: str, where: str, problem: str,
                  parameter: str = "path") -> PrivlabValueError:
    """The standard error for a record that breaks a file's schema.

    Args:
        caller: the public loader, e.g. ``"load_spia"``.
        expected: what the file must hold, e.g. ``"SPIA JSON lines (see data/README.md)"``.
        where: ``"<file> line <n>"``.
        problem: what is wrong with that record.
        parameter: the loader's parameter that named the file.

    Example:
        >>> str(refuse_record("load_x", "X lines", "x.jsonl line 3", "no 'text'"))[:60]
        "The 'path' parameter of load_x must be X lines. Got x.jsonl "
    """
    return invalid(parameter, caller, expected, f"{where}: {problem}", given_is_text=True,
                   fix="Fix or remove that line; no record is skipped silently.")


def check_readable(path: Path, parameter: str, caller: str) -> None:
    """Refuse a file this process may not read, naming it and the fix (never a raw
    ``PermissionError`` from deep inside a loader)."""
    try:
        with open(path, "rb"):
            pass
    except PermissionError:
        raise invalid(parameter, caller, "a file this user can read",
                      f"{path} (permission denied)", "Give yourself read access (e.g. "
                      "chmod u+r) or copy the file somewhere readable; nothing was loaded.",
                      given_is_text=True) from None


class _DuplicateKey(ValueError):
    """A JSON object that gives one key twice."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict:
    record: dict = {}
    for key, value in pairs:
        if key in record:
            raise _DuplicateKey(key)
        record[key] = value
    return record


def iter_jsonl(lines: Iterable[str], name: str, caller: str,
               parameter: str = "path") -> Iterator[tuple[int, Any]]:
    """Decode JSON lines from any text stream as ``(line number, object)`` pairs.

    Blank lines are skipped; any other line that is not JSON, or whose object gives a key
    twice (JSON keeps the last silently), is refused with its file name and number.

    Example:
        >>> list(iter_jsonl(['{"a": 1}', '', '[2]'], "mem.jsonl", "demo"))
        [(1, {'a': 1}), (3, [2])]
    """
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line, object_pairs_hook=_no_duplicate_keys)
        except json.JSONDecodeError as exc:
            raise invalid(parameter, caller, "one JSON object per line",
                          f"{name} line {number}: {exc.msg}", given_is_text=True,
                          fix="Fix or remove that line.") from exc
        except _DuplicateKey as exc:
            raise invalid(parameter, caller, "one JSON object per line, each key once",
                          f"{name} line {number}: the key {str(exc)!r} given twice",
                          given_is_text=True, fix="Keep one of the two values; nothing was "
                          "loaded.") from None


def read_jsonl(path: str | Path, caller: str, parameter: str = "path") -> list[tuple[int, Any]]:
    """Decode a JSON-lines file as ``(line number, object)`` pairs, refusing bad lines.

    Raises:
        PrivlabValueError: the file is missing, is not UTF-8, or a line is not JSON; the
            message names the file and line.
    """
    path = Path(path)
    if not path.is_file():
        state = "a folder" if path.is_dir() else "it does not exist"
        raise invalid(parameter, caller, "an existing JSON-lines file", f"{path} ({state})",
                      given_is_text=True)   # the whole path: a cut one hides the file's name
    check_readable(path, parameter, caller)
    with path.open("rb") as handle:
        return list(iter_jsonl(_utf8_lines(handle, path.name, caller, parameter), path.name,
                               caller, parameter))


def _utf8_lines(handle, name: str, caller: str, parameter: str) -> Iterator[str]:
    # Decode line by line so that a bad byte is reported with its line number.
    for number, raw in enumerate(handle, start=1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise invalid(parameter, caller, "a UTF-8 text file",
                          f"{name} line {number}: byte {raw[exc.start:exc.start + 1]!r} "
                          f"at column {exc.start + 1} is not UTF-8", given_is_text=True,
                          fix="Re-save the file as UTF-8.") from exc


def write_jsonl(objects: Iterable[Any], path: str | Path) -> Path:
    """Write objects as JSON lines atomically: ``<path>.partial`` first, renamed at the end.

    Example:
        >>> import tempfile, os
        >>> p = write_jsonl([{"a": 1}], os.path.join(tempfile.mkdtemp(), "o.jsonl"))
        >>> read_jsonl(p, "demo")
        [(1, {'a': 1})]
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    try:
        with partial.open("w", encoding="utf-8") as handle:
            for obj in objects:
                handle.write(json.dumps(obj, ensure_ascii=False) + "\n")
    except BaseException:
        partial.unlink(missing_ok=True)  # the old file, if any, stays as it was
        raise
    partial.replace(path)
    return path


# --------------------------------------------------------------------------- folders
_FILE_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
               (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def walk_folder(root: str | Path, *, recursive: bool = True,
                accept: Callable[[Path], str | None] | None = None,
                caller: str = "walk_folder", parameter: str = "folder"
                ) -> tuple[list[Path], list[dict]]:
    """The regular files in a folder, and every entry passed over with the reason.

    Links are followed; a link to a folder already being read (a loop) is not entered
    again. Passed over, each as ``{"file": <path relative to root>, "reason": ...}``: a
    dangling link, a symbolic-link loop, a FIFO, socket or device, a sub-folder that
    cannot be listed, a sub-folder when ``recursive`` is False, and a file ``accept``
    turns down (it returns the reason, or None to take the file).

    Args:
        root: the folder.
        recursive: descend into sub-folders.
        accept: ``accept(path) -> None | reason``; None takes every regular file.
        caller: the public function named in errors.
        parameter: its parameter that named the folder.

    Returns:
        ``(files, skipped)``: files in name order (by path relative to ``root``), and the
        entries passed over in the same order.

    Raises:
        PrivlabValueError: ``root`` is not a folder that can be listed.

    Example:
        >>> import tempfile
        >>> root = Path(tempfile.mkdtemp())
        >>> _ = (root / "a.txt").write_text("x"); _ = (root / "b.md").write_text("y")
        >>> (root / "gone").symlink_to(root / "missing")
        >>> files, skipped = walk_folder(root, accept=lambda p: None if p.suffix == ".txt"
        ...                              else "not a .txt file")
        >>> [f.name for f in files]
        ['a.txt']
        >>> [(s["file"], s["reason"]) for s in skipped]  # doctest: +NORMALIZE_WHITESPACE
        [('b.md', 'not a .txt file'),
         ('gone', 'a dangling link (its target is missing)')]
    """
    if not isinstance(root, (str, os.PathLike)):
        raise wrong_type(parameter, caller, "a folder path (str or pathlib.Path)", root)
    root = Path(root)
    try:
        top = os.stat(root)
    except OSError as exc:
        raise invalid(parameter, caller, "an existing folder", str(root),
                      f"Check the path ({exc.strerror or exc}).", given_is_text=True) from None
    if not stat.S_ISDIR(top.st_mode):
        raise invalid(parameter, caller, "an existing folder", str(root),
                      "Pass the folder, not a file in it.", given_is_text=True)
    files: list[Path] = []
    skipped: list[dict] = []

    def skip(path: Path, reason: str) -> None:
        skipped.append({"file": path.relative_to(root).as_posix(), "reason": reason})

    def visit(folder: Path, seen: frozenset) -> None:
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            if folder == root:
                raise invalid(parameter, caller, "a folder that can be listed", str(root),
                              f"{exc.strerror or exc}: check its permissions.",
                              given_is_text=True) from None
            skip(folder, f"a folder that cannot be listed ({exc.strerror or exc})")
            return
        for entry in entries:
            path = folder / entry.name
            try:
                info = os.stat(path)  # follows links
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    skip(path, "a symbolic-link loop")
                elif entry.is_symlink() and exc.errno == errno.ENOENT:
                    skip(path, "a dangling link (its target is missing)")
                else:
                    skip(path, f"cannot be read ({exc.strerror or exc})")
                continue
            if stat.S_ISDIR(info.st_mode):
                if not recursive:
                    skip(path, "a sub-folder (not read: recursive is off)")
                elif (info.st_dev, info.st_ino) in seen:
                    skip(path, "a link back to a folder already being read (a loop)")
                else:
                    visit(path, seen | {(info.st_dev, info.st_ino)})
            elif stat.S_ISREG(info.st_mode):
                reason = accept(path) if accept is not None else None
                if reason:
                    skip(path, reason)
                else:
                    files.append(path)
            else:
                kind = next((k for test, k in _FILE_KINDS if test(info.st_mode)),
                            "not a regular file")
                skip(path, f"{kind}, not a regular file")

    visit(root, frozenset({(top.st_dev, top.st_ino)}))
    return files, skipped


def describe_skipped(skipped: list[dict], shown: int = 3) -> str:
    """A short listing of skipped entries for a warning: ``"a (why); b (why); ..."``.

    Example:
        >>> describe_skipped([{"file": "a", "reason": "a FIFO"}, {"file": "b", "reason": "x"}], 1)
        'a (a FIFO); and 1 more'
    """
    text = "; ".join(f"{s['file']} ({s['reason']})" for s in skipped[:shown])
    return text + (f"; and {len(skipped) - shown} more" if len(skipped) > shown else "")


# --------------------------------------------------------------------------- SQLite caches
def is_damaged_database(exc: BaseException) -> bool:
    """True when SQLite says the file itself is damaged (not locked, not full).

    Example:
        >>> error = sqlite3.DatabaseError("file is not a database")
        >>> error.sqlite_errorname = "SQLITE_NOTADB"
        >>> is_damaged_database(error), is_damaged_database(sqlite3.OperationalError("locked"))
        (True, False)
    """
    name = getattr(exc, "sqlite_errorname", "") or ""
    return isinstance(exc, sqlite3.DatabaseError) and name.startswith(
        ("SQLITE_CORRUPT", "SQLITE_NOTADB"))


def set_aside(path: Path) -> Path:
    """Rename a damaged file (and its journal files) to the first free ``.damaged`` name.

    A stale journal left beside a fresh database would be replayed into it, so the
    ``-journal``, ``-wal`` and ``-shm`` companions move too.

    Returns:
        Where the file now is.
    """
    number = 1
    while True:
        suffix = ".damaged" if number == 1 else f".damaged-{number}"
        aside = path.with_name(path.name + suffix)
        if not aside.exists():
            break
        number += 1
    try:
        path.rename(aside)
    except FileNotFoundError:
        pass  # another process set it aside first
    for companion in ("-journal", "-wal", "-shm"):
        extra = path.with_name(path.name + companion)
        if extra.exists():
            extra.rename(aside.with_name(aside.name + companion))
    return aside


#: Seconds a cache waits for a lock held by another process before it gives up.
LOCK_TIMEOUT_S = 5.0


def database_unavailable(exc: sqlite3.Error) -> bool:
    """A cache that is locked, read-only, on a full disk or cannot be opened."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and (
        name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_READONLY", "SQLITE_FULL",
                         "SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_PERM"))
        or any(w in text for w in ("locked", "readonly", "read-only", "disk is full",
                                   "unable to open", "disk i/o")))


def cache_key(*parts: Any) -> str:
    """The key of a cache entry: SHA-256 (64 hex digits) of its parts as sorted-key JSON.

    Every cache keys its entries by what they were computed from: texts, arrays and images
    enter as their :func:`privlab.hashing.content_hash`, settings as plain values.

    Example:
        >>> cache_key("chat", {"a": 1, "b": [2]}) == cache_key("chat", {"b": [2], "a": 1})
        True
        >>> cache_key("chat", {"a": 1}) == cache_key("chat", {"a": 2})
        False
    """
    return bytes_hash(json.dumps(list(parts), sort_keys=True, default=str).encode("utf-8"))


class SQLiteCache:
    """One SQLite file of cache entries, healed and passed by the same way for every cache.

    A file SQLite reports as damaged is set aside (:func:`set_aside`) with a warning and
    a fresh one started; one locked for :data:`LOCK_TIMEOUT_S` seconds, read-only, on a
    full disk or that cannot be opened is passed by with a warning naming it and the fix,
    so the run goes on uncached and loses nothing. Why: ``docs/decisions/2026-12-05-one-cache.md``.

    Subclasses set ``path`` (an attribute or a property) and the class attributes below.

    Example:
        >>> import tempfile
        >>> class Notes(SQLiteCache):
        ...     schema = ("CREATE TABLE IF NOT EXISTS notes (key TEXT PRIMARY KEY, note TEXT)",)
        >>> notes = Notes(); notes.path = Path(tempfile.mkdtemp()) / "notes.sqlite"
        >>> _ = notes.run(lambda con: con.execute("INSERT INTO notes VALUES ('k', 'hi')"))
        >>> notes.run(lambda con: con.execute("SELECT note FROM notes").fetchone())
        ('hi',)
    """

    path: Path
    #: How warnings name the cache.
    name = "cache"
    #: What happens without the cache, completed by " again" or " and not stored".
    redone = "entries are computed"
    #: Statements run on every connection (``CREATE TABLE IF NOT EXISTS ...``).
    schema: tuple[str, ...] = ()
    #: Seconds an unusable cache is then passed by without waiting on it (0: every call).
    retry_s = 0.0
    _skip_until = 0.0

    def prepare(self, con: sqlite3.Connection) -> None:
        """Bring a freshly opened file to the current schema (runs :attr:`schema`)."""
        for statement in self.schema:
            con.execute(statement)

    def _transaction(self, action: Callable[[sqlite3.Connection], Any]) -> Any:
        con = sqlite3.connect(self.path, timeout=LOCK_TIMEOUT_S)
        try:
            with con:
                self.prepare(con)
                return action(con)
        finally:
            con.close()

    def run(self, action: Callable[[sqlite3.Connection], Any], fallback: Any = None, *,
            strict: bool = False, stacklevel: int = 3) -> Any:
        """``action(con)`` in one transaction, on a fresh file if this one is damaged.

        Args:
            action: what to do with the connection; its result is returned.
            fallback: returned, with a warning, when the cache cannot be used.
            strict: raise instead of passing an unusable cache by.
            stacklevel: of the warnings, counted from this method.

        Raises:
            PrivlabValueError: ``strict`` and the cache cannot be used (the file and the
                fix are named).
        """
        path = self.path
        if time.monotonic() < self._skip_until:
            return fallback  # found unusable moments ago: not waited for again
        try:
            try:
                return self._transaction(action)
            except sqlite3.DatabaseError as exc:
                if not is_damaged_database(exc):
                    raise
                aside = set_aside(path)
                warnings.warn(f"The {self.name} {path} is damaged ({exc}); moved it to "
                              f"{aside} and started a fresh one, so {self.redone} again.",
                              RuntimeWarning, stacklevel=stacklevel)
            return self._transaction(action)
        except sqlite3.OperationalError as exc:
            if not database_unavailable(exc):
                raise
            locked = "lock" in str(exc).lower() or "BUSY" in (
                getattr(exc, "sqlite_errorname", "") or "")
            fix = ("another process holds it; wait for it or set PRIVLAB_CACHE to another "
                   "folder" if locked else "free disk space, fix its permissions or set "
                   "PRIVLAB_CACHE to another folder")
            if strict:
                raise PrivlabValueError(f"The {self.name} {path} cannot be used ({exc}): "
                                        f"{fix}.") from None
            span = f" for {self.retry_s:g} s" if self.retry_s else ""
            self._skip_until = time.monotonic() + self.retry_s
            warnings.warn(f"The {self.name} {path} cannot be used ({exc}); running without "
                          f"it{span}, so {self.redone} and not stored. To use it: {fix}.",
                          RuntimeWarning, stacklevel=stacklevel)
            return fallback


__all__ = ["LOCK_TIMEOUT_S", "SQLiteCache", "cache_key", "database_unavailable",
           "describe_skipped", "is_damaged_database", "iter_jsonl", "read_file_bytes",
           "read_jsonl", "refuse_record", "set_aside", "walk_folder", "write_jsonl"]


def read_file_bytes(file: Path, parameter: str, caller: str, expected: str) -> bytes:
    """The bytes of one file of a user's folder, or a refusal naming it and the fix.

    Args:
        file: the file.
        parameter, caller, expected: as for :func:`privlab.errors.invalid` (what the
            folder must be, e.g. ``"a maildir of readable files"``).

    Raises:
        PrivlabValueError: the file cannot be read (permissions, an I/O error).
    """
    try:
        return Path(file).read_bytes()
    except OSError as exc:
        raise invalid(parameter, caller, expected, f"{file} ({exc.strerror or exc})",
                      "Fix its permissions or remove it.", given_is_text=True) from None
