"""Span metrics and the anonymizers SPIA compares: what was masked versus what is inferable.

Span metrics ask whether the annotated mentions were removed from the text:

* **token recall** — the share of word tokens inside mentions that must be masked
  (DIRECT and QUASI identifiers) that no longer appear in the anonymized text;
* **entity recall** (``ER_di`` for DIRECT, ``ER_qi`` for QUASI identifiers) — the share
  of entities all of whose to-be-masked mentions were removed.

What was removed is found by aligning the original and anonymized word sequences
(:class:`difflib.SequenceMatcher`, no junk heuristic): a token of the original that is
not part of an aligned identical run was removed or rewritten. This works for masking
(placeholders) and for rewrites alike.

High span recall does not mean the people are protected: SPIA's finding is that an
adversary infers much of what was masked from the context (CPR well below recall).
Putting both side by side makes that gap visible.

The entity files (``entity_tab_144.jsonl``, ``entity_panorama_151.jsonl``) hold one
object per document: ``metadata.data_id``, ``text`` and ``entities``, each with
``span_text``, ``entity_type``, ``start_offset``, ``end_offset``, ``entity_id`` and
``identifier_type`` (DIRECT, QUASI or NO_MASK).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any, Callable, Sequence

from privlab.errors import invalid
from privlab.redaction.spia import SPIARecord, read_jsonl

MASKED_KINDS = ("DIRECT", "QUASI")
#: Words not required to be masked inside a mention (titles, articles, prepositions).
IGNORED_TOKENS = frozenset({"mr", "mrs", "ms", "no", "nr", "about", "the", "a", "an", "of",
                            "in", "on", "at", "for", "to", "and", "or", "by", "from", "de"})
_TOKEN = re.compile(r"\w+")


@dataclass(frozen=True)
class Mention:
    """One annotated mention: character offsets into the original text and its kind."""

    start: int
    end: int
    text: str
    entity_id: str
    entity_type: str
    identifier_type: str


@dataclass(frozen=True)
class EntityDoc:
    """The span annotation of one document."""

    data_id: str
    text: str
    mentions: tuple[Mention, ...]

    def to_mask(self, kinds: Sequence[str] = MASKED_KINDS) -> list[Mention]:
        """The mentions whose identifier type is in ``kinds``."""
        return [m for m in self.mentions if m.identifier_type in kinds]


def _locate(text: str, span: str, start: int, end: int) -> tuple[int, int]:
    if text[start:end] == span or not span:
        return start, end
    hits = [m.start() for m in re.finditer(re.escape(span), text)]
    if not hits:
        return start, end
    best = min(hits, key=lambda h: abs(h - start))
    return best, best + len(span)


def load_entities(path: str | Path) -> dict[str, EntityDoc]:
    """Load a SPIA/TAB entity file, keyed by data_id.

    Offsets that are off by a few characters (the text at the offsets differs from
    ``span_text``) are moved to the nearest occurrence of ``span_text``.

    Args:
        path: the ``entity_*.jsonl`` file.

    Returns:
        ``{data_id: EntityDoc}``.

    Raises:
        PrivlabValueError: a line breaks the schema (named by its number).

    Example:
        >>> import json, tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "e.jsonl")
        >>> _ = open(p, "w").write(json.dumps({"metadata": {"data_id": "d"}, "text": "Hi Ann.",
        ...     "entities": [{"span_text": "Ann", "start_offset": 2, "end_offset": 5,
        ...                   "entity_id": "1", "entity_type": "PERSON",
        ...                   "identifier_type": "DIRECT"}]}) + "\\n")
        >>> m = load_entities(p)["d"].mentions[0]
        >>> m.start, m.end, m.text
        (3, 6, 'Ann')
    """
    name = Path(path).name
    out: dict[str, EntityDoc] = {}
    for number, obj in read_jsonl(path, "load_entities"):
        where = f"{name} line {number}"

        def refuse(problem: str) -> Exception:
            return invalid("path", "load_entities", "SPIA entity JSON lines",
                           f"{where}: {problem}", given_is_text=True,
                           fix="Fix or remove that line; no record is skipped silently.")

        if not isinstance(obj, dict) or not isinstance(obj.get("metadata"), dict):
            raise refuse("expected an object with 'metadata'")
        data_id = obj["metadata"].get("data_id")
        text = obj.get("text")
        if not isinstance(data_id, str) or not isinstance(text, str):
            raise refuse("'metadata.data_id' and 'text' must be strings")
        if not isinstance(obj.get("entities"), list):
            raise refuse("'entities' must be a list")
        mentions = []
        for k, e in enumerate(obj["entities"]):
            if not isinstance(e, dict):
                raise refuse(f"entities[{k}] must be an object")
            s, t = e.get("start_offset"), e.get("end_offset")
            if not isinstance(s, int) or not isinstance(t, int) or not 0 <= s <= t <= len(text):
                raise refuse(f"entities[{k}] offsets must be integers within the text")
            kind = str(e.get("identifier_type", "NO_MASK")).upper()
            if kind not in ("DIRECT", "QUASI", "NO_MASK"):
                raise refuse(f"entities[{k}].identifier_type must be DIRECT, QUASI or NO_MASK")
            span = e.get("span_text", "")
            if not isinstance(span, str):
                raise refuse(f"entities[{k}].span_text must be a string")
            s, t = _locate(text, span, s, t)
            mentions.append(Mention(s, t, text[s:t], str(e.get("entity_id", k)),
                                    str(e.get("entity_type", "")), kind))
        if data_id in out:
            raise refuse(f"data_id {data_id!r} appears twice")
        out[data_id] = EntityDoc(data_id, text, tuple(mentions))
    return out


def entity_file_for(spia_path: str | Path) -> Path | None:
    """The entity file beside a SPIA file (``spia_tab_144`` -> ``entity_tab_144``), if any.

    Example:
        >>> entity_file_for("/nowhere/spia_tab_144.jsonl") is None
        True
    """
    path = Path(spia_path)
    candidate = path.with_name(path.name.replace("spia_", "entity_", 1))
    return candidate if candidate != path and candidate.is_file() else None


def removed_offsets(original: str, anonymized: str) -> set[int]:
    """Character offsets of original word tokens that are not kept in ``anonymized``.

    Example:
        >>> text = "Ann Lee met Bob."
        >>> sorted(removed_offsets(text, "[X] met Bob."))
        [0, 1, 2, 4, 5, 6]
    """
    a = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(original)]
    b = [m.group() for m in _TOKEN.finditer(anonymized)]
    matcher = SequenceMatcher(None, [t for _, _, t in a], b, autojunk=False)
    kept = [False] * len(a)
    for block in matcher.get_matching_blocks():
        for i in range(block.a, block.a + block.size):
            kept[i] = True
    return {o for (s, e, _), k in zip(a, kept) if not k for o in range(s, e)}


@dataclass
class SpanRecall:
    """Token and entity recall of one anonymization against the span annotation.

    Attributes:
        token_recall: removed tokens / tokens to mask (DIRECT and QUASI mentions).
        entity_recall_direct: fully removed DIRECT entities / DIRECT entities (ER_di).
        entity_recall_quasi: the same for QUASI entities (ER_qi).
        counts: tokens and entities behind each ratio.
        status: what the numbers are.
    """

    token_recall: float
    entity_recall_direct: float
    entity_recall_quasi: float
    counts: dict = field(default_factory=dict)
    status: str = "descriptive: masking of annotated spans, blind to inference"

    def to_frame(self):
        """One row per metric (pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame([
            ("token recall", self.token_recall, self.counts.get("tokens", 0)),
            ("entity recall DIRECT", self.entity_recall_direct, self.counts.get("direct", 0)),
            ("entity recall QUASI", self.entity_recall_quasi, self.counts.get("quasi", 0))],
            columns=["metric", "value", "n"])

    def _repr_html_(self) -> str:
        return (f"<p><b>Span recall</b> <i>{self.status}</i></p>"
                + self.to_frame().to_html(index=False, float_format="%.3f"))


def span_recall(entities: dict[str, EntityDoc], anonymized: dict[str, str]) -> SpanRecall:
    """Token recall and entity recall (DIRECT, QUASI) over the annotated documents.

    Args:
        entities: the span annotation (:func:`load_entities`).
        anonymized: ``{data_id: anonymized text}``; documents absent here are skipped
            only if they are absent from ``entities`` too.

    Returns:
        A :class:`SpanRecall`.

    Raises:
        PrivlabValueError: an annotated document has no anonymized text.

    Example:
        >>> doc = EntityDoc("d", "Ann Lee met Bob.", (
        ...     Mention(0, 7, "Ann Lee", "1", "PERSON", "DIRECT"),
        ...     Mention(12, 15, "Bob", "2", "PERSON", "QUASI")))
        >>> r = span_recall({"d": doc}, {"d": "[X] met Bob."})
        >>> r.token_recall, r.entity_recall_direct, r.entity_recall_quasi
        (0.6666666666666666, 1.0, 0.0)
    """
    missing = [d for d in entities if d not in anonymized]
    if missing:
        raise invalid("anonymized", "span_recall", "a text for every annotated document",
                      f"{len(missing)} missing, e.g. {missing[:3]}", given_is_text=True)
    tokens = removed_tokens = 0
    entity_state: dict[tuple[str, str], dict] = {}
    for data_id, doc in entities.items():
        removed = removed_offsets(doc.text, anonymized[data_id])
        for m in doc.to_mask():
            words = [w for w in _TOKEN.finditer(doc.text, m.start, m.end)
                     if w.group().lower() not in IGNORED_TOKENS]
            gone = [all(o in removed for o in range(w.start(), w.end())) for w in words]
            tokens += len(words)
            removed_tokens += sum(gone)
            state = entity_state.setdefault((data_id, m.entity_id),
                                            {"direct": False, "masked": True})
            state["direct"] |= m.identifier_type == "DIRECT"
            state["masked"] &= all(gone)
    direct = [s["masked"] for s in entity_state.values() if s["direct"]]
    quasi = [s["masked"] for s in entity_state.values() if not s["direct"]]

    def ratio(values: list[bool]) -> float:
        return sum(values) / len(values) if values else float("nan")

    return SpanRecall(removed_tokens / tokens if tokens else float("nan"), ratio(direct),
                      ratio(quasi), {"tokens": tokens, "direct": len(direct),
                                     "quasi": len(quasi), "documents": len(entities)})


# --------------------------------------------------------------------------- anonymizers
PLACEHOLDER = "[MASKED]"


def mask_spans(text: str, mentions: Sequence[Mention], placeholder: str = PLACEHOLDER) -> str:
    """Replace every mention's characters by ``placeholder`` (overlaps merged).

    Example:
        >>> mask_spans("Ann Lee met Bob.", [Mention(0, 7, "Ann Lee", "1", "PERSON", "DIRECT")])
        '[MASKED] met Bob.'
    """
    spans = sorted((m.start, m.end) for m in mentions)
    merged: list[list[int]] = []
    for s, e in spans:
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    out, last = [], 0
    for s, e in merged:
        out.append(text[last:s])
        out.append(placeholder)
        last = e
    out.append(text[last:])
    return "".join(out)


@dataclass(frozen=True)
class AnonymizerInfo:
    """What the anonymizer dropdown shows: name, description, whether it can run now."""

    name: str
    description: str
    available: bool
    reason: str = ""


def _gold_spans(kinds: Sequence[str]) -> Callable:
    def run(records: Sequence[SPIARecord], entities: dict[str, EntityDoc] | None) -> list[str]:
        if entities is None:
            raise invalid("entities", "anonymize", "the span annotation of this file",
                          None, "Gold-span masking needs an entity file "
                          "(entity_tab_144.jsonl or entity_panorama_151.jsonl).")
        missing = [r.data_id for r in records if r.data_id not in entities]
        if missing:
            raise invalid("entities", "anonymize", "an annotation for every document",
                          f"none for {missing[:3]}", given_is_text=True)
        return [mask_spans(r.text, entities[r.data_id].to_mask(kinds)) for r in records]
    return run


def _names_list(records: Sequence[SPIARecord], entities: Any) -> list[str]:
    from privlab.sanitizers import registry as sanitizers

    out = []
    for r in records:
        names = [v for s in r.subjects for v in s.values("NAME")]
        parts = [w for n in names for w in n.replace(".", " ").split() if len(w) > 2]
        sanitizer = sanitizers.create("concept-list", concepts=names + parts)
        out.append(sanitizer.sanitize([r.text])[0])
    return out


_BUILTIN: dict[str, tuple[str, Callable]] = {
    "none": ("the original text (nothing removed)", lambda records, entities: [r.text for r in records]),
    "gold-spans": ("the annotated DIRECT and QUASI mentions masked (an ideal span masker)",
                   _gold_spans(MASKED_KINDS)),
    "gold-direct": ("only the annotated DIRECT mentions masked", _gold_spans(("DIRECT",))),
    "names-list": ("every gold subject's name and name parts masked (concept-list sanitizer)",
                   _names_list),
}
#: Text sanitizers used when their module has registered them (name -> registry names tried).
SANITIZER_ANONYMIZERS = {"regex-pii": ("regex-pii",), "presidio": ("presidio",),
                         "llm-sanitizer": ("llm-text", "llm", "llm-sanitizer")}


def _sanitizer_name(name: str) -> str | None:
    from privlab.sanitizers import registry as sanitizers

    return next((n for n in SANITIZER_ANONYMIZERS[name] if n in sanitizers), None)


def anonymizer_options() -> list[AnonymizerInfo]:
    """Every anonymizer the SPIA study knows, and whether it can run in this setup.

    Sanitizers written in other modules (Presidio, the LLM sanitizer) are found
    through :data:`privlab.sanitizers.registry`; when their module is not registered,
    they are listed as unavailable with the reason.

    Example:
        >>> [a.name for a in anonymizer_options()][:3]
        ['none', 'gold-spans', 'gold-direct']
    """
    out = [AnonymizerInfo(n, d, True) for n, (d, _) in _BUILTIN.items()]
    for name, candidates in SANITIZER_ANONYMIZERS.items():
        found = _sanitizer_name(name)
        out.append(AnonymizerInfo(
            name, f"privlab sanitizer '{found or candidates[0]}'", found is not None,
            "" if found else f"no sanitizer named {' or '.join(map(repr, candidates))} is "
                             "registered in privlab.sanitizers.registry yet"))
    return out


def anonymize(name: str, records: Sequence[SPIARecord],
              entities: dict[str, EntityDoc] | None = None, **kwargs: Any) -> list[str]:
    """Anonymize every record's text with the anonymizer ``name``.

    Args:
        name: one of :func:`anonymizer_options` (``"none"``, ``"gold-spans"``,
            ``"gold-direct"``, ``"names-list"``, ``"regex-pii"``, ``"presidio"``,
            ``"llm-sanitizer"``) or any registered text sanitizer's name.
        records: the gold records (their texts are anonymized).
        entities: the span annotation, needed by the gold-span maskers.
        **kwargs: passed to the sanitizer's factory.

    Returns:
        One anonymized text per record.

    Raises:
        PrivlabValueError: unknown or unavailable anonymizer (the message says why).

    Example:
        >>> anonymize("regex-pii", [SPIARecord("d", "Write to ann@x.ie", ())])
        ['Write to <EMAIL>']
    """
    from privlab.sanitizers import registry as sanitizers

    if name in _BUILTIN:
        return _BUILTIN[name][1](records, entities)
    registry_name = _sanitizer_name(name) if name in SANITIZER_ANONYMIZERS else (
        name if name in sanitizers else None)
    if registry_name is None:
        known = [a.name for a in anonymizer_options() if a.available]
        reason = next((a.reason for a in anonymizer_options() if a.name == name), "")
        raise invalid("name", "anonymize", f"one of {known}", name,
                      reason or "Register a text sanitizer under that name first.")
    sanitizer = sanitizers.create(registry_name, **kwargs)
    return list(sanitizer.sanitize([r.text for r in records]))

