"""Contrastive privacy: the audit of a sanitizer, ensembles of distance mechanisms, calibration.

* :mod:`privlab.contrastive.auditing` — one sanitizer audited under one or more encoders
  (resolution, decisive witness, utility, exact-name baseline).
* :mod:`privlab.contrastive.byo` — ``privlab.audit``: your items (lists, folders, files),
  any callable sanitizer or its outputs, any encoder; :mod:`privlab.contrastive.face` — the
  headline, witnesses and report every audit shows.
* :mod:`privlab.contrastive.placebo` — placebo twins of sanitizers (the same marks where
  no cue is): each member's artefact floor and the excess over it.
* :mod:`privlab.contrastive.ensemble` — which member of an ensemble catches which cue.
* :mod:`privlab.contrastive.calibration` — boundaries b(u, v) that make a resolution readable.
"""

from privlab.contrastive.auditing import (
    STATUS,
    AuditTable,
    ContrastiveAudit,
    EncoderAudit,
    NameBaseline,
    Witness,
    audit,
    audit_many,
    corpus_hash,
    exact_name_baseline,
    name_pattern,
    shared_terms,
    utility,
)
from privlab.contrastive.placebo import ImagePlacebo, TextPlacebo, placebo_of

__all__ = ["AuditTable", "ContrastiveAudit", "EncoderAudit", "ImagePlacebo", "NameBaseline",
           "STATUS", "TextPlacebo", "Witness", "audit", "audit_many", "corpus_hash",
           "exact_name_baseline", "name_pattern", "placebo_of", "shared_terms", "utility"]
