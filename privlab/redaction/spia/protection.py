"""SPIA protection: CPR and IPR of an adversary's predicted profiles against gold.

For every person in a document (a *subject*), how much of what the original text reveals
about them an adversary still infers from the anonymized text, scored as SPIA's reference
evaluation does (``CPR = 1 - sum A_i / sum O_i``, ``IPR = mean 1 - A_i / O_i``).
Descriptive numbers for one adversary on one dataset, never a guarantee.
See docs/methods/redaction-spia-scoring.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

from privlab.errors import invalid, wrong_type
from privlab.redaction.spia.matching import OfflineMatcher, SubjectMatcher
from privlab.redaction.spia.records import MIN_CERTAINTY, PII, TAGS, SPIARecord, Subject
from privlab.redaction.spia.rules import ValueJudge, rule_name, score_pii


@dataclass
class ProtectionResult:
    """CPR and IPR of one adversary against one gold file, with every score behind them.

    Attributes:
        cpr: 1 - sum A_i / sum O_i (1 = nothing inferable, 0 = everything).
        ipr: mean over subjects of 1 - A_i / O_i.
        n_subjects: counted gold subjects N.
        n_piis: counted gold PIIs sum O_i.
        inferred: sum A_i (scores 1 / 0.5 / 0 added up).
        target: CPR/IPR over target subjects (subject id 0, the document's main person).
        non_target: CPR/IPR over every other subject.
        by_tag: tag -> (counted PIIs, inferred score, CPR).
        subjects: per-subject rows (data_id, subject, description, target, O, A, protection).
        piis: per-PII rows (gold and predicted value, both certainties, score, rule).
        status: what the numbers are (descriptive, one adversary).
        provenance: adversary, matcher, settings, data digest, and
            ``dropped_zero_certainty``: predicted values with certainty 0 left unscored.
    """

    cpr: float
    ipr: float
    n_subjects: int
    n_piis: int
    inferred: float
    target: dict[str, float]
    non_target: dict[str, float]
    by_tag: dict[str, tuple[int, float, float]]
    subjects: list[dict]
    piis: list[dict]
    status: str = ("descriptive: protection against this adversary on this data; a "
                   "stronger adversary can only lower it")
    provenance: dict = field(default_factory=dict)

    def to_frame(self):
        """One row per metric: value and counts (pandas DataFrame)."""
        import pandas as pd

        rows = [("CPR", self.cpr, self.n_subjects, self.n_piis),
                ("IPR", self.ipr, self.n_subjects, self.n_piis),
                ("CPR target", self.target["cpr"], self.target["n_subjects"],
                 self.target["n_piis"]),
                ("CPR non-target", self.non_target["cpr"], self.non_target["n_subjects"],
                 self.non_target["n_piis"])]
        return pd.DataFrame(rows, columns=["metric", "value", "subjects", "PIIs"])

    def tag_frame(self):
        """Per-tag CPR (pandas DataFrame, one row per tag that has counted PIIs)."""
        import pandas as pd

        return pd.DataFrame([(t, n, a, c) for t, (n, a, c) in self.by_tag.items()],
                            columns=["tag", "PIIs", "inferred", "CPR"])

    def subject_frame(self):
        """Per-subject protection, least protected first (pandas DataFrame)."""
        import pandas as pd

        frame = pd.DataFrame(self.subjects)
        return frame.sort_values(["protection", "O"], ascending=[True, False]) \
            .reset_index(drop=True) if len(frame) else frame

    def pii_frame(self):
        """Every counted gold PII with the best predicted value and its score."""
        import pandas as pd

        return pd.DataFrame(self.piis)

    def certainty_frame(self):
        """Recovery per certainty level 1-5 the adversary gave the value (pandas DataFrame).

        Low-certainty recoveries are guesses the adversary itself doubted.

        Example:
            >>> g = [SPIARecord("d", "", (Subject(0, "", (PII("SEX", "Male", 5),
            ...                                             PII("AGE", "40", 5))),))]
            >>> p = [SPIARecord("d", "", (Subject(0, "", (PII("SEX", "Male", 4),
            ...                                             PII("AGE", "41", 1))),))]
            >>> protection(g, p).certainty_frame()[["recovered", "share"]].values.tolist()
            [[1.0, 0.5], [0.0, 0.0], [0.0, 0.0], [1.0, 0.5], [0.0, 0.0]]
        """
        import pandas as pd

        total = sum(r["score"] for r in self.piis)
        rows = []
        for level in range(1, 6):
            hits = [r for r in self.piis if r["score"] > 0
                    and r.get("predicted_certainty") == level]
            score = float(sum(r["score"] for r in hits))
            rows.append({"certainty": level, "PIIs": len(hits), "recovered": score,
                         "share": score / total if total else float("nan")})
        return pd.DataFrame(rows)

    def _repr_html_(self) -> str:
        head = (f"<p><b>SPIA protection</b> — CPR {self.cpr:.3f}, IPR {self.ipr:.3f} over "
                f"{self.n_subjects} subjects and {self.n_piis} PIIs "
                f"({self.provenance.get('adversary', '?')}, matcher "
                f"{self.provenance.get('matcher', '?')}). <i>{self.status}</i></p>")
        return head + self.to_frame().to_html(index=False, float_format="%.3f")


def _rates(rows: list[dict]) -> dict[str, float]:
    o = sum(r["O"] for r in rows)
    a = sum(r["A"] for r in rows)
    return {"cpr": 1.0 - a / o if o else float("nan"),
            "ipr": sum(r["protection"] for r in rows) / len(rows) if rows else float("nan"),
            "n_subjects": len(rows), "n_piis": o}


def _by_data_id(records: Sequence[SPIARecord], parameter: str) -> dict[str, SPIARecord]:
    """``{data_id: record}``, refusing a non-record and a data_id given twice."""
    table: dict[str, SPIARecord] = {}
    first: dict[str, int] = {}
    for index, record in enumerate(records):
        if not isinstance(record, SPIARecord):
            raise wrong_type(parameter, "protection", "a list of SPIARecord", record)
        if record.data_id in table:
            raise invalid(parameter, "protection", "one record per data_id",
                          f"data_id {record.data_id!r} at positions {first[record.data_id]} "
                          f"and {index}", given_is_text=True,
                          fix="Keep one record per document; none is chosen silently.")
        table[record.data_id] = record
        first[record.data_id] = index
    return table


def _without_zero_certainty(record: SPIARecord) -> tuple[SPIARecord, int]:
    """The record without certainty-0 values, and how many non-empty ones were dropped."""
    dropped = sum(1 for s in record.subjects for p in s.piis
                  if p.certainty == 0 and p.keyword.strip())
    if not dropped:
        return record, 0
    subjects = tuple(replace(s, piis=tuple(p for p in s.piis if p.certainty > 0))
                     for s in record.subjects)
    return replace(record, subjects=subjects), dropped


def score_subject(gold: Subject, predicted: Subject | None, *,
                  min_certainty: int = MIN_CERTAINTY,
                  fallback: ValueJudge | None = None,
                  location_max_depth: int | None = 4) -> list[tuple[PII, str, float]]:
    """Score each counted gold PII of one subject against a predicted subject.

    The best :func:`score_pii` over the predicted values of the tag is kept; where it is
    0, a ``fallback`` judge decides.

    Returns:
        ``(gold PII, best predicted value, score)`` per counted gold PII.

    Example:
        >>> g = Subject(0, "", (PII("AGE", "54-55", 5), PII("SEX", "Male", 4)))
        >>> p = Subject(0, "", (PII("AGE", "50", 3), PII("AGE", "55", 3)))
        >>> [(x.tag, v, s) for x, v, s in score_subject(g, p)]
        [('AGE', '55', 1.0), ('SEX', '', 0.0)]
    """
    out = []
    for pii in gold.counted_piis(min_certainty):
        best_value, best = "", 0.0
        candidates = predicted.values(pii.tag) if predicted is not None else []
        for value in candidates:
            s = score_pii(pii.tag, pii.keyword, value, location_max_depth=location_max_depth)
            if s > best:
                best_value, best = value, s
        if best == 0.0 and fallback is not None and candidates:
            for value in candidates:
                s = float(fallback.compare(pii.tag, pii.keyword, value))
                if s > best:
                    best_value, best = value, s
        if best == 0.0 and candidates and not best_value:
            best_value = candidates[0]
        out.append((pii, best_value, best))
    return out


def protection(gold: Sequence[SPIARecord], predicted: Sequence[SPIARecord], *,
               matcher: SubjectMatcher | None = None, fallback: ValueJudge | None = None,
               min_certainty: int = MIN_CERTAINTY, location_max_depth: int | None = 4,
               provenance: dict | None = None) -> ProtectionResult:
    """CPR, IPR, per-tag CPR and target / non-target protection of predicted profiles.

    Args:
        gold: the gold records.
        predicted: the adversary's records, one per gold record with the same data_id
            (subjects may differ in number and order).
        matcher: pairs predicted with gold subjects (default :class:`OfflineMatcher`).
        fallback: optional judge asked when a rule scores 0 (see :class:`ValueJudge`).
        min_certainty: gold certainty from which a PII counts.
        location_max_depth: deepest location level compared.
        provenance: extra provenance to record (adversary name, anonymizer, ...).

    Returns:
        A :class:`ProtectionResult` (certainty-0 predictions unscored, as in SPIA).

    Raises:
        PrivlabValueError: a gold data_id has no prediction, a prediction has no gold, or
            either list holds a data_id twice.

    Example:
        >>> from privlab.redaction.spia import parse_spia_record
        >>> g = [parse_spia_record({"metadata": {"data_id": "d"}, "text": "", "subjects": [
        ...     {"id": 0, "description": "Ann", "PIIs": [
        ...         {"tag": "NAME", "keyword": "Ann Lee", "certainty": 5},
        ...         {"tag": "AGE", "keyword": "34", "certainty": 4}]}]})]
        >>> round(protection(g, g).cpr, 3), round(protection(g, [SPIARecord("d", "", ())]).cpr, 3)
        (0.0, 1.0)
    """
    matcher = matcher or OfflineMatcher()
    by_id = _by_data_id(predicted, "predicted")
    gold_ids = set(_by_data_id(gold, "gold"))
    missing = [r.data_id for r in gold if r.data_id not in by_id]
    extra = [d for d in by_id if d not in gold_ids]
    if missing:
        raise invalid("predicted", "protection", "one record per gold data_id",
                      f"no prediction for {len(missing)} documents, e.g. {missing[:3]}",
                      given_is_text=True,
                      fix="Give an empty record (no subjects) where the adversary found nothing.")
    if extra:
        raise invalid("predicted", "protection", "records of gold documents only",
                      f"{len(extra)} unknown data_ids, e.g. {extra[:3]}", given_is_text=True)
    subject_rows: list[dict] = []
    pii_rows: list[dict] = []
    dropped_zero = 0
    for data_id in list(by_id):
        by_id[data_id], n = _without_zero_certainty(by_id[data_id])
        dropped_zero += n
    for record in gold:
        pred = by_id[record.data_id]
        counted = [s for s in record.subjects if s.counted_piis(min_certainty)]
        if not counted:
            continue
        pairs = dict(matcher.match(counted, list(pred.subjects), pred.text,
                                   original=record.text)) \
            if pred.subjects else {}
        for gi, subject in enumerate(counted):
            match = pred.subjects[pairs[gi]] if gi in pairs else None
            scored = score_subject(subject, match, min_certainty=min_certainty,
                                   fallback=fallback, location_max_depth=location_max_depth)
            o, a = len(scored), sum(s for _, _, s in scored)
            subject_rows.append({
                "data_id": record.data_id, "subject": subject.id,
                "description": subject.description, "target": subject.id == 0,
                "matched": match.id if match is not None else None,
                "O": o, "A": a, "protection": 1.0 - a / o})
            for pii, value, s in scored:
                given = max((p.certainty for p in match.piis if p.tag == pii.tag
                             and p.keyword == value), default=0) \
                    if match is not None and value else 0
                pii_rows.append({"data_id": record.data_id, "subject": subject.id,
                                 "tag": pii.tag, "gold": pii.keyword, "certainty": pii.certainty,
                                 "predicted": value, "predicted_certainty": given, "score": s,
                                 "rule": rule_name(pii.tag)})
    overall = _rates(subject_rows)
    by_tag: dict[str, tuple[int, float, float]] = {}
    for tag in TAGS:
        scores = [r["score"] for r in pii_rows if r["tag"] == tag]
        if scores:
            by_tag[tag] = (len(scores), float(sum(scores)), 1.0 - sum(scores) / len(scores))
    info = {"matcher": getattr(matcher, "name", type(matcher).__name__),
            "fallback": getattr(fallback, "name", None) if fallback else None,
            "min_certainty": min_certainty, "location_max_depth": location_max_depth,
            "documents": len(gold), "dropped_zero_certainty": dropped_zero}
    info.update(provenance or {})
    return ProtectionResult(
        cpr=overall["cpr"], ipr=overall["ipr"], n_subjects=overall["n_subjects"],
        n_piis=int(overall["n_piis"]), inferred=float(sum(r["A"] for r in subject_rows)),
        target=_rates([r for r in subject_rows if r["target"]]),
        non_target=_rates([r for r in subject_rows if not r["target"]]),
        by_tag=by_tag, subjects=subject_rows, piis=pii_rows, provenance=info)


def empty_predictions(gold: Sequence[SPIARecord]) -> list[SPIARecord]:
    """An adversary that infers nothing: one record per gold document, no subjects.

    Example:
        >>> empty_predictions([SPIARecord("d", "text", ())])[0].subjects
        ()
    """
    return [SPIARecord(r.data_id, r.text, ()) for r in gold]


def gold_profile_callable(records: Sequence[SPIARecord]) -> Callable[[str], SPIARecord]:
    """Look up a gold record by data_id (used by oracle baselines and tests).

    Example:
        >>> gold_profile_callable([SPIARecord("d", "t", ())])("d").text
        't'
    """
    table = {r.data_id: r for r in records}

    def lookup(data_id: str) -> SPIARecord:
        if data_id not in table:
            raise invalid("data_id", "gold profile lookup", f"one of {len(table)} ids", data_id)
        return table[data_id]

    return lookup


__all__ = ["ProtectionResult", "empty_predictions", "gold_profile_callable", "protection",
           "score_subject"]
