"""Offline corpora, leak ground truth, and the Enron / Reddit loaders."""

from __future__ import annotations

import json
import re
import tarfile
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from privlab.datasets import enron, reddit
from privlab.datasets.text_corpora import executive_mailbox, franchise_comments, leak_status


@pytest.mark.parametrize("make", [franchise_comments, executive_mailbox])
def test_offline_corpora_have_consistent_ground_truth(make):
    corpus = make()
    assert len(corpus) == 49 and len(corpus.subset("9")) == 9
    assert len(set(corpus.texts)) == 49
    for text, leaks in zip(corpus.texts, corpus.leaks):
        assert re.search(re.escape(corpus.names[0]), text, re.IGNORECASE)
        for phrase in leaks.values():
            assert phrase.lower() in text.lower()
    assert len(corpus.leak_types()) >= 7
    with pytest.raises(ValueError, match="'which' parameter"):
        corpus.subset([49])


def test_leak_status_known_answer():
    corpus = executive_mailbox().subset([7, 30])  # both carry the nickname "Whit"
    kept = ["Whit wants the deck", "Whit says the call went well"]
    hit = [SimpleNamespace(audited=1, difference=0.2)]
    status = {s.leak_type: s for s in leak_status(corpus, kept, hit)}
    assert (status["nickname"].items, status["nickname"].kept, status["nickname"].caught) == (2, 2, 1)
    assert status["nickname"].status == "caught"
    # A non-positive trial is not a violation: it names nothing.
    cold = [SimpleNamespace(audited=1, difference=0.0)]
    assert {s.leak_type: s.status for s in leak_status(corpus, kept, cold)}["nickname"] == "missed"
    gone = {s.leak_type: s.status for s in leak_status(corpus, ["x", "y"], hit)}
    assert gone["nickname"] == "removed"
    with pytest.raises(ValueError, match="one text per corpus item"):
        leak_status(corpus, ["x"], hit)


RAW = ("Message-ID: <42.JavaMail>\nFrom: a@enron.com\nSubject: board\nX-Folder: \\lay\n\n"
       "Please tell Ken Lay the board meets at noon.\n")


def test_enron_three_layouts_agree(tmp_path):
    # maildir folder and tarball
    box = tmp_path / "maildir" / "lay-k" / "inbox"
    box.mkdir(parents=True)
    (box / "1.").write_text(RAW)
    (box / "2.").write_text(RAW.replace("42", "43").replace("Ken Lay", "Jeff"))
    tar = tmp_path / "enron.tar.gz"
    with tarfile.open(tar, "w:gz") as archive:
        archive.add(tmp_path / "maildir", arcname="maildir")
    # emails.csv
    csv_path = tmp_path / "emails.csv"
    import csv

    with open(csv_path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", "message"])
        writer.writerow(["lay-k/inbox/1.", RAW])
    # JSON lines, zipped
    zpath = tmp_path / "k.zip"
    with zipfile.ZipFile(zpath, "w") as archive:
        archive.writestr("lay-k.json", json.dumps({"text": "Ken Lay called.", "mid": "m1"}) + "\n")
    expected = "Please tell Ken Lay the board meets at noon."
    for path in (tmp_path / "maildir", tar, csv_path):
        chosen = enron.select_emails(enron.read_emails(path))
        assert [e.text.strip() for e in chosen] == [expected]
    assert [e.id for e in enron.read_emails(zpath)] == ["m1"]
    corpus = enron.load_mailbox(tar, user="lay-k")
    assert corpus.texts == (expected + "\n",) or corpus.texts[0].strip() == expected
    with pytest.raises(ValueError, match="'path' parameter of read_emails"):
        enron.read_emails(tmp_path / "missing.json")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "ok"}\nnot json\n')
    with pytest.raises(ValueError, match="line 2"):
        list(enron.read_emails(bad))


def test_select_emails_word_limit_match_and_dedupe():
    long = "Ken Lay " + "word " * 499
    emails = [enron.Email("1", long), enron.Email("2", "ken lay"), enron.Email("3", "ken lay"),
              enron.Email("4", "=09Ken Lay@ENRON"), enron.Email("5", "Memo_Ken Lay")]
    # The paper's rule (the default): the name anywhere, every email counted.
    assert [e.id for e in enron.select_emails(emails)] == ["2", "3", "4", "5"]
    assert [e.id for e in enron.select_emails(emails, dedupe=True)] == ["2", "4", "5"]
    # Whole words only drops the mentions glued to other characters.
    assert [e.id for e in enron.select_emails(emails, match="word")] == ["2", "3"]
    assert [e.id for e in enron.select_emails(emails, max_words=501)] == ["1", "2", "3", "4", "5"]
    kept, dropped = enron.drop_repeats(emails)
    assert [e.id for e in kept] == ["1", "2", "4", "5"] and dropped == 1
    with pytest.raises(ValueError, match="'match' parameter of name_pattern"):
        enron.select_emails(emails, match="exact")


def test_json_bodies_are_kept_as_stored_never_header_stripped(tmp_path):
    # A body whose first line looks like "Key: value" is text, not a header.
    bodies = ["Well: You know how it is.\n\nKen Lay will call you.",
              "Ken: DELIGHTED to hear it.\nSubject: lunch\n\nKen Lay"]
    path = tmp_path / "box.jsonl"
    path.write_text("".join(json.dumps({"text": b, "mid": f"m{k}"}) + "\n"
                            for k, b in enumerate(bodies)))
    assert [e.text for e in enron.read_emails(path)] == bodies
    assert enron.load_mailbox(path).texts == tuple(bodies)
    # Raw messages still lose their header block.
    assert enron.strip_headers("Subject: hi\nFrom: a@b\n\nKen Lay") == "Ken Lay"


def _mentions(text: str) -> bool:
    """Independent of privlab's patterns: "ken lay" in the lower-cased text with every run
    of whitespace made one space."""
    return "ken lay" in " ".join(text.lower().split())


def _glued_only(text: str) -> bool:
    """Every mention touches a letter, digit or underscore on one side (plain string scan)."""
    flat = " ".join(text.lower().split())
    start, clean = flat.find("ken lay"), False
    while start >= 0:
        before = flat[start - 1] if start else " "
        end = start + len("ken lay")
        after = flat[end] if end < len(flat) else " "
        word = lambda ch: ch.isalnum() or ch == "_"  # noqa: E731
        clean = clean or not (word(before) or word(after))
        start = flat.find("ken lay", start + 1)
    return not clean


def _mailbox_texts(path):
    with zipfile.ZipFile(path) as archive:
        return [json.loads(line)["text"] for line in archive.open("lay-k.json")]


def test_real_mailbox_selection_matches_a_plain_count(shared_data):
    path = shared_data / "enron" / "kenneth_json.zip"
    if not path.is_file():
        pytest.skip("kenneth_json.zip is absent from the shared data folder")
    corpus = enron.load_mailbox(path)
    # Independent selection, written without privlab's reader, regex or word rule: every
    # line's text as stored, mentioning ken lay, at most 500 whitespace-separated words.
    texts = _mailbox_texts(path)
    expected = [t for t in texts if _mentions(t) and len(t.split()) <= 500]
    assert corpus.texts == tuple(expected)  # same emails, same order, bodies untouched
    assert len(expected) == 1552
    assert corpus.name_match == "substring"
    assert corpus.provenance == {"emails_read": len(texts), "skipped": (), "selection": {
        "match": "substring", "max_words": 500, "dedupe": False, "selected": len(expected),
        "repeats_dropped": 0}}
    # The labelled departures, each against its own plain count.
    glued = [t for t in expected if _glued_only(t)]
    assert len(glued) == 12
    repeats = len(expected) - len(set(expected))
    deduped = enron.load_mailbox(path, dedupe=True)
    assert len(deduped) == len(set(expected)) and \
        deduped.provenance["selection"]["repeats_dropped"] == repeats
    assert len(enron.load_mailbox(path, match="word")) == len(expected) - len(glued)


def test_reddit_loader_json_and_folder(tmp_path):
    lines = [{"id": "a", "body": "The Avengers rocks"}, {"id": "b", "body": "[deleted]"},
             {"id": "c", "body": "avengers lowercase"}, {"id": "d", "title": "Avengers poll",
                                                         "selftext": "vote"}]
    path = tmp_path / "rc.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines))
    corpus = reddit.load_comments(path)  # any case, like the paper's folder of comments
    assert corpus.ids == ("a", "c", "d") and corpus.names == ("Avengers",)
    assert reddit.load_comments(path, case_sensitive=True).ids == ("a", "d")
    folder = tmp_path / "txt"
    folder.mkdir()
    (folder / "one.txt").write_text("Avengers again")
    assert reddit.load_comments(folder).texts == ("Avengers again",)
    with pytest.raises(ValueError, match="'keyword' parameter of load_comments"):
        reddit.load_comments(folder, "Watchmen")


# ---- message bodies: transfer encodings and charsets --------------------------------

def _message(ident: str, body: bytes, *, charset: str = "us-ascii", encoding: str = "7bit",
             subject: bytes = b"board") -> bytes:
    return (b"Message-ID: <" + ident.encode() + b">\nFrom: a@enron.com\nSubject: " + subject
            + b"\nContent-Type: text/plain; charset=" + charset.encode()
            + b"\nContent-Transfer-Encoding: " + encoding.encode() + b"\n\n" + body)


def test_maildir_bodies_are_decoded_by_transfer_encoding_and_charset(tmp_path):
    import base64
    import quopri

    box = tmp_path / "maildir" / "lay-k" / "inbox"
    box.mkdir(parents=True)
    texts = [f"Ken Lay will open meeting {k} at noon.\n" for k in range(4)]
    # Three of the four mentions are base64: undecoded they match nothing.
    for k in range(3):
        (box / f"{k}.").write_bytes(_message(f"b{k}", base64.encodebytes(texts[k].encode()),
                                             encoding="base64"))
    (box / "3.").write_bytes(_message("plain", texts[3].encode()))
    qp = "Ken Lay drinks caf\u00e9 = strong, and this line is long enough to be soft-wrapped " \
         "by the quoted-printable encoder.\n"
    (box / "4.").write_bytes(_message("qp", quopri.encodestring(qp.encode("latin-1")),
                                      charset="iso-8859-1", encoding="quoted-printable",
                                      subject=b"=?iso-8859-1?q?caf=E9?="))
    (box / "5.").write_bytes(_message("latin", "Ken Lay in M\u00fcnchen\n".encode("latin-1"),
                                      charset="iso-8859-1", encoding="8bit"))
    (box / "6.").write_bytes(_message("utf8", "Ken Lay in Z\u00fcrich\n".encode(),
                                      encoding="8bit"))  # UTF-8 under an ASCII label
    emails = {e.id: e for e in enron.read_emails(tmp_path / "maildir")}
    assert [emails[f"<b{k}>"].text for k in range(3)] == [t.strip() for t in texts[:3]]
    assert emails["<qp>"].text == qp.strip() and emails["<qp>"].subject == "caf\u00e9"
    assert emails["<latin>"].text == "Ken Lay in M\u00fcnchen"
    assert emails["<utf8>"].text == "Ken Lay in Z\u00fcrich"
    assert not any("\ufffd" in e.text or e.problem for e in emails.values())
    chosen = enron.select_emails(emails.values())
    assert len(chosen) == 7  # all four meeting mails, the QP, latin-1 and UTF-8 ones


def test_undecodable_bodies_are_skipped_by_file_and_id_never_garbled(tmp_path):
    import base64

    box = tmp_path / "maildir" / "lay-k" / "inbox"
    box.mkdir(parents=True)
    (box / "1.").write_bytes(_message("good", b"Ken Lay said yes.\n"))
    (box / "2.").write_bytes(_message("latin-as-ascii", "Ken Lay in M\u00fcnchen\n"
                                      .encode("latin-1"), encoding="8bit"))
    (box / "3.").write_bytes(_message("charset", b"Ken Lay\n", charset="x-no-such-charset"))
    (box / "4.").write_bytes(_message("b64", b"S2Vu!S2\n", encoding="base64"))
    (box / "7.").write_bytes(_message("b64len", b"S2VuS\n", encoding="base64"))
    (box / "5.").write_bytes(_message("shift", base64.encodebytes(b"Ken Lay \xff\xfe"),
                                      charset="utf-8", encoding="base64"))
    (box / "6.").write_bytes(_message("good2", b"Ken Lay said no.\n"))
    emails = list(enron.read_emails(tmp_path / "maildir"))
    assert len(emails) == 7
    problems = {e.id: e.problem for e in emails if e.problem}
    assert set(problems) == {"<latin-as-ascii>", "<charset>", "<b64>", "<b64len>", "<shift>"}
    assert "0xfc" in problems["<latin-as-ascii>"] and "nor UTF-8" in problems["<latin-as-ascii>"]
    assert "x-no-such-charset" in problems["<charset>"]
    assert "base64" in problems["<b64>"] and "base64" in problems["<b64len>"]
    assert "0xff" in problems["<shift>"] and "utf-8" in problems["<shift>"]
    assert all(e.text == "" for e in emails if e.problem)
    with pytest.warns(UserWarning, match=r"5 of 7 messages in maildir could not be decoded"):
        corpus = enron.load_mailbox(tmp_path / "maildir")
    assert corpus.ids == ("<good>", "<good2>")  # the decodable ones are all kept
    skipped = corpus.provenance["skipped"]
    assert corpus.provenance["emails_read"] == 7 and len(skipped) == 5
    assert {s["id"] for s in skipped} == set(problems)
    assert {Path(s["file"]).name for s in skipped} == {"2.", "3.", "4.", "5.", "7."}
    assert corpus.subset([0]).provenance == corpus.provenance


def test_multipart_and_csv_bodies_are_decoded(tmp_path):
    import base64
    import csv

    multipart = (b"Message-ID: <mp>\nContent-Type: multipart/alternative; boundary=XX\n\n"
                 b"--XX\nContent-Type: text/plain; charset=utf-8\n"
                 b"Content-Transfer-Encoding: base64\n\n"
                 + base64.encodebytes("Ken Lay \u00e0 Paris\n".encode())
                 + b"\n--XX\nContent-Type: text/html\n\n<p>Ken Lay</p>\n--XX--\n")
    box = tmp_path / "maildir" / "lay-k"
    box.mkdir(parents=True)
    (box / "1.").write_bytes(multipart)
    (box / "2.").write_bytes(b"Message-ID: <pdf>\nContent-Type: application/pdf\n"
                             b"Content-Transfer-Encoding: base64\n\nJVBERi0=\n")
    emails = {e.id: e for e in enron.read_emails(tmp_path / "maildir")}
    assert emails["<mp>"].text == "Ken Lay \u00e0 Paris" and not emails["<mp>"].problem
    assert "application/pdf" in emails["<pdf>"].problem
    rows = [("a/1.", _message("csv64", base64.encodebytes(b"Ken Lay, encoded.\n"),
                              encoding="base64").decode()),
            ("a/2.", "Message-ID: <csv8>\nContent-Type: text/plain; charset=utf-8\n\n"
                     "Ken Lay in Z\u00fcrich\n")]
    path = tmp_path / "emails.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([("file", "message"), *rows])
    got = {e.id: e.text for e in enron.read_emails(path)}
    assert got == {"<csv64>": "Ken Lay, encoded.", "<csv8>": "Ken Lay in Z\u00fcrich"}


def test_load_mailbox_limit_keeps_exactly_that_many(tmp_path):
    path = tmp_path / "box.jsonl"
    path.write_text("".join(json.dumps({"text": f"Ken Lay note {k}", "mid": f"m{k}"}) + "\n"
                            for k in range(5)))
    assert enron.load_mailbox(path).ids == tuple(f"m{k}" for k in range(5))
    assert enron.load_mailbox(path, limit=2).ids == ("m0", "m1")
    assert len(enron.load_mailbox(path, limit=9)) == 5
    with pytest.raises(ValueError, match=r"'limit' parameter of load_mailbox .* Got -1"):
        enron.load_mailbox(path, limit=-1)
