"""Text sanitizers that need no model: concept lists and regular-expression PII."""

from __future__ import annotations

import re
from typing import Iterable

from privlab.errors import invalid, item_list, wrong_type
from privlab.names import name_pattern
from privlab.sanitizers.base import Sanitizer, registry

BOX = "\u2588"  # the box character that replaces redacted text


def concept_pattern(concepts: Iterable[str]) -> re.Pattern | None:
    """One case-insensitive regex matching any concept as whole words, longest first.

    Whitespace inside a phrase matches any run of whitespace, so "Ken  Lay" and a line
    break between the words are caught too.

    Example:
        >>> concept_pattern(["Ken Lay", "Lay"]).findall("ken\\nlay met Layla; LAY.")
        ['ken\\nlay', 'LAY']
    """
    # One matching rule for names and concepts everywhere: privlab.names.name_pattern.
    phrases = [c for c in item_list(concepts, "concepts", "concept_pattern")
               if isinstance(c, str) and c.strip()]
    return name_pattern(phrases) if phrases else None


class ConceptListSanitizer(Sanitizer):
    """Replace every listed word or phrase (case-insensitive, whole words) by boxes.

    This is the paper's "quoted items" redaction: exact strings only, so it misses
    paraphrases, nicknames and context by design; the resolution test shows what it
    leaves.

    Args:
        concepts: words and phrases to remove, e.g. ``["Ken Lay", "Kenneth Lay"]``.
        replacement: one character repeated to the matched length (box by default), or
            any string used as is when ``keep_length=False``.
        keep_length: replace by as many characters as were removed.
        name: provenance id (default lists the concepts).

    Example:
        >>> s = ConceptListSanitizer(["Ken Lay", "Enron"])
        >>> s.sanitize(["ken lay ran Enron's board"])
        ["███ ███ ran █████'s board"]
    """

    modality = "text"

    def __init__(self, concepts: Iterable[str], *, replacement: str = BOX,
                 keep_length: bool = True, name: str | None = None):
        if isinstance(concepts, str):
            raise wrong_type("concepts", "ConceptListSanitizer", "a list of words or phrases",
                             concepts, 'Wrap it in a list: ["Ken Lay"].')
        self.concepts = [c for c in concepts]
        for index, c in enumerate(self.concepts):
            if not isinstance(c, str):
                raise wrong_type(f"concepts[{index}]", "ConceptListSanitizer", "a str", c)
        if not isinstance(replacement, str) or (keep_length and len(replacement) != 1):
            raise invalid("replacement", "ConceptListSanitizer",
                          "a single character when keep_length=True", replacement)
        self.replacement = replacement
        self.keep_length = keep_length
        self._pattern = concept_pattern(self.concepts)
        self.name = name or "concepts[" + ", ".join(self.concepts[:4]) + (
            ", ..." if len(self.concepts) > 4 else "") + "]"

    def _replace(self, match: re.Match) -> str:
        if self.keep_length:
            return re.sub(r"\S", self.replacement, match.group(0))
        return self.replacement

    def _sanitize_one(self, text: str) -> str:
        return self._pattern.sub(self._replace, text) if self._pattern else text

    def describe(self) -> dict:
        return {**super().describe(), "concepts": list(self.concepts)}


@registry.member("concept-list", modality="text", offline=True,
                 description="exact words and phrases replaced by boxes")
def concept_list(concepts=(), **kw) -> ConceptListSanitizer:
    """The study's concepts replaced by boxes (see :class:`ConceptListSanitizer`).

    Example:
        >>> concept_list(["Enron"]).sanitize(["Enron's board"])
        ["█████'s board"]
    """
    return ConceptListSanitizer(concepts, **kw)


# Patterns for a cheap PII baseline. Order matters: emails before bare numbers.
PII_PATTERNS: dict[str, str] = {
    "EMAIL": r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+",
    "URL": r"https?://\S+|www\.\S+",
    "MONEY": r"[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:million|billion|thousand|[mbk]n?))?",
    "PHONE": r"(?<!\w)(?:\+?\d{1,2}[\s.-]?)?(?:\(\d{3}\)|\d{3})[\s.-]?\d{3}[\s.-]?\d{4}(?!\w)",
    "ID": r"(?<!\w)(?:\d{3}-\d{2}-\d{4}|[A-Z]{1,3}\d{6,}|\d{9,})(?!\w)",
}


class RegexPIISanitizer(Sanitizer):
    """Replace emails, URLs, phone numbers, IDs and money amounts by ``<TYPE>`` tags.

    A cheap baseline: it catches formats, never names or context.

    Args:
        types: which of :data:`PII_PATTERNS` to apply (default all).

    Example:
        >>> RegexPIISanitizer().sanitize(["Mail ken@enron.com or call 713-853-6773 about $101 million"])
        ['Mail <EMAIL> or call <PHONE> about <MONEY>']
    """

    modality = "text"

    def __init__(self, types: Iterable[str] | None = None):
        chosen = list(types) if types is not None else list(PII_PATTERNS)
        unknown = [t for t in chosen if t not in PII_PATTERNS]
        if unknown:
            raise invalid("types", "RegexPIISanitizer", f"a subset of {list(PII_PATTERNS)}",
                          unknown)
        self.types = chosen
        self._patterns = [(t, re.compile(PII_PATTERNS[t], re.IGNORECASE)) for t in chosen]
        self.name = "regex-pii"

    def _sanitize_one(self, text: str) -> str:
        for tag, pattern in self._patterns:
            text = pattern.sub(f"<{tag}>", text)
        return text


@registry.member("regex-pii", modality="text", offline=True,
                 description="emails, phones, IDs, money by pattern")
def regex_pii(concepts=None, **kw) -> RegexPIISanitizer:
    """Formats only, whatever the concepts (see :class:`RegexPIISanitizer`).

    Example:
        >>> regex_pii(["Ken Lay"]).sanitize(["Ken Lay, ken@enron.com"])
        ['Ken Lay, <EMAIL>']
    """
    return RegexPIISanitizer(**kw)


__all__ = ["BOX", "PII_PATTERNS", "ConceptListSanitizer", "RegexPIISanitizer", "concept_list",
           "concept_pattern", "regex_pii"]
