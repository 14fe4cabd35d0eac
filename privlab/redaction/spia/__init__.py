"""SPIA: subject-level PII inference, scored as CPR and IPR.

* :mod:`~privlab.redaction.spia.records` — the 15 tags, subjects and PIIs, loading and
  writing SPIA JSON lines;
* :mod:`~privlab.redaction.spia.rules` — the per-tag value rules (1, 0.5 or 0);
* :mod:`~privlab.redaction.spia.matching` — pairing predicted with gold subjects
  (registry :data:`matchers`);
* :mod:`~privlab.redaction.spia.protection` — CPR, IPR and everything behind them;
* :mod:`~privlab.redaction.spia.adversaries` — who infers the profiles (registry
  ``adversaries``) and the LLM value judge;
* :mod:`~privlab.redaction.spia.spans` — span recall and the anonymizers compared
  (registry ``anonymizers``);
* :mod:`~privlab.redaction.spia.sample` — a privlab-written sample in the SPIA schema;
* :mod:`~privlab.redaction.spia.contextual` — the offline contextual adversary (registered
  in ``adversaries``);
* :mod:`~privlab.redaction.spia.baseline` — the text-blind ``base-rate`` adversary, what
  a guess gets without reading;
* :mod:`~privlab.redaction.spia.byo` — :func:`score`, your anonymizer's outputs (a file,
  a list or a function) scored with the text-blind baseline beside them (also
  ``privlab.spia.score``);
* :mod:`~privlab.redaction.spia.split` — the declared split: the offline rules were
  developed on PANORAMA-531 minus PANORAMA-151, the rest is evaluation only.

Every module here is imported with the package (:func:`load_members`), so each member
registers itself in its registry.
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
    """Import every module of this package, so that each member in it (adversary, matcher,
    anonymizer) registers itself.

    Called below, on import: a member in a new file here is registered without editing
    any other file. The modules imported above (for the names they export) register
    first, the rest in name order. Returns the modules' names, sorted.
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
