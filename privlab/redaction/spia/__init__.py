"""SPIA: subject-level PII inference, scored as CPR and IPR.

Records and their 15 tags (``records``), the per-tag rules (``rules``), subject pairing
(``matching``, registry :data:`matchers`), CPR and IPR (``protection``), the adversaries
(``adversaries``, ``contextual``, ``baseline``), span recall and the anonymizers
(``spans``), the declared split (``split``) and :func:`score` for your own outputs
(``byo``, also ``privlab.spia.score``). Every module here is imported with the package
(:func:`load_members`), so each member registers itself.
See docs/methods/redaction-spia-scoring.md and docs/methods/redaction-spia-adversaries.md.
"""

import importlib

# Imported first, so that the adversaries list in this order.
from privlab.redaction.spia import contextual  # noqa: F401  (registers "contextual")
from privlab.redaction.spia import baseline  # noqa: F401  (registers "base-rate")

from privlab.redaction.spia.byo import SPIAScore, read_outputs, score
from privlab.redaction.spia.matching import (
    AgreementMatcher,
    LLMMatcher,
    OfflineMatcher,
    SubjectMatcher,
    matchers,
    subject_similarity,
)
from privlab.redaction.spia.protection import (
    ProtectionResult,
    empty_predictions,
    gold_profile_callable,
    protection,
    score_subject,
)
from privlab.redaction.spia.records import (
    CODE_TAGS,
    MIN_CERTAINTY,
    NON_CODE_TAGS,
    PII,
    TAGS,
    SPIARecord,
    Subject,
    count_subjects_and_piis,
    load_spia,
    parse_spia_record,
    write_spia,
)
from privlab.registry import member_modules
from privlab.redaction.spia.rules import (
    CATEGORY_MAPS,
    CATEGORY_TAGS,
    FREE_TEXT_TAGS,
    ID_LIKE_TAGS,
    JW_THRESHOLD,
    ValueJudge,
    age_score,
    category_score,
    email_score,
    free_text_score,
    identifier_score,
    jaro_winkler,
    location_score,
    name_score,
    normalize_identifier,
    rule_name,
    score_pii,
)


def load_members() -> tuple[str, ...]:
    """Import every module of this package, so that each member in it registers itself.

    Called on import, so a member in a new file needs no other edit. Returns the names.
    """
    return tuple(importlib.import_module(f"{__name__}.{name}").__name__
                 for name in member_modules(__path__))


load_members()

__all__ = ["AgreementMatcher", "CATEGORY_MAPS", "CATEGORY_TAGS", "CODE_TAGS", "FREE_TEXT_TAGS",
           "ID_LIKE_TAGS",
           "JW_THRESHOLD", "LLMMatcher", "MIN_CERTAINTY", "NON_CODE_TAGS", "OfflineMatcher",
           "PII", "ProtectionResult", "SPIARecord", "SPIAScore", "Subject", "SubjectMatcher",
           "TAGS",
           "ValueJudge", "age_score", "category_score", "count_subjects_and_piis",
           "email_score", "empty_predictions", "free_text_score", "gold_profile_callable",
           "identifier_score", "jaro_winkler", "load_members", "load_spia", "location_score",
           "matchers", "name_score",
           "normalize_identifier", "parse_spia_record", "protection", "read_outputs",
           "rule_name", "score", "score_pii",
           "score_subject", "subject_similarity", "write_spia"]
