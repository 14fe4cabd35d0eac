"""The LLM client's on-disk answer cache: one SQLite table of answers keyed by request.

A damaged file is set aside and a fresh one started; a locked or unusable one is passed
by for ``CACHE_RETRY_S`` seconds with a warning; an entry that is not UTF-8 text, or that
holds a secret, is dropped with a warning. Why and how: ``docs/real-models.md``.
"""

from __future__ import annotations

import json
import sqlite3
import time
import warnings
from pathlib import Path
from typing import Any, Callable

from privlab.hashing import bytes_hash
from privlab.io import is_damaged_database, set_aside

#: Seconds a client runs without its answer cache after finding it locked or unusable
#: (each look waits at most ``privlab.encoders.cache.LOCK_TIMEOUT_S``).
CACHE_RETRY_S = 60.0


def transaction(path: Path, action: Callable[[sqlite3.Connection], Any]) -> Any:
    """``action(con)`` in one transaction on the answer table of ``path``."""
    from privlab.io import LOCK_TIMEOUT_S

    con = sqlite3.connect(path, timeout=LOCK_TIMEOUT_S)
    try:
        with con:
            con.execute("CREATE TABLE IF NOT EXISTS answers "
                        "(key TEXT PRIMARY KEY, answer TEXT)")
            return action(con)
    finally:
        con.close()


class AnswerCache:
    """The answers of one client, in ``cache_dir() / "llm.sqlite"``.

    Args:
        redact: removes the client's secrets from a text (used on warnings).
        holds_secret: whether a text holds one of the client's secrets (such an entry,
            written by older code, is dropped rather than returned).
    """

    def __init__(self, redact: Callable[[str], str], holds_secret: Callable[[str], bool]):
        self._redact = redact
        self._holds_secret = holds_secret
        self._skip_until = 0.0

    @staticmethod
    def key(kind: str, base_url: str, payload: dict) -> str:
        """The entry's key: a hash of the kind of request, the endpoint and the request."""
        blob = json.dumps([kind, base_url, payload], sort_keys=True, default=str)
        return bytes_hash(blob.encode())

    def run(self, action: Callable[[sqlite3.Connection], Any], fallback: Any = None) -> Any:
        """``action(con)`` on the answer cache, on a fresh file if this one is damaged.

        A cache locked by another process for ``LOCK_TIMEOUT_S`` seconds (as the embedding
        cache), read-only, on a full disk or that cannot be opened is passed by with a
        warning naming the file and the fix: ``fallback`` is returned and the answer is
        asked for (and not stored)."""
        from privlab.config import cache_dir
        from privlab.io import database_unavailable as _unavailable

        path = cache_dir() / "llm.sqlite"
        if time.monotonic() < self._skip_until:
            return fallback  # found unusable moments ago: not waited for again
        try:
            try:
                return transaction(path, action)
            except sqlite3.DatabaseError as exc:
                if not is_damaged_database(exc):
                    raise
                aside = set_aside(path)
                warnings.warn(f"The LLM answer cache {path} is damaged ({exc}); moved it to "
                              f"{aside} and started a fresh one, so answers are asked for "
                              "again.", RuntimeWarning, stacklevel=4)
            return transaction(path, action)
        except sqlite3.OperationalError as exc:
            if not _unavailable(exc):
                raise
            fix = ("another process holds it; wait for it or set PRIVLAB_CACHE to another "
                   "folder" if "lock" in str(exc).lower() else
                   "free disk space, fix its permissions or set PRIVLAB_CACHE to another "
                   "folder")
            self._skip_until = time.monotonic() + CACHE_RETRY_S
            warnings.warn(f"The LLM answer cache {path} cannot be used ({exc}); running "
                          f"without it for {CACHE_RETRY_S:g} s, so answers are asked for and "
                          f"not stored. To use it: {fix}.", RuntimeWarning, stacklevel=4)
            return fallback

    def get(self, key: str) -> str | None:
        """The stored answer, or None; a damaged or secret-holding entry is dropped."""

        def read(con: sqlite3.Connection) -> tuple[str | None, str]:
            row = con.execute("SELECT typeof(answer), CAST(answer AS BLOB) FROM answers "
                              "WHERE key=?", (key,)).fetchone()
            if row is None:
                return None, ""
            kind, raw = row
            if kind == "text":
                try:
                    return raw.decode("utf-8"), ""
                except UnicodeDecodeError:
                    problem = "text that is not UTF-8"
            else:
                problem = f"a {kind} value instead of text"
            con.execute("DELETE FROM answers WHERE key=?", (key,))
            return None, problem

        answer, problem = self.run(read, fallback=(None, ""))
        if problem:
            self.warn_dropped(key, problem)
        elif answer is not None and self._holds_secret(answer):  # written by older code
            self.drop(key, "an answer holding a secret (the API key or the URL's password)")
            return None
        return answer

    def drop(self, key: str, problem: str) -> None:
        """Delete the entry ``key`` and warn that it was dropped for ``problem``."""
        self.run(lambda con: con.execute("DELETE FROM answers WHERE key=?", (key,)))
        self.warn_dropped(key, problem)

    def warn_dropped(self, key: str, problem: str) -> None:
        """Warn that the entry ``key`` was dropped for ``problem``."""
        from privlab.config import cache_dir

        warnings.warn(f"Dropped a damaged entry (key {key[:12]}) from the LLM answer cache "
                      f"{cache_dir() / 'llm.sqlite'}: {self._redact(problem)}; asking the "
                      "endpoint again.", RuntimeWarning, stacklevel=4)

    def put(self, key: str, answer: str) -> None:
        """Store ``answer`` under ``key``."""
        self.run(lambda con: con.execute(
            "INSERT OR REPLACE INTO answers VALUES (?, ?)", (key, answer)))


__all__ = ["AnswerCache", "CACHE_RETRY_S", "transaction"]
