"""Bring your own redaction: ``privlab.redacbench.score(redact_or_outputs, data=...)``.

A function, a strategy, a registry name or the outputs already written; the result puts
the same judge on the unredacted texts (its own floor), the excess over it and the
judge's error rates beside the scores. See docs/methods/redaction-redacbench.md.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from privlab.errors import invalid, wrong_type
from privlab.hashing import file_hash
from privlab.io import read_jsonl
from privlab.redaction.redacbench.data import Document, load_redacbench, sample_path
from privlab.redaction.redacbench.evaluation import RedacBenchResult, score_redactions
from privlab.redaction.redacbench.judge import Judge, judges
from privlab.redaction.redacbench.strategy import NoRedaction, Strategy, as_strategy
from privlab.report import Finding, ResultFace, Witness
from privlab.status import Status

_CALLER = "privlab.redacbench.score"
#: Where a line of an outputs file keeps its document id, policy id and text (first wins).
DOCUMENT_KEYS = ("document", "id", "doc_id")
POLICY_KEYS = ("policy", "policy_id")
TEXT_KEYS = ("redacted", "redacted_text", "text")


def _documents(data: Any) -> tuple[list[Document], str]:
    if data is None:
        path = sample_path()
        return load_redacbench(path), "the embedded sample (16 documents written by privlab)"
    if isinstance(data, (str, Path)):
        path = Path(data)
        if not path.is_file():
            raise invalid("data", _CALLER, "a RedacBench JSON-lines file",
                          f"{path} (no such file)", given_is_text=True)
        return load_redacbench(path), f"{path.name} (sha256 {file_hash(path, 12)})"
    if isinstance(data, Sequence) and data and all(isinstance(d, Document) for d in data):
        return list(data), f"{len(data)} documents given"
    raise wrong_type("data", _CALLER, "None (the sample), a JSON-lines path or a list of "
                     "Document", data)


def _first(obj: dict, keys: Sequence[str]) -> Any:
    return next((obj[k] for k in keys if k in obj), None)


def read_outputs(path: str | Path, parameter: str = "redact_or_outputs",
                 caller: str = _CALLER) -> dict[tuple[str, str | None], str]:
    """``{(document id, policy id or None): redacted text}`` from a JSON-lines file.

    Raises:
        PrivlabValueError: a line without a document id or a text, or a (document,
            policy) given twice; the file and line are named.

    Example:
        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "out.jsonl")
        >>> _ = open(p, "w").write('{"document": "d", "policy": "h", "redacted": "[X]"}\\n')
        >>> read_outputs(p)
        {('d', 'h'): '[X]'}
    """
    out: dict[tuple[str, str | None], str] = {}
    for number, obj in read_jsonl(path, caller, parameter):
        where = f"{Path(path).name} line {number}"
        if not isinstance(obj, dict):
            raise invalid(parameter, caller, "one JSON object per line", where,
                          given_is_text=True)
        doc, policy, text = (_first(obj, DOCUMENT_KEYS), _first(obj, POLICY_KEYS),
                             _first(obj, TEXT_KEYS))
        if not isinstance(doc, str) or not isinstance(text, str):
            raise invalid(parameter, caller, f"a document id ({', '.join(DOCUMENT_KEYS)}) and "
                          f"a text ({', '.join(TEXT_KEYS)}) on every line", where,
                          given_is_text=True)
        key = (doc, policy if isinstance(policy, str) else None)
        if key in out:
            raise invalid(parameter, caller, "one line per document and policy",
                          f"{key} again on {where}", given_is_text=True)
        out[key] = text
    return out


def _from_outputs(outputs: Mapping, documents: list[Document]) -> dict[tuple[str, str], str]:
    """A text for every (document, policy), from outputs keyed by (document, policy) or by
    document alone (then the same text serves each of its policies)."""
    table: dict[tuple[str, str | None], str] = {}
    for key, text in outputs.items():
        table[key if isinstance(key, tuple) else (key, None)] = text
    known = {(d.id, p.id) for d in documents for p in d.policies}
    ids = {d.id for d in documents}
    out, missing = {}, []
    for d in documents:
        for p in d.policies:
            text = table.get((d.id, p.id), table.get((d.id, None)))
            if text is None:
                missing.append((d.id, p.id))
            elif not isinstance(text, str):
                raise invalid("redact_or_outputs", _CALLER, "texts (str)",
                              f"{type(text).__name__} for {(d.id, p.id)}", given_is_text=True)
            else:
                out[(d.id, p.id)] = text
    extra = [k for k in table if (k[1] is None and k[0] not in ids)
             or (k[1] is not None and k not in known)]
    if missing or extra:
        raise invalid("redact_or_outputs", _CALLER, "a redacted text for every document and "
                      "policy of the data", f"{len(missing)} missing (e.g. {missing[:3]}) and "
                      f"{len(extra)} not in the data (e.g. {extra[:3]})",
                      "Key each output by the data's document id (and policy id).",
                      given_is_text=True)
    return out


def _judge(value: Any) -> Judge:
    if isinstance(value, Judge):
        return value
    allowed = judges.names(oracle=False)
    if isinstance(value, str) and value in allowed:
        return judges.create(value)
    raise invalid("judge", _CALLER, f"a Judge or one of {allowed}", value)


@dataclass(repr=False)
class RedacBenchScore(ResultFace):
    """What :func:`score` found.

    Attributes:
        result: Security and Utility of the user's redaction under the judge.
        unredacted: the same judge on the texts left as they were (the control).
        strategy: the redaction's name (``"your outputs"`` for a file).
        data: what the documents are.
        provenance: judge, data, strategy.
    """

    result: RedacBenchResult
    unredacted: RedacBenchResult
    strategy: str
    data: str
    provenance: dict[str, Any] = field(default_factory=dict)

    status = Status.DESCRIPTIVE

    @property
    def security(self) -> float:
        return self.result.security

    @property
    def utility(self) -> float:
        return self.result.utility

    @property
    def excess(self) -> float:
        """Security beyond the unredacted texts' under the same judge."""
        return self.result.security - self.unredacted.security

    @property
    def weak_judge(self) -> bool:
        return bool(self.result.provenance.get("judge_weak"))

    face_title = "RedacBench score of your redaction"

    def face_finding(self) -> Finding:
        """Security, the unredacted texts' Security under the same judge, the excess."""
        return Finding(
            "Security", self.security, self.status, rests_on=self.rests_on(),
            subject=f"{self.strategy} (Utility {self.utility:.3f})", control="unredacted",
            control_value=self.unredacted.security, caveats=self.caveats(),
            status_note=f"under judge {self.result.provenance.get('judge')}",
            ruler="Security = share of the policy's sensitive facts no longer inferable "
                  "(1 = all removed); Utility = share of the other facts kept; the unredacted "
                  "texts show what the judge calls removed when nothing was")

    def rests_on(self) -> tuple[str, ...]:
        errors = self.result.judge_errors
        return (f"data {self.data}",) + ((f"the judge's errors: {errors.summary()}",)
                                          if errors is not None else ())

    def caveats(self) -> tuple[str, ...]:
        out = []
        if self.weak_judge:
            out.append("a weak offline judge: it misses inferences and takes shared words "
                       "for kept facts")
        if self.result.provenance.get("strategy_oracle"):
            out.append("the strategy reads the answer key: an oracle, not a result")
        return tuple(out)

    def face_rows(self) -> list[dict]:
        """Two rows: your redaction and the unredacted control, with the judge's errors."""
        errors = self.result.judge_errors
        rows = []
        for name, r in ((self.strategy, self.result), ("unredacted (control)", self.unredacted)):
            c, u = r.overall, r.text_utility
            rows.append({"redaction": name, "security": c.security, "utility": c.utility,
                         "TP": c.tp, "TN": c.tn, "FP (leaks)": c.fp, "FN": c.fn,
                         "BLEU": u["bleu"], "ROUGE-L": u["rougeL"],
                         "judge false 'inferable'": errors.false_inferable if errors
                         else math.nan,
                         "judge false 'not inferable'": errors.false_not_inferable if errors
                         else math.nan})
        return rows

    def face_witnesses(self, n: int = 3) -> list[Witness]:
        """Sensitive facts still inferable (leaks), with the redacted text."""
        out = []
        for r in [r for r in self.result.rows if r["sensitive"] and r["retained"]][:n]:
            out.append(Witness(f"{r['document']}, policy {r['policy']}: a leak", (
                ("sensitive fact", r["text"]),
                ("your redaction", self.result.redacted[(r["document"], r["policy"])]))))
        return out

    def face_formula(self) -> str:
        return ("<math display='block'><mi>Security</mi><mo>=</mo><mfrac><mi>TN</mi><mrow>"
                "<mi>TN</mi><mo>+</mo><mi>FP</mi></mrow></mfrac><mo>,</mo><mspace width="
                "'1em'/><mi>Utility</mi><mo>=</mo><mfrac><mi>TP</mi><mrow><mi>TP</mi><mo>+"
                "</mo><mi>FN</mi></mrow></mfrac></math>")


def score(redact_or_outputs: Any, data: Any = None, *, judge: Any = "heuristic",
          errors: bool = True) -> RedacBenchScore:
    """Score your redaction on RedacBench: Security, Utility, the unredacted control and
    the judge's error rates.

    Args:
        redact_or_outputs: a function ``text -> text`` (or ``(text, policy_text) ->
            text``), a Strategy or registry name, or your outputs: a JSON-lines path or a
            mapping keyed by ``(document id, policy id)`` or by document id.
        data: the benchmark: None (the embedded sample), a JSON-lines path or Documents.
        judge: a non-oracle judge's name or a Judge (default the offline heuristic).
        errors: measure the judge's error rates on the data's hand labels.

    Returns:
        A :class:`RedacBenchScore`.

    Raises:
        PrivlabValueError / PrivlabTypeError: naming the parameter and the fix.

    Example:
        >>> from privlab.redaction.redacbench import OracleJudge
        >>> docs = load_redacbench(sample_path())[:1]
        >>> r = score(lambda t: t, docs, judge=OracleJudge.from_documents(docs), errors=False)
        >>> r.security, r.unredacted.security, r.excess
        (0.0, 0.0, 0.0)
    """
    documents, what = _documents(data)
    chosen = _judge(judge)
    if isinstance(redact_or_outputs, Path) or (
            isinstance(redact_or_outputs, str) and redact_or_outputs not in
            _strategy_names() and (redact_or_outputs.endswith(".jsonl")
                                   or Path(redact_or_outputs).is_file())):
        outputs = _from_outputs(read_outputs(redact_or_outputs), documents)
        name, oracle = "your outputs", False
    elif isinstance(redact_or_outputs, Mapping):
        outputs = _from_outputs(redact_or_outputs, documents)
        name, oracle = "your outputs", False
    else:
        strategy = as_strategy(redact_or_outputs, "redact_or_outputs", _CALLER)
        outputs = {(d.id, p.id): _redact(strategy, d, p) for d in documents for p in d.policies}
        name, oracle = strategy.name, strategy.oracle_on(documents)
    result = score_redactions(documents, outputs, chosen, errors=bool(errors),
                              provenance={"strategy": name, "strategy_oracle": oracle})
    originals = {(d.id, p.id): NoRedaction().redact(d.text, p)
                 for d in documents for p in d.policies}
    control = score_redactions(documents, originals, chosen,
                               provenance={"strategy": "unredacted (control)"})
    return RedacBenchScore(result, control, name, what,
                           {"judge": chosen.name, "data": what, "strategy": name,
                            "documents": len(documents)})


def _strategy_names() -> list[str]:
    from privlab.redaction.redacbench.strategy import strategies

    return strategies.names()


def _redact(strategy: Strategy, document: Document, policy) -> str:
    """The strategy on one document, a failure named with the document and the fix."""
    try:
        return strategy.redact(document.text, policy)
    except Exception as exc:
        raise invalid("redact_or_outputs", _CALLER, "a function that redacts every document",
                      f"{type(exc).__name__}: {exc} on document {document.id!r}, policy "
                      f"{policy.id!r}", "Fix the function; nothing was scored.",
                      given_is_text=True) from exc


__all__ = ["DOCUMENT_KEYS", "POLICY_KEYS", "RedacBenchScore", "TEXT_KEYS", "read_outputs",
           "score"]
