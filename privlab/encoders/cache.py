"""On-disk embedding cache keyed by (model id, content hash).

Re-running a notebook or switching back to a model re-encodes nothing: each embedding is
stored once per model in ``<cache_dir>/embeddings.sqlite``, on the shared cache layer
(:class:`privlab.io.SQLiteCache`: a damaged file is set aside and a fresh one started; a
locked, read-only or full one is passed by with a warning). Every read is checked: an
entry that is not a finite, unit-norm float32 vector of the model's dimension, or whose
SHA-256 (over model, key and bytes, stored beside it) does not match, is dropped with a
warning naming the file, the model and the keys, and computed again. Why and how:
``docs/decisions/2026-12-05-one-cache.md``.
"""

from __future__ import annotations

import io
import sqlite3
import threading
import warnings
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from privlab.errors import PrivlabValueError, invalid, item_list
from privlab.hashing import bytes_hash
from privlab.io import LOCK_TIMEOUT_S, SQLiteCache  # noqa: F401 (LOCK_TIMEOUT_S: as before)

_LOCK = threading.Lock()

# How far a stored vector's norm may be from 1; float32 rounding stays below 1e-6.
UNIT_TOLERANCE = 1e-3

_LEGACY = "no checksum (written by an older privlab)"


def checksum(model: str, key: str, blob: bytes) -> str:
    """The SHA-256 stored beside each vector, over its model, key and bytes.

    A flipped bit (even a sign bit, which keeps the norm) changes it, and so does a
    vector moved to another key.

    Example:
        >>> checksum("m", "k1", b"x") == checksum("m", "k2", b"x")
        False
    """
    return bytes_hash(b"\0".join((model.encode("utf-8"), key.encode("utf-8"), blob)))


def decode_vector(blob: Any, dim: int | None = None) -> tuple[np.ndarray | None, str]:
    """A stored vector, or None and what is wrong with it.

    Args:
        blob: the stored ``.npy`` bytes.
        dim: the dimension the vector must have (None skips that check).

    Returns:
        ``(vector, "")`` for a finite float32 vector of norm 1 (within
        :data:`UNIT_TOLERANCE`), else ``(None, problem)``.

    Example:
        >>> buf = io.BytesIO(); np.save(buf, np.array([0.6, 0.8], dtype=np.float32))
        >>> np.allclose(decode_vector(buf.getvalue())[0], [0.6, 0.8])
        True
        >>> decode_vector(buf.getvalue()[:-3])
        (None, '5 bytes of data for a 2-vector (8 expected)')
    """
    if not isinstance(blob, bytes):
        return None, f"a {type(blob).__name__} instead of bytes"
    stream = io.BytesIO(blob)
    try:
        version = np.lib.format.read_magic(stream)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(stream)
        elif version == (2, 0):
            shape, _, dtype = np.lib.format.read_array_header_2_0(stream)
        else:
            return None, f"a .npy file of format {version}, which put_many never writes"
    except (ValueError, TypeError, SyntaxError, EOFError) as exc:
        return None, f"not a .npy vector ({exc})"
    if dtype.kind != "f" or dtype.itemsize != 4 or len(shape) != 1 or shape[0] < 1:
        return None, f"a {dtype} array of shape {shape}, not a float32 vector"
    data = len(blob) - stream.tell()
    if data != 4 * shape[0]:
        return None, f"{data} bytes of data for a {shape[0]}-vector ({4 * shape[0]} expected)"
    if dim is not None and shape[0] != dim:
        return None, f"dimension {shape[0]} where the model's is {dim}"
    vector = np.frombuffer(blob, dtype=dtype, offset=stream.tell()).astype(np.float32)
    if not np.isfinite(vector).all():
        return None, "NaN or inf values"
    norm = float(np.linalg.norm(vector.astype(np.float64)))
    if abs(norm - 1.0) > UNIT_TOLERANCE:
        return None, f"norm {norm:.6g} instead of 1"
    return vector, ""


class EmbeddingCache(SQLiteCache):
    """SQLite store of unit float32 vectors: ``(model, key) -> vector``.

    Args:
        path: the database file (default ``<cache_dir>/embeddings.sqlite``).
    """

    name = "embedding cache"
    redone = "embeddings are computed"
    schema = ("CREATE TABLE IF NOT EXISTS emb (model TEXT, key TEXT, vec BLOB, sum TEXT, "
              "PRIMARY KEY (model, key))",
              # The dimension each model's vectors have, so a stored vector of another
              # length is recognised as damaged even when it is the only one read.
              "CREATE TABLE IF NOT EXISTS dims (model TEXT PRIMARY KEY, dim INTEGER)")

    def __init__(self, path: str | Path | None = None):
        if path is None:
            from privlab.config import cache_dir

            path = cache_dir() / "embeddings.sqlite"
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError) as exc:  # a file where a folder belongs
            raise PrivlabValueError(
                f"The embedding cache {self.path} cannot be created: {exc.filename or ''} "
                f"is a file, not a folder ({exc.strerror}). Set PRIVLAB_CACHE (or path) to "
                "a folder.") from None
        # Creates the tables, or replaces a damaged file (a locked one is passed by).
        self.run(lambda con: None, fallback=False)

    def prepare(self, con: sqlite3.Connection) -> None:
        """Create the tables, and add the checksum column to a cache written before it."""
        super().prepare(con)
        if "sum" not in [row[1] for row in con.execute("PRAGMA table_info(emb)")]:
            con.execute("ALTER TABLE emb ADD COLUMN sum TEXT")

    def get_many(self, model: str, keys: list[str], dim: int | None = None
                 ) -> dict[str, np.ndarray]:
        """Vectors found for ``keys`` (missing keys are absent from the result).

        A damaged entry is deleted and left out, with a warning, so it is computed again.

        Args:
            model: the encoder's name.
            keys: content hashes.
            dim: the dimension the model's vectors have (default: the one recorded when
                they were stored).
        """
        unique = list(dict.fromkeys(item_list(keys, "keys", "EmbeddingCache.get_many")))

        def read(con: sqlite3.Connection) -> tuple[dict[str, np.ndarray], list[tuple[str, str]]]:
            expected = dim
            if expected is None:
                row = con.execute("SELECT dim FROM dims WHERE model=?", (model,)).fetchone()
                expected = int(row[0]) if row and isinstance(row[0], int) else None
            found: dict[str, np.ndarray] = {}
            damaged: list[tuple[str, str]] = []
            for start in range(0, len(unique), 500):
                chunk = unique[start:start + 500]
                marks = ",".join("?" * len(chunk))
                for key, blob, stored in con.execute(
                        f"SELECT key, vec, sum FROM emb WHERE model=? AND key IN ({marks})",
                        [model, *chunk]):
                    vector, problem = decode_vector(blob, expected)
                    if vector is not None and stored is None:
                        vector, problem = None, _LEGACY
                    elif vector is not None and stored != checksum(model, key, blob):
                        vector, problem = None, ("checksum mismatch (bits changed or the "
                                                 "entry moved from another key)")
                    if vector is None:
                        damaged.append((key, problem))
                    else:
                        found[key] = vector
            if damaged:
                con.executemany("DELETE FROM emb WHERE model=? AND key=?",
                                [(model, key) for key, _ in damaged])
            return found, damaged

        with _LOCK:
            found, damaged = self.run(read, fallback=({}, []))
        legacy = [key for key, problem in damaged if problem == _LEGACY]
        damaged = [(key, problem) for key, problem in damaged if problem != _LEGACY]
        if legacy:
            entries = "entry" if len(legacy) == 1 else "entries"
            warnings.warn(f"{len(legacy)} {entries} of model {model!r} in the embedding cache "
                          f"{self.path} were stored without a checksum by an older privlab; "
                          "they are computed again once and stored with one.", RuntimeWarning,
                          stacklevel=2)
        if damaged:
            shown = "; ".join(f"{key[:12]}: {problem}" for key, problem in damaged[:5])
            more = f"; and {len(damaged) - 5} more" if len(damaged) > 5 else ""
            entries = "entry" if len(damaged) == 1 else "entries"
            warnings.warn(f"Dropped {len(damaged)} damaged {entries} of model {model!r} from "
                          f"the embedding cache {self.path} "
                          f"({shown}{more}); they are computed again.", RuntimeWarning,
                          stacklevel=2)
        return found

    def put_many(self, model: str, items: Iterable[tuple[str, np.ndarray]]) -> None:
        """Store vectors as float32; they must be finite, of norm 1 and of one dimension.

        Raises:
            PrivlabValueError: a vector that is not finite, not unit-norm or of another
                dimension than the others (its key is named).
        """
        rows, dims = [], set()
        if isinstance(items, np.ndarray):
            items = [items]  # refused below: a vector without its key
        for item in items:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise invalid("items", "EmbeddingCache.put_many", "(key, vector) pairs",
                              item if not isinstance(item, np.ndarray) else
                              f"an array of shape {item.shape}",
                              "Pass [(key, vector), ...].",
                              given_is_text=isinstance(item, np.ndarray))
            key, vec = item
            try:
                vector = np.asarray(vec, dtype=np.float32)
            except (TypeError, ValueError) as exc:
                raise invalid("items", "EmbeddingCache.put_many", "numeric vectors",
                              f"{type(vec).__name__} for key {key!r} ({exc})",
                              given_is_text=True) from None
            buf = io.BytesIO()
            np.save(buf, vector, allow_pickle=False)
            _, problem = decode_vector(buf.getvalue())
            if problem:
                raise invalid("items", "EmbeddingCache.put_many",
                              "finite unit-norm vectors (normalise them first)",
                              f"{problem} for key {key!r}", given_is_text=True)
            dims.add(vector.shape[0])
            rows.append((model, key, buf.getvalue(), checksum(model, key, buf.getvalue())))
        if len(dims) > 1:
            raise invalid("items", "EmbeddingCache.put_many", "vectors of one dimension",
                          f"dimensions {sorted(dims)}", given_is_text=True)
        if not rows:
            return

        def write(con: sqlite3.Connection) -> None:
            con.executemany("INSERT OR REPLACE INTO emb (model, key, vec, sum) "
                            "VALUES (?, ?, ?, ?)", rows)
            con.execute("INSERT OR REPLACE INTO dims VALUES (?, ?)", (model, dims.pop()))

        with _LOCK:
            self.run(write, fallback=False)

    def count(self, model: str | None = None) -> int:
        """Number of stored vectors (for one model, or all)."""
        if model is None:
            return self.run(lambda con: con.execute("SELECT COUNT(*) FROM emb").fetchone()[0],
                            strict=True)
        return self.run(lambda con: con.execute(
            "SELECT COUNT(*) FROM emb WHERE model=?", (model,)).fetchone()[0], strict=True)

    def clear(self, model: str | None = None) -> None:
        """Forget vectors (of one model, or all)."""

        def forget(con: sqlite3.Connection) -> None:
            if model is None:
                con.execute("DELETE FROM emb")
                con.execute("DELETE FROM dims")
            else:
                con.execute("DELETE FROM emb WHERE model=?", (model,))
                con.execute("DELETE FROM dims WHERE model=?", (model,))

        with _LOCK:
            self.run(forget, strict=True)
