"""ε auditors and mechanisms of known privacy.

The public verbs: :func:`audit` (your two samples from neighbouring inputs: the
certificate with its confidence, the paper's four estimators, a label-shuffled control;
:mod:`privlab.epsilon.byo`), :func:`certified_epsilon` (Eq. 16 on given error counts) and
:func:`audit_pairs` (every auditor on any identity-labelled embedding table); the
auditors' registry (:data:`privlab.epsilon.auditors.registry`, viewed by name as
:data:`AUDITORS`); the pair list and selected-pairs certificate of :mod:`privlab.epsilon.pairs`;
the per-pass certificate of a repeated-generation cascade (:func:`audit_cascade`); and the
known-ε benchmark in :mod:`privlab.epsilon.benchmark`; the peers' mechanisms, right and wrong
(:mod:`privlab.epsilon.peers`); and ε lower bounds from a user's attack scores
(:func:`from_scores`).
"""

from privlab.epsilon.auditors import (
    AUDITORS,
    AuditResult,
    Auditor,
    EpsilonAuditTable,
    GaussMech,
    KDELR,
    MMDTV,
    ROCHT,
    ReservedTest,
    Status,
    audit_pairs,
    certified_epsilon,
    clopper_pearson_upper,
    epsilon_from_rates,
    gaussmech_null_floor,
    get_auditor,
)
from privlab.epsilon.byo import EpsilonAudit, audit
from privlab.epsilon.cascade import CascadeAudit, audit_cascade, cascade_alpha
from privlab.epsilon.mechanisms import (
    MECHANISMS,
    analytic_gaussian_epsilon,
    analytic_gaussian_sigma,
    build_mechanism,
    make_prototypes,
)
from privlab.epsilon.pairs import (
    certify_pairs,
    identity_pairs,
    select_distinguishable_pairs,
    select_on_development,
    split_rows,
)
from privlab.epsilon.scores import ScoreAudit, from_scores

__all__ = [
    "AUDITORS", "AuditResult", "Auditor", "EpsilonAuditTable", "GaussMech", "KDELR", "MMDTV",
    "ROCHT", "ReservedTest", "Status", "audit_pairs", "certified_epsilon",
    "clopper_pearson_upper", "epsilon_from_rates", "gaussmech_null_floor", "get_auditor",
    "MECHANISMS", "analytic_gaussian_epsilon", "analytic_gaussian_sigma",
    "build_mechanism", "make_prototypes",
    "certify_pairs", "identity_pairs", "select_distinguishable_pairs", "select_on_development",
    "split_rows", "CascadeAudit", "audit_cascade", "cascade_alpha", "EpsilonAudit", "audit",
    "ScoreAudit", "from_scores",
]
