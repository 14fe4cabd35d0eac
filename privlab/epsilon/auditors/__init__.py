"""ε auditors: four population-level routes and the reserved-test certificate, one registry.

Turning the separation of two identities' outputs into an "ε", with its meaning. Every
auditor follows one protocol (:class:`Auditor`) and returns one result type
(:class:`AuditResult`) that carries the status it formally has (:class:`Status`):

===============  ==========================================  ==============================
auditor          what the number is                          status
===============  ==========================================  ==============================
``gaussmech``    Gaussian-mechanism formula inverted with     diagnostic
                 sample means and residual scales (Eq. 9)
``kde-lr``       sum over coordinates of the largest          diagnostic
                 marginal log-density ratio (Eqs. 10–11)
``mmd-tv``       sample MMD put into the pure-DP population   uncertified population bound
                 bound ln((1+MMD/2)/(1−MMD/2)) (Eq. 14)
``roc-ht``       Kairouz–Oh–Viswanath conversion of an        descriptive
                 out-of-fold ROC curve (Eq. 15)
``reserved``     fixed classifier and threshold chosen on     finite-sample certificate
                 development data, evaluated once on unused   (under iid rows)
                 data with Clopper–Pearson bounds (Eq. 16)
===============  ==========================================  ==============================

Further certificates (``reserved-mlp``, ``dp-sniper``, ``dp-sniper-mlp``, ``mmd-finite``,
``reserved-sequential``, ``hockey-stick``): docs/methods/epsilon-certificates.md.

Of the five routes above only the reserved test is a lower confidence bound on ε. The
others can be large when the true ε is 0 (GaussMech, KDE-LR, the +∞ of ROC-HT) or above
the truth by chance (MMD-TV); compare them with mechanisms of known ε before reading
anything into them. The members live in :data:`registry`; :data:`AUDITORS` is its
read-only view by name.
"""

# The import order is the registration order, which lists the members everywhere; a module
# not named here registers after them (load_members, below).
import importlib

from privlab.registry import member_modules
from privlab.epsilon.auditors.base import (
    DEFAULT_DELTA,
    AuditResult,
    Auditor,
    BaseAuditor,
    Status,
    registry,
)
from privlab.epsilon.auditors.bounds import (
    certified_epsilon,
    clopper_pearson_lower,
    clopper_pearson_upper,
    epsilon_from_rates,
)
from privlab.epsilon.auditors.gaussmech import GaussMech, gaussmech_null_floor
from privlab.epsilon.auditors.kde import KDELR, kde_lr_smoothed, silverman_bandwidth
from privlab.epsilon.auditors.mmd import MMDTV, mmd2_unbiased, mmd_tv, rbf_median_kernel
from privlab.epsilon.auditors.roc import ROCHT, logistic_classifier, roc_epsilon
from privlab.epsilon.auditors.reserved import ReservedTest, choose_threshold, reserved_exact
from privlab.epsilon.auditors.classifiers import (
    CLASSIFIERS,
    LearnedReservedTest,
    MLPClassifier,
    make_classifier,
    reserved_mlp,
)
from privlab.epsilon.auditors.dpsniper import DPSniper, dp_sniper, dp_sniper_mlp, find_threshold
from privlab.epsilon.auditors.hockey_stick import (
    ClaimTest,
    HockeyStickTester,
    hockey_stick,
    hockey_stick_lower,
)
from privlab.epsilon.auditors.mmd_finite import MMDFinite, mmd_finite, mmd_lower_bound
from privlab.epsilon.auditors.sequential import (
    FixedRule,
    SequentialCertificate,
    SequentialReservedTest,
    betting_upper,
    reserved_sequential,
)
from privlab.epsilon.auditors.table import AUDITORS, EpsilonAuditTable, audit_pairs, get_auditor
from privlab.epsilon.auditors.streaming import mechanism_sampler


def load_members() -> tuple[str, ...]:
    """Import every module of this package, so that each auditor in it registers itself.

    Called below, on import (see :func:`privlab.registry.member_modules`). Returns the
    modules' names, sorted.
    """
    return tuple(importlib.import_module(f"{__name__}.{name}").__name__
                 for name in member_modules(__path__))


load_members()

__all__ = [
    "AUDITORS", "AuditResult", "Auditor", "BaseAuditor", "DEFAULT_DELTA", "EpsilonAuditTable",
    "GaussMech", "KDELR", "MMDTV", "ROCHT", "ReservedTest", "Status", "audit_pairs",
    "certified_epsilon", "choose_threshold", "clopper_pearson_lower", "clopper_pearson_upper",
    "epsilon_from_rates", "gaussmech_null_floor", "get_auditor", "kde_lr_smoothed",
    "logistic_classifier", "mmd2_unbiased", "mmd_tv", "rbf_median_kernel", "registry",
    "reserved_exact", "roc_epsilon", "silverman_bandwidth",
    "CLASSIFIERS", "ClaimTest", "DPSniper", "FixedRule", "HockeyStickTester",
    "LearnedReservedTest", "MLPClassifier", "MMDFinite", "SequentialCertificate",
    "SequentialReservedTest", "betting_upper", "dp_sniper", "dp_sniper_mlp", "find_threshold",
    "hockey_stick", "hockey_stick_lower", "make_classifier", "mmd_finite", "mmd_lower_bound",
    "reserved_mlp", "reserved_sequential", "load_members", "mechanism_sampler",
]
