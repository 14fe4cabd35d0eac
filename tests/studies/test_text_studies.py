"""Studies 03 and 04 on the offline corpora, with the packaged MiniLM encoder."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from privlab.config import shared_data_dir
from privlab.datasets.text_corpora import franchise_comments
from privlab.studies import avengers, enron
from privlab.studies._text import highlight


def test_franchise_study_nine_vs_fortynine_known_answers():
    # Measured with all-MiniLM-L6-v2: the name-only list passes on the 9-comment proxy set
    # and fails on all 49 comments, as in the paper's GLN2 result.
    cfg = dict(encoders=("minilm",), sanitizers=("identity", "concept-list", "regex-pii"))
    nine = avengers.run(avengers.Config(proxy="9", **cfg))
    full = avengers.run(avengers.Config(proxy="49", **cfg))
    assert nine.table["concept-list"].value == 0.0
    assert full.table["concept-list"].value > 0.03
    assert full.table["identity"].value == 0.0 and full.table["identity"].unchanged == 49
    # A sanitizer that changes nothing gives every trial a difference of exactly 0: no
    # violation, so no comment is flagged (a tie at 0 is not closer to the concept).
    identity = full.table["identity"].members[0].resolution
    assert identity.max_difference == 0.0 and identity.flagged().size == 0
    frame = full.to_frame()
    assert frame.set_index("sanitizer").loc["concept-list", "name_matches"] == 0
    assert full.best() == "concept-list"
    statuses = {s.leak_type: s.status for s in full.leaks["concept-list"]}
    assert set(statuses.values()) <= {"caught", "missed"}  # the name list removes no clue
    assert any(v == "caught" for v in statuses.values())
    headline = full.headline()
    assert headline.text == ("best of 3 sanitizers, concept-list: resolution 0.072, utility "
                             "0.77; name kept in 0 of 49 comments")
    assert headline.details == ("on privlab's 49 fictional Vanguard Legion comments (stand-in "
                                "for the Avengers)", "under all-MiniLM-L6-v2: witness 32,12")
    assert any("stand-in" in c and "not the paper's" in c for c in headline.caveats)
    assert "<mark>" in highlight("a superhero film", ["superhero"])


def _words(phrase: str) -> list[str]:
    words = phrase.lower().split()
    return words[1:] if words[:1] == ["the"] else words


def _inside(part: str, whole: str) -> bool:
    a, b = _words(part), _words(whole)
    return any(b[i:i + len(a)] == a for i in range(len(b) - len(a) + 1))


def test_broad_list_shares_no_phrase_with_the_answer_key():
    # The seeded clues are what the leak table scores; the broad list must not be them.
    key = {phrase for leaks in franchise_comments().leaks for phrase in leaks.values()}
    assert len(key) >= 30
    for entry in avengers.BROAD_CONCEPTS:
        for phrase in key:
            assert _words(entry) != _words(phrase), (entry, phrase)
            assert not _inside(phrase, entry), (entry, phrase)  # holds no key phrase
            if entry[:1].isupper():  # a name: not a piece of a key phrase ("Tinker")
                assert not _inside(entry, phrase), (entry, phrase)


def test_broad_list_written_without_the_key_keeps_the_named_clues():
    r = avengers.run(avengers.Config(encoders=("lexical",),
                                     sanitizers=("concept-list", "concept-list-broad")))
    statuses = {s.leak_type: s for s in r.leaks["concept-list-broad"]}
    # It removes the name and the titles but names no character, actor or studio.
    assert r.table["concept-list-broad"].baseline.count == 0
    for kind in ("character", "actor", "villain", "creator"):
        assert statuses[kind].kept == statuses[kind].items > 0
    assert statuses["genre"].kept < statuses["genre"].items  # "superhero ..." goes
    assert r.settings["broad_concepts"] == list(avengers.BROAD_CONCEPTS)


def test_franchise_study_on_a_folder_of_txt_comments(tmp_path):
    # The layout of the paper's repository: one comment per .txt file.
    comments = {"ejua1": "Avengers: Endgame was three hours and I loved it.",
                "ejua2": "the avengers cast did a great charity read.",
                "ejua3": "Iron Man and Thor carried the Avengers for years.",
                "ejua4": "Unrelated comment about cats."}
    for stem, text in comments.items():
        (tmp_path / f"{stem}.txt").write_text(text + "\n")
    config = avengers.Config(data=str(tmp_path), encoders=("lexical",),
                             sanitizers=("identity", "concept-list", "concept-list-broad"))
    r = avengers.run(config)
    assert r.corpus.ids == ("ejua1", "ejua2", "ejua3")  # any case, the cat comment left out
    assert r.corpus.texts[1] == comments["ejua2"]
    assert avengers.broad_list(config) == avengers.AVENGERS_BROAD
    broad = r.table["concept-list-broad"].sanitized
    assert "Iron Man" not in broad[2] and "Thor" not in broad[2]
    assert r.table["concept-list"].baseline.count == 0
    assert r.leaks == {}
    headline = r.headline()
    assert str(tmp_path) in headline.caveats[0] and "fictional" not in " ".join(headline.details)
    with pytest.raises(ValueError, match="'keyword' parameter of load_comments"):
        avengers.run(avengers.Config(data=str(tmp_path), keyword="Watchmen",
                                     encoders=("lexical",), sanitizers=("identity",)))


def test_franchise_study_counts_the_singular_as_the_name_kept(tmp_path):
    comments = {"a": "Avengers: Endgame was long.",
                "b": "Cap is the best Avenger, say Avengers fans.",
                "c": "an avenger-style plot, avengers fans agree", "d": "The Avengerz typo."}
    for stem, text in comments.items():
        (tmp_path / f"{stem}.txt").write_text(text + "\n")
    r = avengers.run(avengers.Config(data=str(tmp_path), encoders=("lexical",),
                                     sanitizers=("concept-list",)))
    assert r.corpus.names == ("Avengers", "Avenger") == avengers.target_names("Avengers")
    # the list removes "Avengers" in any case; "Avenger" and "avenger" stay, and count
    kept = r.table["concept-list"]
    assert kept.baseline.indices == (1, 2)
    assert "Avenger" in kept.sanitized[1] and "Avengers" not in kept.sanitized[1]


_SHARED = shared_data_dir()
PAPER_AVENGERS = _SHARED / "paper" / "text" / "avengers_large" if _SHARED else Path("/absent")


@pytest.mark.skipif(not PAPER_AVENGERS.is_dir(),
                    reason="the paper's comments (../shared/data/paper/text/avengers_large) "
                           "are absent")
def test_franchise_study_on_the_papers_49_comments():
    r = avengers.run(avengers.Config(data=str(PAPER_AVENGERS),
                                     sanitizers=("concept-list", "concept-list-broad")))
    assert len(r.corpus) == 49
    broad = r.table["concept-list-broad"].members[0]
    # measured under MiniLM: 0.174 with witness (39, 11), utility 0.78. The paper's
    # GLN2 with its Concepts 13 gives 0.18 and utility 0.77 under QWEN3 on the same 49
    # comments: another sanitizer and another encoder, so the closeness is not a
    # reproduction.
    assert broad.value == pytest.approx(0.1740, abs=1e-3)
    assert (broad.witness.audited, broad.witness.reference) == (39, 11)
    assert broad.mean_utility == pytest.approx(0.78, abs=0.01)
    # three comments keep the singular "Avenger" after both lists
    assert r.table["concept-list-broad"].baseline.count == 3
    assert r.table["concept-list"].members[0].value > broad.value
    assert r.best() == "concept-list-broad"


def test_enron_offline_table2_and_context_witnesses():
    r = enron.run(enron.Config(data="offline", sanitizers=("regex-pii", "concept-list"),
                               encoders=("minilm",)))
    t = enron.table2(r).set_index("sanitizer")
    assert t.loc["regex-pii", "name_matches"] == 49 and t.loc["concept-list", "name_matches"] == 0
    assert t.loc["concept-list", "resolution"] > 0
    ctx = enron.context_witnesses(r, "concept-list")
    assert len(ctx) >= 1 and not ctx["sanitized x"].str.contains("Marcus Whitfield").any()
    # Without Presidio in the run the headline falls back to the best sanitizer.
    assert r.headline().text.startswith("concept-list on 49 emails")
    # beside the name kept: emails that lost "Marcus Whitfield" but kept "Whitfield"
    more = r.surname_leaks("concept-list")
    sanitized = r.table["concept-list"].sanitized
    by_hand = [i for i, t in enumerate(sanitized)
               if "marcus whitfield" not in " ".join(t.lower().split())
               and ("Whitfield" in t or "WHITFIELD" in t or "whitfield@" in t.lower())]
    assert more.indices == tuple(by_hand) and more.count >= 1
    assert f"surname or address kept in {more.count} more ({more.share:.2%})" in r.headline().text
    with pytest.raises(ValueError, match="'sanitizer' parameter of EnronResult.surname_leaks"):
        r.surname_leaks("presidio")
    only = enron.paper_comparison(r, "concept-list")
    assert only["source"].tolist() == ["privlab"] and only["name kept"].tolist() == [0]
    with pytest.raises(ValueError, match="'sanitizer' parameter of paper_comparison"):
        enron.paper_comparison(r, "presidio")
    with pytest.raises(ValueError, match="'data' parameter"):
        enron.load_corpus(enron.Config(data="/no/such/mailbox"))


def _kept(text: str) -> bool:
    """Independent of privlab's patterns: the name in any case, any whitespace between."""
    return "ken lay" in " ".join(text.lower().split())


def _glued(text: str) -> bool:
    """Some mention of the name touches a letter, digit or underscore (plain string scan)."""
    return any(_touching(text))


def _glued_only(text: str) -> bool:
    """Every mention of the name touches a letter, digit or underscore."""
    return all(_touching(text))


def _touching(text: str) -> list[bool]:
    flat = " ".join(text.lower().split())
    word = lambda ch: ch.isalnum() or ch == "_"  # noqa: E731
    out, at = [], flat.find("ken lay")
    while at >= 0:
        end = at + len("ken lay")
        out.append(bool((at and word(flat[at - 1])) or (end < len(flat) and word(flat[end]))))
        at = flat.find("ken lay", at + 1)
    return out


def test_presidio_keeps_the_glued_mentions_the_whole_word_rule_would_drop(shared_data):
    # The key finding behind the selection rule: mentions glued to other characters
    # (=09Ken Lay@ENRON, Memo_Ken Lay) are the forms spaCy cannot split, so Presidio
    # leaves the name in them; a whole-word selection drops them from the corpus.
    path = shared_data / "enron" / "kenneth_json.zip"
    if not path.is_file():
        pytest.skip("kenneth_json.zip is absent")
    from privlab.datasets.enron import Email, select_emails
    from privlab.sanitizers import registry

    with zipfile.ZipFile(path) as archive:
        texts = [json.loads(line)["text"] for line in archive.open("lay-k.json")]
    glued = [t for t in texts if _kept(t) and len(t.split()) <= 500 and _glued_only(t)]
    assert len(glued) == 12
    emails = [Email(str(k), t) for k, t in enumerate(glued)]
    assert select_emails(emails) == emails  # the paper's rule keeps them all
    assert select_emails(emails, match="word") == []  # whole words drop them all
    out = registry.create("presidio", concepts=("Ken Lay",)).sanitize(glued)
    kept = [k for k, o in enumerate(out) if _kept(o)]
    assert len(kept) >= len(glued) // 2, kept  # Presidio leaves the name in most of them


@pytest.mark.slow
def test_presidio_on_the_real_mailbox(shared_data):
    path = shared_data / "enron" / "kenneth_json.zip"
    if not path.is_file():
        pytest.skip("kenneth_json.zip is absent")
    r = enron.run(enron.Config(data="real", sanitizers=("presidio",)))
    a = r.table["presidio"]
    with zipfile.ZipFile(path) as archive:
        texts = [json.loads(line)["text"] for line in archive.open("lay-k.json")]
    selected = [t for t in texts if _kept(t) and len(t.split()) <= 500]
    assert r.corpus.texts == tuple(selected)
    # The baseline counts by the selection's rule: compare with a plain count.
    kept = [k for k, o in enumerate(a.sanitized) if _kept(o)]
    assert a.baseline.match == "substring" and a.baseline.indices == tuple(kept)
    assert any(_glued(a.sanitized[k]) for k in kept)  # the forms whole words would miss
    assert a.value > 0
    table = enron.paper_comparison(r).set_index("source")
    assert table.loc["paper, Table 2", "name kept"] == 17
    assert table.loc["privlab", "emails"] == len(selected)
    assert table.loc["privlab", "name kept"] == len(kept)
    assert "paper: 17 of 1,841" in r.headline().text
    # beside the name: 42 more emails keep the surname or an address made of it
    # (measured: "<PERSON> Lay- Chairman of the Board@ENRON", "<PERSON> Lay@ENRON", ...)
    more = r.surname_leaks()
    assert (more.count, more.kinds) == (42, {"surname": 42, "address": 9})
    assert not set(more.indices) & set(kept)
    assert "surname or address kept in 42 more (2.71%)" in r.headline().text
