"""Distinguishers for the learned certificates: logistic regression or a small neural network.

The classifier only decides *which* fixed rule the certificate evaluates; it never touches
the test rows, so a stronger model cannot make a certificate invalid, only more or less
informative. See docs/methods/epsilon-certificates.md.
"""

from __future__ import annotations

import contextlib
from typing import Callable

import numpy as np

from privlab.epsilon.auditors.base import BaseAuditor, Status, _check_alpha, registry, \
    split_halves
from privlab.epsilon.auditors.reserved import certify_scores
from privlab.epsilon.auditors.roc import logistic_classifier
from privlab.errors import invalid, wrong_type

#: Model classes a learned auditor accepts for its ``classifier`` knob.
CLASSIFIERS = ("logistic", "mlp")


def check_classifier(kind, caller: str) -> str:
    """``kind`` if it names a model class of :data:`CLASSIFIERS`, else a named refusal.

    Example:
        >>> check_classifier("mlp", "example")
        'mlp'
    """
    if not isinstance(kind, str) or kind not in CLASSIFIERS:
        raise invalid("classifier", caller, f"one of {CLASSIFIERS}", kind)
    return kind


def _positive_int(value, name: str, caller: str) -> int:
    """A positive integer (booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise invalid(name, caller, "a positive integer", value)
    return int(value)


def _nonnegative_float(value, name: str, caller: str, strict: bool = False) -> float:
    """A finite number ≥ 0 (> 0 when ``strict``)."""
    ok = not isinstance(value, bool) and isinstance(value, (int, float, np.floating)) \
        and np.isfinite(value) and (value > 0 if strict else value >= 0)
    if not ok:
        raise invalid(name, caller, "a finite number > 0" if strict else "a finite number >= 0",
                      value)
    return float(value)


@contextlib.contextmanager
def _torch_threads(n: int):
    """Run torch on ``n`` threads inside the block, then restore the previous setting."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield torch
    finally:
        torch.set_num_threads(before)


class MLPClassifier:
    """A small seeded torch network on robustly standardised coordinates.

    The score is a·u + v·relu(W u + c) + b on u = [z, tanh(κ z)], z the standardised
    coordinates; the same rows and seed give the same scores. The design is explained in
    docs/methods/epsilon-certificates.md.

    Args:
        hidden: width of the hidden layer (0 keeps only the skip path).
        epochs: full-batch Adam steps.
        learning_rate: Adam step size.
        weight_decay: L2 penalty on the weights (biases and κ excluded).
        seed: seed of the initial weights.
        threads: torch threads used while fitting.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> x = np.vstack([rng.normal(size=(40, 3)), rng.normal(size=(40, 3)) + 2])
        >>> y = np.r_[np.zeros(40), np.ones(40)]
        >>> s = MLPClassifier(epochs=100).fit(x, y).decision_function(x)
        >>> bool(s[40:].mean() > s[:40].mean())
        True
    """

    def __init__(self, hidden: int = 16, epochs: int = 150, learning_rate: float = 0.01,
                 weight_decay: float = 0.01, seed: int = 0, threads: int = 1):
        caller = "MLPClassifier"
        if isinstance(hidden, bool) or not isinstance(hidden, (int, np.integer)) or hidden < 0:
            raise invalid("hidden", caller, "a nonnegative integer", hidden)
        self.hidden = int(hidden)
        self.epochs = _positive_int(epochs, "epochs", caller)
        self.learning_rate = _nonnegative_float(learning_rate, "learning_rate", caller, True)
        self.weight_decay = _nonnegative_float(weight_decay, "weight_decay", caller)
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise wrong_type("seed", caller, "an int", seed)
        self.seed = int(seed)
        self.threads = _positive_int(threads, "threads", caller)
        self._params = None

    def _features(self, x: np.ndarray, kappa: float) -> np.ndarray:
        """u = [z, tanh(κ z)] on the training rows' centre and scale."""
        z = (np.asarray(x, dtype=np.float64) - self._center) / self._scale
        return np.hstack([z, np.tanh(kappa * z)])

    def fit(self, x: np.ndarray, y: np.ndarray) -> "MLPClassifier":
        """Fit on rows ``x`` (n, d) with labels ``y`` in {0, 1}; returns self."""
        x = np.asarray(x, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)
        if x.ndim != 2 or len(x) != len(y):
            raise invalid("x", "MLPClassifier.fit", "a 2-D array with one row per label",
                          f"shape {x.shape} for {len(y)} labels", given_is_text=True)
        if set(np.unique(y).tolist()) != {0.0, 1.0}:
            raise invalid("y", "MLPClassifier.fit", "labels with both classes 0 and 1",
                          sorted(set(np.unique(y).tolist())))
        self._center = np.median(x, axis=0)
        scale = x.std(axis=0)
        self._scale = np.where(scale > 1e-12, scale, 1.0)
        z = (x - self._center) / self._scale
        d, h = 2 * x.shape[1], self.hidden
        rng = np.random.default_rng(self.seed)
        init = {"a": rng.normal(0.0, 0.1 / np.sqrt(d), d), "b": np.zeros(1),
                "kappa": np.array([2.0]), "W": rng.normal(0.0, 1.0 / np.sqrt(d), (h, d)),
                "c": np.zeros(h), "v": rng.normal(0.0, 0.1 / np.sqrt(max(h, 1)), h)}
        n1 = y.sum()
        weights = np.where(y == 1, len(y) / (2 * n1), len(y) / (2 * (len(y) - n1)))
        with _torch_threads(self.threads) as torch:
            p = {k: torch.tensor(v, dtype=torch.float32, requires_grad=True)
                 for k, v in init.items()}
            zt = torch.tensor(z, dtype=torch.float32)
            yt = torch.tensor(y, dtype=torch.float32)
            wt = torch.tensor(weights, dtype=torch.float32)
            opt = torch.optim.Adam(list(p.values()), lr=self.learning_rate)
            for _ in range(self.epochs):
                opt.zero_grad()
                u = torch.cat([zt, torch.tanh(p["kappa"] * zt)], dim=1)
                logits = u @ p["a"] + p["b"]
                if h:
                    logits = logits + torch.relu(u @ p["W"].T + p["c"]) @ p["v"]
                loss = torch.nn.functional.binary_cross_entropy_with_logits(
                    logits, yt, weight=wt)
                penalty = (p["a"] ** 2).sum() + (p["W"] ** 2).sum() + (p["v"] ** 2).sum()
                (loss + self.weight_decay * penalty).backward()
                opt.step()
            self._params = {k: v.detach().double().numpy().copy() for k, v in p.items()}
        return self

    def decision_function(self, x: np.ndarray) -> np.ndarray:
        """Scores of rows ``x``: larger means class 1."""
        if self._params is None:
            raise invalid("x", "MLPClassifier.decision_function", "scored after fit()",
                          "an unfitted network", given_is_text=True)
        p = self._params
        u = self._features(x, float(p["kappa"][0]))
        score = u @ p["a"] + p["b"][0]
        if self.hidden:
            score = score + np.maximum(u @ p["W"].T + p["c"], 0.0) @ p["v"]
        return score


def make_classifier(kind: str = "logistic", seed: int = 0):
    """An unfitted model of class ``kind`` with ``fit(x, y)`` and ``decision_function(x)``.

    Args:
        kind: a name of :data:`CLASSIFIERS`.
        seed: seed of the network's initial weights (logistic regression has none).

    Returns:
        ``sklearn.linear_model.LogisticRegression`` (C = 1, lbfgs, 1000 iterations) or an
        :class:`MLPClassifier`.

    Raises:
        PrivlabValueError: on an unknown ``kind``.

    Example:
        >>> type(make_classifier("mlp")).__name__
        'MLPClassifier'
    """
    kind = check_classifier(kind, "make_classifier")
    if kind == "logistic":
        return logistic_classifier()
    return MLPClassifier(seed=seed)


def fit_scorer(kind: str, negative: np.ndarray, positive: np.ndarray,
               seed: int = 0) -> Callable[[np.ndarray], np.ndarray]:
    """Fit a ``kind`` model on two identities' rows; return its score (larger means positive).

    Example:
        >>> rng = np.random.default_rng(1)
        >>> f = fit_scorer("logistic", rng.normal(size=(20, 2)), rng.normal(size=(20, 2)) + 3)
        >>> bool(f(np.array([[3.0, 3.0]]))[0] > f(np.array([[0.0, 0.0]]))[0])
        True
    """
    model = make_classifier(kind, seed)
    model.fit(np.vstack([negative, positive]),
              np.r_[np.zeros(len(negative)), np.ones(len(positive))])
    return model.decision_function


class LearnedReservedTest(BaseAuditor):
    """The reserved test (Eq. 16) with the model class as a knob.

    Formal status: finite-sample certificate. Under iid rows P(ε < ε_LB) ≤ 2·alpha
    whatever the classifier; with ``classifier="logistic"`` the numbers are exactly
    those of ``ReservedTest``.

    Args:
        classifier: ``"logistic"`` or ``"mlp"`` (:data:`CLASSIFIERS`).
        alpha: per-error-rate level (Bonferroni-corrected by the caller).
        name: registry name to report.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> r = LearnedReservedTest("mlp", alpha=0.025).audit(
        ...     rng.normal(size=(60, 2)), rng.normal(size=(60, 2)) + 10, delta=0)
        >>> r.status.value, r.value == r.details["attainable"] > 0
        ('finite-sample certificate', True)
    """

    status = Status.CERTIFICATE

    def __init__(self, classifier: str = "logistic", alpha: float = 0.05 / 80,
                 name: str | None = None):
        self.classifier = check_classifier(classifier, "LearnedReservedTest")
        self.alpha = _check_alpha(alpha, "LearnedReservedTest")
        self.name = name or ("reserved" if classifier == "logistic" else f"reserved-{classifier}")

    def with_alpha(self, alpha: float) -> "LearnedReservedTest":
        """The same test at another per-error-rate level (for a family correction)."""
        return LearnedReservedTest(self.classifier, alpha, self.name)

    def settings(self):
        return {"alpha": self.alpha, "classifier": self.classifier}

    def _audit(self, a, b, delta, seed):
        dev_a, test_a, dev_b, test_b = split_halves(a, b, seed)
        score = fit_scorer(self.classifier, dev_a, dev_b, seed)
        return certify_scores(score, dev_a, test_a, dev_b, test_b, self.alpha, delta)


@registry.member("reserved-mlp", description="reserved test with a small seeded neural "
                 "network instead of logistic regression", status=Status.CERTIFICATE,
                 benchmark=True)
def reserved_mlp(alpha: float = 0.05 / 80) -> LearnedReservedTest:
    """The reserved test whose rule comes from :class:`MLPClassifier`.

    Args:
        alpha: per-error-rate level (Bonferroni-corrected by the caller).

    Returns:
        A :class:`LearnedReservedTest` named ``reserved-mlp``.

    Example:
        >>> reserved_mlp().classifier
        'mlp'
    """
    return LearnedReservedTest("mlp", alpha, "reserved-mlp")
