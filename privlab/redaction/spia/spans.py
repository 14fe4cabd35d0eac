"""Span metrics and the anonymizers SPIA compares: what was masked versus what is inferable.

Token recall and entity recall (``ER_di``, ``ER_qi``) say whether the annotated mentions
were removed; set beside CPR they show how much masking leaves inferable. The anonymizers
compared are the members of :data:`anonymizers`; the gold-span and name-list maskers read
the annotation they are scored against and are marked ``oracle=True``.
The alignment, the entity file format and how to add an anonymizer:
docs/methods/redaction-spia-scoring.md.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any, Sequence

from privlab.errors import invalid
from privlab.io import read_jsonl, refuse_record
from privlab.redaction.spia.records import SPIARecord
from privlab.registry import Entry, Registry

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

    Offsets a few characters off ``span_text`` move to its nearest occurrence.

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
            return refuse_record("load_entities", "SPIA entity JSON lines", where, problem)

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
        anonymized: ``{data_id: anonymized text}``, one for every annotated document.

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


anonymizers = Registry("SPIA anonymizer")


class Anonymizer(ABC):
    """Rewrites the text of every record: ``anonymize(records, entities) -> texts``.

    Attributes:
        name: display and provenance id.
    """

    name: str = "anonymizer"

    @abstractmethod
    def anonymize(self, records: Sequence[SPIARecord],
                  entities: dict[str, EntityDoc] | None = None) -> list[str]:
        """One anonymized text per record, in order (``entities``: the span annotation)."""


class OriginalText(Anonymizer):
    """Removes nothing: the baseline every anonymizer is compared with.

    Example:
        >>> OriginalText().anonymize([SPIARecord("d", "Ann Lee met Bob.", ())])
        ['Ann Lee met Bob.']
    """

    name = "none"

    def anonymize(self, records: Sequence[SPIARecord],
                  entities: dict[str, EntityDoc] | None = None) -> list[str]:
        return [r.text for r in records]


@anonymizers.member("none", oracle=False, description="the original text (nothing removed)")
def _original_text(**_options: Any) -> OriginalText:
    # options meant for other members are ignored, so one set of settings serves any pick
    return OriginalText()


class GoldSpanMasker(Anonymizer):
    """Masks the annotated mentions of the given identifier kinds (an ideal span masker).

    Args:
        kinds: the identifier types masked (default DIRECT and QUASI).

    Example:
        >>> doc = EntityDoc("d", "Ann Lee met Bob.", (
        ...     Mention(0, 7, "Ann Lee", "1", "PERSON", "DIRECT"),
        ...     Mention(12, 15, "Bob", "2", "PERSON", "QUASI")))
        >>> GoldSpanMasker(("DIRECT",)).anonymize([SPIARecord("d", doc.text, ())], {"d": doc})
        ['[MASKED] met Bob.']
    """

    def __init__(self, kinds: Sequence[str] = MASKED_KINDS):
        self.kinds = tuple(kinds)
        self.name = f"gold spans ({', '.join(self.kinds)})"

    def anonymize(self, records: Sequence[SPIARecord],
                  entities: dict[str, EntityDoc] | None = None) -> list[str]:
        if entities is None:
            raise invalid("entities", "anonymize", "the span annotation of this file",
                          None, "Gold-span masking needs an entity file "
                          "(entity_tab_144.jsonl or entity_panorama_151.jsonl).")
        missing = [r.data_id for r in records if r.data_id not in entities]
        if missing:
            raise invalid("entities", "anonymize", "an annotation for every document",
                          f"none for {missing[:3]}", given_is_text=True)
        return [mask_spans(r.text, entities[r.data_id].to_mask(self.kinds)) for r in records]


@anonymizers.member("gold-spans", oracle=True,
                    description="the annotated DIRECT and QUASI mentions masked (an ideal "
                                "span masker)")
def _gold_spans(**_options: Any) -> GoldSpanMasker:
    return GoldSpanMasker(MASKED_KINDS)


@anonymizers.member("gold-direct", oracle=True,
                    description="only the annotated DIRECT mentions masked (oracle)")
def _gold_direct(**_options: Any) -> GoldSpanMasker:
    return GoldSpanMasker(("DIRECT",))


class NameListMasker(Anonymizer):
    """Masks every gold subject's names and their words (what a perfect name list removes).

    Example:
        >>> from privlab.redaction.spia import PII, Subject
        >>> r = SPIARecord("d", "Ann Lee met Bob.", (Subject(0, "", (PII("NAME", "Ann Lee", 5),)),))
        >>> "Lee" in NameListMasker().anonymize([r])[0]
        False
    """

    name = "names-list"

    def anonymize(self, records: Sequence[SPIARecord],
                  entities: dict[str, EntityDoc] | None = None) -> list[str]:
        from privlab.sanitizers import registry as sanitizers

        out = []
        for r in records:
            names = [v for s in r.subjects for v in s.values("NAME")]
            parts = [w for n in names for w in n.replace(".", " ").split() if len(w) > 2]
            sanitizer = sanitizers.create("concept-list", concepts=names + parts)
            out.append(sanitizer.sanitize([r.text])[0])
        return out


@anonymizers.member("names-list", oracle=True,
                    description="every gold subject's name and name parts masked "
                                "(concept-list sanitizer)")
def _names_list(**_options: Any) -> NameListMasker:
    return NameListMasker()


class SanitizerAnonymizer(Anonymizer):
    """Any privlab text sanitizer, applied to every record's text (policy-blind).

    Args:
        sanitizer: a name in :data:`privlab.sanitizers.registry`.
        **options: passed to the sanitizer's factory.

    Example:
        >>> SanitizerAnonymizer("regex-pii").anonymize([SPIARecord("d", "Write to ann@x.ie", ())])
        ['Write to <EMAIL>']
    """

    def __init__(self, sanitizer: str, **options: Any):
        from privlab.sanitizers import registry as sanitizers

        self.sanitizer = sanitizers.create(sanitizer, **options)
        self.name = f"sanitizer {sanitizer}"

    def anonymize(self, records: Sequence[SPIARecord],
                  entities: dict[str, EntityDoc] | None = None) -> list[str]:
        return list(self.sanitizer.sanitize([r.text for r in records]))


@anonymizers.member("regex-pii", sanitizer="regex-pii", oracle=False,
                    description="privlab sanitizer 'regex-pii'")
def _regex_pii(**options: Any) -> SanitizerAnonymizer:
    return SanitizerAnonymizer("regex-pii", **options)


@anonymizers.member("presidio", sanitizer="presidio", oracle=False, description="privlab sanitizer 'presidio'")
def _presidio(**options: Any) -> SanitizerAnonymizer:
    return SanitizerAnonymizer("presidio", **options)


@anonymizers.member("llm-sanitizer", sanitizer="llm", oracle=False, description="privlab sanitizer 'llm'")
def _llm_sanitizer(**options: Any) -> SanitizerAnonymizer:
    return SanitizerAnonymizer("llm", **options)


def is_oracle(name: str) -> bool:
    """Whether the member ``name`` reads the annotation it is scored against (False if unknown).

    Example:
        >>> is_oracle("gold-spans"), is_oracle("presidio"), is_oracle("none")
        (True, False, False)
    """
    return name in anonymizers and bool(anonymizers.entry(name).meta.get("oracle"))


@dataclass(frozen=True)
class AnonymizerInfo:
    """What the anonymizer dropdown shows: name, description, whether it can run now."""

    name: str
    description: str
    available: bool
    reason: str = ""


def _unavailable(entry: Entry) -> str:
    """Why ``entry`` cannot run in this setup ("" when it can)."""
    wanted = entry.meta.get("sanitizer")
    if wanted is not None:
        from privlab.sanitizers import registry as sanitizers

        if wanted not in sanitizers:
            return (f"no sanitizer named {wanted!r} is registered in "
                    "privlab.sanitizers.registry yet")
    if not anonymizers.available(entry.name):
        return f"not installed: {entry.meta.get('install', entry.meta['requires'])}"
    return ""


def anonymizer_options() -> list[AnonymizerInfo]:
    """Every anonymizer in :data:`anonymizers`, and whether it can run in this setup.

    Returns:
        One :class:`AnonymizerInfo` per member, in registration order.

    Example:
        >>> [a.name for a in anonymizer_options()][:3]
        ['none', 'gold-spans', 'gold-direct']
    """
    out = []
    for entry in anonymizers.entries():
        reason = _unavailable(entry)
        out.append(AnonymizerInfo(entry.name, entry.description, not reason, reason))
    return out


def anonymize(name: str, records: Sequence[SPIARecord],
              entities: dict[str, EntityDoc] | None = None, **kwargs: Any) -> list[str]:
    """Anonymize every record's text with the anonymizer ``name``.

    Args:
        name: a member of :data:`anonymizers` or any registered text sanitizer's name.
        records: the gold records (their texts are anonymized).
        entities: the span annotation, needed by the gold-span maskers.
        **kwargs: passed to the member's factory (the built-in maskers ignore them).

    Returns:
        One anonymized text per record.

    Raises:
        PrivlabValueError: unknown or unavailable anonymizer (the message says why).

    Example:
        >>> anonymize("regex-pii", [SPIARecord("d", "Write to ann@x.ie", ())])
        ['Write to <EMAIL>']
    """
    from privlab.sanitizers import registry as sanitizers

    if name in anonymizers:
        entry = anonymizers.entry(name)
        reason = _unavailable(entry)
        if not reason:
            return anonymizers.create(name, **kwargs).anonymize(records, entities)
    elif name in sanitizers:
        return SanitizerAnonymizer(name, **kwargs).anonymize(records, entities)
    else:
        reason = ""
    known = [a.name for a in anonymizer_options() if a.available]
    raise invalid("name", "anonymize", f"one of {known}", name,
                  reason or "Register a text sanitizer under that name first.")


__all__ = ["Anonymizer", "AnonymizerInfo", "EntityDoc", "GoldSpanMasker", "IGNORED_TOKENS",
           "MASKED_KINDS", "Mention", "NameListMasker", "OriginalText", "PLACEHOLDER",
           "SanitizerAnonymizer", "SpanRecall", "anonymize", "anonymizer_options",
           "anonymizers", "entity_file_for", "is_oracle", "load_entities", "mask_spans",
           "removed_offsets", "span_recall"]
