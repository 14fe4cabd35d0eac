"""Text utility of a redaction: how much of the original wording survives (BLEU, ROUGE).

BLEU (``sacrebleu``), ROUGE-1 and ROUGE-L F1 (``rouge-score``) of each redacted text
against its original, on a 0-1 scale; a corpus value is the mean over documents, as in
SPIA's evaluation. Surface measures: they say how much wording survived, not whether the
facts did. See docs/methods/redaction-redacbench.md.

Example:
    >>> text_utility(["Ann was ill."], ["Ann was ill."])
    {'bleu': 1.0, 'rouge1': 1.0, 'rougeL': 1.0}
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

from privlab.errors import invalid, require, wrong_type

#: The measures, in the order every result lists them.
MEASURES = ("bleu", "rouge1", "rougeL")

_PURPOSE = "privlab.redaction.utility"


@lru_cache(maxsize=1)
def _rouge_scorer():
    scorer = require("rouge_score.rouge_scorer", "rouge-score", _PURPOSE)
    return scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)


@lru_cache(maxsize=1)
def _bleu():
    sacrebleu = require("sacrebleu", "sacrebleu", _PURPOSE)
    # effective order: a short text without any 4-gram match is not scored 0 outright
    return sacrebleu.BLEU(effective_order=True)


def _check_pair(original: Any, redacted: Any, caller: str, where: str = "") -> None:
    if not isinstance(original, str):
        raise wrong_type(f"original{where}", caller, "a str", original)
    if not isinstance(redacted, str):
        raise wrong_type(f"redacted{where}", caller, "a str", redacted)
    if not original.strip():
        raise invalid(f"original{where}", caller, "a non-empty text", original,
                      "Utility compares a redaction with a non-empty original.")


def document_utility(original: str, redacted: str) -> dict[str, float]:
    """BLEU, ROUGE-1 and ROUGE-L F1 of one redacted text against its original, in [0, 1].

    Args:
        original: the source text (the reference); must not be empty.
        redacted: its redacted version (may be empty: everything removed scores 0).

    Returns:
        ``{"bleu": ..., "rouge1": ..., "rougeL": ...}``.

    Raises:
        PrivlabTypeError: a text is not a string.
        PrivlabValueError: the original is empty.

    Example:
        >>> u = document_utility("Ann was diagnosed with diabetes in May.",
        ...                      "Ann was diagnosed with [REDACTED] in May.")
        >>> round(u["rougeL"], 3), round(u["bleu"], 3)
        (0.857, 0.38)
        >>> document_utility("Ann was ill.", "")
        {'bleu': 0.0, 'rouge1': 0.0, 'rougeL': 0.0}
    """
    _check_pair(original, redacted, "document_utility")
    if not redacted.strip():
        return {m: 0.0 for m in MEASURES}
    rouge = _rouge_scorer().score(original, redacted)
    bleu = _bleu().sentence_score(redacted, [original]).score / 100.0
    return {"bleu": float(min(max(bleu, 0.0), 1.0)),
            "rouge1": float(rouge["rouge1"].fmeasure),
            "rougeL": float(rouge["rougeL"].fmeasure)}


def per_document(originals: Sequence[str], redacted: Sequence[str]) -> list[dict[str, float]]:
    """:func:`document_utility` of each pair, in order.

    Args:
        originals: the source texts.
        redacted: their redacted versions, one per original.

    Returns:
        One ``{"bleu", "rouge1", "rougeL"}`` dict per document.

    Raises:
        PrivlabTypeError: an argument is a single string or holds a non-string.
        PrivlabValueError: the two lists differ in length, or an original is empty
            (the message names its index).

    Example:
        >>> [round(u["rouge1"], 2) for u in per_document(["a b c d", "x y"], ["a b c d", "x"])]
        [1.0, 0.67]
    """
    caller = "per_document"
    for name, value in (("originals", originals), ("redacted", redacted)):
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise wrong_type(name, caller, "a list of texts", value)
    if len(originals) != len(redacted):
        raise invalid("redacted", caller, f"{len(originals)} texts, one per original",
                      f"{len(redacted)} texts", given_is_text=True)
    out = []
    for k, (o, r) in enumerate(zip(originals, redacted)):
        _check_pair(o, r, caller, f"[{k}]")
        out.append(document_utility(o, r))
    return out


def text_utility(originals: Sequence[str], redacted: Sequence[str]) -> dict[str, float]:
    """Mean BLEU, ROUGE-1 and ROUGE-L F1 over documents (each document weighs the same).

    Args:
        originals: the source texts.
        redacted: their redacted versions, one per original.

    Returns:
        ``{"bleu": ..., "rouge1": ..., "rougeL": ...}``, each in [0, 1]; NaN for an empty
        list (nothing was measured, never a silent 0).

    Raises:
        The refusals of :func:`per_document`.

    Example:
        >>> u = text_utility(["The loan was 2 million.", "Ann is ill."],
        ...                  ["The loan was [REDACTED].", "Ann is ill."])
        >>> round(u["rougeL"], 3)
        0.833
    """
    rows = per_document(originals, redacted)
    if not rows:
        return {m: float("nan") for m in MEASURES}
    return {m: sum(r[m] for r in rows) / len(rows) for m in MEASURES}


__all__ = ["MEASURES", "document_utility", "per_document", "text_utility"]
