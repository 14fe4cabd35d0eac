"""Tables for people: readable headers and names, three decimals, no NaN, no reprs."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from privlab.studies import Headline, avengers
from privlab.ui import tables
from privlab.ui.report import Report


def test_a_study_table_gets_readable_headers_numbers_and_names():
    result = avengers.run(avengers.Config.smoke(encoders=("lexical",)))
    frame = result.to_frame()
    assert (frame["encoder"] == "lexical-2048").all()  # the fingerprint the study records
    table = tables.present(frame)
    assert "name matches" in table.frame.columns and "name_matches" not in table.frame.columns
    assert set(table.frame["encoder"]) == {"lexical"}
    assert table.frame["witness"].str.match(r"^x\d+ → y\d+$").all()
    for column in ("resolution", "utility"):
        assert table.frame[column].str.match(r"^-?\d+\.\d{3}$").all(), column
    assert table.frame["name share"].str.endswith("%").all()
    html = table.to_html()
    assert re.search(r"position:\s*sticky", html)  # 14 columns: the first stays in view
    assert not re.search(r"\d\.\d{4,}", html) and "nan" not in html.lower()


def test_missing_and_infinite_values_become_symbols_with_a_legend():
    frame = pd.DataFrame({"method": ["a", "b", "c"],
                          "epsilon_lower": [0.5, float("nan"), float("inf")],
                          "count": [1, 2, 3]})
    table = tables.present(frame, caption="bounds")
    assert table.frame["epsilon lower"].tolist() == ["0.500", "—", "+∞"]
    assert table.frame["count"].tolist() == ["1", "2", "3"]
    assert table.legend == ("— no value (not applicable or not measured)",
                            "+∞ unbounded (no finite value)")
    html = table.to_html()
    assert "bounds" in html and "+∞ unbounded" in html
    narrow = tables.present(frame)
    assert "sticky" not in narrow.to_html()


def test_numbers_round_without_losing_their_kind():
    assert tables.number(np.float32(0.123456)) == "0.123"
    assert tables.number(-0.0001) == "0.000"
    assert tables.number(np.int64(12)) == "12"
    assert tables.number(np.bool_(False)) == "no"
    assert tables.number(-math.inf) == "−∞"
    assert tables.number(pd.NA) == "—"
    assert tables.number(0.5, percent=True) == "50.0%"


def test_a_series_and_a_named_index_are_tables_not_reprs():
    floors = pd.Series({"sface": 0.0, "efficientnet-lite0-imagenet": 0.0731}, name="placebo floor")
    floors.index.name = "member"
    table = tables.present(floors)
    assert list(table.frame.columns) == ["member", "placebo floor"]
    assert table.frame.values.tolist() == [["sface", "0.000"], ["efficientnet-lite0", "0.073"]]
    assert "dtype" not in table.to_html()


def test_encoder_fingerprints_read_as_their_registry_names():
    assert tables.display_name("describe[ocr+faces+labels]-minilm-g3e26b6d4-m0.363-f0.8-l0.5") \
        == "describe-then-embed (ocr+faces+labels)"
    assert tables.display_name("open_clip:ViT-B-32:laion2b_s34b_b79k") == "clip-vit-b-32"
    assert tables.display_name("adapter:efficientnet-lite0:abc123") \
        == "adapter on efficientnet-lite0"
    assert tables.header(("presidio", "all-MiniLM-L6-v2")) == "presidio | minilm"
    assert tables.display_name("face-blackout-yunet | sface-t0.8-m24-b0.2-d1") \
        == "face-blackout-yunet | sface"


def test_status_cells_are_coloured_by_their_text():
    frame = pd.DataFrame({"identity": ["missed", "missed"], "presidio": ["removed", "caught"]},
                         index=pd.Index(["character", "plot"], name="leak type"))
    html = tables.present(frame, colours={"missed": "#f4a582", "removed": "#d9f0d3"}).to_html()
    assert "#f4a582" in html and "#d9f0d3" in html
    # "caught" has no colour given: its cell has none.
    # Columns: the index (leak type), identity, presidio.
    caught = re.search(r'id="(T_\w+_row1_col2)"[^>]*>caught', html).group(1)
    missed = re.search(r'id="(T_\w+_row1_col1)"[^>]*>missed', html).group(1)
    rule = lambda cell: re.findall(r"([^{}]*#" + cell + r"[^{}]*)\{([^}]*)\}", html)  # noqa: E731
    assert any("#f4a582" in body for _, body in rule(missed))
    assert not any("background" in body for _, body in rule(caught))


def test_a_witness_wraps_whole_texts_and_marks_the_retained_phrase():
    long = "word " * 80 + "Last Light grossed over 2.6 billion worldwide."
    html = tables.witness_html(long, "People forget that Last Light grossed 2.6 billion.",
                               "People forget that ████ █████ grossed 2.6 billion.",
                               terms=["Last Light", "billion"], difference=0.1104,
                               title="concept-list under minilm")
    assert "<mark>Last Light</mark>" in html and "<mark>billion</mark>" in html
    assert "worldwide." in html and "..." not in html  # nothing cut off
    assert "signed difference 0.110" in html and "white-space:normal" in html


def test_the_headline_is_one_styled_block_with_status_and_caveats():
    headline = Headline("03 Avengers", "best concept-list: resolution 0.072", "diagnostic",
                        ("stand-in data", "encoders: minilm"))
    html = tables.headline_html(headline)
    assert html.count("privlab-headline") == 1
    assert "diagnostic" in html and "stand-in data" in html and "rests on" in html
    report = Report()
    report.headline(headline)
    (output,) = report.outputs()
    assert Headline.parse(output["data"]["text/plain"]) == [headline]


def test_numbered_texts_are_a_table_not_tuples():
    table = tables.numbered(["Albert Einstein in Bern", "relativity"], caption="The texts")
    assert table.frame.values.tolist() == [["0", "Albert Einstein in Bern"], ["1", "relativity"]]
    assert "(0," not in table.to_html() and "The texts" in table.to_html()
