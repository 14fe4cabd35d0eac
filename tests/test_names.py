"""name_pattern: whole words, any case, any whitespace between words, longest name first."""

from __future__ import annotations

import re

import pytest

from privlab.errors import PrivlabTypeError, PrivlabValueError
from privlab.names import name_pattern


def test_returns_a_compiled_case_insensitive_pattern():
    pattern = name_pattern(["Ken Lay"])
    assert isinstance(pattern, re.Pattern)
    assert pattern.flags & re.IGNORECASE
    assert pattern.findall("KEN LAY, ken lay and Ken Lay") == ["KEN LAY", "ken lay", "Ken Lay"]


def test_whole_words_only():
    pattern = name_pattern(["Lay"])
    assert pattern.findall("Layton laid the Layla lay-off; Lay.") == ["lay", "Lay"]
    assert not pattern.search("Kenneth Layton")
    assert not pattern.search("unLAYered")
    # An underscore or a digit is part of a word; punctuation is not.
    assert not pattern.search("lay_out") and not pattern.search("lay2")
    assert [m.span() for m in pattern.finditer("(Lay)")] == [(1, 4)]
    assert not name_pattern(["Ken Lay"]).search("Kenneth Layton")


def test_words_may_be_separated_by_any_whitespace():
    pattern = name_pattern(["Ken Lay"])
    assert pattern.search("from KEN\nLAY today").group(0) == "KEN\nLAY"
    assert pattern.search("Ken \t Lay").group(0) == "Ken \t Lay"
    assert pattern.search("Ken\r\n  Lay").group(0) == "Ken\r\n  Lay"
    # ... but there must be whitespace.
    assert not pattern.search("KenLay")
    assert not pattern.search("Ken-Lay")
    # Extra spaces inside a listed name do not matter either.
    assert name_pattern(["  Ken    Lay "]).pattern == pattern.pattern


def test_longest_name_matches_first():
    # "Ken" alone listed first must not shadow "Ken Lay".
    pattern = name_pattern(["Ken", "Lay", "Ken Lay"])
    assert pattern.findall("Ken Lay met Ken and Lay") == ["Ken Lay", "Ken", "Lay"]
    assert [m.span() for m in pattern.finditer("Ken Lay")] == [(0, 7)]
    # A three-word name beats the two-word name it starts with.
    pattern = name_pattern(["Ken Lay", "Ken Lay Jr"])
    assert pattern.findall("Ken Lay Jr and Ken Lay") == ["Ken Lay Jr", "Ken Lay"]


def test_longest_first_counts_words_not_spaces():
    pattern = name_pattern(["Ken      Lay", "Ken Lay Jr"])
    assert pattern.search("Ken Lay Jr").group(0) == "Ken Lay Jr"


def test_regex_characters_in_names_are_literal():
    pattern = name_pattern(["E = mc²", "A.B."])
    assert pattern.search("the equation E = MC² again").group(0) == "E = MC²"
    assert not pattern.search("AxBx")
    assert pattern.search("the A.B. case")


def test_duplicates_blanks_and_non_strings_are_ignored():
    pattern = name_pattern(["Lay", "lay", "Lay", "", "   ", None, 3])
    assert pattern.findall("Lay and LAY") == ["Lay", "LAY"]
    assert pattern.pattern.count("Lay") + pattern.pattern.count("lay") == 2


def test_any_iterable_of_names():
    assert name_pattern(("Ken Lay",)).search("ken lay")
    assert name_pattern(n for n in ["Ken Lay"]).search("ken lay")
    assert name_pattern({"Ken Lay"}).search("ken lay")


def test_refuses_a_bare_string():
    with pytest.raises(PrivlabTypeError) as info:
        name_pattern("Ken Lay")
    message = str(info.value)
    assert message.startswith("The 'names' parameter of name_pattern must be a list of names. "
                              "Got str instead.")
    assert 'Wrap it in a list: ["Ken Lay"].' in message
    assert isinstance(info.value, TypeError)


@pytest.mark.parametrize("names", [[], ["", "  "], [None]])
def test_refuses_an_empty_list(names):
    with pytest.raises(PrivlabValueError) as info:
        name_pattern(names)
    message = str(info.value)
    assert message.startswith("The 'names' parameter of name_pattern must be "
                              "a non-empty list of names.")
    assert f"Got {names!r} instead." in message
    assert isinstance(info.value, ValueError)


def test_surname_leaks_counts_forms_presidio_leaves_and_not_the_name_kept():
    from privlab.names import surname_leaks

    texts = ["From: <PERSON> Lay- Chairman of the Board@ENRON",   # surname after a mask
             "<PERSON>, <PERSON> Lay@ENRON, <PERSON>",           # address
             "Dear Mr. Lay, thank you",                            # title and surname
             "Lay, a <LOCATION> native, earned a PhD",             # biography
             "To: <PERSON> LAY",                                   # capitals
             "write to klay@enron.com today",                      # address, lower case
             "Ken Lay and Mr. Lay",                                # name kept: not counted
             "the layout, a lay person, Layton, unLAYered, play@x",  # none of these
             "Mr. <PERSON> agreed"]
    r = surname_leaks(texts, ["Ken Lay", "Kenneth Lay"])
    assert r.indices == (0, 1, 2, 3, 4, 5) and r.count == 6 and r.total == 9
    assert r.share == pytest.approx(6 / 9)
    assert r.kinds == {"surname": 5, "address": 2}  # "Lay- Chairman ...@ENRON": surname
    assert r.surnames == ("Lay",) and r.snippets[2] == "Dear Mr. Lay, thank you"
    # whole-word full names leave the glued form to this count
    glued = surname_leaks(["=09Ken Lay@ENRON"], ["Ken Lay"], match="word")
    assert glued.count == 1 and glued.kinds["address"] == 1
    assert surname_leaks(["=09Ken Lay@ENRON"], ["Ken Lay"]).count == 0  # substring: name kept


def test_surname_leaks_refuses_bad_names_and_texts():
    from privlab.names import surname_leaks

    with pytest.raises(PrivlabTypeError, match="names"):
        surname_leaks(["x"], "Ken Lay")
    with pytest.raises(PrivlabValueError, match="two words"):
        surname_leaks(["x"], ["Lay"])
    with pytest.raises(PrivlabTypeError, match=r"texts\[1\]"):
        surname_leaks(["x", 3], ["Ken Lay"])
