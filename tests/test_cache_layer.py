"""The one cache layer (privlab.io.SQLiteCache, cache_key) that the embedding and LLM
answer caches share: a damaged file is set aside and rebuilt, a locked one is passed by
with a warning and the run goes on uncached, and keys follow content."""

from __future__ import annotations

import json
import sqlite3
import time
import warnings

import numpy as np
import pytest

from privlab import io as privlab_io
from privlab.contrastive.sanitized import sanitizer_key
from privlab.encoders import EmbeddingCache
from privlab.errors import PrivlabValueError
from privlab.hashing import bytes_hash, content_hash
from privlab.io import SQLiteCache, cache_key
from privlab.llm.answer_cache import CACHE_RETRY_S, AnswerCache
from privlab.sanitizers import ConceptListSanitizer


class Notes(SQLiteCache):
    """A minimal cache on the layer: one table of texts."""

    name = "notes cache"
    redone = "notes are written"
    schema = ("CREATE TABLE IF NOT EXISTS notes (key TEXT PRIMARY KEY, note TEXT)",)

    def __init__(self, path):
        self.path = path

    def put(self, key, note, **options):
        return self.run(lambda con: con.execute("INSERT OR REPLACE INTO notes VALUES (?, ?)",
                                                (key, note)), fallback="not stored", **options)

    def get(self, key, **options):
        row = self.run(lambda con: con.execute("SELECT note FROM notes WHERE key=?",
                                               (key,)).fetchone(), fallback=None, **options)
        return row and row[0]


def _fill(notes, count=300):
    for number in range(count):
        notes.put(f"k{number}", f"note number {number} " * 8)


def test_a_damaged_file_is_set_aside_with_a_warning_and_rebuilt(tmp_path):
    notes = Notes(tmp_path / "notes.sqlite")
    _fill(notes)
    assert notes.get("k7") == "note number 7 " * 8
    data = notes.path.read_bytes()
    assert len(data) > 8192  # several pages: halving it cuts through the table
    notes.path.write_bytes(data[: len(data) // 2])
    damaged = notes.path.read_bytes()

    with pytest.warns(RuntimeWarning, match=r"The notes cache .*notes\.sqlite is damaged "
                                            r"\(.*\); moved it to .*notes\.sqlite\.damaged "
                                            r"and started a fresh one, so notes are written "
                                            r"again\.") as caught:
        assert notes.get("k7") is None  # the fresh file does not have it
    assert len(caught) == 1
    aside = tmp_path / "notes.sqlite.damaged"
    assert aside.read_bytes() == damaged  # kept for inspection, not deleted
    notes.put("k7", "again")
    assert notes.get("k7") == "again"
    assert notes.run(lambda con: con.execute("SELECT COUNT(*) FROM notes").fetchone()) == (1,)

    notes.path.write_bytes(b"\x00" * 4096)  # a second damage keeps the first copy
    with pytest.warns(RuntimeWarning, match=r"notes\.sqlite\.damaged-2"):
        assert notes.get("k7") is None
    assert aside.read_bytes() == damaged


def test_a_locked_file_is_passed_by_uncached_with_the_fix(tmp_path, monkeypatch):
    monkeypatch.setattr(privlab_io, "LOCK_TIMEOUT_S", 0.3)
    notes = Notes(tmp_path / "notes.sqlite")
    notes.put("kept", "before the lock")
    holder = sqlite3.connect(notes.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process in the middle of a write
    try:
        start = time.monotonic()
        with pytest.warns(RuntimeWarning, match=r"The notes cache .*notes\.sqlite cannot be "
                                                r"used \(database is locked\); running without "
                                                r"it, so notes are written and not stored\. To "
                                                r"use it: another process holds it"):
            assert notes.put("new", "during the lock") == "not stored"
        waited = time.monotonic() - start
        assert 0.3 <= waited < 3.0  # the layer's timeout, not sqlite's default 5 s or more
        with pytest.raises(PrivlabValueError, match=r"notes\.sqlite cannot be used \(database "
                                                    r"is locked\): another process holds it"):
            notes.get("kept", strict=True)
    finally:
        holder.rollback()
        holder.close()
    assert not (tmp_path / "notes.sqlite.damaged").exists()  # locked is not damaged
    assert notes.get("kept") == "before the lock" and notes.get("new") is None


def test_a_cache_with_a_retry_window_waits_on_a_lock_once(tmp_path, monkeypatch):
    monkeypatch.setattr(privlab_io, "LOCK_TIMEOUT_S", 0.3)
    notes = Notes(tmp_path / "notes.sqlite")
    notes.retry_s = 30.0
    notes.put("kept", "before the lock")
    holder = sqlite3.connect(notes.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.warns(RuntimeWarning, match=r"running without it for 30 s"):
            assert notes.get("kept") is None
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # passed by silently, without waiting again
            start = time.monotonic()
            assert notes.put("new", "x") == "not stored"
            assert time.monotonic() - start < 0.3
    finally:
        holder.close()
    assert CACHE_RETRY_S == AnswerCache.retry_s == 60.0  # the LLM answer cache's window


def test_an_error_that_is_neither_damage_nor_a_lock_is_raised(tmp_path):
    notes = Notes(tmp_path / "notes.sqlite")
    with pytest.raises(sqlite3.OperationalError, match="no such table: missing"):
        notes.run(lambda con: con.execute("SELECT * FROM missing"), fallback="never")
    assert not (tmp_path / "notes.sqlite.damaged").exists()


def test_the_embedding_and_answer_caches_are_on_the_layer(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))
    answers = AnswerCache(str, lambda text: False)
    assert answers.path == tmp_path / "cache" / "llm.sqlite"
    answers.put("k", "an answer")
    assert answers.get("k") == "an answer"
    store = EmbeddingCache()
    assert isinstance(store, SQLiteCache) and isinstance(answers, SQLiteCache)
    store.put_many("m", [("a", np.array([0.6, 0.8]))])
    np.testing.assert_allclose(store.get_many("m", ["a"])["a"], [0.6, 0.8], rtol=1e-6)


def test_the_same_content_gives_the_same_key_and_other_content_another():
    payload = {"model": "m", "messages": [{"role": "user", "content": "Ken Lay called"}],
               "temperature": 0.0}
    reordered = {"temperature": 0.0, "messages": payload["messages"], "model": "m"}
    key = cache_key("chat", "http://127.0.0.1:8000/v1", payload)
    assert len(key) == 64 and key == cache_key("chat", "http://127.0.0.1:8000/v1", reordered)
    other = {**payload, "messages": [{"role": "user", "content": "Ken Lay Called"}]}
    assert cache_key("chat", "http://127.0.0.1:8000/v1", other) != key
    assert cache_key("chat_json", "http://127.0.0.1:8000/v1", payload) != key
    assert cache_key("chat", "http://127.0.0.1:8001/v1", payload) != key
    # The answer cache's key is the layer's, and the one answers were stored under before
    # it (so an existing llm.sqlite keeps answering).
    before = bytes_hash(json.dumps(["chat", "http://127.0.0.1:8000/v1", payload],
                                   sort_keys=True, default=str).encode())
    assert AnswerCache.key("chat", "http://127.0.0.1:8000/v1", payload) == key == before
    # Content enters by its hash: one changed pixel changes the key.
    image = np.zeros((4, 4, 3), dtype=np.uint8)
    changed = image.copy()
    changed[0, 0, 0] = 1
    assert cache_key([content_hash(image)]) == cache_key([content_hash(image.copy())])
    assert cache_key([content_hash(image)]) != cache_key([content_hash(changed)])


def test_a_sanitizers_key_follows_its_settings_not_the_object():
    first, twin = ConceptListSanitizer(["Ken Lay"]), ConceptListSanitizer(["Ken Lay"])
    assert sanitizer_key(first) == sanitizer_key(twin)
    assert sanitizer_key(first) != sanitizer_key(ConceptListSanitizer(["Enron"]))
