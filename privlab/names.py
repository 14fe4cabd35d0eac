"""Finding a person's or a concept's name in text: the one pattern every study uses, and
:func:`highlight`, the HTML that marks found terms in a text."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

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


@dataclass(frozen=True)
class SurnameLeaks:
    """Texts that lost a person's full name but still carry the surname or an address.

    Attributes:
        names: the full names that count as "name kept" (such texts are not counted here).
        surnames: the surnames looked for (the last word of each full name).
        count: texts with no full name and at least one surname or address form.
        total: texts examined.
        indices: positions of the counted texts.
        kinds: per kind (``"surname"``, ``"address"``), how many counted texts hold it
            (a text may hold both).
        snippets: per counted text, the first form found with up to 30 characters of
            context on each side.
    """

    names: tuple[str, ...]
    surnames: tuple[str, ...]
    count: int
    total: int
    indices: tuple[int, ...]
    kinds: dict = field(default_factory=dict)
    snippets: tuple[str, ...] = ()

    @property
    def share(self) -> float:
        """``count / total`` (0 for no texts)."""
        return self.count / self.total if self.total else 0.0


def surname_patterns(names: Iterable[str]) -> tuple[re.Pattern, re.Pattern]:
    """The two patterns of :func:`surname_leaks`: the surname, and an e-mail address.

    The surname (last word of each name) counts when written as a name is written:
    capitalised or in capitals, not glued to letters on either side (``Lay-``,
    ``Lay@ENRON``, ``Mr. Lay``, ``<PERSON> Lay``, ``LAY``; not ``Layton``, ``lay``,
    ``unLAYered``). An address is an e-mail local part made of the surname, optionally
    after a given name or its initial and a dot or underscore (``klay@``,
    ``kenneth.lay@``, ``Lay@ENRON``), in any case.

    Example:
        >>> surname, address = surname_patterns(["Ken Lay", "Kenneth Lay"])
        >>> [m.group() for m in surname.finditer("Mr. Lay, Layton, lay-off, LAY, <PERSON> Lay-")]
        ['Lay', 'LAY', 'Lay']
        >>> [m.group() for m in address.finditer("to klay@enron.com, kenneth.lay@x, play@x")]
        ['klay@', 'kenneth.lay@']
    """
    if isinstance(names, str):
        raise wrong_type("names", "surname_patterns", "a list of names", names,
                         'Wrap it in a list: ["Ken Lay"].')
    words = [n.split() for n in names if isinstance(n, str) and len(n.split()) >= 2]
    if not words:
        raise invalid("names", "surname_patterns", "full names of at least two words "
                      "(given name and surname)", list(names))
    surnames = sorted({w[-1] for w in words}, key=lambda x: (-len(x), x))
    given = sorted({w[0].rstrip(".") for w in words} | {w[0][0] for w in words},
                   key=lambda x: (-len(x), x))
    forms = []
    for sur in surnames:
        cap, up = sur[:1].upper() + sur[1:], sur.upper()
        forms.append(rf"{re.escape(cap)}(?![a-z])")
        forms.append(rf"{re.escape(up)}(?![A-Za-z])")
    surname = re.compile(r"(?<![A-Za-z])(?:" + "|".join(forms) + ")")
    first = "|".join(re.escape(g) for g in given)
    last = "|".join(re.escape(x) for x in surnames)
    address = re.compile(rf"(?<![\w.])(?:(?:{first})[._]?)?(?:{last})(?:[._]\w+)?@",
                         re.IGNORECASE)
    return surname, address


def surname_leaks(texts: Sequence[str], names: Iterable[str], *,
                  match: str = "substring") -> SurnameLeaks:
    """Count texts in which a full name was removed but the surname or an address stayed.

    The leak next to "name kept" (``<PERSON> Lay- Chairman``, ``Lay@ENRON``): texts that
    still hold a full name are not counted, so the two counts add up. A capitalised
    surname that is an ordinary word counts too; read :attr:`SurnameLeaks.snippets`
    before quoting.

    Args:
        texts: sanitized texts.
        names: the target's full names, e.g. ``["Ken Lay", "Kenneth Lay"]``.
        match: the full-name rule, ``"substring"`` (default) or ``"word"``.

    Returns:
        A :class:`SurnameLeaks`.

    Raises:
        PrivlabTypeError: ``names`` is a single string, or a text is not a string.
        PrivlabValueError: no name of two words or more, or an unknown ``match``.

    Example:
        >>> r = surname_leaks(["<PERSON> Lay- Chairman", "Ken Lay said", "write to Lay@ENRON",
        ...                    "Mr. <PERSON> agreed", "the layout"], ["Ken Lay"])
        >>> r.count, r.indices, r.kinds
        (2, (0, 2), {'surname': 2, 'address': 1})
    """
    names = list(names) if not isinstance(names, str) else names
    surname, address = surname_patterns(names)
    full = name_pattern(names, match=match)
    indices, snippets = [], []
    kinds = {"surname": 0, "address": 0}
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            raise wrong_type(f"texts[{index}]", "surname_leaks", "a str", text)
        if full.search(text):
            continue
        hits = {"surname": surname.search(text), "address": address.search(text)}
        found = [m for m in hits.values() if m is not None]
        if not found:
            continue
        indices.append(index)
        for kind, m in hits.items():
            kinds[kind] += m is not None
        m = min(found, key=lambda m: m.start())
        snippets.append(" ".join(text[max(0, m.start() - 30):m.end() + 30].split()))
    words = [n.split() for n in names if isinstance(n, str) and len(n.split()) >= 2]
    return SurnameLeaks(tuple(names), tuple(sorted({w[-1] for w in words})), len(indices),
                        len(texts), tuple(indices), kinds, tuple(snippets))


def highlight(text: str, terms: Sequence[str]) -> str:
    """HTML of ``text`` with each of ``terms`` (case-insensitive, whole words) marked.

    Example:
        >>> highlight("a superhero movie", ["superhero"])
        'a <mark>superhero</mark> movie'
    """
    escaped = html.escape(text)
    for term in sorted(set(terms), key=len, reverse=True):
        escaped = re.sub(r"(?<![\w>])(" + re.escape(html.escape(term)) + r")(?![\w<])",
                         r"<mark>\1</mark>", escaped, flags=re.IGNORECASE)
    return escaped.replace("\n", "<br>")


__all__ = ["MATCH_RULES", "SurnameLeaks", "highlight", "name_pattern", "surname_leaks",
           "surname_patterns"]
