"""Contrastive privacy: the audit of a sanitizer, ensembles of distance mechanisms, calibration.

* :mod:`privlab.contrastive.auditing` — one sanitizer audited under one or more encoders
  (resolution, decisive witness, utility, exact-name baseline).
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

__all__ = ["AuditTable", "ContrastiveAudit", "EncoderAudit", "NameBaseline", "STATUS",
           "Witness", "audit", "audit_many", "corpus_hash", "exact_name_baseline",
           "name_pattern", "shared_terms", "utility"]
