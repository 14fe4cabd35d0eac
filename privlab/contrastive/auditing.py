"""Contrastive audit orchestration: originals x sanitizer x encoders -> resolutions.

:func:`audit` sanitizes once, encodes with each member and runs the kernel, for any kind of
item; :func:`audit_many` does it for several sanitizers. A resolution is a model- and
corpus-relative diagnostic: 0 means no violation was detected here, not that the sanitized
items are private. See ``docs/methods/contrastive-audit.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np

from privlab.errors import invalid, item_list, strings, wrong_type
from privlab.contrastive.face import AuditFace, same_item
from privlab.contrastive.sanitized import sanitize as sanitize_once
from privlab.hashing import sequence_hash
from privlab.progress import step, within
from privlab.names import name_pattern
from privlab.resolution import Resolution, check_top_k, reference_directions, resolution

STATUS = "diagnostic (model- and corpus-relative)"


# ---------------------------------------------------------------------------------------
# Small building blocks
# ---------------------------------------------------------------------------------------
def corpus_hash(items: Sequence[Any]) -> str:
    """A short SHA-256 over the items' content hashes, in order (provenance of a corpus).

    Example:
        >>> corpus_hash(["a", "b"]) == corpus_hash(["a", "b"]) != corpus_hash(["b", "a"])
        True
    """
    return sequence_hash(items)


def utility(E, E_sanitized) -> np.ndarray:
    """Cosine between each original and its sanitized version.

    Args:
        E: ``(n, d)`` unit embeddings of the originals.
        E_sanitized: ``(n, d)`` unit embeddings of the sanitized items, row for row.

    Returns:
        ``(n,)`` float64; 1 means the sanitizer changed nothing the encoder sees.

    Raises:
        ValueError: different shapes.

    Example:
        >>> utility(np.eye(2), np.array([[1.0, 0.0], [1.0, 0.0]])).tolist()
        [1.0, 0.0]
    """
    E = np.asarray(E, dtype=np.float64)
    F = np.asarray(E_sanitized, dtype=np.float64)
    if E.shape != F.shape or E.ndim != 2:
        raise invalid("E_sanitized", "utility", f"of the same 2-D shape as E {E.shape}",
                      f"shape {F.shape}", given_is_text=True)
    return np.sum(E * F, axis=1)


@dataclass(frozen=True)
class NameBaseline:
    """The exact-name baseline: sanitized texts that still contain the target's name.

    Attributes:
        names: the names searched (case-insensitive).
        count: how many texts still contain one.
        total: how many texts were searched.
        indices: which ones, ascending.
        match: ``"word"`` (whole words) or ``"substring"`` (anywhere), see
            :func:`privlab.names.name_pattern`.
    """

    names: tuple[str, ...]
    count: int
    total: int
    indices: tuple[int, ...]
    match: str = "word"

    @property
    def share(self) -> float:
        """``count / total`` (0 for an empty corpus)."""
        return self.count / self.total if self.total else 0.0


def exact_name_baseline(texts: Sequence[str], names: Iterable[str], *,
                        match: str = "word") -> NameBaseline:
    """Count texts that still contain any of ``names`` (case-insensitive).

    This detects explicit identifiers only, never identifying context; the resolution
    test is what surfaces the latter.

    Args:
        texts: sanitized texts.
        names: the target's names, e.g. ``["Ken Lay", "Kenneth Lay"]``.
        match: ``"word"`` (whole words) or ``"substring"`` (anywhere, also glued to
            other characters as in ``Memo_Ken Lay``); see :func:`privlab.names.name_pattern`.

    Returns:
        A :class:`NameBaseline`.

    Raises:
        TypeError: a text is not a string.
        ValueError: an unknown ``match``.

    Example:
        >>> b = exact_name_baseline(["Ken Lay said", "█████ said", "ken  lay"], ["Ken Lay"])
        >>> b.count, b.indices, round(b.share, 3)
        (2, (0, 2), 0.667)
        >>> exact_name_baseline(["=09Ken Lay@ENRON"], ["Ken Lay"], match="substring").count
        1
    """
    pattern = name_pattern(names, match=match)
    hits = []
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            raise wrong_type(f"texts[{index}]", "exact_name_baseline", "a str", text)
        if pattern.search(text):
            hits.append(index)
    return NameBaseline(tuple(n for n in names), len(hits), len(texts), tuple(hits), match)


_STOP = frozenset("""a an the and or but if of to in on at by for with from as is are was were be
been being it its this that these those i me my we our you your he him his she her they them
their what which who whom not no so than too very can will just do does did have has had
about into over after before up down out off again then once there here when where why how all
any both each few more most other some such only own same s t don should now re ve ll d m
would could also like get got one really think know""".split())
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'\-]+|\d[\d,.$]*")


def shared_terms(a: str, b: str, *, min_length: int = 3) -> list[str]:
    """Content words of ``a`` that also occur in ``b`` (case-insensitive), in ``a``'s order.

    Used to highlight what a sanitized witness retained that connects it to the
    reference. Stop words and words shorter than ``min_length`` are ignored.

    Example:
        >>> shared_terms("The superhero movie was long", "a superhero team movie")
        ['superhero', 'movie']
    """
    if not isinstance(a, str) or not isinstance(b, str):
        raise wrong_type("a", "shared_terms", "two strings", a if not isinstance(a, str) else b)
    other = {w.lower() for w in _TOKEN.findall(b)}
    out: list[str] = []
    for word in _TOKEN.findall(a):
        low = word.lower()
        if len(low) >= min_length and low not in _STOP and low in other and low not in out:
            out.append(low)
    return out


# ---------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Witness:
    """One trial: sanitized audited item ``i`` against reference ``j``.

    Attributes:
        audited: index of the audited item.
        reference: index of the reference.
        difference: the signed difference ``E(X_c(x_i)) . (E(y_j) - E(X_c(y_j)))``.
        audited_original: ``x_i``.
        audited_sanitized: ``X_c(x_i)`` (what would be released).
        reference_original: ``y_j``.
        reference_sanitized: ``X_c(y_j)``.
    """

    audited: int
    reference: int
    difference: float
    audited_original: Any = field(repr=False)
    audited_sanitized: Any = field(repr=False)
    reference_original: Any = field(repr=False)
    reference_sanitized: Any = field(repr=False)

    def retained_terms(self) -> list[str]:
        """Content words the sanitized audited text shares with the original reference."""
        if isinstance(self.audited_sanitized, str) and isinstance(self.reference_original, str):
            return shared_terms(self.audited_sanitized, self.reference_original)
        return []


@dataclass(frozen=True)
class EncoderAudit:
    """The test under one distance mechanism.

    Attributes:
        encoder: the encoder's name.
        resolution: the kernel's :class:`Resolution` (witness, top trials, per-item maxima).
        utility: ``(m,)`` cosine between each audited original and its sanitized version.
        witnesses: the top trials as :class:`Witness` objects, the decisive one first.
        placebo: the resolution of the sanitizer's placebo twin under this member (its
            artefact floor on these data), or None when no placebo was run.
        placebo_resolution: the placebo's full :class:`Resolution` (its witness), or None.
        label: the name the caller gave the encoder (``"sface"``, a callable's name),
            by which :meth:`ContrastiveAudit.member` finds it; "" when none was given.
    """

    encoder: str
    resolution: Resolution
    utility: np.ndarray = field(repr=False)
    witnesses: tuple[Witness, ...] = field(repr=False)
    placebo: float | None = None
    placebo_resolution: Resolution | None = field(default=None, repr=False)
    label: str = ""

    @property
    def value(self) -> float:
        """The resolution ``delta*``."""
        return self.resolution.value

    @property
    def witness(self) -> Witness:
        """The decisive witness."""
        return self.witnesses[0]

    @property
    def mean_utility(self) -> float:
        """Mean cosine between originals and their sanitized versions."""
        return float(np.mean(self.utility))

    @property
    def excess(self) -> float | None:
        """``max(0, resolution - placebo)``: the violation beyond the artefact floor (None
        without a placebo)."""
        return None if self.placebo is None else max(0.0, self.value - self.placebo)


@dataclass(frozen=True)
class ContrastiveAudit(AuditFace):
    """One sanitizer audited under one or more encoders (``headline()``, ``report(path)`` ...).

    Attributes:
        sanitizer: the sanitizer's provenance (``describe()``), or ``{"sanitizer":
            "given"}`` when sanitized items were passed in.
        members: one :class:`EncoderAudit` per encoder, in the order given.
        originals: the audited originals.
        sanitized: their sanitized versions, in order.
        baseline: the exact-name baseline (text with ``names``), else None.
        corpus: hash of the audited originals (and references when asymmetric).
        symmetric: whether the audited set was the reference set.
        status: what kind of number the resolution is.
        placebo_sanitizer: the placebo twin's provenance (``describe()``), or None.
        placebo_sanitized: the placebo outputs, row for row, or None.
        placebo_coverage: for an image placebo, its marked area over the sanitizer's
            (1: every piece found cue-free room; less: its floor is a lower estimate).
        placebo_overlap: for an image placebo, the mean share of its marks on avoided
            regions (0 unless it was built with ``room="overlap"``).
    """

    sanitizer: dict
    members: tuple[EncoderAudit, ...]
    originals: list = field(repr=False)
    sanitized: list = field(repr=False)
    baseline: NameBaseline | None
    corpus: str
    symmetric: bool = True
    status: str = STATUS
    placebo_sanitizer: dict | None = None
    placebo_sanitized: list | None = field(default=None, repr=False)
    placebo_coverage: float | None = None
    placebo_overlap: float | None = None

    @property
    def name(self) -> str:
        return str(self.sanitizer.get("sanitizer", "sanitizer"))

    @property
    def unchanged(self) -> int:
        """How many items the sanitizer left unchanged.

        An unchanged reference does not capture the concept for this sanitizer
        (``y = X_c(y)``) and can never witness a violation; a sanitizer that changes
        nothing trivially scores 0, so read the resolution together with this count.
        """
        from privlab.hashing import content_hash

        return sum(content_hash(a) == content_hash(b)
                   for a, b in zip(self.originals, self.sanitized))

    @property
    def value(self) -> float:
        """The ensemble resolution: the largest member's (cautious reading)."""
        return max(m.value for m in self.members)

    @property
    def placebo(self) -> float | None:
        """The largest member's placebo resolution (None without a placebo)."""
        floors = [m.placebo for m in self.members if m.placebo is not None]
        return max(floors) if floors else None

    @property
    def excess(self) -> float | None:
        """The largest member's excess over its own placebo (None without a placebo)."""
        values = [m.excess for m in self.members if m.excess is not None]
        return max(values) if values else None

    def member(self, encoder: str) -> EncoderAudit:
        """The audit under ``encoder``: the name it was given (``"sface"``) or its id."""
        for m in self.members:
            if encoder in (m.label, m.encoder):
                return m
        raise invalid("encoder", "ContrastiveAudit.member",
                      f"one of {[m.label or m.encoder for m in self.members]}", encoder)

    def rows(self) -> list[dict]:
        """One plain dict per encoder (the rows of :meth:`to_frame`)."""
        out = []
        for m in self.members:
            w = m.witness
            row = {"sanitizer": self.name, "member": m.label or m.encoder,
                   "encoder": m.encoder, "resolution": m.value,
                   "max_difference": m.resolution.max_difference,
                   "witness": (w.audited, w.reference), "utility": m.mean_utility,
                   "flagged": int(m.resolution.flagged().size), "items": len(self.originals),
                   "unchanged": self.unchanged}
            if m.placebo is not None:
                row["placebo"] = m.placebo
                row["excess"] = m.excess
                if self.placebo_coverage is not None:
                    row["placebo_coverage"] = self.placebo_coverage
                    row["placebo_overlap"] = self.placebo_overlap
            if self.baseline is not None:
                row["name_matches"] = self.baseline.count
                row["name_share"] = self.baseline.share
            row["corpus"] = self.corpus
            out.append(row)
        return out


@dataclass(frozen=True)
class AuditTable:
    """Several sanitizers audited on the same corpus with the same encoders."""

    audits: tuple[ContrastiveAudit, ...]

    def __getitem__(self, name: str) -> ContrastiveAudit:
        for a in self.audits:
            if a.name == name:
                return a
        raise invalid("name", "AuditTable", f"one of {[a.name for a in self.audits]}", name)

    def __iter__(self):
        return iter(self.audits)

    def __len__(self) -> int:
        return len(self.audits)

    def to_frame(self):
        """One row per (sanitizer, encoder)."""
        import pandas as pd

        return pd.DataFrame([row for a in self.audits for row in a.rows()])

    def rank_agreement(self):
        """Spearman correlation between encoders of the sanitizers' resolutions.

        Returns:
            A square DataFrame (encoders x encoders); NaN where a ranking is constant.
        """
        frame = self.to_frame().pivot(index="sanitizer", columns="encoder", values="resolution")
        return frame.rank().corr()

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(index=False, float_format=lambda v: f"{v:.4f}")


# ---------------------------------------------------------------------------------------
# The audit
# ---------------------------------------------------------------------------------------
def _resolve_encoders(encoders, caller: str, modality: str) -> list:
    """``(label, Encoder)`` pairs: names, Encoders, callables, models, a ``{label: ...}``
    dict (:func:`privlab.encoders.wrap.as_encoders`)."""
    from privlab.encoders.wrap import as_encoders

    return as_encoders(encoders, modality=modality, parameter="encoders", caller=caller)


def audit(originals: Sequence[Any], sanitizer=None, *, sanitized: Sequence[Any] | None = None,
          encoders: Any = ("minilm",), references: Sequence[Any] | None = None,
          references_sanitized: Sequence[Any] | None = None,
          names: Iterable[str] | None = None, top_k: int = 5, progress: bool = False,
          device: str | None = None, placebo: Any = False) -> ContrastiveAudit:
    """Run the contrastive test for one sanitizer under one or more encoders.

    Args:
        originals: the audited items ``x_i`` (texts or images), each capturing the target.
        sanitizer: a :class:`privlab.sanitizers.Sanitizer`, or any callable item ->
            sanitized item (:func:`privlab.sanitizers.function.as_sanitizer`), or None
            with ``sanitized``.
        sanitized: the already-sanitized items, row for row (skips the sanitizer).
        encoders: encoder names from the registry, Encoder objects, callables items ->
            array, sentence-transformers models, open_clip ``(model, preprocess)`` pairs,
            or a dict ``{name: any of these}``; each member is named by the name given
            (:func:`privlab.encoders.wrap.as_encoders`).
        references: the proxy set ``y_j``; default the originals (symmetric test).
        references_sanitized: the references' sanitized versions; default the sanitizer
            applied to them (or ``sanitized`` in the symmetric case).
        names: the target's names (text only) for the exact-name baseline.
        top_k: how many top trials to keep as witnesses (at least 1 is kept).
        progress: show a progress bar while encoding.
        device: where the kernel runs (default from :mod:`privlab.config`).
        placebo: also audit a placebo twin (the same marks where no cue is) and report
            each member's floor and excess: True (the twin of
            :func:`privlab.contrastive.placebo.placebo_of`, avoiding ``names``), a twin
            Sanitizer, or a callable ``sanitizer -> twin``; False for none.

    Returns:
        A :class:`ContrastiveAudit`. The sanitizer runs once per corpus and settings in
        this process (:mod:`privlab.contrastive.sanitized`), so a second audit only encodes.

    Raises:
        ValueError: empty corpus, lengths that differ, neither sanitizer nor sanitized.
        TypeError: wrong kinds of items (named by index).

    Example:
        >>> from privlab.sanitizers import ConceptListSanitizer
        >>> from privlab.encoders import LexicalEncoder
        >>> texts = ["Ken Lay met the board", "the board met Ken Lay again", "lunch at noon"]
        >>> a = audit(texts, ConceptListSanitizer(["Ken Lay"]), encoders=[LexicalEncoder(64)],
        ...           names=["Ken Lay"])
        >>> a.baseline.count, a.members[0].value >= 0
        (0, True)
        >>> p = audit(texts, ConceptListSanitizer(["Ken Lay"]), encoders=[LexicalEncoder(64)],
        ...           placebo=True).members[0]
        >>> p.excess == max(0.0, p.value - p.placebo)
        True
    """
    with within():  # the phases below are details of the caller's step
        return _audit(originals, sanitizer, sanitized, encoders, references,
                      references_sanitized, names, top_k, progress, device, placebo)


def _audit(originals, sanitizer, sanitized, encoders, references, references_sanitized, names,
           top_k, progress, device, placebo) -> ContrastiveAudit:
    """:func:`audit`'s body, reporting its phases (sanitizing, then each encoder)."""
    caller = "audit"
    originals = item_list(originals, "originals", caller)
    names = None if names is None else strings(names, "names", caller)
    _refuse_surrogates(originals, "originals", caller)
    if not originals:
        raise invalid("originals", caller, "a non-empty list", originals)
    if sanitized is None and sanitizer is None:
        raise invalid("sanitizer", caller, "a Sanitizer when sanitized= is not given",
                      None, "Pass a sanitizer or the sanitized items.")
    modality = "text" if isinstance(originals[0], str) else "image"
    if sanitizer is not None:
        from privlab.sanitizers.function import as_sanitizer

        sanitizer = as_sanitizer(sanitizer, modality=modality, caller=caller)
    n_encoders = len(encoders) if isinstance(encoders, (list, tuple, dict)) else 1
    phases = int(sanitized is None) + int(placebo is not False and placebo is not None) \
        + n_encoders
    phase = 0
    if sanitized is None:
        step("sanitizing", phase, phases)
        sanitized = sanitize_once(sanitizer, originals)
        phase += 1
    sanitized = list(sanitized)
    if len(sanitized) != len(originals):
        raise invalid("sanitized", caller, f"one item per original ({len(originals)})",
                      f"{len(sanitized)} items", given_is_text=True)
    symmetric = references is None
    if symmetric:
        refs, refs_san = originals, sanitized
    else:
        refs = list(references)
        if not refs:
            raise invalid("references", caller, "a non-empty list", refs)
        if references_sanitized is None:
            if sanitizer is None:
                raise invalid("references_sanitized", caller,
                              "given when no sanitizer is passed", None, given_is_text=True)
            refs_san = sanitize_once(sanitizer, refs)
        else:
            refs_san = list(references_sanitized)
        if len(refs_san) != len(refs):
            raise invalid("references_sanitized", caller, f"one item per reference ({len(refs)})",
                          f"{len(refs_san)} items", given_is_text=True)
    _refuse_surrogates(sanitized, "sanitized", caller)
    _warn_if_trivial(originals, sanitized, symmetric, caller)
    top_k = check_top_k(top_k, caller, minimum=1)  # witnesses need at least one trial
    twin = _placebo_twin(placebo, sanitizer, originals, names, caller)
    twin_san = twin_refs = coverage = overlap = None
    if twin is not None:
        step("the placebo twin", phase, phases)
        phase += 1
        twin_san = _run_twin(twin, originals, sanitized)
        if hasattr(twin, "coverage"):  # an image twin: how much room it found
            coverage, overlap = float(twin.coverage), float(twin.mean_overlap)
        twin_refs = twin_san if symmetric else _run_twin(twin, refs, refs_san)

    members = []
    resolved = _resolve_encoders(encoders, caller, modality)
    phases = phase + len(resolved)
    for label, enc in resolved:
        step(f"encoding with {enc.name}", phase, phases)
        phase += 1
        parts = ["originals", "sanitized items"] + ([] if symmetric else [
            "references", "sanitized references"])
        parts += [] if twin is None else ["placebo"] + ([] if symmetric else [
            "placebo references"])
        with within():
            step(parts[0], 0, len(parts))
            E = enc.encode(originals, progress=progress)
            step(parts[1], 1, len(parts))
            S = enc.encode(sanitized, progress=progress)
            if symmetric:
                R, Rs = E, S
            else:
                step(parts[2], 2, len(parts))
                R = enc.encode(refs, progress=progress)
                step(parts[3], 3, len(parts))
                Rs = enc.encode(refs_san, progress=progress)
            if twin is not None:
                step("placebo", parts.index("placebo"), len(parts))
                P = enc.encode(twin_san, progress=progress)
                if not symmetric:
                    step(parts[-1], len(parts) - 1, len(parts))
                Pr = P if symmetric else enc.encode(twin_refs, progress=progress)
        T = reference_directions(R, Rs, normalize=True)
        res = resolution(S, T, top_k=top_k, normalize=True, device=device)
        witnesses = tuple(
            Witness(i, j, v, originals[i], sanitized[i], refs[j], refs_san[j])
            for i, j, v in res.top)
        floor = None
        if twin is not None:
            floor = resolution(P, reference_directions(R, Pr, normalize=True), top_k=1,
                               normalize=True, device=device)
        members.append(EncoderAudit(enc.name, res, utility(E, S), witnesses,
                                    None if floor is None else floor.value, floor, label))

    baseline = None
    if names is not None:
        baseline = exact_name_baseline(sanitized, list(names))
    describe = sanitizer.describe() if sanitizer is not None else {"sanitizer": "given"}
    corpus = corpus_hash(originals) if symmetric else corpus_hash(originals + refs)
    return ContrastiveAudit(describe, tuple(members), originals, sanitized, baseline, corpus,
                            symmetric, placebo_sanitizer=None if twin is None else twin.describe(),
                            placebo_sanitized=twin_san, placebo_coverage=coverage,
                            placebo_overlap=overlap)


def _refuse_surrogates(items: list, parameter: str, caller: str) -> None:
    """Refuse a text holding a lone surrogate (no encoder or hash can encode it)."""
    for index, item in enumerate(items):
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise invalid(f"{parameter}[{index}]", caller, "text that UTF-8 can encode",
                              f"a lone surrogate {item[exc.start]!r} at character {exc.start}",
                              "Read the file with errors='replace' (or repair its bytes); "
                              "nothing was audited.", given_is_text=True) from None


def _warn_if_trivial(originals: list, sanitized: list, symmetric: bool, caller: str) -> None:
    """Warn where the number is 0 by construction: one item against itself, all blank, or
    nothing sanitized (the headline's caveats say the same)."""
    import warnings

    problems = []
    if symmetric and len(originals) == 1:
        problems.append("a single item is audited against itself (only the self-trial "
                        "exists); pass two or more items")
    if all(isinstance(item, str) and not item.strip() for item in originals):
        problems.append("every original text is blank; pass the texts to audit")
    elif all(same_item(a, b) for a, b in zip(originals, sanitized)):
        problems.append("the sanitizer changed none of the items (did its list of concepts "
                        "or its settings remove anything?)")
    for problem in problems:
        warnings.warn(f"{caller}: {problem}. The resolution is 0 by construction, not a "
                      "measure of privacy.", UserWarning, stacklevel=4)


def _placebo_twin(placebo: Any, sanitizer: Any, originals: list, names: Any, caller: str):
    """The placebo twin ``audit`` runs (None for ``placebo=False``)."""
    from privlab.sanitizers.base import Sanitizer

    if placebo is False or placebo is None:
        return None
    if placebo is True:
        from privlab.contrastive.placebo import placebo_of

        modality = getattr(sanitizer, "modality", None) or (
            "text" if isinstance(originals[0], str) else "image")
        options = {"names": list(names)} if names is not None and modality == "text" else {}
        return placebo_of(sanitizer, modality=modality, **options)
    if isinstance(placebo, Sanitizer):
        return placebo
    if callable(placebo):
        twin = placebo(sanitizer)
        if not isinstance(twin, Sanitizer):
            raise wrong_type("placebo", caller, "a callable that returns a Sanitizer", twin)
        return twin
    raise wrong_type("placebo", caller, "True, False, a placebo Sanitizer or a callable "
                     "sanitizer -> placebo", placebo)


def _run_twin(twin: Any, items: list, sanitized: list) -> list:
    """The twin's outputs: from the real outputs when it can read them (no second run)."""
    out = twin.apply(items, sanitized) if hasattr(twin, "apply") else twin.sanitize(items)
    out = list(out)
    if len(out) != len(items):
        raise invalid("placebo", "audit", f"a twin that returns one item per input ({len(items)})",
                      f"{len(out)} items", given_is_text=True)
    return out


def audit_many(originals: Sequence[Any], sanitizers: Sequence[Any], **kwargs: Any) -> AuditTable:
    """:func:`audit` for several sanitizers on the same corpus (embeddings are cached).

    Args:
        originals: the audited items.
        sanitizers: Sanitizer objects (their ``name`` labels the rows).
        **kwargs: passed to :func:`audit` (``encoders``, ``names``, ``top_k``,
            ``placebo`` ...); a ``placebo`` here is True, False or a callable
            ``sanitizer -> twin`` (one twin per sanitizer).

    Returns:
        An :class:`AuditTable`.

    Example:
        >>> from privlab.sanitizers import ConceptListSanitizer, Identity
        >>> from privlab.encoders import LexicalEncoder
        >>> t = audit_many(["a cat", "the cat sat"], [Identity(), ConceptListSanitizer(["cat"])],
        ...                encoders=[LexicalEncoder(64)])
        >>> float(t.to_frame()["resolution"].iloc[0])   # Identity removes nothing
        0.0
    """
    if not isinstance(sanitizers, (list, tuple)) or not sanitizers:
        raise invalid("sanitizers", "audit_many", "a non-empty list of sanitizers", sanitizers)
    from privlab.sanitizers.base import Sanitizer

    if isinstance(kwargs.get("placebo"), Sanitizer) and len(sanitizers) > 1:
        raise invalid("placebo", "audit_many", "True, False or a callable sanitizer -> twin "
                      "(one twin cannot stand for several sanitizers)",
                      kwargs["placebo"].name, given_is_text=True)
    return AuditTable(tuple(audit(originals, s, **kwargs) for s in sanitizers))


__all__ = ["AuditTable", "ContrastiveAudit", "EncoderAudit", "NameBaseline", "STATUS",
           "Witness", "audit", "audit_many", "corpus_hash", "exact_name_baseline",
           "name_pattern", "shared_terms", "utility"]
