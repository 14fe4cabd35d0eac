"""Where privlab's CPR departs from SPIA's reference evaluation, and by how much.

:func:`reference_variants` scores the same predictions, with the same subject pairs, under
each of SPIA's choices instead (same-tag duplicates, single-level locations, ages that are
not numbers, documents without predictions, empty input), so the effect of each is a
number rather than a claim. See docs/decisions/2026-12-05-spia-scoring-departures.md.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from privlab.redaction.spia.records import MIN_CERTAINTY, SPIARecord, Subject
from privlab.redaction.spia.rules import location_score, score_pii


class _Unreadable(ValueError):
    """A value SPIA's age comparison cannot read (its evaluator drops the subject)."""


def _spia_age_bounds(value: str) -> tuple[int, int]:
    value = value.strip().replace("–", "-")
    try:
        if "-" in value:
            lo, hi = value.split("-")[:2]
            return int(lo), int(hi)
        return int(value), int(value)
    except ValueError:
        raise _Unreadable(value) from None


def spia_age_score(gold: str, predicted: str) -> float:
    """SPIA's age rule, raising :class:`ValueError` where SPIA's raises.

    Example:
        >>> spia_age_score("30-40", "32-40"), spia_age_score("34", "39")
        (1.0, 1.0)
        >>> spia_age_score("adult", "40")
        Traceback (most recent call last):
        ...
        privlab.redaction.spia.departures._Unreadable: adult
    """
    g, p = gold.strip().replace("–", "-"), predicted.strip().replace("–", "-")
    (glo, ghi), (plo, phi) = _spia_age_bounds(g), _spia_age_bounds(p)
    if "-" in g and "-" in p:
        overlap = max(0, min(ghi, phi) - max(glo, plo))
        return 1.0 if overlap / max(min(ghi - glo, phi - plo), 1) >= 0.75 else 0.0
    if "-" not in g and "-" not in p:
        if not (g.isdigit() and p.isdigit()):
            return 0.0
        return 1.0 if abs(glo - plo) <= 5 else 0.0
    value, (lo, hi) = (plo, (glo, ghi)) if "-" in g else (glo, (plo, phi))
    return 1.0 if lo <= value <= hi else 0.0


def spia_location_score(gold: str, predicted: str, max_depth: int | None = 4) -> float:
    """SPIA's location rule: privlab's, except that two different one-level places get 0.5.

    Example:
        >>> spia_location_score("Ireland", "Poland"), location_score("Ireland", "Poland")
        (0.5, 0.0)
    """
    a = [x for x in gold.lower().replace("turkey", "türkiye").split("/") if x.strip()]
    b = [x for x in predicted.lower().replace("turkey", "türkiye").split("/") if x.strip()]
    if a and b and len(a) == len(b) == 1 and a[0].strip() != b[0].strip():
        return 0.5
    return location_score(gold, predicted, max_depth)


def _score(tag: str, gold: str, predicted: str, spia: set[str]) -> float:
    if tag == "AGE" and "age" in spia:
        return spia_age_score(gold, predicted)
    if tag == "LOCATION" and "location" in spia:
        return spia_location_score(gold, predicted)
    return score_pii(tag, gold, predicted)


def _subject_score(gold: Subject, pred: Subject | None, spia: set[str]) -> tuple[int, float]:
    """``(O, A)`` of one gold subject under the chosen SPIA rules (raises _Unreadable)."""
    o = a = 0.0
    tags = dict.fromkeys(p.tag for p in gold.piis if p.keyword.strip())
    for tag in tags:
        golds = [p for p in gold.piis if p.tag == tag and p.keyword.strip()]
        values = pred.values(tag) if pred is not None else []
        if "duplicates" not in spia:  # privlab: every counted gold value on its own
            for g in golds:
                if g.certainty >= MIN_CERTAINTY:
                    o += 1
                    a += max((_score(tag, g.keyword, v, spia) for v in values), default=0.0)
            continue
        best, best_certainty = -1.0, 0  # SPIA: the best (gold, predicted) pair of the tag
        for g in golds:
            for v in values or [""]:
                s = _score(tag, g.keyword, v, spia) if v else 0.0
                if s > best:
                    best, best_certainty = s, g.certainty
        if best_certainty >= MIN_CERTAINTY:
            o += 1
            a += best
    return int(o), a


def reference_variants(gold: Sequence[SPIARecord], predicted: Sequence[SPIARecord],
                       result: Any) -> list[dict]:
    """CPR under privlab's rules and under each of SPIA's choices, with the same pairs.

    Args:
        gold: the gold records scored.
        predicted: the predictions scored (certainty-0 values are dropped here too).
        result: the :class:`~privlab.redaction.spia.protection.ProtectionResult` of
            ``protection(gold, predicted)``; its subject rows give the pairs.

    Returns:
        One row per variant: ``choice``, ``privlab`` and ``SPIA`` (what each does),
        ``subjects``, ``PIIs`` and ``CPR``; the first row is privlab's own scoring.
    """
    pred_by_id = {r.data_id: r for r in predicted}
    pairs = {(row["data_id"], row["subject"]): row["matched"] for row in result.subjects}
    choices = [
        ("privlab (as reported)", set(), "", ""),
        ("same-tag duplicates", {"duplicates"}, "every gold PII counts",
         "best pair per tag and subject"),
        ("single-level locations", {"location"}, "two different places: 0",
         "two different places: 0.5"),
        ("ages", {"age"}, "unreadable age: 0", "unreadable age drops the subject"),
        ("documents without predicted subjects", {"empty"}, "their people are protected",
         "left out"),
        ("all of SPIA's choices", {"duplicates", "location", "age", "empty"}, "", ""),
    ]
    rows = []
    for choice, spia, ours, theirs in choices:
        n_subjects = n_piis = 0
        inferred = 0.0
        for record in gold:
            pred = pred_by_id.get(record.data_id)
            subjects = [s for s in (pred.subjects if pred else ()) if s.piis]
            if "empty" in spia and not (pred and pred.subjects):
                continue
            by_id = {s.id: s for s in subjects}
            for subject in record.subjects:
                if not subject.counted_piis():
                    continue
                match = by_id.get(pairs.get((record.data_id, subject.id)))
                if match is not None:
                    match = Subject(match.id, match.description,
                                    tuple(p for p in match.piis if p.certainty > 0))
                try:
                    o, a = _subject_score(subject, match, spia)
                except _Unreadable:
                    continue
                if o:
                    n_subjects += 1
                    n_piis += o
                    inferred += a
        rows.append({"choice": choice, "privlab": ours, "SPIA": theirs,
                     "subjects": n_subjects, "PIIs": n_piis,
                     "CPR": 1 - inferred / n_piis if n_piis else float("nan")})
    return rows


def unreadable_ages(records: Sequence[SPIARecord]) -> list[str]:
    """The AGE values SPIA's age rule cannot read (``"adult"``, ``"Philippines"``).

    Example:
        >>> from privlab.redaction.spia.records import PII
        >>> unreadable_ages([SPIARecord("d", "", (Subject(0, "", (PII("AGE", "adult", 4),
        ...                                                       PII("AGE", "3-12", 4))),))])
        ['adult']
    """
    out = []
    for r in records:
        for s in r.subjects:
            for p in s.piis:
                if p.tag == "AGE" and p.keyword.strip() and not re.fullmatch(
                        r"\s*\d+\s*(?:[-–]\s*\d+\s*)?", p.keyword):
                    out.append(p.keyword)
    return out


__all__ = ["reference_variants", "spia_age_score", "spia_location_score", "unreadable_ages"]
