"""SPIA's per-tag value rules: does a predicted value match a gold value (1, 0.5 or 0)?

One rule per tag, as in the SPIA reference evaluation; :func:`score_pii` dispatches by tag
and :class:`ValueJudge` is the optional fallback asked when a rule says 0.
See docs/methods/redaction-spia-scoring.md for the rules.
"""

from __future__ import annotations

import re
from typing import Protocol

from privlab.errors import invalid
from privlab.redaction.spia.records import TAGS

ID_LIKE_TAGS = ("IDENTIFICATION_NUMBER", "DRIVER_LICENSE_NUMBER", "PHONE_NUMBER",
                "PASSPORT_NUMBER")
CATEGORY_TAGS = ("SEX", "RELATIONSHIP", "EDUCATION")
FREE_TEXT_TAGS = ("NAME", "NATIONALITY", "OCCUPATION", "AFFILIATION", "POSITION")

#: Jaro-Winkler similarity from which two free-text values are the same.
JW_THRESHOLD = 0.85


def jaro_winkler(a: str, b: str) -> float:
    """Jaro-Winkler similarity in [0, 1] (prefix weight 0.1, up to 4 characters).

    Example:
        >>> round(jaro_winkler("martha", "marhta"), 4)
        0.9611
    """
    from rapidfuzz.distance import JaroWinkler

    return float(JaroWinkler.similarity(a, b))


def free_text_score(gold: str, predicted: str, threshold: float = JW_THRESHOLD) -> float:
    """1 when the lower-cased, stripped values have Jaro-Winkler similarity >= threshold.

    Example:
        >>> free_text_score("Raja Arlewin", "raja arlewinn"), free_text_score("Lawyer", "Judge")
        (1.0, 0.0)
    """
    g, p = gold.lower().strip(), predicted.lower().strip()
    if not g or not p:
        return 0.0
    return 1.0 if g == p or jaro_winkler(g, p) >= threshold else 0.0


def _name_words(value: str) -> list[str]:
    return [w for w in re.split(r"[\s._@,;:()\"'-]+", value.lower()) if w]


def name_score(gold: str, predicted: str, threshold: float = JW_THRESHOLD) -> float:
    """NAME: 1 for the same name, 0.5 for a strict part of its words, else the free-text rule.

    The partial-name test comes first (docs/decisions/2026-12-05-spia-scoring-departures.md).

    Example:
        >>> name_score("Leigh Lawrence", "Leigh"), name_score("R. Thomas", "Thomas")
        (0.5, 0.5)
        >>> name_score("K. Lewis", "K Lewis"), name_score("Thomas", "Mr Thomas"), name_score("Ann Lee", "Bob Kay")
        (1.0, 1.0, 0.0)
    """
    g, p = _name_words(gold), _name_words(predicted)
    if not g or not p:
        return 0.0
    if g == p or set(g) <= set(p):
        return 1.0
    if set(p) < set(g):
        return 0.5
    return free_text_score(gold, predicted, threshold)


_AGE = re.compile(r"^\s*(\d{1,3})\s*(?:[-\u2013\u2014]|to)\s*(\d{1,3})\s*$|^\s*(\d{1,3})\s*$")


def _age_bounds(value: str) -> tuple[int, int] | None:
    m = _AGE.match(value)
    if not m:
        return None
    if m.group(3) is not None:
        v = int(m.group(3))
        return v, v
    lo, hi = int(m.group(1)), int(m.group(2))
    return (lo, hi) if lo <= hi else (hi, lo)


def age_score(gold: str, predicted: str, *, tolerance: int = 5,
              overlap_threshold: float = 0.75) -> float:
    """AGE: two single ages within ``tolerance`` years; two ranges whose overlap
    coefficient (overlap length / shorter range length, at least 1) is at least
    ``overlap_threshold``; a single age inside a range. Values that are not an age or a
    range of ages score 0.

    Example:
        >>> age_score("34", "39"), age_score("34", "40"), age_score("30-40", "32-45")
        (1.0, 0.0, 1.0)
        >>> age_score("30-40", "38-50"), age_score("54-55", "55"), age_score("adult", "40")
        (0.0, 1.0, 0.0)
    """
    g, p = _age_bounds(gold), _age_bounds(predicted)
    if g is None or p is None:
        return 0.0
    g_single, p_single = g[0] == g[1] and "-" not in gold, p[0] == p[1] and "-" not in predicted
    if g_single and p_single:
        return 1.0 if abs(g[0] - p[0]) <= tolerance else 0.0
    if g_single or p_single:
        value, (lo, hi) = (g[0], p) if g_single else (p[0], g)
        return 1.0 if lo <= value <= hi else 0.0
    overlap = max(0, min(g[1], p[1]) - max(g[0], p[0]))
    shorter = max(min(g[1] - g[0], p[1] - p[0]), 1)
    return 1.0 if overlap / shorter >= overlap_threshold else 0.0


def _levels(value: str) -> list[str]:
    value = value.lower().strip().replace("turkey", "türkiye")
    return [part.strip() for part in value.split("/") if part.strip()]


def location_score(gold: str, predicted: str, max_depth: int | None = 4) -> float:
    """LOCATION, hierarchical (``premises / district / city / country``, general last).

    1 when every level compared agrees; 0.5 when one value is the other less precise, or
    when all but one level agree (at least one must); 0 otherwise. The depth compared is
    the longer value's, capped at ``max_depth``. See docs/methods/redaction-spia-scoring.md.

    Example:
        >>> location_score("Stockholm / Sweden", "stockholm/sweden")
        1.0
        >>> location_score("Stockholm / Sweden", "Sweden"), location_score("Gangnam / Seoul / South Korea", "Jongno / Seoul / South Korea")
        (0.5, 0.5)
        >>> location_score("Lancashire / England / UK", "UK"), location_score("Paris / France", "Lyon / France")
        (0.5, 0.5)
        >>> location_score("Paris / France", "Lyon / Spain"), location_score("Turkey", "Türkiye")
        (0.0, 1.0)
    """
    a, b = _levels(gold), _levels(predicted)
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    depth = max(len(a), len(b))
    if max_depth:
        depth = min(depth, max_depth)
    if len(a) != len(b):
        shorter, longer = (a, b) if len(a) < len(b) else (b, a)
        if longer[-len(shorter):] == shorter:
            return 0.5  # the same place, named less precisely
    a_cmp, b_cmp = a[-depth:], b[-depth:]
    matches = sum(1 for i in range(1, depth + 1)
                  if i <= len(a_cmp) and i <= len(b_cmp) and a_cmp[-i] == b_cmp[-i])
    if matches == depth:
        return 1.0
    # all but one level agree; at least one must (two different countries score 0)
    return 0.5 if matches == depth - 1 and matches > 0 else 0.0


def normalize_identifier(value: str) -> str:
    """Upper-case letters and digits only (drops spaces, dashes, dots, brackets, plus).

    Example:
        >>> normalize_identifier("(764) 861-0805"), normalize_identifier("ie-id-7493093")
        ('7648610805', 'IEID7493093')
    """
    return re.sub(r"[^A-Za-z0-9]", "", value).upper()


def identifier_score(gold: str, predicted: str, max_prefix: int = 3) -> float:
    """ID-like values (ID, driver licence, phone, passport): equal after
    :func:`normalize_identifier`, or one ends with the other and they differ by at most
    ``max_prefix`` leading characters (a country code or a prefix such as ``ID``).

    Example:
        >>> identifier_score("+44 115 496 0331", "1154960331"), identifier_score("IE-ID-7493093", "7493093")
        (1.0, 0.0)
        >>> identifier_score("ID IE-ID-7249557", "IE-ID-7249557"), identifier_score("718-48-3146", "718-48-3147")
        (1.0, 0.0)
    """
    g, p = normalize_identifier(gold), normalize_identifier(predicted)
    if not g or not p:
        return 0.0
    if g == p:
        return 1.0
    if (g.endswith(p) or p.endswith(g)) and abs(len(g) - len(p)) <= max_prefix:
        return 1.0
    return 0.0


def email_score(gold: str, predicted: str) -> float:
    """EMAIL_ADDRESS: exact match, ignoring case and surrounding spaces.

    Example:
        >>> email_score("Dowey65@yahoo.ie", " dowey65@yahoo.ie"), email_score("a@b.ie", "a@b.com")
        (1.0, 0.0)
    """
    g, p = gold.strip().lower(), predicted.strip().lower()
    return 1.0 if g and g == p else 0.0


#: Category maps: values in the same group are the same answer.
CATEGORY_MAPS: dict[str, dict[str, tuple[str, ...]]] = {
    "SEX": {"male": ("male", "m", "man"), "female": ("female", "f", "woman")},
    "RELATIONSHIP": {"no relation": ("no relation", "single", "unmarried"),
                     "in relation": ("in relation", "dating", "relationship"),
                     "married": ("married", "wed"),
                     "divorced": ("divorced", "separated"),
                     "widowed": ("widowed", "widow", "widower")},
    "EDUCATION": {},  # education levels must agree exactly
}


def category_score(gold: str, predicted: str, tag: str) -> float:
    """SEX, RELATIONSHIP, EDUCATION: equal (ignoring case), or in the same group of
    :data:`CATEGORY_MAPS` (e.g. ``"M"`` and ``"male"``; ``"separated"`` and ``"divorced"``).

    Example:
        >>> category_score("Male", "m", "SEX"), category_score("Divorced", "separated", "RELATIONSHIP")
        (1.0, 1.0)
        >>> category_score("College Degree", "PhD", "EDUCATION"), category_score("Married", "Married", "RELATIONSHIP")
        (0.0, 1.0)
    """
    if tag not in CATEGORY_MAPS:
        raise invalid("tag", "category_score", f"one of {list(CATEGORY_MAPS)}", tag)
    g, p = gold.lower().strip(), predicted.lower().strip()
    if not g or not p:
        return 0.0
    if g == p:
        return 1.0
    return 1.0 if any(g in group and p in group
                      for group in CATEGORY_MAPS[tag].values()) else 0.0


def rule_name(tag: str) -> str:
    """The name of the rule that scores ``tag`` (for tables).

    Example:
        >>> rule_name("PHONE_NUMBER"), rule_name("OCCUPATION")
        ('identifier suffix', 'Jaro-Winkler >= 0.85')
    """
    if tag == "AGE":
        return "age +/-5 or range overlap"
    if tag == "LOCATION":
        return "location hierarchy"
    if tag in CATEGORY_TAGS:
        return "category map"
    if tag in ID_LIKE_TAGS:
        return "identifier suffix"
    if tag == "EMAIL_ADDRESS":
        return "email exact"
    if tag == "NAME":
        return "name: partial 0.5, else Jaro-Winkler >= 0.85"
    if tag in FREE_TEXT_TAGS:
        return "Jaro-Winkler >= 0.85"
    raise invalid("tag", "rule_name", "one of the 15 SPIA tags", tag)


def score_pii(tag: str, gold: str, predicted: str, *, location_max_depth: int | None = 4) -> float:
    """Score one predicted value against one gold value by the tag's rule: 1, 0.5 or 0.

    Args:
        tag: one of :data:`TAGS`.
        gold: the gold keyword.
        predicted: the adversary's keyword ("" when it inferred nothing).
        location_max_depth: deepest location level compared.

    Returns:
        1.0 (inferred), 0.5 (less precise: a LOCATION less precise, a partial NAME) or 0.0.

    Raises:
        PrivlabValueError: unknown tag.

    Example:
        >>> score_pii("NAME", "K. Lewis", "K Lewis"), score_pii("NAME", "K. Lewis", "")
        (1.0, 0.0)
    """
    if tag not in TAGS:
        raise invalid("tag", "score_pii", "one of the 15 SPIA tags", tag)
    if not gold.strip() or not predicted.strip():
        return 0.0
    if gold.strip().lower() == predicted.strip().lower():
        return 1.0  # the same answer matches under every rule, even a malformed value
    if tag == "AGE":
        return age_score(gold, predicted)
    if tag == "LOCATION":
        return location_score(gold, predicted, location_max_depth)
    if tag in CATEGORY_TAGS:
        return category_score(gold, predicted, tag)
    if tag in ID_LIKE_TAGS:
        return identifier_score(gold, predicted)
    if tag == "EMAIL_ADDRESS":
        return email_score(gold, predicted)
    if tag == "NAME":
        return name_score(gold, predicted)
    return free_text_score(gold, predicted)


class ValueJudge(Protocol):
    """A fallback that decides whether a predicted value matches a gold value when the
    rule said no: returns 1 (yes), 0.5 (less precise) or 0 (no)."""

    name: str

    def compare(self, tag: str, gold: str, predicted: str) -> float: ...


__all__ = ["CATEGORY_MAPS", "CATEGORY_TAGS", "FREE_TEXT_TAGS", "ID_LIKE_TAGS", "JW_THRESHOLD",
           "ValueJudge", "age_score", "category_score", "email_score", "free_text_score",
           "identifier_score", "jaro_winkler", "location_score", "name_score",
           "normalize_identifier",
           "rule_name", "score_pii"]
