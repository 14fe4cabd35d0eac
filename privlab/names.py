"""Finding a person's or a concept's name in text: the one pattern every study uses."""

from __future__ import annotations

import re
from typing import Iterable

from privlab.errors import invalid, wrong_type


def name_pattern(names: Iterable[str]) -> re.Pattern:
    """Case-insensitive whole-word pattern for any of ``names`` (longest first).

    Words of a name may be separated by any whitespace (a line break included).

    Example:
        >>> bool(name_pattern(["Ken Lay"]).search("from KEN\\nLAY today"))
        True
        >>> bool(name_pattern(["Ken Lay"]).search("Kenneth Layton"))
        False
    """
    if isinstance(names, str):
        raise wrong_type("names", "name_pattern", "a list of names", names,
                         'Wrap it in a list: ["Ken Lay"].')
    # Compare names by their words, so "Ken  Lay" and "Ken Lay" are one name and the
    # longest (in words and characters) is tried first; ties in alphabetical order.
    phrases = sorted({" ".join(n.split()) for n in names if isinstance(n, str) and n.strip()},
                     key=lambda p: (-len(p), p))
    if not phrases:
        raise invalid("names", "name_pattern", "a non-empty list of names", list(names))
    parts = [r"\s+".join(re.escape(w) for w in p.split()) for p in phrases]
    return re.compile(r"(?<!\w)(?:" + "|".join(parts) + r")(?!\w)", re.IGNORECASE)


__all__ = ["name_pattern"]
