"""The LLM client's on-disk answer cache: one SQLite table of answers keyed by request.

On the shared cache layer (:class:`privlab.io.SQLiteCache`): a damaged file is set aside
and a fresh one started; a locked or unusable one is passed by for ``CACHE_RETRY_S``
seconds with a warning. An entry that is not UTF-8 text, or that holds a secret, is
dropped with a warning. Why and how: ``docs/real-models.md``.
"""

from __future__ import annotations

import sqlite3
import warnings
from pathlib import Path
from typing import Callable

from privlab.io import SQLiteCache, cache_key

#: Seconds a client runs without its answer cache after finding it locked or unusable
#: (each look waits at most ``privlab.io.LOCK_TIMEOUT_S``).
CACHE_RETRY_S = 60.0


class AnswerCache(SQLiteCache):
    """The answers of one client, in ``cache_dir() / "llm.sqlite"``.

    Args:
        redact: removes the client's secrets from a text (used on warnings).
        holds_secret: whether a text holds one of the client's secrets (such an entry,
            written by older code, is dropped rather than returned).
    """

    name = "LLM answer cache"
    redone = "answers are asked for"
    schema = ("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, answer TEXT)",)
    retry_s = CACHE_RETRY_S

    def __init__(self, redact: Callable[[str], str], holds_secret: Callable[[str], bool]):
        self._redact = redact
        self._holds_secret = holds_secret

    @property
    def path(self) -> Path:
        """The file, under the cache folder of the moment (``PRIVLAB_CACHE``)."""
        from privlab.config import cache_dir

        return cache_dir() / "llm.sqlite"

    @staticmethod
    def key(kind: str, base_url: str, payload: dict) -> str:
        """The entry's key: :func:`privlab.io.cache_key` of the kind, endpoint and request."""
        return cache_key(kind, base_url, payload)

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

        answer, problem = self.run(read, fallback=(None, ""), stacklevel=4)
        if problem:
            self.warn_dropped(key, problem)
        elif answer is not None and self._holds_secret(answer):  # written by older code
            self.drop(key, "an answer holding a secret (the API key or the URL's password)")
            return None
        return answer

    def drop(self, key: str, problem: str) -> None:
        """Delete the entry ``key`` and warn that it was dropped for ``problem``."""
        self.run(lambda con: con.execute("DELETE FROM answers WHERE key=?", (key,)),
                 stacklevel=4)
        self.warn_dropped(key, problem)

    def warn_dropped(self, key: str, problem: str) -> None:
        """Warn that the entry ``key`` was dropped for ``problem``."""
        warnings.warn(f"Dropped a damaged entry (key {key[:12]}) from the LLM answer cache "
                      f"{self.path}: {self._redact(problem)}; asking the "
                      "endpoint again.", RuntimeWarning, stacklevel=4)

    def put(self, key: str, answer: str) -> None:
        """Store ``answer`` under ``key``."""
        self.run(lambda con: con.execute(
            "INSERT OR REPLACE INTO answers VALUES (?, ?)", (key, answer)), stacklevel=4)


#: The transaction every call on the cache runs in: the shared layer's, which waits at
#: most ``privlab.io.LOCK_TIMEOUT_S`` on a lock (``privlab.llm`` names it).
transaction = AnswerCache._transaction

__all__ = ["AnswerCache", "CACHE_RETRY_S", "transaction"]
