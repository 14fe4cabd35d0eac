"""Tables for people: readable headers and names, three decimals, no NaN, no reprs."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

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
    # the current name, never the deprecated alias of the same model
    assert tables.display_name("open_clip:EVA02-E-14-plus:laion2b_s9b_b144k") == "eva02-e14-plus"
    assert tables.display_name("adapter:efficientnet-lite0:abc123") \
        == "adapter on efficientnet-lite0"
    assert tables.header(("presidio", "all-MiniLM-L6-v2")) == "presidio | minilm"
    assert tables.display_name("face-blackout-yunet | sface-t0.8-m24-b0.2-d1") \
        == "face-blackout-yunet | sface"


def test_status_cells_are_coloured_by_their_text():
    frame = pd.DataFrame({"identity": ["missed", "missed"], "presidio": ["removed", "caught"]},
                         index=pd.Index(["character", "plot"], name="leak type"))
    html = tables.present(frame, colours={"missed": "#f4a582", "removed": "#d9f0d3"}).to_html()
    cells = {text: style for style, text in re.findall(r"<td[^>]*style='([^']*)'>(\w+)</td>",
                                                        html)}
    assert "#f4a582" in cells["missed"] and "#d9f0d3" in cells["removed"]
    # "caught" has no colour given: its cell has none.
    assert "background" not in cells["caught"]


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


def test_the_headline_shows_its_first_line_and_folds_the_details_and_the_demo_caveat():
    """What a panel shows: the first line, the status beside its note, then the details and
    what it rests on folded beneath (the demo profile's caveat among the latter)."""
    demo = "demo settings, smaller than the full ones: n_images 12 (full 30)"
    headline = Headline("01 DiCaprio", "worst excess over placebo 0.000 (placebo floors up to "
                        "0.077)", "descriptive", ("12 scenes generated by privlab",),
                        details=("sface 0.000; ocr-text 0.000", "12 images, 6 sanitizers"),
                        status_note="exact resolution on this audited set")
    report = Report()
    report.headline(headline.with_caveat(demo))          # as the panel does
    (output,) = report.outputs()
    html = output["data"]["text/html"]
    first = html.index("worst excess over placebo 0.000")
    folds = [m.start() for m in re.finditer("<details", html)]
    assert len(folds) == 2 and first < folds[0] < html.index("sface 0.000; ocr-text") < folds[1]
    assert folds[1] < html.index("rests on") < html.index("demo settings, smaller")
    assert "<details open" not in html                  # folded until a click
    assert ">descriptive</span>" in html and "exact resolution on this audited set" in html
    plain = output["data"]["text/plain"].splitlines()
    assert plain[0].endswith("| worst excess over placebo 0.000 (placebo floors up to 0.077)")
    assert plain[1:3] == ["    - sface 0.000; ocr-text 0.000", "    - 12 images, 6 sanitizers"]
    assert plain[-1] == f"    rests on: {demo}"
    (parsed,) = Headline.parse(output["data"]["text/plain"])
    assert parsed.caveats[-1] == demo and parsed.details == headline.details


def test_numbered_texts_are_a_table_not_tuples():
    table = tables.numbered(["Albert Einstein in Bern", "relativity"], caption="The texts")
    assert table.frame.values.tolist() == [["0", "Albert Einstein in Bern"], ["1", "relativity"]]
    assert "(0," not in table.to_html() and "The texts" in table.to_html()


def _cells(html: str) -> list[tuple[str, str]]:
    """(style, text) of every body cell of a table's HTML."""
    return re.findall(r"<td class='[^']*' style='([^']*)'>([^<]*)</td>", html)


def test_numbers_never_wrap_and_texts_wrap_only_between_words():
    frame = pd.DataFrame({"anonymizer": ["presidio", "entity types"],
                          "CPR": [0.4734, 0.25], "n": [100, 1552],
                          "interval": ["0.41 – 0.62", "0.10 – 0.30"],
                          "note": ["kept the posters name in every frame", "—"]})
    html = tables.present(frame).to_html()
    cells = _cells(html)
    expected = {"0.473", "0.250", "100", "1552", "0.41 – 0.62", "0.10 – 0.30", "—"}
    numbers = [(style, text) for style, text in cells if text in expected]
    assert len(numbers) == 7
    assert all("white-space:nowrap" in style for style, _ in numbers)
    words = [style for style, text in cells if text in {"presidio", "entity types",
                                                        "kept the posters name in every frame"}]
    assert len(words) == 3
    assert all("white-space:normal" in s and "nowrap" not in s for s in words)
    # A squeezed cell breaks between words only, never one character per line.
    assert "anywhere" not in html


def test_a_wide_table_scrolls_in_its_own_box_with_the_first_column_fixed():
    columns = {f"sanitizer {k} | member {k}": [0.1 * k, 0.2, 0.3] for k in range(24)}
    frame = pd.DataFrame({"image": ["0: faces+logos", "1: logos", "2: food"], **columns})
    table = tables.present(frame)
    assert table.is_wide and len(table.frame.columns) == 25
    html = table.to_html()
    box = re.search(r"<div class='privlab-table-scroll privlab-wide' style='([^']*)'>", html)
    assert box and "overflow-x:auto" in box.group(1)
    assert "width:max-content" in html  # the table keeps its width and scrolls
    first = [style for style, text in _cells(html) if text.startswith(("0:", "1:", "2:"))]
    assert len(first) == 3 and all("position:sticky" in s and "left:0" in s for s in first)
    others = [style for style, text in _cells(html) if text == "0.200"]
    assert others and not any("sticky" in s for s in others)
    narrow = tables.present(frame.iloc[:, :4])
    assert not narrow.is_wide and "sticky" not in narrow.to_html()


def test_a_wide_single_row_is_turned_into_one_line_per_column():
    frame = pd.DataFrame({f"setting {k}": [k * 1.5] for k in range(12)})
    html = tables.present(frame).to_html()
    assert "privlab-turned" in html
    assert html.count("<tr>") == 1 + 12  # the header and one line per column
    assert ("white-space:nowrap", "16.500") in [("white-space:nowrap" if "nowrap" in s else s, t)
                                                for s, t in _cells(html)]


def test_a_long_table_folds_after_a_screenful_and_counts_what_is_hidden():
    frame = pd.DataFrame({"text #": range(57), "resolution": np.linspace(0, 1, 57)})
    html = tables.present(frame).to_html()
    shown, rest = html.split("<details", 1)
    assert shown.count("<tr>") == 1 + tables.FOLD
    assert "37 more rows hidden (rows 21–57 of 57)" in rest
    assert rest.count("<tr>") == 1 + 37
    assert "56" in rest and ">56<" not in shown  # the last row sits in the folded part
    # A few rows more than a screenful are shown whole rather than folded.
    assert "<details" not in tables.present(frame.iloc[:23]).to_html()
    assert "<details" in tables.present(frame.iloc[:23], fold=10).to_html()


def test_a_fold_or_width_that_is_not_a_positive_count_is_refused_by_name():
    frame = pd.DataFrame({"a": [1]})
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="'fold' parameter of present"):
            tables.present(frame, fold=bad)
    with pytest.raises(ValueError, match="'wide' parameter of present"):
        tables.present(frame, wide=0)
