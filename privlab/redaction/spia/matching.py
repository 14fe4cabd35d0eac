"""Subject matching: which predicted person is which gold person, one to one.

An adversary lists the people it can tell apart, in its own order and with its own
descriptions; before any value is scored, each predicted subject is paired with at most
one gold subject. A gold subject left unpaired was not found (fully protected).

Members of :data:`matchers`:

* ``"offline"`` — :class:`OfflineMatcher`: optimal assignment on PII-value agreement
  first (:func:`agreement`, what the pair would score), then on
  :func:`subject_similarity` (names and descriptions) to break ties and to pair people
  whose values all differ. Descriptions cannot hide a person: a prediction whose values
  are right is paired with its person however it is described ("Person 3");
* ``"llm"`` — :class:`LLMMatcher`, SPIA's alignment: the model reads the original text,
  the anonymized text and both lists of people with their values (endpoint needed).

Pairing on agreement is the pairing most favourable to the adversary among one-to-one
pairings, so the CPR it gives is the lowest any such pairing gives; an adversary that
lists many look-alike people can gain from it, which is why the number of predicted
people is reported beside the unmatched fraction.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, Sequence

from privlab.errors import invalid
from privlab.llm import ensure_client
from privlab.redaction.spia.prompts import MATCH, ask_json, describe_for_matching
from privlab.redaction.spia.records import MIN_CERTAINTY, Subject
from privlab.redaction.spia.rules import jaro_winkler, score_pii
from privlab.registry import Registry

matchers = Registry("SPIA subject matcher")


class SubjectMatcher(Protocol):
    """Pairs predicted subjects with gold subjects, one to one.

    ``match(gold, predicted, text, original=...)`` returns ``(gold index, predicted
    index)`` pairs; ``text`` is the text the adversary read, ``original`` the
    unanonymized one; a gold subject in no pair was not found by the adversary.
    """

    name: str

    def match(self, gold: Sequence[Subject], predicted: Sequence[Subject],
              text: str = "", original: str = "") -> list[tuple[int, int]]: ...


class _Tally:
    """Counts a matcher keeps over its calls: gold subjects seen and left unpaired."""

    def __init__(self) -> None:
        self.tally = {"gold": 0, "unmatched": 0, "predicted": 0}

    def _count(self, n_gold: int, n_predicted: int, pairs: list) -> list:
        self.tally["gold"] += n_gold
        self.tally["predicted"] += n_predicted
        self.tally["unmatched"] += n_gold - len(pairs)
        return pairs

    def unmatched_fraction(self) -> float:
        """Share of the gold subjects seen so far that were paired with nobody."""
        return self.tally["unmatched"] / self.tally["gold"] if self.tally["gold"] else float("nan")


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


def agreement(gold: Subject, predicted: Subject, *, min_certainty: int = MIN_CERTAINTY,
              location_max_depth: int | None = 4) -> float:
    """What pairing ``predicted`` with ``gold`` would score: the sum over the gold subject's
    counted PIIs of the best rule score (1, 0.5, 0) among the predicted values of that tag.

    Example:
        >>> from privlab.redaction.spia import PII
        >>> g = Subject(0, "", (PII("SEX", "Male", 5), PII("LOCATION", "Cork / Ireland", 4)))
        >>> agreement(g, Subject(1, "Person 1", (PII("SEX", "m", 3), PII("LOCATION", "Ireland", 3))))
        1.5
    """
    total = 0.0
    for p in gold.counted_piis(min_certainty):
        total += max((score_pii(p.tag, p.keyword, v, location_max_depth=location_max_depth)
                      for v in predicted.values(p.tag)), default=0.0)
    return total


@matchers.member("offline", offline=True,
                 description="PII-value agreement first, then names and descriptions; "
                             "optimal assignment")
class OfflineMatcher(_Tally):
    """Optimal one-to-one pairing, on PII-value agreement first (Hungarian algorithm).

    The pairing maximises the total :func:`agreement` exactly; among pairings that do,
    it maximises the total :func:`subject_similarity`. A pair is kept when its agreement
    is above 0 or its similarity reaches ``min_similarity``; a pair with neither is no
    pair (the gold subject stays unmatched). ``tally`` counts gold subjects seen,
    predicted subjects seen and gold subjects left unpaired over every call.

    Args:
        min_similarity: smallest name/description similarity that pairs two subjects
            whose values all disagree.

    Example:
        >>> from privlab.redaction.spia import PII
        >>> a = Subject(0, "Ann Lee - applicant", (PII("NAME", "Ann Lee", 5), PII("AGE", "40", 5)))
        >>> b = Subject(1, "Bob Kay - lawyer", (PII("NAME", "Bob Kay", 5), PII("AGE", "70", 5)))
        >>> generic = [Subject(0, "Person 1", (PII("AGE", "71", 3),)),
        ...            Subject(1, "Person 2", (PII("AGE", "41", 3),))]
        >>> m = OfflineMatcher()
        >>> m.match([a, b], generic), m.unmatched_fraction()
        ([(0, 1), (1, 0)], 0.0)
    """

    name = "offline"

    def __init__(self, min_similarity: float = 0.45):
        super().__init__()
        if not 0.0 <= float(min_similarity) <= 1.0:
            raise invalid("min_similarity", "OfflineMatcher", "in [0, 1]", min_similarity)
        self.min_similarity = float(min_similarity)
        self.name = f"offline(agreement, min {self.min_similarity:g})"

    def match(self, gold: Sequence[Subject], predicted: Sequence[Subject],
              text: str = "", original: str = "") -> list[tuple[int, int]]:
        """Optimal pairs ``(gold index, predicted index)``, sorted by gold index."""
        if not gold or not predicted:
            return self._count(len(gold), len(predicted), [])
        import numpy as np
        from scipy.optimize import linear_sum_assignment

        agree = np.array([[agreement(g, p) for p in predicted] for g in gold])
        sim = np.array([[subject_similarity(g, p) for p in predicted] for g in gold])
        # agreement comes in halves; scaled past any total of similarities, it decides
        weight = 2.0 * agree * (min(len(gold), len(predicted)) + 1) + sim
        rows, cols = linear_sum_assignment(-weight)
        pairs = sorted((int(r), int(c)) for r, c in zip(rows, cols)
                       if agree[r, c] > 0 or sim[r, c] >= self.min_similarity)
        return self._count(len(gold), len(predicted), pairs)


def _values(s: Subject, counted_only: bool) -> list[tuple[str, str]]:
    piis = s.counted_piis() if counted_only else [p for p in s.piis if p.keyword.strip()]
    return [(p.tag, p.keyword) for p in piis]


class LLMMatcher(_Tally):
    """SPIA's subject alignment: the model reads the original text, the anonymized text
    and both lists of people with their PIIs, and pairs them one to one (an answer that
    pairs anyone twice, or names an index that does not exist, is asked again saying so).

    Args:
        client: a :class:`privlab.llm.LLMClient` (default: from the environment).
        max_chars: longest text sent, for each of the two texts.
        attempts: tries per document (see :func:`~privlab.redaction.spia.prompts.ask_json`).
    """

    def __init__(self, client: Any = None, max_chars: int = 24_000, attempts: int = 3):
        super().__init__()
        self.client = ensure_client(client, "LLMMatcher")
        self.name = f"llm ({getattr(self.client, 'model', '?')})"
        self.max_chars = int(max_chars)
        self.attempts = int(attempts)

    def match(self, gold: Sequence[Subject], predicted: Sequence[Subject],
              text: str = "", original: str = "") -> list[tuple[int, int]]:
        """Pairs ``(gold index, predicted index)`` sorted by gold index."""
        if not gold or not predicted:
            return self._count(len(gold), len(predicted), [])

        def validate(answer: Any) -> list[tuple[int, int]]:
            pairs = answer.get("pairs") if isinstance(answer, dict) else None
            if not isinstance(pairs, list):
                raise ValueError('the answer must be an object {"pairs": [[A, B], ...]}')
            out = []
            for pair in pairs:
                if (not isinstance(pair, list) or len(pair) != 2
                        or not all(isinstance(x, int) and not isinstance(x, bool) for x in pair)
                        or not 0 <= pair[0] < len(gold) or not 0 <= pair[1] < len(predicted)):
                    raise ValueError(f"pair {pair!r} is not [A index 0-{len(gold) - 1}, "
                                     f"B index 0-{len(predicted) - 1}]")
                out.append((pair[0], pair[1]))
            if len({g for g, _ in out}) != len(out) or len({p for _, p in out}) != len(out):
                raise ValueError("an index appears in two pairs; the pairs must be one to one")
            return sorted(out)

        prompt = MATCH.format(
            original=(original or "(not given)")[: self.max_chars],
            anonymized=(text or "(not given)")[: self.max_chars],
            gold="\n".join(describe_for_matching(i, s.description, _values(s, True))
                           for i, s in enumerate(gold)),
            predicted="\n".join(describe_for_matching(i, s.description, _values(s, False))
                                for i, s in enumerate(predicted)))
        pairs = ask_json(self.client, [{"role": "user", "content": prompt}], validate,
                         attempts=self.attempts, what="the subject pairing")
        return self._count(len(gold), len(predicted), pairs)


@matchers.member("llm", offline=False, description="the model pairs the subjects")
def _llm_matcher(client: Any = None, **_options: Any) -> LLMMatcher:
    # options meant for other matchers (e.g. min_similarity) are ignored, so a caller
    # can pass the same settings to whichever matcher is picked
    return LLMMatcher(client)


__all__ = ["LLMMatcher", "OfflineMatcher", "SubjectMatcher", "agreement", "matchers",
           "subject_similarity"]
