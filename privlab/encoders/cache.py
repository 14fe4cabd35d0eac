"""On-disk embedding cache keyed by (model id, content hash).

Re-running a notebook or switching back to a model re-encodes nothing: each embedding
is stored once per model in one SQLite file under ``privlab.config.cache_dir()``.
"""

from __future__ import annotations

import io
import sqlite3
import threading
from pathlib import Path
from typing import Iterable

import numpy as np

_LOCK = threading.Lock()


class EmbeddingCache:
    """SQLite store of float32 vectors: ``(model, key) -> vector``.

    Args:
        path: the database file (default ``<cache_dir>/embeddings.sqlite``).
    """

    def __init__(self, path: str | Path | None = None):
        if path is None:
            from privlab.config import cache_dir

            path = cache_dir() / "embeddings.sqlite"
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as con:
            con.execute("CREATE TABLE IF NOT EXISTS emb (model TEXT, key TEXT, vec BLOB, "
                        "PRIMARY KEY (model, key))")

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=60)

    def get_many(self, model: str, keys: list[str]) -> dict[str, np.ndarray]:
        """Vectors found for ``keys`` (missing keys are absent from the result)."""
        found: dict[str, np.ndarray] = {}
        unique = list(dict.fromkeys(keys))
        with _LOCK, self._connect() as con:
            for start in range(0, len(unique), 500):
                chunk = unique[start:start + 500]
                marks = ",".join("?" * len(chunk))
                for key, blob in con.execute(
                        f"SELECT key, vec FROM emb WHERE model=? AND key IN ({marks})",
                        [model, *chunk]):
                    found[key] = np.load(io.BytesIO(blob), allow_pickle=False)
        return found

    def put_many(self, model: str, items: Iterable[tuple[str, np.ndarray]]) -> None:
        """Store vectors (float32)."""
        rows = []
        for key, vec in items:
            buf = io.BytesIO()
            np.save(buf, np.asarray(vec, dtype=np.float32), allow_pickle=False)
            rows.append((model, key, buf.getvalue()))
        with _LOCK, self._connect() as con:
            con.executemany("INSERT OR REPLACE INTO emb VALUES (?, ?, ?)", rows)

    def count(self, model: str | None = None) -> int:
        """Number of stored vectors (for one model, or all)."""
        with self._connect() as con:
            if model is None:
                return con.execute("SELECT COUNT(*) FROM emb").fetchone()[0]
            return con.execute("SELECT COUNT(*) FROM emb WHERE model=?", (model,)).fetchone()[0]

    def clear(self, model: str | None = None) -> None:
        """Forget vectors (of one model, or all)."""
        with _LOCK, self._connect() as con:
            if model is None:
                con.execute("DELETE FROM emb")
            else:
                con.execute("DELETE FROM emb WHERE model=?", (model,))
