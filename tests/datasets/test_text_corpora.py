"""Offline corpora, leak ground truth, and the Enron / Reddit loaders."""

from __future__ import annotations

import json
import re
import tarfile
import zipfile
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


def test_select_emails_word_limit_and_dedupe():
    long = "Ken Lay " + "word " * 499
    emails = [enron.Email("1", long), enron.Email("2", "ken lay"), enron.Email("3", "ken lay")]
    assert [e.id for e in enron.select_emails(emails)] == ["2"]
    assert [e.id for e in enron.select_emails(emails, dedupe=False)] == ["2", "3"]
    assert [e.id for e in enron.select_emails(emails, max_words=501)] == ["1", "2"]


def test_real_mailbox_selection_matches_a_plain_count(shared_data):
    path = shared_data / "enron" / "kenneth_json.zip"
    if not path.is_file():
        pytest.skip("kenneth_json.zip is absent from the shared data folder")
    corpus = enron.load_mailbox(path)
    # Independent count: every line's text, headers stripped, mentions ken lay, <= 500 words.
    seen = set()
    with zipfile.ZipFile(path) as archive:
        for line in archive.open("lay-k.json"):
            text = enron.strip_headers(json.loads(line)["text"])
            if re.search(r"(?<!\w)ken\s+lay(?!\w)", text, re.I) and len(text.split()) <= 500:
                seen.add(text)
    assert len(corpus) == len(seen) == 1290
    assert all(re.search(r"ken\s+lay", t, re.I) for t in corpus.texts)


def test_reddit_loader_json_and_folder(tmp_path):
    lines = [{"id": "a", "body": "The Avengers rocks"}, {"id": "b", "body": "[deleted]"},
             {"id": "c", "body": "avengers lowercase"}, {"id": "d", "title": "Avengers poll",
                                                         "selftext": "vote"}]
    path = tmp_path / "rc.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines))
    corpus = reddit.load_comments(path)
    assert corpus.ids == ("a", "d") and corpus.names == ("Avengers",)
    folder = tmp_path / "txt"
    folder.mkdir()
    (folder / "one.txt").write_text("Avengers again")
    assert reddit.load_comments(folder).texts == ("Avengers again",)
    with pytest.raises(ValueError, match="'keyword' parameter of load_comments"):
        reddit.load_comments(folder, "Watchmen")
