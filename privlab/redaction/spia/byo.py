"""Bring your own anonymizer outputs: ``privlab.spia.score(gold, anonymized, adversary=...)``.

The outputs may be a JSON-lines file, a mapping, a list or a function; an adversary reads
each and :func:`~privlab.redaction.spia.protection.protection` scores what it inferred,
beside the text-blind ``base-rate`` adversary on the same outputs. See docs/methods/redaction-spia-adversaries.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from privlab.errors import invalid, wrong_type
from privlab.hashing import file_hash
from privlab.io import read_jsonl
from privlab.redaction.spia.adversaries import Adversary, adversaries, failed_documents
from privlab.redaction.spia.matching import matchers
from privlab.redaction.spia.protection import ProtectionResult, protection
from privlab.redaction.spia.records import SPIARecord, load_spia
from privlab.report import Finding, ResultFace, Witness
from privlab.status import Status

_CALLER = "privlab.spia.score"
#: Where a line of an outputs file may keep its id and its text, in the order tried.
ID_KEYS = ("metadata.data_id", "data_id", "id")
TEXT_KEYS = ("anonymized_text", "anonymized", "text")


def _gold(gold: Any) -> tuple[list[SPIARecord], str]:
    """The gold records and what they are (a file's digest, or the sample)."""
    if isinstance(gold, str) and gold == "sample":
        from privlab.redaction.spia.sample import sample_records

        return sample_records(), "privlab sample (3 documents written by privlab)"
    if isinstance(gold, (str, Path)):
        path = Path(gold)
        if not path.is_file():
            raise invalid("gold", _CALLER, "a SPIA JSON-lines file, its records or 'sample'",
                          f"{path} (no such file)", given_is_text=True)
        return load_spia(path), f"{path.name} (sha256 {file_hash(path, 12)})"
    if isinstance(gold, Sequence) and all(isinstance(r, SPIARecord) for r in gold):
        return list(gold), f"{len(gold)} records given"
    raise wrong_type("gold", _CALLER, "a SPIA JSON-lines path, a list of SPIARecord or "
                     "'sample'", gold)


def _field(obj: dict, dotted: str) -> Any:
    for part in dotted.split("."):
        if not isinstance(obj, dict) or part not in obj:
            return None
        obj = obj[part]
    return obj


def read_outputs(path: str | Path, parameter: str = "anonymized",
                 caller: str = _CALLER) -> dict[str, str]:
    """``{data_id: text}`` from a JSON-lines file of anonymized documents.

    Each line holds an id (``metadata.data_id``, ``data_id`` or ``id``) and a text
    (``anonymized_text``, ``anonymized`` or ``text``, first found wins).

    Raises:
        PrivlabValueError: a line without id or text, or an id given twice (file and line
            named).

    Example:
        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "out.jsonl")
        >>> _ = open(p, "w").write('{"metadata": {"data_id": "d1"}, "text": "[NAME] is 34."}\\n')
        >>> read_outputs(p)
        {'d1': '[NAME] is 34.'}
    """
    out: dict[str, str] = {}
    for number, obj in read_jsonl(path, caller, parameter):
        key = next((_field(obj, k) for k in ID_KEYS if _field(obj, k) is not None), None)
        text = next((_field(obj, k) for k in TEXT_KEYS if _field(obj, k) is not None), None)
        where = f"{Path(path).name} line {number}"
        if not isinstance(key, (str, int)) or isinstance(key, bool):
            raise invalid(parameter, caller, f"an id on every line (one of {list(ID_KEYS)})",
                          where, given_is_text=True)
        if not isinstance(text, str):
            raise invalid(parameter, caller, f"a text on every line (one of {list(TEXT_KEYS)})",
                          where, given_is_text=True)
        if str(key) in out:
            raise invalid(parameter, caller, "one line per document",
                          f"id {key!r} again on {where}", given_is_text=True)
        out[str(key)] = text
    return out


def _texts(anonymized: Any, gold: list[SPIARecord]) -> list[str]:
    """The anonymized text of every gold document, in the gold order."""
    ids = [r.data_id for r in gold]
    if callable(anonymized) and not isinstance(anonymized, Mapping):
        out = []
        for r in gold:
            try:
                text = anonymized(r.text)
            except Exception as exc:
                raise invalid("anonymized", _CALLER, "a function that anonymizes every gold "
                              "text", f"{type(exc).__name__}: {exc} on document {r.data_id!r}",
                              "Fix the function; no document was scored.",
                              given_is_text=True) from exc
            if not isinstance(text, str):
                raise invalid("anonymized", _CALLER, "a function returning a str",
                              f"{type(text).__name__} on document {r.data_id!r}",
                              "Return the anonymized text itself.", given_is_text=True)
            out.append(text)
        return out
    if isinstance(anonymized, (str, Path)):
        anonymized = read_outputs(anonymized)
    if isinstance(anonymized, Mapping):
        table = {str(k): v for k, v in anonymized.items()}
        missing = [i for i in ids if i not in table]
        extra = [k for k in table if k not in set(ids)]
        if missing or extra:
            raise invalid("anonymized", _CALLER, "one text for every gold data_id",
                          f"{len(missing)} gold ids without a text (e.g. {missing[:3]}) and "
                          f"{len(extra)} ids not in the gold (e.g. {extra[:3]})",
                          "Key each output by its gold document's metadata.data_id.",
                          given_is_text=True)
        texts = [table[i] for i in ids]
    elif isinstance(anonymized, Sequence):
        texts = list(anonymized)
        if len(texts) != len(ids):
            raise invalid("anonymized", _CALLER, f"{len(ids)} texts, one per gold document "
                          "in its order", f"{len(texts)} texts", given_is_text=True)
    else:
        raise wrong_type("anonymized", _CALLER, "a JSON-lines path, a {data_id: text} "
                         "mapping, a list of texts or a function str -> str", anonymized)
    bad = next((i for i, t in zip(ids, texts) if not isinstance(t, str)), None)
    if bad is not None:
        raise invalid("anonymized", _CALLER, "texts (str)", f"a non-string for {bad!r}",
                      given_is_text=True)
    return texts


def _adversary(value: Any, parameter: str) -> Adversary:
    if isinstance(value, Adversary):
        return value
    if isinstance(value, str) and value in adversaries.names():
        return adversaries.create(value)
    raise invalid(parameter, _CALLER, f"an Adversary or one of {adversaries.names()}", value)


@dataclass(repr=False)
class SPIAScore(ResultFace):
    """What :func:`score` found.

    Attributes:
        protection: CPR / IPR of the adversary on the anonymized texts.
        baseline: the same for the text-blind guess (None when not run).
        texts: ``{data_id: anonymized text}``.
        failed: ``{data_id: why}`` for documents the adversary could not read (left out).
        weak: True when the adversary is a weak offline stand-in.
        provenance: gold, adversary, baseline, matcher.
    """

    protection: ProtectionResult
    baseline: ProtectionResult | None
    texts: dict[str, str]
    failed: dict[str, str] = field(default_factory=dict)
    weak: bool = False
    provenance: dict[str, Any] = field(default_factory=dict)

    status = Status.DESCRIPTIVE

    @property
    def cpr(self) -> float:
        return self.protection.cpr

    @property
    def recovered(self) -> float:
        """1 − CPR: the share of the counted gold PIIs the adversary inferred."""
        return 1.0 - self.protection.cpr

    @property
    def baseline_recovered(self) -> float:
        """The text-blind guess's recovery on the same texts (NaN when not run)."""
        return 1.0 - self.baseline.cpr if self.baseline is not None else math.nan

    @property
    def excess(self) -> float:
        """Recovery beyond the text-blind guess: what reading the outputs added."""
        return self.recovered - self.baseline_recovered

    face_title = "SPIA score of your anonymizer"

    def face_finding(self) -> Finding:
        """Recovery (1 − CPR), the text-blind guess's on the same texts, and the excess."""
        p = self.protection
        return Finding(
            "PIIs recovered (1 − CPR)", self.recovered, self.status,
            rests_on=self.rests_on(), subject=f"CPR {p.cpr:.3f}",
            control="text-blind guess" if self.baseline is not None else "",
            control_value=self.baseline_recovered if self.baseline is not None else None,
            caveats=self.caveats(),
            status_note=f"{p.n_piis} PIIs of {p.n_subjects} people",
            ruler="recovered 0 = the adversary inferred nothing (CPR 1), 1 = everything; the "
                  "excess is what reading your outputs added to a guess")

    def rests_on(self) -> tuple[str, ...]:
        p = self.provenance
        weak = " (a weak offline stand-in)" if self.weak and "weak" not in str(
            p.get("adversary")) else ""
        return (f"gold {p.get('gold')}", f"adversary {p.get('adversary')}{weak}",
                f"subject matcher {p.get('matcher')}")

    def caveats(self) -> tuple[str, ...]:
        out = []
        if self.weak:
            out.append("a weak offline adversary: a stronger one (an LLM) can only lower CPR")
        if self.failed:
            out.append(f"{len(self.failed)} documents the adversary could not read are "
                       "left out")
        return tuple(out)

    def face_rows(self) -> list[dict]:
        """One row per metric: value, the text-blind baseline's, and the protection the
        reading removed beyond the guess."""
        base = self.baseline.to_frame() if self.baseline is not None else None
        rows = []
        for i, row in self.protection.to_frame().iterrows():
            guess = float(base["value"].iloc[i]) if base is not None else math.nan
            rows.append({"metric": row["metric"], "value": float(row["value"]),
                         "text-blind guess": guess,
                         "protection lost beyond the guess": guess - float(row["value"]),
                         "subjects": int(row["subjects"]), "PIIs": int(row["PIIs"])})
        return rows

    def face_witnesses(self, n: int = 3) -> list[Witness]:
        """The least protected people: the anonymized text and what was recovered."""
        subjects = sorted(self.protection.subjects, key=lambda r: (r["protection"], -r["O"]))
        out = []
        for row in subjects[:n]:
            if row["A"] <= 0:
                break
            found = [f"{r['tag']} {r['predicted']!r} (gold {r['gold']!r}, score {r['score']:g})"
                     for r in self.protection.piis if r["data_id"] == row["data_id"]
                     and r["subject"] == row["subject"] and r["score"] > 0]
            out.append(Witness(f"{row['data_id']}, person {row['subject']}: protection "
                               f"{row['protection']:.2f}", (
                                   ("your output", self.texts.get(row["data_id"], "")),
                                   ("recovered", "; ".join(found)))))
        return out

    def face_formula(self) -> str:
        return ("<math display='block'><mi>CPR</mi><mo>=</mo><mn>1</mn><mo>−</mo><mfrac>"
                "<mrow><msub><mo>∑</mo><mi>i</mi></msub><msub><mi>A</mi><mi>i</mi></msub>"
                "</mrow><mrow><msub><mo>∑</mo><mi>i</mi></msub><msub><mi>O</mi><mi>i</mi>"
                "</msub></mrow></mfrac></math>")


def score(gold: Any, anonymized: Any, adversary: Any = "contextual", *,
          baseline: Any = "base-rate", matcher: str = "offline") -> SPIAScore:
    """Score your anonymizer's outputs on SPIA: CPR, IPR, and the excess over a text-blind
    guess.

    Args:
        gold: a SPIA JSON-lines file, its records, or ``"sample"``.
        anonymized: a JSON-lines file keyed by id, a ``{data_id: text}`` mapping, a list
            of texts in the gold order, or a function ``str -> str`` (your anonymizer).
        adversary: a registered adversary's name or an Adversary (default the offline
            ``"contextual"``).
        baseline: the text-blind control (a name or an Adversary; None: not run).
        matcher: how predicted subjects are paired with gold ones (a registry name).

    Returns:
        A :class:`SPIAScore`.

    Raises:
        PrivlabValueError / PrivlabTypeError: naming the parameter and the fix.

    Example:
        >>> r = score("sample", lambda t: t, adversary="none", baseline=None)
        >>> r.cpr, r.status.value
        (1.0, 'descriptive')
    """
    records, what = _gold(gold)
    if not records:
        raise invalid("gold", _CALLER, "at least one document", "none", given_is_text=True)
    texts = _texts(anonymized, records)
    attacker = _adversary(adversary, "adversary")
    blind = _adversary(baseline, "baseline") if baseline is not None else None
    if matcher not in matchers.names():
        raise invalid("matcher", _CALLER, f"one of {matchers.names()}", matcher)
    ids = [r.data_id for r in records]
    predicted = attacker.infer(texts, ids, on_failure="record")
    failed = failed_documents(predicted)
    scored = [r for r in records if r.data_id not in failed]
    kept = [r for r in predicted if r.data_id not in failed]
    result = protection(scored, kept, matcher=matchers.create(matcher),
                        provenance={"adversary": attacker.name})
    base = None
    if blind is not None:
        guessed = [r for r in blind.infer(texts, ids, on_failure="record")
                   if r.data_id not in failed]
        base = protection(scored, guessed, matcher=matchers.create(matcher),
                          provenance={"adversary": blind.name})
    provenance = {"gold": what, "documents": len(records), "adversary": attacker.name,
                  "baseline": blind.name if blind is not None else None, "matcher": matcher}
    return SPIAScore(result, base, dict(zip(ids, texts)), failed,
                     bool(getattr(attacker, "weak", False)), provenance)


__all__ = ["ID_KEYS", "SPIAScore", "TEXT_KEYS", "read_outputs", "score"]
