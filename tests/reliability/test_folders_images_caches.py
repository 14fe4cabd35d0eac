"""What a loader passes over is listed; images keep their brightness; caches catch tampering.

Each test builds its bad input in ``tmp_path``: folders with dangling links, link loops,
FIFOs, unlistable sub-folders and upper-case ``.TXT`` comments; 16-bit, big-endian,
float and multi-frame images; embedding caches with a flipped sign bit, swapped entries,
no checksums, a lock held by another connection; model folders re-saved with new weights;
and the environment errors the command line must answer in one line (a full disk, a
closed pipe, ``PRIVLAB_CACHE`` below a file).
"""

from __future__ import annotations

import email.mime.multipart
import email.mime.text
import errno
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from privlab.cli import main
from privlab.datasets import enron, reddit
from privlab.datasets.images import load_folder, read_image
from privlab.encoders import EmbeddingCache, Encoder
from privlab.encoders import cache as cache_module
from privlab.encoders.text import SentenceTransformerEncoder
from privlab.errors import PrivlabValueError
from privlab import io as privlab_io
from privlab.io import walk_folder
from privlab.redaction.spia.records import parse_spia_record


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A private cache folder for one test."""
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _png(path: Path, colour=(200, 10, 10), size=(8, 6)) -> Path:
    Image.new("RGB", size, colour).save(path)
    return path


def _deny_listing(monkeypatch, folder: Path) -> None:
    """``os.scandir`` refuses ``folder`` as for a folder without read permission.

    The tests run as root, who may list anything, so the refusal is made here.
    """
    real = os.scandir

    def scandir(path="."):
        if Path(path) == folder:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


def _odd_entries(root: Path, monkeypatch) -> dict[str, str]:
    """A dangling link, a self-loop, a folder loop, a FIFO and an unlistable folder.

    Returns:
        ``{relative path: reason}`` as walk_folder must list them.
    """
    (root / "gone.png").symlink_to(root / "missing.png")
    (root / "self").symlink_to(root / "self")
    (root / "sub").mkdir()
    (root / "sub" / "up").symlink_to(root)
    os.mkfifo(root / "pipe.png")
    (root / "locked").mkdir()
    _deny_listing(monkeypatch, root / "locked")
    return {"gone.png": "a dangling link (its target is missing)",
            "locked": "a folder that cannot be listed (Permission denied)",
            "pipe.png": "a FIFO (named pipe), not a regular file",
            "self": "a symbolic-link loop",
            "sub/up": "a link back to a folder already being read (a loop)"}


# ---------------------------------------------------------------------------------------
# Images: the format's own range, frames and pages said
# ---------------------------------------------------------------------------------------
def test_a_16_bit_image_is_read_by_its_own_range_not_stretched(tmp_path):
    white = np.full((4, 5), 65535, dtype=np.uint16)
    Image.fromarray(white).save(tmp_path / "white.png")
    steps = np.array([[0, 257, 32768, 65535]], dtype=np.uint16)  # 0, 1, 127.5, 255 in 8 bits
    Image.fromarray(steps).save(tmp_path / "steps.png")
    assert Image.open(tmp_path / "white.png").mode == "I;16"
    assert (read_image(tmp_path / "white.png") == 255).all()  # was black when stretched
    assert read_image(tmp_path / "steps.png")[0, :, 0].tolist() == [0, 1, 128, 255]


def test_a_big_endian_16_bit_image_does_not_saturate(tmp_path):
    values = np.array([[1000, 30000, 65535]], dtype=">u2")
    Image.frombytes("I;16B", (3, 1), values.tobytes()).save(tmp_path / "b.tif")
    assert Image.open(tmp_path / "b.tif").mode == "I;16B"
    assert read_image(tmp_path / "b.tif")[0, :, 0].tolist() == [4, 117, 255]


def test_a_float_image_is_read_from_0_1_and_refused_with_nan_or_out_of_range(tmp_path):
    half = np.full((3, 3), 0.5, dtype=np.float32)
    Image.fromarray(half).save(tmp_path / "half.tif")
    assert (read_image(tmp_path / "half.tif") == 128).all()
    half[1, 1] = np.nan
    Image.fromarray(half).save(tmp_path / "nan.tif")
    with pytest.raises(PrivlabValueError, match=r"nan\.tif instead\. Its float pixels hold 1 "
                                                r"NaN or inf value\(s\)\. Fix or mask"):
        read_image(tmp_path / "nan.tif")
    Image.fromarray(np.full((3, 3), 4.0, dtype=np.float32)).save(tmp_path / "big.tif")
    with pytest.raises(PrivlabValueError, match=r"big\.tif instead\. Its float pixels run "
                                                r"from 4 to 4, outside \[0, 1\]"):
        read_image(tmp_path / "big.tif")


def test_frames_and_pages_after_the_first_are_said(tmp_path):
    frames = [Image.new("RGB", (8, 8), c) for c in ("red", "lime", "blue")]
    frames[0].save(tmp_path / "anim.gif", save_all=True, append_images=frames[1:])
    frames[0].save(tmp_path / "scan.tif", save_all=True, append_images=frames[1:2])
    with pytest.warns(UserWarning, match=r"anim\.gif: only the first of its 3 frames is read; "
                                         r"2 frames dropped"):
        first = read_image(tmp_path / "anim.gif")
    assert first[0, 0].tolist() == [255, 0, 0]
    with pytest.warns(UserWarning, match=r"2 entries .* passed over \(anim\.gif \(only the "
                                         r"first of its 3 frames is read; 2 frames dropped\); "
                                         r"scan\.tif \(only the first of its 2 pages"):
        folder = load_folder(tmp_path)
    assert folder.names == ["anim.gif", "scan.tif"]
    assert folder.skipped == folder.provenance["skipped"] == [
        {"file": "anim.gif", "reason": "only the first of its 3 frames is read; 2 frames dropped"},
        {"file": "scan.tif", "reason": "only the first of its 2 pages is read; 1 pages dropped"}]


# ---------------------------------------------------------------------------------------
# Folders: every entry passed over is listed with its reason
# ---------------------------------------------------------------------------------------
def test_walk_folder_lists_links_loops_fifos_and_unlistable_folders(tmp_path, monkeypatch):
    (tmp_path / "a.png").write_bytes(b"x")
    expected = _odd_entries(tmp_path, monkeypatch)
    (tmp_path / "sub" / "b.png").write_bytes(b"y")
    files, skipped = walk_folder(tmp_path)
    assert [f.relative_to(tmp_path).as_posix() for f in files] == ["a.png", "sub/b.png"]
    assert {s["file"]: s["reason"] for s in skipped} == expected


def test_an_image_folder_lists_what_it_passes_over(tmp_path, monkeypatch):
    _png(tmp_path / "a.png")
    _png(tmp_path / ".thumb.png")
    expected = _odd_entries(tmp_path, monkeypatch)
    with pytest.warns(UserWarning, match=r"load_folder: 5 entries of .* passed over"):
        folder = load_folder(tmp_path, recursive=True)
    assert folder.names == ["a.png"]
    listed = {s["file"]: s["reason"] for s in folder.skipped}
    assert listed == {**expected, ".thumb.png": "a hidden file"}
    assert folder.provenance["skipped"] == folder.skipped
    with pytest.warns(UserWarning, match=r"load_folder: 5 entries"):
        flat = load_folder(tmp_path)
    assert flat.names == ["a.png"]
    assert {s["file"]: s["reason"] for s in flat.skipped}["sub"] == (
        "a sub-folder (not read: recursive is off)")


def test_a_comment_folder_reads_upper_case_txt_and_lists_the_rest(tmp_path, monkeypatch):
    (tmp_path / "c1.txt").write_text("Avengers one")
    (tmp_path / "C2.TXT").write_text("the avengers two")
    (tmp_path / "notes.md").write_text("Avengers, not a comment")
    expected = _odd_entries(tmp_path, monkeypatch)
    with pytest.warns(UserWarning, match=r"load_comments: 6 entries of .* passed over"):
        corpus = reddit.load_comments(tmp_path, limit=None)
    assert corpus.ids == ("C2", "c1")
    assert {s["file"]: s["reason"] for s in corpus.provenance["skipped"]} == {
        **expected, "notes.md": "not a .txt file"}


def test_a_text_studys_provenance_carries_what_its_loader_passed_over(tmp_path):
    from types import SimpleNamespace

    from privlab.studies._text import TextStudyResult

    (tmp_path / "c1.txt").write_text("Avengers one")
    (tmp_path / "gone.txt").symlink_to(tmp_path / "missing.txt")
    with pytest.warns(UserWarning, match=r"gone\.txt \(a dangling link"):
        corpus = reddit.load_comments(tmp_path)
    table = SimpleNamespace(audits=[SimpleNamespace(corpus="c0ffee", status="measured")])
    provenance = TextStudyResult("03", corpus, table).provenance
    assert provenance["skipped"] == [{"file": "gone.txt",
                                      "reason": "a dangling link (its target is missing)"}]


def test_repeated_comment_ids_are_refused(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "x1.txt").write_text("Avengers")
    (tmp_path / "b" / "x1.txt").write_text("Avengers again")
    with pytest.raises(PrivlabValueError, match=r"distinct ids .* Got id 'x1' twice: a/x1\.txt "
                                                r"and b/x1\.txt"):
        reddit.load_comments(tmp_path)
    lines = [{"id": "k1", "body": "Avengers"}, {"id": "k2", "body": "x"},
             {"id": "k1", "body": "Avengers"}]
    path = tmp_path / "rc.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    with pytest.raises(PrivlabValueError, match=r"Got rc\.jsonl line 3: id 'k1' again \(first "
                                                r"on line 1\)"):
        reddit.load_comments(path)


@pytest.mark.parametrize("field, value, shown", [("body", 42, "int"), ("body", ["a"], "list"),
                                                 ("title", {"a": 1}, "dict"),
                                                 ("id", 1.5, "float")])
def test_non_string_reddit_fields_are_refused_with_the_line(tmp_path, field, value, shown):
    path = tmp_path / "rc.jsonl"
    path.write_text(json.dumps({"id": "a", "body": "Avengers"}) + "\n"
                    + json.dumps({"id": "b", **({} if field == "title" else {"body": "x"}),
                                  field: value}) + "\n")
    with pytest.raises(PrivlabValueError, match=rf"records whose '{field}' is a string\. Got "
                                                rf"rc\.jsonl line 2: a {shown}"):
        reddit.load_comments(path)


def _html_only(multipart: bool) -> bytes:
    if multipart:
        message = email.mime.multipart.MIMEMultipart("alternative")
        message.attach(email.mime.text.MIMEText("<p>Ken Lay</p>", "html"))
    else:
        message = email.mime.text.MIMEText("<p>Ken Lay</p>", "html")
    message["Message-ID"] = f"<html-{int(multipart)}>"
    return message.as_bytes()


def test_a_maildir_lists_html_only_messages_and_odd_entries(tmp_path, monkeypatch):
    box = tmp_path / "maildir" / "lay-k" / "inbox"
    box.mkdir(parents=True)
    (box / "1.").write_bytes(b"Message-ID: <1>\n\nKen Lay says hello.\n")
    (box / "2.").write_bytes(_html_only(multipart=True))
    (box / "3.").write_bytes(_html_only(multipart=False))
    (box / "4.").symlink_to(box / "missing")
    os.mkfifo(box / "5.")
    with pytest.warns(UserWarning, match=r"4 of 5 messages in maildir could not be decoded or "
                                         r"read"):
        corpus = enron.load_mailbox(tmp_path / "maildir")
    assert corpus.ids == ("<1>",)
    problems = {Path(s["file"]).name: s["problem"] for s in corpus.provenance["skipped"]}
    assert problems == {"2.": "no text/plain part (parts: text/html)",
                        "3.": "an HTML-only body (Content-Type text/html, no text/plain part)",
                        "4.": "a dangling link (its target is missing)",
                        "5.": "a FIFO (named pipe), not a regular file"}


def test_repeated_enron_ids_are_refused_in_every_layout(tmp_path):
    lines = [{"text": "Ken Lay 1", "mid": "m1"}, {"text": "Ken Lay 2", "mid": "m1"}]
    (tmp_path / "box.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    with pytest.raises(PrivlabValueError, match=r"distinct ids \('mid'\)\. Got box\.jsonl line "
                                                r"2: id 'm1' again \(first on line 1\)"):
        enron.load_mailbox(tmp_path / "box.jsonl")
    for folder in ("inbox", "sent"):
        (tmp_path / "maildir" / "lay-k" / folder).mkdir(parents=True)
        (tmp_path / "maildir" / "lay-k" / folder / "1.").write_bytes(
            b"Message-ID: <same>\n\nKen Lay\n")
    with pytest.raises(PrivlabValueError, match=r"sent/1\.: Message-ID '<same>' again \(first "
                                                r"in .*inbox/1\.\)"):
        enron.load_mailbox(tmp_path / "maildir")
    (tmp_path / "emails.csv").write_text('file,message\na/1.,"Message-ID: <x>\n\nKen Lay"\n'
                                         'a/2.,"Message-ID: <x>\n\nKen Lay"\n')
    with pytest.raises(PrivlabValueError, match=r"emails\.csv line 5: Message-ID '<x>' again "
                                                r"\(first on line 2\)"):
        enron.load_mailbox(tmp_path / "emails.csv")


# ---------------------------------------------------------------------------------------
# Files that break their format: one message with the file and the fix
# ---------------------------------------------------------------------------------------
def test_a_csv_with_bare_cr_line_ends_is_refused_with_the_fix(tmp_path):
    (tmp_path / "emails.csv").write_bytes(b'file,message\ra/1.,"Message-ID: <1>\r\rKen Lay"\r')
    with pytest.raises(PrivlabValueError, match=r"CSV with LF or CRLF line ends\. Got "
                                                r"emails\.csv line 1: its lines end in a bare "
                                                r"CR instead\. Convert the line ends, e\.g\. tr"):
        enron.load_mailbox(tmp_path / "emails.csv")


def _zip_with(tmp: Path, flag: int = 0, method: int | None = None) -> Path:
    """A stored zip whose one member has ``flag`` set and ``method`` as its compression."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("lay-k.json", json.dumps({"text": "Ken Lay", "mid": "m1"}) + "\n")
    data = bytearray(buffer.getvalue())
    central = data.index(b"PK\x01\x02")
    for flags_at, method_at in ((6, 8), (central + 8, central + 10)):  # local, central header
        data[flags_at] |= flag
        if method is not None:
            data[method_at:method_at + 2] = method.to_bytes(2, "little")
    path = tmp / "k.zip"
    path.write_bytes(bytes(data))
    return path


def test_encrypted_and_unsupported_zip_members_are_refused_with_the_fix(tmp_path):
    with pytest.raises(PrivlabValueError, match=r"members are not encrypted\. Got "
                                                r"k\.zip/lay-k\.json: .*password required.* "
                                                r"Unzip it with its password"):
        enron.load_mailbox(_zip_with(tmp_path, flag=0x1))
    with pytest.raises(PrivlabValueError, match=r"stored, deflate, bzip2 or lzma\. Got "
                                                r"k\.zip/lay-k\.json: .*not supported.* "
                                                r"Unzip it with a tool that reads it"):
        enron.load_mailbox(_zip_with(tmp_path, method=9))  # Deflate64


def test_unreadable_files_in_a_folder_are_named(tmp_path, monkeypatch):
    (tmp_path / "c1.txt").write_text("Avengers")
    box = tmp_path / "maildir" / "lay-k"
    box.mkdir(parents=True)
    (box / "1.").write_bytes(b"Message-ID: <1>\n\nKen Lay\n")
    real = Path.read_bytes

    def read_bytes(self):  # root reads anything, so deny it here
        if self.name in ("c1.txt", "1."):
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    with pytest.raises(PrivlabValueError, match=r"readable \.txt files\. Got .*c1\.txt "
                                                r"\(Permission denied\) instead\. Fix its perm"):
        reddit.load_comments(tmp_path)
    with pytest.raises(PrivlabValueError, match=r"maildir of readable files\. Got .*lay-k/1\. "
                                                r"\(Permission denied\) instead\. Fix its perm"):
        enron.load_mailbox(tmp_path / "maildir")


@pytest.mark.parametrize("certainty", ["--3", "+-3", "3-", "²", "3.0", " "])
def test_spia_certainties_that_are_not_integers_are_refused(certainty):
    record = {"metadata": {"data_id": "a"}, "text": "Ann, 34.",
              "subjects": [{"id": 0, "description": "Ann",
                            "PIIs": [{"tag": "AGE", "keyword": "34", "certainty": certainty}]}]}
    with pytest.raises(PrivlabValueError, match=r"spia\.jsonl line 4: subjects\[0\]\.PIIs\[0\]"
                                                r"\.certainty must be an integer 0-5, got "
                                                + re.escape(repr(certainty))):
        parse_spia_record(record, "spia.jsonl line 4")
    record["subjects"][0]["PIIs"][0]["certainty"] = " -0 "
    assert parse_spia_record(record).subjects[0].piis[0].certainty == 0


# ---------------------------------------------------------------------------------------
# Embedding cache: checksums, old files, locks, model folders
# ---------------------------------------------------------------------------------------
class Counting(Encoder):
    """text -> (len, vowels, 1) normalised; counts the texts it encodes."""

    name = "folders-counting"

    def __init__(self):
        self.calls = 0

    def _encode(self, items):
        self.calls += len(items)
        return np.array([[len(t), sum(c in "aeiou" for c in t), 1.0] for t in items])


TEXTS = ["alpha", "bravo charlie", "delta", "echo foxtrot golf"]


def _rows(path: Path) -> list[tuple[str, bytes]]:
    con = sqlite3.connect(path)
    rows = con.execute("SELECT key, vec FROM emb ORDER BY key").fetchall()
    con.close()
    return rows


def test_a_flipped_sign_bit_is_caught_by_the_checksum_and_recomputed(cache):
    clean = Counting().encode(TEXTS)
    path = cache / "embeddings.sqlite"
    key, blob = _rows(path)[0]
    spoiled = bytearray(blob)
    spoiled[-1] ^= 0x80  # the last float's sign bit: still finite, still of norm 1
    con = sqlite3.connect(path)
    with con:
        con.execute("UPDATE emb SET vec=? WHERE key=?", (bytes(spoiled), key))
    con.close()
    again = Counting()
    with pytest.warns(RuntimeWarning, match=rf"Dropped 1 damaged entry .*{key[:12]}: checksum "
                                            r"mismatch"):
        out = again.encode(TEXTS)
    assert again.calls == 1
    np.testing.assert_array_equal(out, clean)


def test_swapped_entries_are_caught_even_with_their_checksums(cache):
    clean = Counting().encode(TEXTS)
    path = cache / "embeddings.sqlite"
    con = sqlite3.connect(path)
    (k1, v1, s1), (k2, v2, s2) = con.execute(
        "SELECT key, vec, sum FROM emb ORDER BY key LIMIT 2").fetchall()
    with con:
        con.execute("UPDATE emb SET vec=?, sum=? WHERE key=?", (v2, s2, k1))
        con.execute("UPDATE emb SET vec=?, sum=? WHERE key=?", (v1, s1, k2))
    con.close()
    again = Counting()
    with pytest.warns(RuntimeWarning, match=r"Dropped 2 damaged entries"):
        out = again.encode(TEXTS)
    assert again.calls == 2
    np.testing.assert_array_equal(out, clean)


def test_a_cache_written_without_checksums_is_recomputed_once(cache):
    clean = Counting().encode(TEXTS)
    path = cache / "embeddings.sqlite"
    rows = _rows(path)
    path.unlink()
    con = sqlite3.connect(path)  # the schema of a cache written before checksums
    with con:
        con.execute("CREATE TABLE emb (model TEXT, key TEXT, vec BLOB, PRIMARY KEY (model, key))")
        con.execute("CREATE TABLE dims (model TEXT PRIMARY KEY, dim INTEGER)")
        con.executemany("INSERT INTO emb VALUES (?, ?, ?)",
                        [(Counting.name, k, v) for k, v in rows])
    con.close()
    again = Counting()
    with pytest.warns(RuntimeWarning, match=r"4 entries of model 'folders-counting' in the "
                                            r"embedding cache .* were stored without a checksum "
                                            r"by an older privlab; they are computed again"):
        np.testing.assert_array_equal(again.encode(TEXTS), clean)
    third = Counting()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(third.encode(TEXTS), clean)
    assert (again.calls, third.calls) == (4, 0)


def test_a_locked_cache_is_passed_by_within_its_timeout(cache, monkeypatch):
    clean = Counting().encode(TEXTS)
    monkeypatch.setattr(privlab_io, "LOCK_TIMEOUT_S", 0.2)
    holder = sqlite3.connect(cache / "embeddings.sqlite", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process in the middle of a write
    try:
        again = Counting()
        start = time.monotonic()
        with pytest.warns(RuntimeWarning, match=r"embeddings\.sqlite cannot be used \(database "
                                                r"is locked\); running without it.*another "
                                                r"process holds it"):
            out = again.encode(TEXTS)
        waited = time.monotonic() - start
    finally:
        holder.rollback()
        holder.close()
    np.testing.assert_array_equal(out, clean)
    assert again.calls == 4 and waited < 30  # not sqlite's old 60 s of silence
    assert cache_module.LOCK_TIMEOUT_S <= 10 and Counting().encode(TEXTS).shape == (4, 3)


def test_a_read_only_or_full_cache_is_passed_by_with_the_fix(cache, monkeypatch):
    clean = Counting().encode(TEXTS)
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorname = "SQLITE_FULL"

    def refuse(self, action):
        raise full

    monkeypatch.setattr(EmbeddingCache, "_transaction", refuse)
    again = Counting()
    with pytest.warns(RuntimeWarning, match=r"running without it.*free disk space, fix its "
                                            r"permissions or set PRIVLAB_CACHE"):
        np.testing.assert_array_equal(again.encode(["alpha", "new text"]), Counting().encode(
            ["alpha", "new text"], cache=False))
    assert again.calls == 2 and clean.shape == (4, 3)


class FolderModel(SentenceTransformerEncoder):
    """A local model folder whose 'weights' file sets the vectors (no download needed)."""

    def _encode(self, items):
        scale = float(json.loads((Path(self.model_ref) / "weights.json").read_text())["w"])
        return np.array([[len(t), scale, 1.0] for t in items])


def test_a_model_folder_resaved_with_new_weights_does_not_return_old_vectors(cache, tmp_path):
    folder = tmp_path / "my-model"
    folder.mkdir()
    (folder / "config.json").write_text('{"layers": 2}')
    (folder / "weights.json").write_text('{"w": 1}')
    first = FolderModel(folder).encode(["alpha"])
    (folder / "weights.json").write_text('{"w": 9}')  # same path, same size, new weights
    second = FolderModel(folder).encode(["alpha"])
    expected = np.array([[5.0, 9.0, 1.0]]) / np.linalg.norm([5.0, 9.0, 1.0])
    np.testing.assert_allclose(second, expected, rtol=1e-6)
    assert not np.allclose(first, second)
    before = FolderModel(folder).cache_model
    (folder / "config.json").write_text('{"layers": 3}')
    assert FolderModel(folder).cache_model != before
    assert FolderModel("sentence-transformers/all-MiniLM-L6-v2").cache_model == (
        "sentence-transformers/all-MiniLM-L6-v2")  # a hub name keys by its name


def test_privlab_cache_below_a_file_is_named_with_the_fix(tmp_path, monkeypatch, capsys):
    (tmp_path / "notes.txt").write_text("x")
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "notes.txt" / "cache"))
    with pytest.raises(PrivlabValueError, match=r"notes\.txt/cache \(from PRIVLAB_CACHE\) "
                                                r"cannot be created: .*notes\.txt is a file, "
                                                r"not a folder\. Set PRIVLAB_CACHE to a folder"):
        EmbeddingCache()
    code = main(["epsilon-benchmark", "--out", str(tmp_path / "o.csv"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("privlab epsilon-benchmark: error: The folder ") and "notes.txt is " \
        "a file" in err


# ---------------------------------------------------------------------------------------
# The command line: a full disk and a closed pipe
# ---------------------------------------------------------------------------------------
@pytest.fixture
def npy(tmp_path):
    rng = np.random.default_rng(0)
    S = rng.standard_normal((6, 3))
    np.save(tmp_path / "S.npy", S / np.linalg.norm(S, axis=1, keepdims=True))
    np.save(tmp_path / "T.npy", rng.standard_normal((5, 3)) * 0.2)
    return tmp_path


def test_a_full_disk_is_one_line_naming_the_file(npy, capsys, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", "/var/cache/privlab/scratch")

    monkeypatch.setattr(sys.modules["privlab.resolution"], "resolution", full)
    code = main(["resolution", "--audited", str(npy / "S.npy"), "--references",
                 str(npy / "T.npy")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err == ("privlab resolution: error: No space left on device on "
                   "/var/cache/privlab/scratch. Free disk space there, or point PRIVLAB_CACHE / "
                   "PRIVLAB_HOME / --out at a disk with room.\n")


def test_a_denied_path_in_the_cache_folder_is_one_line(npy, cache, capsys, monkeypatch):
    def denied(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(cache / "e.sqlite"))

    monkeypatch.setattr(sys.modules["privlab.resolution"], "resolution", denied)
    code = main(["resolution", "--audited", str(npy / "S.npy"), "--references",
                 str(npy / "T.npy")])
    err = capsys.readouterr().err
    assert code == 2 and err == (f"privlab resolution: error: Permission denied on "
                                 f"{cache / 'e.sqlite'}. Fix its permissions, or write "
                                 "somewhere else (PRIVLAB_CACHE, PRIVLAB_HOME or --out).\n")


def test_a_closed_pipe_is_no_traceback(npy):
    read_end, write_end = os.pipe()
    os.close(read_end)  # as `| head -0` does: the reader is gone before anything is written
    try:
        run = subprocess.run([sys.executable, "-m", "privlab", "resolution", "--audited",
                              str(npy / "S.npy"), "--references", str(npy / "T.npy")],
                             stdout=write_end, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    finally:
        os.close(write_end)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr and "BrokenPipeError" not in run.stderr
    assert run.stderr == ("privlab resolution: error: standard output was closed before all "
                          "of the result was written (by '| head' or similar); what was shown "
                          "is incomplete.\n")
