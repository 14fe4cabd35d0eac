"""How far a RedacBench sample can be trusted: the words its keyword lists share with its
propositions, and how well two independent labelling passes agree.

:func:`keyword_overlaps`, :func:`cohen_kappa`, :func:`load_second_labels` and
:func:`label_agreement`; the second-pass file format: docs/methods/redaction-redacbench.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from privlab.errors import invalid, wrong_type
from privlab.io import read_jsonl, refuse_record
from privlab.redaction.redacbench.data import Document, sample_path

_WORD = re.compile(r"[a-z0-9]+(?:[.,'][a-z0-9]+)*")
_STOP = frozenset("""a an the and or but if of to in on at by for with from as is are was
were be been being it its this that these those he him his she her they them their we our
you your i me my not no so than too very can will would could should may might must shall
do does did done have has had having about into over after before up down out off again
then once there here when where why how all any both each few more most other some such
only own same just also per a's one two s""".split())
_SUFFIXES = ("ations", "ation", "ments", "ment", "ings", "ing", "ies", "ied", "ers", "er",
             "es", "ed", "ly", "s", "e", "y")


def _stem(word: str) -> str:
    """A light suffix stripper (``collapsed`` and ``collapse`` -> ``collaps``)."""
    word = word.removesuffix("'s")
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> set[str]:
    """The stems of a text's content words: lower-cased, stop words (\"may\" among them)
    dropped, numbers kept.

    Example:
        >>> sorted(content_words("The patient collapsed in the library on 3 May."))
        ['3', 'collaps', 'librar', 'patient']
    """
    if not isinstance(text, str):
        raise wrong_type("text", "content_words", "a str", text)
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP}


def _related(a: str, b: str) -> bool:
    """Same stem, or one stem a prefix of the other (>= 5 letters), or a common prefix
    of 7 letters or more, or of 6 covering 80 % of the shorter stem
    (``bankrupt``/``bankruptcy``, ``diagnos``/``diagnosis``, ``epileps``/``epileptic``)."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 5 and long_.startswith(short):
        return True
    common = 0
    for x, y in zip(a, b):
        if x != y:
            break
        common += 1
    return common >= 7 or (common >= 6 and common >= 0.8 * len(short))


def entity_words(keywords: Sequence[str]) -> set[str]:
    """The named-entity words of a keyword list: each word written with a capital
    (a name: ``Galway``, ``Elena Marsh``, ``Home Office``) or holding a digit (a value:
    ``9 October``, ``52,000``, ``Patient 1107``), as stems.

    Example:
        >>> sorted(entity_words(["Eastgate library", "closing", "9 October"]))
        ['9', 'eastgat', 'octob']
    """
    out = set()
    for keyword in keywords:
        for word in re.findall(r"[A-Za-z0-9]+(?:[.,'][A-Za-z0-9]+)*", keyword):
            if word[0].isupper() or any(c.isdigit() for c in word):
                if word.lower() not in _STOP:
                    out.add(_stem(word.lower()))
    return out


@dataclass(frozen=True)
class Overlap:
    """One (proposition, policy) pair sharing content words beyond named entities."""

    document: str
    policy: str
    proposition: str
    sensitive: bool
    shared: tuple[str, ...]
    verbatim: bool


def keyword_overlaps(documents: Sequence[Document]) -> list[Overlap]:
    """Every (proposition, policy) pair of a document whose proposition shares a content
    word (:func:`content_words`, related by :func:`_related`) with the policy's keywords
    that is not a named-entity word of the list (:func:`entity_words`).

    ``verbatim`` says whether a whole keyword that is not made of entity words alone
    occurs in the proposition (case-insensitive, whole words).

    Args:
        documents: loaded documents (policies without keywords are skipped).

    Returns:
        The overlapping pairs, in document, policy and proposition order.

    Example:
        >>> from privlab.redaction.redacbench import load_redacbench, sample_path
        >>> keyword_overlaps(load_redacbench(sample_path()))
        []
    """
    out = []
    for doc in documents:
        if not isinstance(doc, Document):
            raise wrong_type("documents", "keyword_overlaps", "a list of Documents", doc)
        for policy in doc.policies:
            if not policy.keywords:
                continue
            named = entity_words(policy.keywords)
            words = set().union(*(content_words(k) for k in policy.keywords)) - named
            plain = [k for k in policy.keywords if content_words(k) - named]
            for prop in doc.propositions:
                own = content_words(prop.text) - named
                shared = sorted({w for w in own for k in words if _related(w, k)})
                verbatim = any(re.search(rf"(?<!\w){re.escape(k)}(?!\w)", prop.text, re.I)
                               for k in plain)
                if shared or verbatim:
                    out.append(Overlap(doc.id, policy.id, prop.id,
                                       prop.id in policy.sensitive, tuple(shared), verbatim))
    return out


def overlap_counts(documents: Sequence[Document]) -> dict[str, int]:
    """:func:`keyword_overlaps` counted: pairs in all, and overlapping, verbatim, for
    sensitive and for harmless (proposition, policy) pairs.

    Example:
        >>> from privlab.redaction.redacbench import load_redacbench, sample_path
        >>> overlap_counts(load_redacbench(sample_path()))["sensitive overlapping"]
        0
    """
    found = keyword_overlaps(documents)
    with_keywords = [(d, p) for d in documents for p in d.policies if p.keywords]
    sensitive = sum(len(p.sensitive) for _, p in with_keywords)
    total = sum(len(d.propositions) for d, _ in with_keywords)
    return {"sensitive pairs": sensitive, "harmless pairs": total - sensitive,
            "sensitive overlapping": sum(o.sensitive for o in found),
            "harmless overlapping": sum(not o.sensitive for o in found),
            "sensitive verbatim": sum(o.sensitive and o.verbatim for o in found),
            "harmless verbatim": sum(not o.sensitive and o.verbatim for o in found)}


def cohen_kappa(first: Sequence[bool], second: Sequence[bool]) -> float:
    """Cohen's kappa of two labellings of the same items: (p_o - p_e) / (1 - p_e), with
    p_o the observed agreement and p_e the agreement expected from each pass's own label
    frequencies. 1 is perfect agreement, 0 what chance gives; nan when both passes use a
    single, identical label (p_e = 1).

    Args:
        first, second: equal-length label lists (any hashable labels).

    Raises:
        PrivlabValueError: different lengths, or no items.

    Example:
        >>> cohen_kappa([True, True, False, False], [True, False, False, False])
        0.5
    """
    first, second = list(first), list(second)
    if len(first) != len(second):
        raise invalid("second", "cohen_kappa", f"{len(first)} labels (as many as first)",
                      len(second))
    if not first:
        raise invalid("first", "cohen_kappa", "at least one label", first)
    n = len(first)
    observed = sum(a == b for a, b in zip(first, second)) / n
    labels = set(first) | set(second)
    expected = sum((first.count(x) / n) * (second.count(x) / n) for x in labels)
    if expected == 1.0:
        return float("nan")
    return (observed - expected) / (1.0 - expected)


def second_labels_path() -> Path:
    """The second labelling pass of the privlab sample (shipped in ``data/``)."""
    return sample_path().with_name("redacbench_sample_second_labels.jsonl")


@dataclass(frozen=True)
class SecondLabel:
    """One checked text's labels from the second pass."""

    document: str
    check: int
    origin: str
    inferable: dict = field(default_factory=dict)


def load_second_labels(path: str | Path, documents: Sequence[Document]) -> list[SecondLabel]:
    """Read a second labelling pass and check it against ``documents``.

    Raises:
        PrivlabValueError: a line that is not an object of the documented shape, an
            unknown document or check, an origin that differs from the check's, an
            unknown proposition, a label that is not true/false, or a check labelled
            twice (each names the file and line).
    """
    expected = "second-pass labels (see privlab.redaction.redacbench.agreement)"
    by_id = {d.id: d for d in documents}
    out, seen = [], set()
    for line, obj in read_jsonl(path, "load_second_labels"):
        where = f"{Path(path).name} line {line}"

        def refuse(problem: str):
            return refuse_record("load_second_labels", expected, where, problem)

        if not isinstance(obj, dict) or set(obj) != {"document", "check", "origin",
                                                     "inferable"}:
            raise refuse("an object with exactly document, check, origin and inferable")
        doc = by_id.get(obj["document"])
        if doc is None:
            raise refuse(f"unknown document {obj['document']!r}")
        index = obj["check"]
        if isinstance(index, bool) or not isinstance(index, int) \
                or not 0 <= index < len(doc.checks):
            raise refuse(f"check must be 0..{len(doc.checks) - 1} for {doc.id}, got {index!r}")
        if obj["origin"] != doc.checks[index].origin:
            raise refuse(f"origin {obj['origin']!r} differs from the check's "
                         f"{doc.checks[index].origin!r}")
        if (doc.id, index) in seen:
            raise refuse(f"check {index} of {doc.id} is labelled twice")
        seen.add((doc.id, index))
        labels = obj["inferable"]
        ids = {p.id for p in doc.propositions}
        if not isinstance(labels, dict) or not labels or not set(labels) <= ids \
                or not all(isinstance(v, bool) for v in labels.values()):
            raise refuse(f"inferable must map propositions of {doc.id} to true/false")
        out.append(SecondLabel(doc.id, index, obj["origin"], dict(labels)))
    return out


@dataclass(frozen=True)
class Agreement:
    """Two labelling passes over the same (proposition, checked text) pairs.

    Attributes:
        pairs: pairs labelled by both passes.
        texts: checked texts they come from.
        agree: pairs with the same label.
        kappa: Cohen's kappa (:func:`cohen_kappa`).
        table: counts ``{(first, second): n}`` over True/False.
        disagreements: (document, check, proposition, first, second) per disagreement.
    """

    pairs: int
    texts: int
    agree: int
    kappa: float
    table: dict
    disagreements: tuple = ()

    @property
    def observed(self) -> float:
        """Share of pairs with the same label."""
        return self.agree / self.pairs if self.pairs else float("nan")

    def summary(self) -> str:
        """One line: kappa, raw agreement, pairs."""
        return (f"Cohen's kappa {self.kappa:.2f} ({self.agree} of {self.pairs} "
                f"proposition-text pairs agree, {self.texts} checked texts)")


def label_agreement(documents: Sequence[Document],
                    second: Sequence[SecondLabel]) -> Agreement:
    """Compare the first pass (the documents' check labels) with a second pass.

    Raises:
        PrivlabValueError: a second-pass label for a proposition the first pass did not
            label, or no pairs at all.
    """
    by_id = {d.id: d for d in documents}
    a, b, rows = [], [], []
    for item in second:
        first = by_id[item.document].checks[item.check].inferable
        for pid, label in item.inferable.items():
            if pid not in first:
                raise invalid("second", "label_agreement", "labels of propositions the first "
                              "pass labelled", f"{item.document} check {item.check} {pid}",
                              given_is_text=True)
            a.append(first[pid])
            b.append(label)
            if first[pid] != label:
                rows.append((item.document, item.check, pid, first[pid], label))
    if not a:
        raise invalid("second", "label_agreement", "at least one labelled pair", len(second))
    table = {(x, y): sum(1 for p, q in zip(a, b) if (p, q) == (x, y))
             for x in (True, False) for y in (True, False)}
    return Agreement(len(a), len(second), sum(p == q for p, q in zip(a, b)),
                     cohen_kappa(a, b), table, tuple(rows))


__all__ = ["Agreement", "Overlap", "SecondLabel", "cohen_kappa", "content_words",
           "entity_words", "keyword_overlaps", "label_agreement", "load_second_labels",
           "overlap_counts", "second_labels_path"]
