"""Subject matching: which predicted person is which gold person, one to one.

An adversary lists the people it can tell apart, in its own order and with its own
descriptions; before any value is scored, each predicted subject is paired with at most
one gold subject. A gold subject left unpaired was not found (fully protected).

Members of :data:`matchers`:

* ``"offline"`` — :class:`OfflineMatcher`, optimal assignment on
  :func:`subject_similarity` (names, descriptions, profiles);
* ``"llm"`` — :class:`LLMMatcher`, the model pairs the subjects (endpoint needed).
"""

from __future__ import annotations

import re
from typing import Any, Protocol, Sequence

from privlab.errors import invalid
from privlab.llm import ensure_client
from privlab.redaction.spia.records import Subject
from privlab.redaction.spia.rules import jaro_winkler, score_pii
from privlab.registry import Registry

matchers = Registry("SPIA subject matcher")


class SubjectMatcher(Protocol):
    """Pairs predicted subjects with gold subjects, one to one.

    ``match(gold, predicted, text)`` returns ``(gold index, predicted index)`` pairs;
    a gold subject in no pair was not found by the adversary.
    """

    name: str

    def match(self, gold: Sequence[Subject], predicted: Sequence[Subject],
              text: str = "") -> list[tuple[int, int]]: ...


_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if len(w) > 1}


def subject_similarity(gold: Subject, predicted: Subject) -> float:
    """How alike two subjects look, in [0, 1]: names, descriptions and profiles.

    The score is the weighted mean, with weights 0.5, 0.3 and 0.2, of *name* (the best
    Jaro-Winkler similarity between their NAME values, or the descriptions' first parts
    before " - " when a NAME is missing), *description* (word overlap, Jaccard, of the
    descriptions) and *profile* (the share of the gold subject's counted PIIs that the
    predicted values match by :func:`score_pii`). A part that one side lacks (no name,
    no description, no counted PII) is left out and the weights renormalised.

    Example:
        >>> from privlab.redaction.spia import PII
        >>> a = Subject(0, "Ann Lee - the applicant", (PII("NAME", "Ann Lee", 5),))
        >>> round(subject_similarity(a, a), 3)
        1.0
    """
    def names(s: Subject) -> list[str]:
        values = s.values("NAME")
        if values:
            return values
        head = s.description.split(" - ")[0].strip()
        return [head] if head else []

    parts: list[tuple[float, float]] = []  # (weight, similarity) of what both sides have
    gn, pn = names(gold), names(predicted)
    if gn and pn:
        parts.append((0.5, max(jaro_winkler(a.lower(), b.lower()) for a in gn for b in pn)))
    gw, pw = _words(gold.description), _words(predicted.description)
    if gw and pw:
        parts.append((0.3, len(gw & pw) / len(gw | pw)))
    counted = gold.counted_piis()
    if counted:
        hits = sum(max((score_pii(p.tag, p.keyword, v) for v in predicted.values(p.tag)),
                       default=0.0) for p in counted)
        parts.append((0.2, hits / len(counted)))
    total = sum(w for w, _ in parts)
    return sum(w * x for w, x in parts) / total if total else 0.0


@matchers.member("offline", offline=True,
                 description="name/description/profile similarity, optimal assignment")
class OfflineMatcher:
    """Optimal one-to-one matching on :func:`subject_similarity` (Hungarian algorithm).

    Pairs whose similarity is below ``min_similarity`` are dropped, so a predicted
    subject that resembles no gold subject matches nothing.

    Args:
        min_similarity: smallest similarity accepted as a match.

    Example:
        >>> from privlab.redaction.spia import PII
        >>> a = Subject(0, "Ann Lee - applicant", (PII("NAME", "Ann Lee", 5),))
        >>> b = Subject(1, "Bob Kay - lawyer", (PII("NAME", "Bob Kay", 5),))
        >>> OfflineMatcher().match([a, b], [b, a])
        [(0, 1), (1, 0)]
    """

    name = "offline"

    def __init__(self, min_similarity: float = 0.45):
        if not 0.0 <= float(min_similarity) <= 1.0:
            raise invalid("min_similarity", "OfflineMatcher", "in [0, 1]", min_similarity)
        self.min_similarity = float(min_similarity)
        self.name = f"offline(min {self.min_similarity:g})"

    def match(self, gold: Sequence[Subject], predicted: Sequence[Subject],
              text: str = "") -> list[tuple[int, int]]:
        """Optimal pairs ``(gold index, predicted index)``, sorted by gold index."""
        if not gold or not predicted:
            return []
        import numpy as np
        from scipy.optimize import linear_sum_assignment

        sim = np.array([[subject_similarity(g, p) for p in predicted] for g in gold])
        rows, cols = linear_sum_assignment(-sim)
        return sorted((int(r), int(c)) for r, c in zip(rows, cols)
                      if sim[r, c] >= self.min_similarity)


_MATCH = """Two lists describe people in the same document: the reference list and a
list someone inferred. Pair each inferred person with the reference person they are,
one to one; leave out anybody without a counterpart.

Reference:
{gold}

Inferred:
{predicted}

Answer with JSON only: {{"pairs": [[reference_index, inferred_index], ...]}}"""


def _describe_subject(index: int, s: Subject) -> str:
    names = ", ".join(s.values("NAME")) or "(no name)"
    return f"{index}: {names} — {s.description}"


class LLMMatcher:
    """Pairs subjects by asking the model, one to one (checked, retried if not).

    Args:
        client: a :class:`privlab.llm.LLMClient` (default: from the environment).
    """

    def __init__(self, client: Any = None):
        self.client = ensure_client(client, "LLMMatcher")
        self.name = f"llm ({getattr(self.client, 'model', '?')})"

    def match(self, gold: Sequence[Subject], predicted: Sequence[Subject],
              text: str = "") -> list[tuple[int, int]]:
        """Pairs ``(gold index, predicted index)`` sorted by gold index."""
        if not gold or not predicted:
            return []

        def validate(answer: Any) -> list[tuple[int, int]]:
            pairs = answer.get("pairs") if isinstance(answer, dict) else None
            if not isinstance(pairs, list):
                raise ValueError('expected {"pairs": [[i, j], ...]}')
            out = []
            for pair in pairs:
                if (not isinstance(pair, list) or len(pair) != 2
                        or not all(isinstance(x, int) and not isinstance(x, bool) for x in pair)
                        or not 0 <= pair[0] < len(gold) or not 0 <= pair[1] < len(predicted)):
                    raise ValueError(f"bad pair {pair!r}")
                out.append((pair[0], pair[1]))
            if len({g for g, _ in out}) != len(out) or len({p for _, p in out}) != len(out):
                raise ValueError("pairs must be one to one")
            return sorted(out)

        prompt = _MATCH.format(
            gold="\n".join(_describe_subject(i, s) for i, s in enumerate(gold)),
            predicted="\n".join(_describe_subject(i, s) for i, s in enumerate(predicted)))
        return self.client.chat_json([{"role": "user", "content": prompt}], validate=validate)


@matchers.member("llm", offline=False, description="the model pairs the subjects")
def _llm_matcher(client: Any = None, **_options: Any) -> LLMMatcher:
    # options meant for other matchers (e.g. min_similarity) are ignored, so a caller
    # can pass the same settings to whichever matcher is picked
    return LLMMatcher(client)


__all__ = ["LLMMatcher", "OfflineMatcher", "SubjectMatcher", "matchers", "subject_similarity"]
