"""Finding a person's or a concept's name in text: the one pattern every study uses."""

from __future__ import annotations

import re
from typing import Iterable

from privlab.errors import invalid, wrong_type


MATCH_RULES = ("word", "substring")


def name_pattern(names: Iterable[str], *, match: str = "word") -> re.Pattern:
    """Case-insensitive pattern for any of ``names`` (longest first).

    Words of a name may be separated by any whitespace (a line break included).

    Args:
        names: the names.
        match: ``"word"`` (the default): a name must stand as whole words, so
            ``Kenneth Layton`` is no match for "Ken Lay". ``"substring"``: a name counts
            anywhere, also glued to other word characters (``=09Ken Lay@ENRON``,
            ``Memo_Ken Lay``), the rule of a plain case-insensitive string search.

    Example:
        >>> bool(name_pattern(["Ken Lay"]).search("from KEN\\nLAY today"))
        True
        >>> bool(name_pattern(["Ken Lay"]).search("Kenneth Layton"))
        False
        >>> bool(name_pattern(["Ken Lay"], match="substring").search("=09Ken Lay@ENRON"))
        True
    """
    if isinstance(names, str):
        raise wrong_type("names", "name_pattern", "a list of names", names,
                         'Wrap it in a list: ["Ken Lay"].')
    if match not in MATCH_RULES:
        raise invalid("match", "name_pattern", f"one of {list(MATCH_RULES)}", match)
    # Compare names by their words, so "Ken  Lay" and "Ken Lay" are one name and the
    # longest (in words and characters) is tried first; ties in alphabetical order.
    phrases = sorted({" ".join(n.split()) for n in names if isinstance(n, str) and n.strip()},
                     key=lambda p: (-len(p), p))
    if not phrases:
        raise invalid("names", "name_pattern", "a non-empty list of names", list(names))
    parts = [r"\s+".join(re.escape(w) for w in p.split()) for p in phrases]
    body = "(?:" + "|".join(parts) + ")"
    if match == "word":
        body = r"(?<!\w)" + body + r"(?!\w)"
    return re.compile(body, re.IGNORECASE)


__all__ = ["MATCH_RULES", "name_pattern"]
