"""Provenance hashes: known digests, determinism, sensitivity to every input that matters."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from privlab.hashing import bytes_hash, content_hash, file_hash, sequence_hash, settings_hash


def _sha(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part)
    return h.hexdigest()


# ---------------------------------------------------------------------------------------
# content_hash
# ---------------------------------------------------------------------------------------
def test_content_hash_of_text_is_the_tagged_utf8_digest():
    text = "Ken Lay à Zürich ²"
    assert content_hash(text) == _sha(b"str:", text.encode("utf-8"))
    assert len(content_hash(text)) == 64
    assert content_hash("") == _sha(b"str:")


def test_content_hash_of_bytes_is_tagged_and_differs_from_the_same_text():
    data = b"Ken Lay"
    assert content_hash(data) == _sha(b"bytes:", data)
    # The type tag keeps a text and its UTF-8 bytes apart.
    assert content_hash("Ken Lay") != content_hash(b"Ken Lay")
    # ... and the raw digest of the bytes is neither.
    assert content_hash(data) != hashlib.sha256(data).hexdigest()


def test_content_hash_is_deterministic_and_case_sensitive():
    assert content_hash("Ken Lay") == content_hash("Ken " + "Lay")
    assert content_hash("Ken Lay") != content_hash("ken lay")
    assert content_hash("Ken Lay") != content_hash("Ken Lay ")


def test_content_hash_of_array_covers_dtype_shape_and_values():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    expected = _sha(f"ndarray:{a.dtype.str}:{a.shape}:".encode(), a.tobytes())
    assert content_hash(a) == expected
    assert content_hash(a.copy()) == expected
    # Same bytes, other shape.
    assert content_hash(a.reshape(3, 2)) != expected
    assert content_hash(a.reshape(6)) != expected
    # Same values, other dtype (and so other bytes).
    assert content_hash(a.astype(np.int64)) != expected
    # Same bytes reinterpreted as another dtype of the same width.
    assert content_hash(a.view(np.float32)) != expected
    # One element changed.
    b = a.copy()
    b[1, 2] = 99
    assert content_hash(b) != expected


def test_content_hash_of_a_non_contiguous_view_equals_its_contiguous_copy():
    base = np.arange(24, dtype=np.float64).reshape(4, 6)
    view = base[:, ::2]
    assert not view.flags["C_CONTIGUOUS"]
    copy = np.ascontiguousarray(view)
    assert content_hash(view) == content_hash(copy)
    assert content_hash(view) == _sha(f"ndarray:<f8:{(4, 3)}:".encode(), copy.tobytes())
    # A transposed array is the transposed picture, not the original one.
    assert content_hash(base.T) != content_hash(base)


def test_content_hash_of_pil_image_covers_mode_size_and_pixels():
    Image = pytest.importorskip("PIL.Image")
    pixels = np.zeros((4, 5, 3), dtype=np.uint8)
    pixels[1, 2] = (10, 20, 30)
    img = Image.fromarray(pixels)
    assert img.mode == "RGB" and img.size == (5, 4)
    assert content_hash(img) == _sha(b"image:RGB:(5, 4):", pixels.tobytes())
    # The same picture built again hashes the same.
    assert content_hash(Image.fromarray(pixels.copy())) == content_hash(img)
    # One channel of one pixel changed.
    other = pixels.copy()
    other[1, 2, 0] = 11
    assert content_hash(Image.fromarray(other)) != content_hash(img)
    # Same pixels, other mode.
    assert content_hash(img.convert("RGBA")) != content_hash(img)
    # An image and its pixel array are different items.
    assert content_hash(img) != content_hash(pixels)


@pytest.mark.parametrize("item", [3, 2.5, None, ["a"], ("a",), {"a": 1}])
def test_content_hash_refuses_other_kinds(item):
    with pytest.raises(TypeError, match=f"cannot hash a {type(item).__name__}"):
        content_hash(item)


# ---------------------------------------------------------------------------------------
# sequence_hash
# ---------------------------------------------------------------------------------------
def test_sequence_hash_is_the_digest_of_the_item_hashes_in_order():
    items = ["a", b"b", np.array([1.0, 2.0])]
    full = _sha(*(content_hash(x).encode() for x in items))
    assert sequence_hash(items) == full[:16]
    assert sequence_hash(items, length=64) == full
    assert sequence_hash(items, length=8) == full[:8]
    assert sequence_hash(iter(items)) == full[:16]  # any iterable, read once


def test_sequence_hash_depends_on_order_and_on_every_item():
    assert sequence_hash(["a", "b"]) == sequence_hash(["a", "b"])
    assert sequence_hash(["a", "b"]) != sequence_hash(["b", "a"])
    assert sequence_hash(["a", "b"]) != sequence_hash(["a", "c"])
    assert sequence_hash(["a", "b"]) != sequence_hash(["a"])
    # Boundaries between items count: ["ab"] is not ["a", "b"].
    assert sequence_hash(["ab"]) != sequence_hash(["a", "b"])
    assert sequence_hash([]) == hashlib.sha256().hexdigest()[:16]


def test_sequence_hash_refuses_an_item_it_cannot_hash():
    with pytest.raises(TypeError, match="cannot hash a int"):
        sequence_hash(["a", 1])


# ---------------------------------------------------------------------------------------
# file_hash and bytes_hash
# ---------------------------------------------------------------------------------------
def test_file_hash_known_digest(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes(b"abc")
    expected = hashlib.sha256(b"abc").hexdigest()
    assert expected.startswith("ba7816bf")
    assert file_hash(path) == expected
    assert file_hash(str(path), 8) == "ba7816bf"
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    assert file_hash(empty) == hashlib.sha256(b"").hexdigest()


def test_file_hash_reads_a_file_larger_than_its_block(tmp_path):
    rng = np.random.default_rng(0)
    block = 1 << 20
    data = rng.integers(0, 256, size=2 * block + 12345, dtype=np.uint8).tobytes()
    path = tmp_path / "big.bin"
    path.write_bytes(data)
    assert file_hash(path) == hashlib.sha256(data).hexdigest()
    # A change in the last block, past the first two, changes the digest.
    changed = bytearray(data)
    changed[-1] ^= 0xFF
    path.write_bytes(bytes(changed))
    assert file_hash(path) == hashlib.sha256(bytes(changed)).hexdigest()
    assert file_hash(path) != hashlib.sha256(data).hexdigest()
    # Exactly one block long: the loop ends on the empty read.
    exact = tmp_path / "exact.bin"
    exact.write_bytes(data[:block])
    assert file_hash(exact) == hashlib.sha256(data[:block]).hexdigest()


def test_file_hash_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        file_hash(tmp_path / "absent.bin")


def test_bytes_hash_known_digest_and_length():
    assert bytes_hash(b"abc") == hashlib.sha256(b"abc").hexdigest()
    assert bytes_hash(b"abc", 8) == "ba7816bf"
    assert bytes_hash(b"abd") != bytes_hash(b"abc")
    # bytes_hash is the raw digest; content_hash tags its input.
    assert bytes_hash(b"abc") != content_hash(b"abc")


# ---------------------------------------------------------------------------------------
# settings_hash
# ---------------------------------------------------------------------------------------
def test_settings_hash_known_digest():
    settings = {"b": 1, "a": [1.5, "é"], "c": None}
    blob = '{"a": [1.5, "é"], "b": 1, "c": null}'
    assert json.dumps(settings, sort_keys=True, ensure_ascii=False) == blob
    assert settings_hash(settings) == hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]
    assert settings_hash(settings, length=64) == hashlib.sha256(blob.encode("utf-8")).hexdigest()


def test_settings_hash_ignores_key_order_at_every_depth():
    one = {"b": 1, "a": {"y": 2, "x": [3, {"q": 1, "p": 0}]}}
    two = {"a": {"x": [3, {"p": 0, "q": 1}], "y": 2}, "b": 1}
    assert settings_hash(one) == settings_hash(two)
    # List order, though, is content.
    assert settings_hash({"a": [1, 2]}) != settings_hash({"a": [2, 1]})


def test_settings_hash_keeps_full_float_precision():
    assert settings_hash({"eps": 1.0}) != settings_hash({"eps": 1.0000001})
    assert settings_hash({"eps": 0.1 + 0.2}) != settings_hash({"eps": 0.3})
    assert settings_hash({"eps": 0.5}) == settings_hash({"eps": 1 / 2})
    # 1 and 1.0 are written differently ("1" and "1.0").
    assert settings_hash({"eps": 1}) != settings_hash({"eps": 1.0})


def test_settings_hash_writes_other_objects_with_str():
    from pathlib import Path

    blob = json.dumps({"path": "data/x.jsonl"}, sort_keys=True, ensure_ascii=False)
    expected = hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]
    assert settings_hash({"path": Path("data/x.jsonl")}) == expected
