"""Faults in the caches, image files and LLM transport: each is detected, named and recovered.

Every cache is damaged in each way it can be (a truncated blob, a NaN or non-unit vector, a
vector of the wrong length, a truncated or overwritten SQLite file, a truncated OCR JSON
file, a damaged LLM answer) and must warn, recompute, and end with the values of a clean
run. Image files too large or damaged are refused with their size or the decoder's
report. The LLM client meets a loopback server that drops connections, trickles bodies
and headers, fails with 500, echoes the API key in a 401 and answers malformed JSON.
"""

from __future__ import annotations

import io
import math
import socket
import sqlite3
import struct
import threading
import time
import zlib

import numpy as np
import pytest
from llm_server import FakeLLMServer, Reply, chat_body
from PIL import Image

from privlab.encoders import EmbeddingCache, Encoder
from privlab.errors import PrivlabTypeError, PrivlabValueError
from privlab.llm import LLMClient, LLMError, LLMUnavailableError


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A private cache folder for one test."""
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


# ---------------------------------------------------------------------------------------
# Embedding cache
# ---------------------------------------------------------------------------------------
class Counting(Encoder):
    """text -> (len, vowels, 1), normalised; counts the texts it encodes."""

    name = "reliability-counting"

    def __init__(self):
        self.calls = 0

    def _encode(self, items):
        self.calls += len(items)
        return np.array([[len(t), sum(c in "aeiou" for c in t), 1.0] for t in items])


TEXTS = ["alpha", "bravo charlie", "delta", "echo foxtrot golf"]


def _npy(vector, dtype=np.float32) -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.asarray(vector, dtype=dtype))
    return buf.getvalue()


def _unit(n):
    return np.ones(n) / math.sqrt(n)


# Each damage turns the stored bytes of one entry into something no clean run writes.
ENTRY_DAMAGE = {
    "truncated blob": (lambda blob: blob[:-7], "bytes of data"),
    "extra bytes": (lambda blob: blob + b"\0\0\0\0", "bytes of data"),
    "NaN vector": (lambda blob: _npy([np.nan, 0.0, 1.0]), "NaN"),
    "non-unit vector": (lambda blob: _npy([3.0, 1.0, 1.0]), "norm 3.31662"),
    "zero vector": (lambda blob: _npy([0.0, 0.0, 0.0]), "norm 0"),
    "wrong length": (lambda blob: _npy(_unit(5)), "dimension 5 where the model's is 3"),
    "float64 array": (lambda blob: _npy(_unit(3), np.float64), "not a float32 vector"),
    "not .npy": (lambda blob: b"garbage that is no array", "not a .npy vector"),
    "NULL": (lambda blob: None, "NoneType instead of bytes"),
}


@pytest.mark.parametrize("damage", list(ENTRY_DAMAGE))
def test_a_damaged_embedding_is_dropped_recomputed_and_equals_a_clean_run(cache, damage):
    clean = Counting().encode(TEXTS)
    path = cache / "embeddings.sqlite"
    con = sqlite3.connect(path)
    (key, blob), = con.execute("SELECT key, vec FROM emb WHERE key = (SELECT key FROM emb "
                               "ORDER BY key LIMIT 1)").fetchall()
    spoil, problem = ENTRY_DAMAGE[damage]
    with con:
        con.execute("UPDATE emb SET vec=? WHERE key=?", (spoil(blob), key))
    con.close()

    again = Counting()
    with pytest.warns(RuntimeWarning, match="Dropped 1 damaged entry") as caught:
        out = again.encode(TEXTS)
    message = str(caught[0].message)
    assert str(path) in message and key[:12] in message and problem in message
    assert again.calls == 1  # only the damaged entry was computed again
    np.testing.assert_array_equal(out, clean)

    third = Counting()  # the entry was rewritten whole: no warning, nothing recomputed
    np.testing.assert_array_equal(third.encode(TEXTS), clean)
    assert third.calls == 0


def test_a_wrong_length_entry_is_caught_by_the_encoders_dimension_without_a_record(cache):
    encoder = Counting()
    clean = encoder.encode(TEXTS)  # the encoder now knows its dimension, 3
    store = EmbeddingCache(cache / "embeddings.sqlite")
    con = sqlite3.connect(store.path)
    with con:  # as a cache written before dimensions were recorded
        con.execute("DELETE FROM dims")
        con.execute("UPDATE emb SET vec=? WHERE rowid=1", (_npy(_unit(4)),))
    con.close()
    with pytest.warns(RuntimeWarning, match="dimension 4 where the model's is 3"):
        np.testing.assert_array_equal(encoder.encode(TEXTS), clean)


def _truncate_half(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _truncate_to_header(path):
    path.write_bytes(path.read_bytes()[:100])


def _overwrite_header(path):
    data = bytearray(path.read_bytes())
    data[:64] = b"\x00" * 64
    path.write_bytes(bytes(data))


FILE_DAMAGE = {"truncated to half": _truncate_half, "truncated to its header": _truncate_to_header,
               "header overwritten": _overwrite_header}


@pytest.mark.parametrize("damage", list(FILE_DAMAGE))
def test_a_damaged_embedding_database_is_moved_aside_and_rebuilt(cache, damage):
    texts = [f"sentence number {i} about {'aeiou' * (i % 4)}" for i in range(200)]
    clean = Counting().encode(texts)
    path = cache / "embeddings.sqlite"
    assert path.stat().st_size > 8192  # several pages, so halving cuts through data
    FILE_DAMAGE[damage](path)
    damaged_bytes = path.read_bytes()

    again = Counting()
    with pytest.warns(RuntimeWarning, match="is damaged") as caught:
        out = again.encode(texts)
    aside = path.with_name("embeddings.sqlite.damaged")
    assert f"moved it to {aside}" in str(caught[0].message)
    assert aside.read_bytes() == damaged_bytes  # kept for inspection, not deleted
    assert again.calls == len(texts)
    np.testing.assert_array_equal(out, clean)
    assert EmbeddingCache(path).count("reliability-counting") == len(texts)

    FILE_DAMAGE[damage](path)  # a second damage does not overwrite the first copy
    with pytest.warns(RuntimeWarning, match="embeddings.sqlite.damaged-2"):
        np.testing.assert_array_equal(Counting().encode(texts), clean)
    assert aside.read_bytes() == damaged_bytes


def test_a_locked_database_is_not_mistaken_for_a_damaged_one(cache, monkeypatch):
    store = EmbeddingCache(cache / "e.sqlite")
    locked = sqlite3.OperationalError("database is locked")
    locked.sqlite_errorname = "SQLITE_BUSY"
    monkeypatch.setattr(EmbeddingCache, "_transaction",
                        lambda self, action: (_ for _ in ()).throw(locked))
    with pytest.raises(PrivlabValueError, match=r"e\.sqlite cannot be used \(database is "
                                                r"locked\): another process holds it"):
        store.count()
    assert (cache / "e.sqlite").exists() and not (cache / "e.sqlite.damaged").exists()


# ---------------------------------------------------------------------------------------
# OCR cache
# ---------------------------------------------------------------------------------------
class FakeOCR:
    """rapidocr's call signature, with a fixed reading and a call counter."""

    def __init__(self):
        self.calls = 0

    def __call__(self, bgr, use_cls=False):
        self.calls += 1
        return [[[[2, 3], [40.4, 3], [40.4, 12.2], [2, 12.2]], "EILEEN", 0.97],
                [[[50, 3], [90, 3], [90, 12], [50, 12]], "COLLINS", 0.91]], 0.01


OCR_DAMAGE = {
    "truncated JSON": lambda raw: raw[: len(raw) // 2],
    "empty file": lambda raw: b"",
    "not UTF-8": lambda raw: b"\xff\xfe" + raw,
    "an object, not a list": lambda raw: b'{"text": "EILEEN"}',
    "missing field": lambda raw: b'[{"text": "EILEEN", "box": [0, 0, 1, 1]}]',
    "three-number box": lambda raw: b'[{"text": "A", "box": [0, 0, 1], "confidence": 0.9}]',
    "NaN confidence": lambda raw: b'[{"text": "A", "box": [0, 0, 1, 1], "confidence": NaN}]',
    "text not a string": lambda raw: b'[{"text": 7, "box": [0, 0, 1, 1], "confidence": 0.9}]',
}


@pytest.mark.parametrize("damage", list(OCR_DAMAGE))
def test_a_damaged_ocr_cache_file_is_dropped_and_read_again(cache, monkeypatch, damage):
    from privlab.vision import ocr

    fake = FakeOCR()
    monkeypatch.setattr(ocr, "_rapidocr", lambda: fake)
    monkeypatch.setattr(ocr, "_OCR_MEMO", {})
    image = np.full((20, 100, 3), 255, dtype=np.uint8)
    clean = ocr.read_text(image)
    assert [w.text for w in clean] == ["EILEEN", "COLLINS"] and clean[0].box == (2, 3, 41, 13)
    (path,) = (cache / "ocr").glob("rapidocr-*.json")
    path.write_bytes(OCR_DAMAGE[damage](path.read_bytes()))

    ocr._OCR_MEMO.clear()
    with pytest.warns(RuntimeWarning, match="damaged OCR cache file") as caught:
        again = ocr.read_text(image)
    assert str(path) in str(caught[0].message)
    assert again == clean and fake.calls == 2
    ocr._OCR_MEMO.clear()
    assert ocr.read_text(image) == clean and fake.calls == 2  # the rewritten file answers


# ---------------------------------------------------------------------------------------
# Image files
# ---------------------------------------------------------------------------------------
def _png_header_only(width, height) -> bytes:
    """A 1-bit PNG that declares ``width x height`` but carries almost no data (cheap)."""
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0"))
            + chunk(b"IEND", b""))


def _jpeg(photo, **options) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(photo).save(buf, format="JPEG", quality=90, **options)
    return buf.getvalue()


def test_a_400_megapixel_png_is_refused_with_its_size_and_the_knob(tmp_path):
    from privlab.datasets.images import read_image
    from privlab.vision.images import UnreadableImageError

    path = tmp_path / "huge.png"
    path.write_bytes(_png_header_only(20000, 20000))
    start = time.perf_counter()
    with pytest.raises(UnreadableImageError) as err:
        read_image(path)
    assert time.perf_counter() - start < 2  # refused from the header, nothing decoded
    message = str(err.value)
    assert "20000 x 20000 = 400,000,000 pixels" in message and str(path) in message
    assert "max_pixels=178,956,970" in message and "max_pixels=400000000 or more" in message
    assert isinstance(err.value, ValueError)


def test_max_pixels_lowers_and_raises_the_limit(tmp_path, monkeypatch):
    from privlab.datasets.images import read_image

    photo = np.random.default_rng(0).integers(0, 256, (200, 300, 3), dtype=np.uint8)
    path = tmp_path / "photo.png"
    Image.fromarray(photo).save(path)
    with pytest.raises(ValueError, match=r"300 x 200 = 60,000 pixels, over max_pixels=50,000"):
        read_image(path, max_pixels=50_000)
    assert np.array_equal(read_image(path, max_pixels=60_000), photo)
    # Above Pillow's own limit, a raised max_pixels still reads the file ...
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 10_000)
    assert np.array_equal(read_image(path, max_pixels=None), photo)
    assert Image.MAX_IMAGE_PIXELS == 10_000  # ... and Pillow's setting is left as it was
    with pytest.raises(ValueError, match="60,000 pixels, over max_pixels=59,999"):
        read_image(path, max_pixels=59_999)


@pytest.mark.parametrize("max_pixels", [0, -5, 1.5, True, "1e9"])
def test_a_bad_max_pixels_is_refused(tmp_path, max_pixels):
    from privlab.datasets.images import load_folder, read_image

    path = tmp_path / "a.png"
    Image.new("RGB", (4, 4)).save(path)
    with pytest.raises(PrivlabValueError, match="'max_pixels' parameter of read_image"):
        read_image(path, max_pixels=max_pixels)
    with pytest.raises(PrivlabValueError, match="'max_pixels' parameter of load_folder"):
        load_folder(tmp_path, max_pixels=max_pixels)


@pytest.mark.parametrize("where", [0.3, 0.5, 0.7])
def test_a_jpeg_with_zeroed_bytes_is_refused_naming_the_file(tmp_path, capfd, where):
    from skimage import data

    from privlab.datasets.images import read_image

    raw = bytearray(_jpeg(data.astronaut()))
    start = int(len(raw) * where)
    raw[start:start + 2000] = bytes(2000)
    path = tmp_path / "astronaut.jpg"
    path.write_bytes(bytes(raw))
    assert Image.open(path).convert("RGB").size == (512, 512)  # Pillow alone takes it
    with pytest.raises(ValueError, match="JPEG decoder reports damage") as err:
        read_image(path)
    assert str(path) in str(err.value) and "premature end of data segment" in str(err.value)
    assert "Corrupt JPEG" not in capfd.readouterr().err  # reported once, in the error


@pytest.mark.parametrize("options", [{}, {"progressive": True}, {"optimize": True}])
def test_clean_jpegs_read_exactly_as_pillow_decodes_them(tmp_path, capfd, options):
    from skimage import data

    from privlab.datasets.images import read_image

    for name in ("astronaut", "coffee", "camera"):
        path = tmp_path / f"{name}.jpg"
        path.write_bytes(_jpeg(getattr(data, name)(), **options))
        assert np.array_equal(read_image(path), np.asarray(Image.open(path).convert("RGB")))
    assert capfd.readouterr().err == ""


DAMAGED_FILES = {
    "truncated JPEG": lambda: (lambda raw: raw[: len(raw) * 2 // 3])(
        _jpeg(np.random.default_rng(1).integers(0, 256, (64, 64, 3), dtype=np.uint8))),
    "PNG with zeroed bytes": lambda: (lambda raw: raw[:200] + bytes(400) + raw[600:])(
        _png(np.random.default_rng(1).integers(0, 256, (64, 64, 3), dtype=np.uint8))),
}


def _png(array) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(array).save(buf, format="PNG")
    return buf.getvalue()


@pytest.mark.parametrize("damage", list(DAMAGED_FILES))
def test_other_damaged_files_are_refused_naming_the_file(tmp_path, damage):
    from privlab.datasets.images import read_image

    path = tmp_path / "damaged.img"
    path.write_bytes(DAMAGED_FILES[damage]())
    with pytest.raises(ValueError, match="truncated or damaged") as err:
        read_image(path)
    assert str(path) in str(err.value)


def test_a_folder_with_damaged_photos_is_refused_naming_each_and_why(tmp_path):
    from skimage import data

    from privlab.datasets.images import load_folder

    Image.fromarray(data.coffee()).save(tmp_path / "a_good.png")
    raw = bytearray(_jpeg(data.astronaut()))
    raw[len(raw) // 2:len(raw) // 2 + 2000] = bytes(2000)
    (tmp_path / "b_zeroed.jpg").write_bytes(bytes(raw))
    (tmp_path / "c_huge.png").write_bytes(_png_header_only(20000, 20000))
    with pytest.raises(ValueError) as err:
        load_folder(tmp_path)
    message = str(err.value)
    assert "2 unreadable file(s)" in message and "a_good.png" not in message
    assert "b_zeroed.jpg (the JPEG decoder reports damage" in message
    assert "c_huge.png (it is 20000 x 20000 = 400,000,000 pixels" in message
    (tmp_path / "b_zeroed.jpg").unlink()
    (tmp_path / "c_huge.png").unlink()
    assert load_folder(tmp_path).names == ["a_good.png"]  # the good photo itself is fine


# ---------------------------------------------------------------------------------------
# LLM client: transport
# ---------------------------------------------------------------------------------------
ASK = [{"role": "user", "content": "x"}]


def test_a_dropped_connection_is_retried_and_then_answered(cache):
    replies = iter([Reply(drop=True), "ok"])
    with FakeLLMServer(lambda request: next(replies)) as server:
        client = LLMClient(server.base_url, "fake", backoff=0, cache=False)
        assert client.chat(ASK) == "ok"
        assert len(server.requests) == 2


def test_a_server_that_always_drops_ends_in_an_llm_error_naming_the_endpoint(cache):
    with FakeLLMServer(lambda request: Reply(drop=True)) as server:
        client = LLMClient(server.base_url, "fake", max_retries=2, backoff=0, cache=False)
        with pytest.raises(LLMError) as err:
            client.chat(ASK)
        assert len(server.requests) == 3
    message = str(err.value)
    assert f"{server.base_url}/chat/completions after 3 attempts" in message
    assert "RemoteProtocolError" in message and not isinstance(err.value, LLMUnavailableError)


@pytest.mark.parametrize("retries", [0, 1])
def test_timeout_bounds_a_whole_trickled_answer(cache, retries):
    body = chat_body("a long answer " * 20)  # about 400 bytes at 20 per second: 20 s
    with FakeLLMServer(lambda request: Reply(200, body, trickle=0.05)) as server:
        client = LLMClient(server.base_url, "fake", timeout=0.5, max_retries=retries,
                           backoff=0, cache=False)
        start = time.monotonic()
        with pytest.raises(LLMError, match=r"no complete answer within timeout=0\.5 s"):
            client.chat(ASK)
        elapsed = time.monotonic() - start
    attempts = retries + 1
    assert 0.5 * attempts <= elapsed < 2 * 0.5 * attempts


def test_timeout_bounds_trickled_headers_too(cache):
    """A raw server that sends its status line one byte every 50 ms, forever."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve():
        listener.settimeout(5)
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        with conn:
            conn.recv(65536)
            try:
                for byte in b"HTTP/1.1 200 OK\r\nX-Padding: " + b"a" * 10_000:
                    if stop.is_set():
                        break
                    conn.sendall(bytes([byte]))
                    time.sleep(0.05)
            except OSError:
                pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        client = LLMClient(f"http://127.0.0.1:{listener.getsockname()[1]}/v1", "fake",
                           timeout=0.5, max_retries=0, cache=False)
        start = time.monotonic()
        with pytest.raises(LLMError, match="within timeout=0.5 s"):
            client.chat(ASK)
        assert time.monotonic() - start < 1.0
    finally:
        stop.set()
        listener.close()
        thread.join(5)


def test_a_500_then_a_200_is_answered(cache):
    replies = iter([Reply(500, {"error": "internal"}), "fine"])
    with FakeLLMServer(lambda request: next(replies)) as server:
        client = LLMClient(server.base_url, "fake", backoff=0, cache=False)
        assert client.chat(ASK) == "fine"
        assert len(server.requests) == 2


def test_a_401_echoing_the_key_never_shows_the_key(cache, monkeypatch):
    secret = "sk-live-0123456789abcdef"
    monkeypatch.setenv("OPENAI_API_KEY", secret)

    def echo(request):
        return Reply(401, {"error": {"message": "Incorrect API key provided",
                                     "header": request["_headers"]["Authorization"],
                                     "key": secret}})

    with FakeLLMServer(echo) as server:
        client = LLMClient(server.base_url, "fake", backoff=0, cache=False)
        with pytest.raises(LLMError) as err:
            client.chat(ASK)
        assert len(server.requests) == 1  # a 401 is not retried
        assert server.requests[0]["_headers"]["Authorization"] == f"Bearer {secret}"
    shown = [str(err.value), repr(err.value), repr(client), str(err.value.__cause__),
             str(err.value.__context__)]
    assert all(secret not in text for text in shown)
    assert "HTTP 401" in str(err.value) and "Bearer [redacted]" in str(err.value)
    assert "Incorrect API key provided" in str(err.value)


def test_the_repr_names_the_endpoint_but_no_secret(monkeypatch):
    monkeypatch.setenv("MY_KEY", "sk-zzz-secret")
    client = LLMClient("https://user:sk-zzz-secret@llm.example/v1", "m", api_key_env="MY_KEY")
    text = repr(client)
    assert "sk-zzz-secret" not in text and "user" not in text
    assert "llm.example/v1" in text and "'MY_KEY' (set)" in text and "model='m'" in text


def test_a_malformed_json_body_is_retried_then_answered_or_reported(cache):
    replies = iter([Reply(200, b'{"choices": [{"mess'), "ok"])
    with FakeLLMServer(lambda request: next(replies)) as server:
        client = LLMClient(server.base_url, "fake", backoff=0, cache=False)
        assert client.chat(ASK) == "ok"
    with FakeLLMServer(lambda request: Reply(200, b"<html>bad gateway</html>")) as server:
        client = LLMClient(server.base_url, "fake", max_retries=1, backoff=0, cache=False)
        with pytest.raises(LLMError, match=r"after 2 attempts: a body that is not JSON.*html"):
            client.chat(ASK)


@pytest.mark.parametrize("timeout, error", [
    (-1, PrivlabValueError), (0, PrivlabValueError), (float("nan"), PrivlabValueError),
    (float("inf"), PrivlabValueError), ("5", PrivlabTypeError), (True, PrivlabTypeError)])
def test_a_timeout_that_is_not_a_positive_finite_number_is_refused(timeout, error):
    with pytest.raises(error, match="'timeout' parameter of LLMClient"):
        LLMClient("http://127.0.0.1:8000/v1", "m", timeout=timeout)
    with pytest.raises(error, match="'backoff' parameter of LLMClient"):
        LLMClient("http://127.0.0.1:8000/v1", "m", backoff=-1 if error is PrivlabValueError
                  else timeout)


# ---------------------------------------------------------------------------------------
# LLM answer cache
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("damage", list(FILE_DAMAGE))
def test_a_damaged_llm_cache_file_is_moved_aside_and_rebuilt(cache, damage):
    with FakeLLMServer(lambda request: "the answer " + request["messages"][0]["content"]) as server:
        client = LLMClient(server.base_url, "fake", backoff=0)
        asks = [[{"role": "user", "content": f"q{i}" * 300}] for i in range(12)]
        clean = [client.chat(ask) for ask in asks]
        path = cache / "llm.sqlite"
        assert path.stat().st_size > 8192
        FILE_DAMAGE[damage](path)
        with pytest.warns(RuntimeWarning, match="LLM answer cache .* is damaged") as caught:
            again = [client.chat(ask) for ask in asks]
        assert f"moved it to {path}.damaged" in str(caught[0].message)
        assert again == clean and len(server.requests) == 2 * len(asks)
        assert [client.chat(ask) for ask in asks] == clean  # served by the fresh cache
        assert len(server.requests) == 2 * len(asks)


LLM_ENTRY_DAMAGE = {
    "blob": (b"\x00\x01binary", "a blob value instead of text"),
    "NULL": (None, "a null value instead of text"),
    "text that is not UTF-8": ("CAST(X'C328' AS TEXT)", "text that is not UTF-8"),
}


@pytest.mark.parametrize("damage", list(LLM_ENTRY_DAMAGE))
def test_a_damaged_llm_answer_is_dropped_and_asked_again(cache, damage):
    with FakeLLMServer(lambda request: "hello") as server:
        client = LLMClient(server.base_url, "fake", backoff=0)
        assert client.chat(ASK) == "hello"
        value, problem = LLM_ENTRY_DAMAGE[damage]
        con = sqlite3.connect(cache / "llm.sqlite")
        with con:
            if isinstance(value, str):
                con.execute(f"UPDATE answers SET answer = {value}")
            else:
                con.execute("UPDATE answers SET answer = ?", (value,))
        con.close()
        with pytest.warns(RuntimeWarning, match="Dropped a damaged entry") as caught:
            assert client.chat(ASK) == "hello"
        assert problem in str(caught[0].message) and "llm.sqlite" in str(caught[0].message)
        assert client.chat(ASK) == "hello" and len(server.requests) == 2


def test_a_cached_json_answer_that_no_longer_parses_is_asked_again(cache):
    with FakeLLMServer(lambda request: '{"labels": [1, 0]}') as server:
        client = LLMClient(server.base_url, "fake", backoff=0)
        assert client.chat_json(ASK) == {"labels": [1, 0]}
        con = sqlite3.connect(cache / "llm.sqlite")
        with con:
            con.execute("""UPDATE answers SET answer = '{"labels": [1,'""")
        con.close()
        with pytest.warns(RuntimeWarning, match="no longer parses or validates"):
            assert client.chat_json(ASK) == {"labels": [1, 0]}
        assert client.chat_json(ASK) == {"labels": [1, 0]} and len(server.requests) == 2
