"""Sanitizers (privacy mechanisms X_c): the protocol, the registry, built-in members.

Registry factories take the study's concept list where they need one::

    from privlab.sanitizers import registry
    sanitizer = registry.create("concept-list", concepts=["Ken Lay"])

Every member registers itself beside its class: text members in
:mod:`~privlab.sanitizers.text`, :mod:`~privlab.sanitizers.presidio`,
:mod:`~privlab.sanitizers.llm_text` and :mod:`~privlab.sanitizers.adapters`, image members
in :mod:`~privlab.sanitizers.image`. Add your own by subclassing :class:`Sanitizer`
(implement ``_sanitize_one``) and registering a factory with ``modality`` and ``offline``
metadata::

    @registry.member("my-sanitizer", modality="text", offline=True, description="...")
    def my_sanitizer(concepts=(), **kw):
        return MySanitizer(concepts, **kw)
"""

# Imported in registration order: the widgets list the members in this order; a module
# not named here registers after them (load_members, below).
import importlib

from privlab.registry import member_modules
from privlab.sanitizers.base import Identity, Sanitizer, registry
from privlab.sanitizers.text import (
    BOX,
    PII_PATTERNS,
    ConceptListSanitizer,
    RegexPIISanitizer,
    concept_pattern,
)
from privlab.sanitizers.presidio import EntityTypeSanitizer, PresidioSanitizer
from privlab.sanitizers import image  # noqa: F401  (registers the image members)
from privlab.sanitizers import inpaint, people, logos, ladder  # noqa: F401  (image members)
from privlab.sanitizers.llm_text import LLMRedactionSanitizer
from privlab.sanitizers.adapters import GLiNERSanitizer, TokenClassifierSanitizer


def load_members() -> tuple[str, ...]:
    """Import every module of this package, so that each sanitizer in it registers itself.

    Called below, on import (see :func:`privlab.registry.member_modules`). Returns the
    modules' names, sorted.
    """
    return tuple(importlib.import_module(f"{__name__}.{name}").__name__
                 for name in member_modules(__path__))


load_members()

__all__ = ["BOX", "PII_PATTERNS", "ConceptListSanitizer", "EntityTypeSanitizer",
           "GLiNERSanitizer", "Identity", "LLMRedactionSanitizer", "PresidioSanitizer",
           "RegexPIISanitizer", "Sanitizer", "TokenClassifierSanitizer", "concept_pattern",
           "load_members", "registry"]
