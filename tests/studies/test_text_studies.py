"""Studies 03 and 04 on the offline corpora, with the packaged MiniLM encoder."""

from __future__ import annotations

import pytest

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
    frame = full.to_frame()
    assert frame.set_index("sanitizer").loc["concept-list", "name_matches"] == 0
    assert full.best() == "concept-list"
    statuses = {s.leak_type: s.status for s in full.leaks["concept-list"]}
    assert set(statuses.values()) <= {"caught", "missed"}  # the name list removes no clue
    assert any(v == "caught" for v in statuses.values())
    assert "resolution" in full.headline().text
    assert "<mark>" in highlight("a superhero film", ["superhero"])


def test_broad_list_removes_named_clues():
    r = avengers.run(avengers.Config(encoders=("lexical",), sanitizers=("concept-list-broad",)))
    statuses = {s.leak_type: s.status for s in r.leaks["concept-list-broad"]}
    assert statuses["character"] == statuses["creator"] == statuses["villain"] == "removed"
    assert statuses["box_office"] != "removed"  # numbers are not on the list


def test_enron_offline_table2_and_context_witnesses():
    r = enron.run(enron.Config(corpus="offline", sanitizers=("regex-pii", "concept-list"),
                               encoders=("minilm",)))
    t = enron.table2(r).set_index("sanitizer")
    assert t.loc["regex-pii", "name_matches"] == 49 and t.loc["concept-list", "name_matches"] == 0
    assert t.loc["concept-list", "resolution"] > 0
    ctx = enron.context_witnesses(r, "concept-list")
    assert len(ctx) >= 1 and not ctx["sanitized x"].str.contains("Marcus Whitfield").any()
    with pytest.raises(ValueError, match="'corpus' parameter"):
        enron.load_corpus(enron.Config(corpus="/no/such/mailbox"))


@pytest.mark.slow
def test_presidio_on_the_real_mailbox(shared_data):
    if not (shared_data / "enron" / "kenneth_json.zip").is_file():
        pytest.skip("kenneth_json.zip is absent")
    r = enron.run(enron.Config(corpus="real", sanitizers=("presidio",)))
    a = r.table["presidio"]
    assert len(r.corpus) == 1290
    assert a.baseline.count == 6  # measured: Presidio leaves "Ken Lay" in 6 emails
    assert a.value > 0
