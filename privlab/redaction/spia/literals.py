"""The contextual SPIA adversary's fixed values and name cues.

:func:`literal_values` lists every value the adversary can write that it does not read
from the text (a test checks each against the development set's gold annotations);
the helpers turn a first name, a user handle or an e-mail address into what they say.
"""

from __future__ import annotations

import re
from functools import lru_cache

from privlab.redaction.spia.lexicon import (EDUCATION_CUES, KIN, RELATIONSHIP_CUES, ROLES,
                                            SELF_SEX, TITLES)


@lru_cache(maxsize=1)
def _gender_detector():
    from privlab.errors import require

    module = require("gender_guesser.detector", "gender-guesser==0.4.0",
                     "The contextual SPIA adversary's first-name list")
    return module.Detector(case_sensitive=False)


def sex_of_first_name(name: str) -> tuple[str, int]:
    words = [w for w in re.split(r"[\s_.-]+", name) if len(w) > 2 and w.isalpha()]
    if not words:
        return "", 0
    verdict = _gender_detector().get_gender(words[0].capitalize())
    return {"male": ("Male", 3), "mostly_male": ("Male", 2), "female": ("Female", 3),
            "mostly_female": ("Female", 2)}.get(verdict, ("", 0))


def handle_name(handle: str) -> str:
    parts = [p for p in re.split(r"[_.\-\d]+", handle) if p]
    return " ".join(p.capitalize() if p.islower() or p.isupper() else p for p in parts)


def email_name(address: str) -> str:
    local = address.split("@", 1)[0].lower()
    m = re.fullmatch(r"([a-z])\.([a-z]{2,})\d*", local)
    if m:
        return f"{m.group(1).upper()}. {m.group(2).capitalize()}"
    parts = [p for p in re.split(r"[._\-\d]+", local) if len(p) > 1]
    return " ".join(p.capitalize() for p in parts[:2])


#: Values the contextual adversary writes that are in none of the word lists (each with
#: the rule that writes it); :func:`literal_values` adds those of the word lists.
INLINE_VALUES = (("POSITION", "Manager", "kin noun 'manager' or 'boss'"),
                 ("RELATIONSHIP", "Married", "a living spouse"),
                 ("RELATIONSHIP", "Widowed", "a spouse who died"),
                 ("RELATIONSHIP", "Divorced", "an ex- or former spouse"),
                 ("EDUCATION", "College Degree", "a role that needs a degree"))


def literal_values() -> list[tuple[str, str, str]]:
    """Every fixed value the contextual adversary can write, as ``(tag, value, rule)``:
    the roles' occupations, positions and degrees (those not built from the text's own
    words, ``"{0}"``), the kin nouns' sexes, the cues' relationships and education levels,
    the titles' and self-descriptions' sexes, and :data:`INLINE_VALUES`. Values read from
    the text (names, places, codes, ages, affiliations) are not literals.

    Example:
        >>> ("RELATIONSHIP", "Married", "a living spouse") in literal_values()
        True
    """
    out = list(INLINE_VALUES)
    for role in ROLES:
        for tag, key in (("OCCUPATION", "occupation"), ("POSITION", "position"),
                         ("EDUCATION", "degree")):
            value = role.get(key)
            if isinstance(value, str) and "{0}" not in value:
                out.append((tag, value, role["pattern"]))
    for noun, (sex, _) in KIN.items():
        if sex:
            out.append(("SEX", sex, f"kin noun {noun!r}"))
    for cue, value in RELATIONSHIP_CUES:
        out.append(("RELATIONSHIP", value, cue.pattern))
    for cue, value in EDUCATION_CUES:
        out.append(("EDUCATION", value, cue.pattern))
    for word, sex in list(TITLES.items()) + list(SELF_SEX.items()):
        if sex:
            out.append(("SEX", sex, f"word {word!r}"))
    return out
