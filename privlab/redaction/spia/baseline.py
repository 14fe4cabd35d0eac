"""The text-blind baseline: what an adversary gets without reading the document.

The ``base-rate`` adversary predicts, for each person slot, the most frequent value of
each attribute in the development split (:data:`BASE_RATE`, frozen here and recomputed by
a test); it reads the document only to count its persons. Studies report the contextual
adversary's recovery in excess of it. See docs/methods/redaction-spia-adversaries.md and docs/decisions/2026-12-05-spia-development-split.md.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Sequence

from privlab.errors import invalid
from privlab.redaction.spia.adversaries import Adversary, adversaries
from privlab.redaction.spia.records import MIN_CERTAINTY, PII, SPIARecord, Subject

#: The attributes a base rate is taken of (the NON-CODE tags but NAME).
ATTRIBUTES = ("SEX", "AGE", "LOCATION", "NATIONALITY", "EDUCATION", "RELATIONSHIP",
              "OCCUPATION", "AFFILIATION", "POSITION")
#: A value becomes a base rate when at least this many development subjects have it.
MIN_COUNT = 2
#: The certainty the baseline gives its guesses.
GUESS_CERTAINTY = 1

#: ``{"first"|"other": {tag: value}}``: the most frequent counted value (certainty >= 3)
#: per attribute on the development split, for the main person (subject 0) and for the
#: others; ties go to the alphabetically first value. From :func:`base_rate_table`.
BASE_RATE: dict[str, dict[str, str]] = {
    "first": {"SEX": "Female", "AGE": "61", "LOCATION": "Philippines", "NATIONALITY": "India",
              "EDUCATION": "College Degree", "RELATIONSHIP": "Married",
              "OCCUPATION": "Software Developer", "AFFILIATION": "Espinoza, Espinoza and Wolf"},
    "other": {"SEX": "Male", "LOCATION": "India", "NATIONALITY": "India",
              "RELATIONSHIP": "Married", "OCCUPATION": "Unemployed"},
}


def base_rate_table(records: Sequence[SPIARecord], *, min_count: int = MIN_COUNT,
                    min_certainty: int = MIN_CERTAINTY) -> dict[str, dict[str, str]]:
    """The most frequent counted value of each attribute for subject 0 and for the others.

    Keys ``"first"`` and ``"other"``; a value is kept when at least ``min_count``
    subjects have it (ties: the alphabetically first).

    Example:
        >>> r = SPIARecord("d", "", (Subject(0, "", (PII("SEX", "Male", 5),)),
        ...                          Subject(1, "", (PII("SEX", "Female", 4),))))
        >>> base_rate_table([r, r])
        {'first': {'SEX': 'Male'}, 'other': {'SEX': 'Female'}}
    """
    if int(min_count) < 1:
        raise invalid("min_count", "base_rate_table", "an integer >= 1", min_count)
    counts: dict[str, dict[str, Counter]] = {"first": {}, "other": {}}
    for record in records:
        for s in record.subjects:
            slot = "first" if s.id == 0 else "other"
            for p in s.counted_piis(min_certainty):
                if p.tag in ATTRIBUTES:
                    counts[slot].setdefault(p.tag, Counter())[p.keyword.strip()] += 1
    table: dict[str, dict[str, str]] = {}
    for slot, by_tag in counts.items():
        table[slot] = {}
        for tag in ATTRIBUTES:
            if tag in by_tag:
                value, n = sorted(by_tag[tag].items(), key=lambda kv: (-kv[1], kv[0]))[0]
                if n >= min_count:
                    table[slot][tag] = value
    return table


def base_rate_profile(n: int, table: dict[str, dict[str, str]] | None = None
                      ) -> tuple[Subject, ...]:
    """The ``n`` person slots the baseline predicts: the first with the ``"first"`` rates,
    the others with the ``"other"`` rates; no name, role or code.

    Example:
        >>> [s.description for s in base_rate_profile(2)]
        ['slot 1 of 2 (values guessed without reading)', 'slot 2 of 2 (values guessed without reading)']
    """
    table = BASE_RATE if table is None else table
    out = []
    for k in range(int(n)):
        rates = table["first" if k == 0 else "other"]
        out.append(Subject(k, f"slot {k + 1} of {n} (values guessed without reading)",
                           tuple(PII(tag, rates[tag], GUESS_CERTAINTY)
                                 for tag in ATTRIBUTES if tag in rates)))
    return tuple(out)


def _contextual_count(text: str) -> int:
    from privlab.redaction.spia.contextual import count_people

    return count_people(text)


@adversaries.member("base-rate", offline=True, weak=True,
                    description="text-blind baseline: the development split's most frequent "
                                "values for each person the text mentions")
class BaseRateAdversary(Adversary):
    """Text-blind baseline adversary (docs/methods/redaction-spia-adversaries.md).

    Args:
        counter: how many persons a text mentions (default: the contextual adversary's
            count); the only thing read from the text.
        table: the base rates (default :data:`BASE_RATE`, from the development split).

    Example:
        >>> (r,) = BaseRateAdversary(counter=lambda text: 1).infer(["anything at all"], ["d"])
        >>> sorted((p.tag, p.keyword) for p in r.subjects[0].piis)[:3]
        [('AFFILIATION', 'Espinoza, Espinoza and Wolf'), ('AGE', '61'), ('EDUCATION', 'College Degree')]
    """

    name = "base-rate (text-blind)"
    weak = True

    def __init__(self, counter: Callable[[str], int] | None = None,
                 table: dict[str, dict[str, str]] | None = None, **_options: Any):
        self.counter = counter or _contextual_count
        self.table = BASE_RATE if table is None else table
        if set(self.table) != {"first", "other"}:
            raise invalid("table", "BaseRateAdversary", "{'first': {...}, 'other': {...}}",
                          sorted(self.table))

    def _infer_one(self, text: str, data_id: str) -> Sequence[Subject]:
        return base_rate_profile(self.counter(text), self.table)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "table": "development split (frozen)"
                if self.table is BASE_RATE else "given"}


__all__ = ["ATTRIBUTES", "BASE_RATE", "BaseRateAdversary", "GUESS_CERTAINTY", "MIN_COUNT",
           "base_rate_profile", "base_rate_table"]
