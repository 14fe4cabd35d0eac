"""Subject matching: which predicted person is which gold person, one to one.

Members of :data:`matchers`: ``"offline"`` (by person, then by value), ``"agreement"``
(on PII-value agreement first: the pairing most favourable to the adversary) and
``"llm"`` (SPIA's alignment by the model). A gold subject left unpaired was not found.
See docs/methods/redaction-spia-scoring.md.
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

    The weighted mean (0.5, 0.3, 0.2) of the parts both sides have; see
    docs/methods/redaction-spia-scoring.md.

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

    parts: list[tuple[float, float]] = []
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


#: Words of a description that say who a person is -> the role they name. A word list of
#: the scorer (not of any adversary): plain English kin and role nouns.
ROLE_KEYS = {
    "author": "author", "writer": "author", "poster": "author", "commenter": "author",
    "reviewer": "author", "op": "author", "applicant": "applicant", "applicants": "applicant",
    "spouse": "spouse", "wife": "spouse", "husband": "spouse", "partner": "partner",
    "girlfriend": "partner", "boyfriend": "partner", "fiancé": "partner", "fiancée": "partner",
    "fiance": "partner", "fiancee": "partner", "child": "child", "children": "child",
    "kid": "child", "kids": "child", "son": "child", "daughter": "child", "baby": "child",
    "kiddo": "child", "kiddos": "child", "toddler": "child", "mother": "parent",
    "father": "parent", "mom": "parent", "mum": "parent", "dad": "parent", "parent": "parent",
    "brother": "sibling", "sister": "sibling", "sibling": "sibling", "friend": "friend",
    "colleague": "colleague", "coworker": "colleague", "boss": "manager", "manager": "manager",
    "neighbour": "neighbour", "neighbor": "neighbour", "lawyer": "lawyer",
    "solicitor": "lawyer", "barrister": "lawyer", "counsel": "lawyer", "attorney": "lawyer",
    "advocate": "lawyer", "agent": "agent", "judge": "judge", "prosecutor": "prosecutor",
    "registrar": "registrar", "doctor": "doctor", "physician": "doctor", "police": "police",
    "policeman": "police", "gendarme": "police", "officer": "police", "minister": "minister",
    "mayor": "mayor", "governor": "governor", "witness": "witness", "expert": "expert",
    "grandmother": "grandparent", "grandfather": "grandparent", "uncle": "relative",
    "aunt": "relative", "cousin": "relative", "nephew": "relative", "niece": "relative",
    "customer": "customer", "client": "customer", "patient": "patient", "teacher": "teacher",
    "student": "student", "students": "student",
}
_NOT_A_NAME = frozenset({"the", "a", "an", "our", "my", "his", "her", "their", "one", "person",
                         "slot", "unnamed", "unknown", "someone", "individual"})
_CODES = ("IDENTIFICATION_NUMBER", "DRIVER_LICENSE_NUMBER", "PHONE_NUMBER", "PASSPORT_NUMBER",
          "EMAIL_ADDRESS")


def identity_names(s: Subject) -> list[str]:
    """The names a subject goes by: its NAME values, else the head of its description
    (before " - ") when that reads as a name (capitalised or a handle, no role word).

    Example:
        >>> identity_names(Subject(0, "@mereana.ewart - Post author", ()))
        ['@mereana.ewart']
        >>> identity_names(Subject(1, "The wife of the writer", ())), identity_names(Subject(2, "Kid 1 - a child", ()))
        ([], [])
    """
    values = s.values("NAME")
    if values:
        return values
    head = s.description.split(" - ")[0].strip()
    words = [w.lower() for w in _WORD.findall(head)]
    if not head or not (head[:1].isupper() or head[:1] == "@") or not words:
        return []
    if words[0] in _NOT_A_NAME or any(w in ROLE_KEYS for w in words):
        return []
    return [head]


def identity_roles(s: Subject) -> set[str]:
    """The roles a subject's description, OCCUPATION and POSITION name (:data:`ROLE_KEYS`).

    Example:
        >>> sorted(identity_roles(Subject(0, "Thomas - Spouse of the post author", ())))
        ['author', 'spouse']
    """
    text = " ".join([s.description] + s.values("OCCUPATION") + s.values("POSITION"))
    return {ROLE_KEYS[w] for w in _WORD.findall(text.lower()) if w in ROLE_KEYS}


def _main_role(s: Subject) -> set[str]:
    """The roles of the description's head and first clause (``"Thomas - Spouse of the
    post author"``: spouse, not author), with OCCUPATION and POSITION."""
    parts = s.description.split(" - ", 1)
    lead = parts[1] if len(parts) > 1 else parts[0]
    lead = re.split(r"\b(?:of|for|by|with|to|from|representing|mentioned)\b", lead, 1)[0]
    head = [parts[0]] if len(parts) > 1 else []
    text = " ".join(head + [lead] + s.values("OCCUPATION") + s.values("POSITION"))
    return {ROLE_KEYS[w] for w in _WORD.findall(text.lower()) if w in ROLE_KEYS}


def _jaccard(a: str, b: str) -> float:
    wa, wb = _words(a), _words(b)
    return len(wa & wb) / len(wa | wb) if wa and wb else 0.0


def has_identity(s: Subject) -> bool:
    """Whether a subject carries any identity evidence: a name, a role, or a code."""
    return bool(identity_names(s) or _main_role(s) or any(s.values(t) for t in _CODES))


def _name_alike(a: str, b: str) -> float:
    """Two names' likeness in [0, 1]: 1 for the same words, 0.9 when one holds the other's
    words ("Leigh" in "Leigh Lawrence"), else Jaro-Winkler of the lower-cased names."""
    wa = [w for w in re.split(r"[\s._@,;:()\"'-]+", a.lower()) if w and w not in ("mr", "mrs",
                                                                                     "ms", "dr")]
    wb = [w for w in re.split(r"[\s._@,;:()\"'-]+", b.lower()) if w and w not in ("mr", "mrs",
                                                                                     "ms", "dr")]
    if not wa or not wb:
        return 0.0
    if wa == wb or "".join(wa) == "".join(wb):
        return 1.0
    if set(wa) <= set(wb) or set(wb) <= set(wa):
        return 0.9
    return jaro_winkler(" ".join(wa), " ".join(wb))


def identity(gold: Subject, predicted: Subject) -> float | None:
    """How surely ``predicted`` is the person ``gold``, from names, roles and codes only.

    Never from the other values; None when the two share no kind of evidence. The rule
    (a shared code, differing names, weighted name and role parts):
    docs/methods/redaction-spia-scoring.md.

    Example:
        >>> from privlab.redaction.spia import PII
        >>> writer = Subject(0, "@mereana.ewart - Post author", (PII("NAME", "Mereana Ewart", 4),))
        >>> spouse = Subject(1, "Thomas - Spouse of the post author", (PII("NAME", "Thomas", 5),))
        >>> round(identity(spouse, Subject(0, "The spouse of the writer of the text", ())), 2)
        1.0
        >>> identity(writer, Subject(0, "The spouse of the writer of the text", ()))
        0.0
    """
    for tag in _CODES:
        if any(score_pii(tag, g, p) == 1.0 for g in gold.values(tag)
               for p in predicted.values(tag)):
            return 1.0
    parts: list[tuple[float, float]] = []
    gn, pn = identity_names(gold), identity_names(predicted)
    if gn and pn:
        name = max(_name_alike(a, b) for a in gn for b in pn)
        if name < 0.75:
            return 0.0
        parts.append((0.6, name))
    gr, pr = _main_role(gold), _main_role(predicted)
    if gr and pr:
        parts.append((0.4, len(gr & pr) / min(len(gr), len(pr))))
    elif gr or pr:  # one side names a role the other does not: weak evidence against
        other = identity_roles(gold) if pr else identity_roles(predicted)
        if other and not (gr | pr) & other:
            parts.append((0.4, 0.0))
    if not parts:
        return None
    total = sum(w for w, _ in parts)
    return sum(w * x for w, x in parts) / total


@matchers.member("offline", offline=True,
                 description="by person first (names, roles, codes), then values; optimal "
                             "assignment")
class OfflineMatcher(_Tally):
    """Pairs by person, then scores by value: an optimal assignment on :func:`identity` alone.

    The values a prediction gets right never decide whom it is paired with, so a value is
    credited only to the person the adversary meant. Tie-breaks and the pairing of
    subjects without identity evidence: docs/methods/redaction-spia-scoring.md.
    ``tally`` counts gold subjects seen, predicted subjects seen and gold subjects left
    unpaired.

    Args:
        min_identity: the identity from which two subjects are the same person (see
            docs/decisions/2026-12-05-spia-development-split.md).

    Example:
        >>> from privlab.redaction.spia import PII
        >>> writer = Subject(0, "@mereana.ewart - Post author", (PII("RELATIONSHIP", "Married", 5),))
        >>> spouse = Subject(1, "Thomas - Spouse of the post author", (PII("NAME", "Thomas", 5),
        ...                  PII("RELATIONSHIP", "Married", 5)))
        >>> pred = [Subject(0, "The writer of the text", ()),
        ...         Subject(1, "The spouse of the writer", (PII("RELATIONSHIP", "Married", 4),))]
        >>> OfflineMatcher().match([writer, spouse], pred)
        [(0, 0), (1, 1)]
    """

    name = "offline"

    def __init__(self, min_identity: float = 0.5, **_options: object):
        super().__init__()
        if not 0.0 <= float(min_identity) <= 1.0:
            raise invalid("min_identity", "OfflineMatcher", "in [0, 1]", min_identity)
        self.min_identity = float(min_identity)
        self.name = f"offline(person first, min identity {self.min_identity:g})"

    def match(self, gold: Sequence[Subject], predicted: Sequence[Subject],
              text: str = "", original: str = "") -> list[tuple[int, int]]:
        """Pairs ``(gold index, predicted index)``, sorted by gold index."""
        if not gold or not predicted:
            return self._count(len(gold), len(predicted), [])
        import numpy as np
        from scipy.optimize import linear_sum_assignment

        found = [[identity(g, p) for p in predicted] for g in gold]
        ident = np.array([[-1.0 if x is None else x for x in row] for row in found])
        # lexicographic: identity (to 0.01) first; among equally identified people the
        # descriptions' word overlap, then the main person first, then value agreement
        words = np.array([[_jaccard(g.description, p.description) for p in predicted]
                          for g in gold])
        agree = np.array([[agreement(g, p) / max(len(g.counted_piis()), 1) for p in predicted]
                          for g in gold])
        main = np.zeros_like(ident)
        for i, g in enumerate(gold):
            if g.id == 0:
                main[i, 0] = 1.0
        scale = 100.0 * (min(len(gold), len(predicted)) + 1)
        weight = (np.round(ident, 2) * scale ** 3 + np.round(words, 2) * scale ** 2
                  + main * scale / 2 + agree)
        rows, cols = linear_sum_assignment(-weight)
        pairs = [(int(r), int(c)) for r, c in zip(rows, cols) if ident[r, c] >= self.min_identity]
        taken_g = {g for g, _ in pairs}
        taken_p = {p for _, p in pairs}
        free_g = [i for i in range(len(gold)) if i not in taken_g]
        free_g.sort(key=lambda i: gold[i].id != 0)
        blind = [j for j, p in enumerate(predicted) if j not in taken_p and not has_identity(p)]
        pairs += list(zip(free_g, blind))
        return self._count(len(gold), len(predicted), sorted(pairs))


@matchers.member("agreement", offline=True,
                 description="PII-value agreement first (most favourable to the adversary: "
                             "an upper bound on recovery)")
class AgreementMatcher(_Tally):
    """Optimal one-to-one pairing, on PII-value agreement first (Hungarian algorithm).

    Maximises the total :func:`agreement`, then the total :func:`subject_similarity`; a
    pair is kept when it agrees on a value or its similarity reaches ``min_similarity``.
    ``tally`` counts subjects seen and left unpaired over every call.

    Args:
        min_similarity: smallest name/description similarity that pairs two subjects
            whose values all disagree.

    Example:
        >>> from privlab.redaction.spia import PII
        >>> a = Subject(0, "Ann Lee - applicant", (PII("NAME", "Ann Lee", 5), PII("AGE", "40", 5)))
        >>> b = Subject(1, "Bob Kay - lawyer", (PII("NAME", "Bob Kay", 5), PII("AGE", "70", 5)))
        >>> generic = [Subject(0, "Person 1", (PII("AGE", "71", 3),)),
        ...            Subject(1, "Person 2", (PII("AGE", "41", 3),))]
        >>> m = AgreementMatcher()
        >>> m.match([a, b], generic), m.unmatched_fraction()
        ([(0, 1), (1, 0)], 0.0)
    """

    name = "agreement"

    def __init__(self, min_similarity: float = 0.45, **_options: object):
        super().__init__()
        if not 0.0 <= float(min_similarity) <= 1.0:
            raise invalid("min_similarity", "AgreementMatcher", "in [0, 1]", min_similarity)
        self.min_similarity = float(min_similarity)
        self.name = f"agreement(values first, min {self.min_similarity:g})"

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
    """SPIA's subject alignment: the model reads both texts and both lists of people and
    pairs them one to one (an answer that is not one to one is asked again).

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
    # options meant for other members are ignored, so one set of settings serves any pick
    return LLMMatcher(client)


__all__ = ["AgreementMatcher", "LLMMatcher", "OfflineMatcher", "ROLE_KEYS", "SubjectMatcher",
           "agreement", "has_identity", "identity", "identity_names", "identity_roles",
           "matchers", "subject_similarity"]
