"""Sanitizers (privacy mechanisms X_c): the protocol, the registry, built-in members.

Registry factories take the study's concept list where they need one::

    from privlab.sanitizers import registry
    sanitizer = registry.create("concept-list", concepts=["Ken Lay"])

Add your own by subclassing :class:`Sanitizer` (implement ``_sanitize_one``) and
registering a factory with ``modality`` and ``offline`` metadata.
"""

from privlab.registry import Registry
from privlab.sanitizers.base import Identity, Sanitizer
from privlab.sanitizers.text import (
    BOX,
    PII_PATTERNS,
    ConceptListSanitizer,
    RegexPIISanitizer,
    concept_pattern,
)

registry = Registry("sanitizer")
registry.register("identity", lambda concepts=None, **kw: Identity(**kw), modality="text",
                  offline=True, description="changes nothing (baseline)")
registry.register("concept-list", lambda concepts=(), **kw: ConceptListSanitizer(concepts, **kw),
                  modality="text", offline=True,
                  description="exact words and phrases replaced by boxes")
registry.register("regex-pii", lambda concepts=None, **kw: RegexPIISanitizer(**kw),
                  modality="text", offline=True,
                  description="emails, phones, IDs, money by pattern")

__all__ = ["BOX", "PII_PATTERNS", "ConceptListSanitizer", "Identity", "RegexPIISanitizer",
           "Sanitizer", "concept_pattern", "registry"]

# Presidio and spaCy entity types (offline, packaged spaCy model).
from privlab.sanitizers.presidio import EntityTypeSanitizer, PresidioSanitizer  # noqa: E402

registry.register("presidio", lambda concepts=None, **kw: PresidioSanitizer(**kw), modality="text",
                  offline=True, description="Microsoft Presidio, all recognizers, every candidate")
registry.register("entity-types", lambda concepts=None, **kw: EntityTypeSanitizer(**kw),
                  modality="text", offline=True,
                  description="spaCy named entities (people, organisations, places, works)")
__all__ += ["EntityTypeSanitizer", "PresidioSanitizer"]
