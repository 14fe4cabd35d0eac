"""Identity pairs for an ε audit, and the reserved-test certificate on selected pairs.

Pairs are selected on development rows and certified once on the test rows, which stay
unseen until the rule is fixed: that is what makes the bounds hold after selection. See
docs/methods/epsilon-certificates.md.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from privlab.arrays import check_array
from privlab.epsilon.auditors.base import Status, _check_alpha, _check_delta
from privlab.epsilon.auditors.bounds import certified_epsilon, clopper_pearson_upper
from privlab.epsilon.auditors.reserved import choose_threshold
from privlab.epsilon.auditors.roc import logistic_classifier
from privlab.epsilon.auditors.table import audit_pairs
from privlab.errors import invalid

#: Columns of :func:`certify_pairs`, one row per certified pair.
CERTIFICATE_COLUMNS = ("id_a", "id_b", "dev_auc", "n_test_a", "n_test_b", "false_positives",
                       "false_negatives", "u_fpr", "u_fnr", "epsilon_lb", "attainable",
                       "alpha_per_rate", "status")

#: Table 7 of the paper: 50 identity pairs selected on development rows, certified on
#: unused rows after each of five FaceFusion passes with random donors (δ = 1e-5,
#: α = 0.05/500 per error rate; a zero-error pair is censored at 2.338 with 100 test rows
#: per class).
PAPER_TABLE7 = pd.DataFrame(
    {"median ε_LB": [2.290, 2.076, 1.890, 1.784, 1.701],
     "range": ["1.683–2.338", "1.367–2.338", "1.085–2.338", "1.025–2.338", "0.671–2.312"],
     "positive": ["50/50"] * 5, "> 1": ["50/50"] * 4 + ["46/50"],
     "censored": ["9/50", "4/50", "2/50", "2/50", "0/50"]},
    index=pd.Index([1, 2, 3, 4, 5], name="pass"))


def _check_positive_int(value, name: str, caller: str) -> int:
    """A positive integer (booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise invalid(name, caller, "a positive integer", value)
    return int(value)


def _check_rows(embeddings, labels, dev, caller: str):
    """Embeddings (N, d) as floats, labels (N,) and a boolean development mask (N,)."""
    x = check_array(embeddings, "embeddings", caller,
                    expected="a 2-D array of shape (n, d)").astype(float)
    if x.ndim != 2:
        raise invalid("embeddings", caller, "a 2-D array of shape (n, d)",
                      f"shape {x.shape}", given_is_text=True)
    labels = np.asarray(labels)
    if labels.ndim != 1 or len(labels) != len(x):
        raise invalid("labels", caller, f"a 1-D sequence of length {len(x)}",
                      f"shape {labels.shape}", given_is_text=True)
    dev = np.asarray(dev)
    if dev.dtype != bool or dev.shape != labels.shape:
        raise invalid("dev", caller, f"a boolean mask of length {len(x)}",
                      f"{dev.dtype} of shape {dev.shape}", given_is_text=True,
                      fix="Use the mask that split_rows returns.")
    return x, labels, dev


def identity_pairs(labels: Sequence[str], n_pairs: int, seed: int = 0) -> list[tuple[str, str]]:
    """The first ``n_pairs`` of all unordered identity pairs, shuffled with ``seed``.

    Args:
        labels: identity labels (duplicates ignored).
        n_pairs: how many pairs to keep (at least 1).
        seed: seed of the shuffle.

    Returns:
        ``[(label_a, label_b), ...]`` with ``label_a < label_b``.

    Raises:
        PrivlabValueError: fewer than two identities or ``n_pairs`` < 1.

    Example:
        >>> sorted(identity_pairs(["b", "a", "c", "a"], 10))
        [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    caller = "identity_pairs"
    ids = sorted(set(map(str, labels)))
    if len(ids) < 2:
        raise invalid("labels", caller, "at least two identities", ids)
    if isinstance(n_pairs, bool) or not isinstance(n_pairs, (int, np.integer)) or n_pairs < 1:
        raise invalid("n_pairs", caller, "a positive integer", n_pairs)
    every = list(itertools.combinations(ids, 2))
    order = np.random.default_rng(seed).permutation(len(every))
    return [every[k] for k in order[: int(n_pairs)]]


def split_rows(labels: Sequence[str], dev_fraction: float, seed: int = 0) -> np.ndarray:
    """Boolean mask of development rows: a seeded share of each identity's rows.

    Args:
        labels: one identity label per row.
        dev_fraction: share of each identity's rows used for development, in (0, 1); at
            least one development row, and one test row when an identity has two.
        seed: seed of the per-identity shuffles.

    Returns:
        Boolean array, True on development rows.

    Raises:
        PrivlabValueError: ``dev_fraction`` outside (0, 1).

    Example:
        >>> int(split_rows(["a"] * 10 + ["b"] * 4, 0.7).sum())
        10
    """
    caller = "split_rows"
    if isinstance(dev_fraction, bool) or not isinstance(dev_fraction, (int, float)) \
            or not 0 < dev_fraction < 1:
        raise invalid("dev_fraction", caller, "in (0, 1)", dev_fraction)
    labels = np.asarray(labels).astype(str)
    rng = np.random.default_rng(seed)
    dev = np.zeros(len(labels), dtype=bool)
    for lab in sorted(set(labels.tolist())):
        where = np.flatnonzero(labels == lab)
        k = int(round(dev_fraction * len(where)))
        k = min(max(k, 1), max(len(where) - 1, 1))
        dev[rng.permutation(where)[:k]] = True
    return dev


def select_distinguishable_pairs(pairs: Sequence[tuple[str, str]], scores: Sequence[float],
                                 n_select: int, distinct_identities: bool = True) -> list[int]:
    """Indices of the most distinguishable pairs, best first (ties: earlier pair first).

    Args:
        pairs: candidate pairs.
        scores: one score per pair (larger: easier to tell apart), e.g. development AUC.
        n_select: how many to select (at least 1).
        distinct_identities: skip a pair that shares an identity with one already chosen.

    Returns:
        At most ``n_select`` indices into ``pairs``.

    Raises:
        PrivlabValueError: ``scores`` not one per pair, or ``n_select`` < 1.

    Example:
        >>> select_distinguishable_pairs([("a", "b"), ("a", "c"), ("c", "d")],
        ...                              [0.9, 0.99, 0.8], 2)
        [1]
    """
    caller = "select_distinguishable_pairs"
    if len(scores) != len(pairs):
        raise invalid("scores", caller, f"one score per pair ({len(pairs)})",
                      f"{len(scores)} scores", given_is_text=True)
    n_select = _check_positive_int(n_select, "n_select", caller)
    order = sorted(range(len(pairs)), key=lambda k: (-float(scores[k]), k))
    chosen, used = [], set()
    for k in order:
        if len(chosen) >= n_select:
            break
        a, b = pairs[k]
        if distinct_identities and (a in used or b in used):
            continue
        chosen.append(k)
        used.update((a, b))
    return chosen


def fixed_rule(dev_a: np.ndarray, dev_b: np.ndarray, alpha: float, delta: float,
               test_sizes: tuple[int, int]) -> tuple[Callable[[np.ndarray], np.ndarray], int,
                                                     float]:
    """Fit a logistic scorer and choose the threshold on development rows only.

    The rule "B when orientation · score > orientation · threshold" is fixed before any
    test row is seen.

    Args:
        dev_a: development rows of identity A (the negative class).
        dev_b: development rows of identity B (the positive class).
        alpha: per-error-rate level of the bound the rule will be judged by.
        delta: the δ of that bound.
        test_sizes: (test rows of A, test rows of B).

    Returns:
        ``(score, orientation, threshold)``: the scoring function, ±1 and the threshold.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> score, o, cut = fixed_rule(rng.normal(size=(20, 2)), rng.normal(size=(20, 2)) + 4,
        ...                            0.025, 0.0, (10, 10))
        >>> bool((o * score(np.array([[4.0, 4.0]])) > o * cut)[0])
        True
    """
    x = np.vstack([dev_a, dev_b])
    y = np.r_[np.zeros(len(dev_a)), np.ones(len(dev_b))]
    model = logistic_classifier().fit(x, y)
    orientation, cut = choose_threshold(model.decision_function(dev_a),
                                        model.decision_function(dev_b), alpha, delta,
                                        test_sizes)
    return model.decision_function, orientation, cut


def select_on_development(embeddings, labels, dev, pairs: Sequence[tuple], n_select: int,
                          distinct_identities: bool = True, delta: float = 0.0,
                          seed: int = 0, min_dev_rows: int = 5
                          ) -> tuple[list[tuple], dict[tuple, float]]:
    """Rank pairs by the ``roc-ht`` out-of-fold AUC on development rows; keep the best.

    No test row is read.

    Args:
        embeddings: float array (N, d).
        labels: length-N identity labels.
        dev: boolean mask of development rows (:func:`split_rows`).
        pairs: candidate pairs of labels.
        n_select: how many pairs to select (at least 1).
        distinct_identities: select pairs that share no identity.
        delta: δ passed to the ROC auditor.
        seed: seed of the folds.
        min_dev_rows: development rows each identity needs (five folds need 5); an
            identity also needs one test row.

    Returns:
        ``(chosen, auc)``: the selected pairs, best first, and the development AUC of
        every usable pair (both empty when none is usable).

    Raises:
        PrivlabValueError / PrivlabTypeError: on malformed embeddings, labels or mask.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> y = np.repeat(["a", "b", "c"], 20)
        >>> x = rng.normal(size=(60, 3)) + 3 * (y == "c")[:, None]
        >>> chosen, auc = select_on_development(x, y, split_rows(y, 0.7), [("a", "b"),
        ...                                     ("a", "c")], n_select=1)
        >>> chosen, sorted(auc)
        ([('a', 'c')], [('a', 'b'), ('a', 'c')])
    """
    caller = "select_on_development"
    x, labels, dev = _check_rows(embeddings, labels, dev, caller)
    n_select = _check_positive_int(n_select, "n_select", caller)
    min_dev_rows = _check_positive_int(min_dev_rows, "min_dev_rows", caller)
    pairs = [tuple(p) for p in pairs]
    usable = [p for p in pairs if min((labels[dev] == lab).sum() for lab in p) >= min_dev_rows
              and min((labels[~dev] == lab).sum() for lab in p) >= 1]
    if not usable:
        return [], {}
    ranking = audit_pairs(x[dev], labels[dev], usable, methods=["roc-ht"], delta=delta,
                          seed=seed, min_rows=min_dev_rows)
    auc = {r.provenance["pair"]: r.details["auc"] for r in ranking.results}
    chosen = select_distinguishable_pairs(usable, [auc[p] for p in usable], n_select,
                                          distinct_identities)
    return [usable[k] for k in chosen], auc


def certify_pairs(embeddings, labels, dev, pairs: Sequence[tuple], alpha: float,
                  delta: float = 0.0, dev_auc: Mapping[tuple, float] | None = None
                  ) -> pd.DataFrame:
    """The reserved test on each pair: rule fixed on development rows, used once on test rows.

    Args:
        embeddings: float array (N, d).
        labels: length-N identity labels.
        dev: boolean mask of development rows (:func:`split_rows`).
        pairs: the pairs to certify, e.g. from :func:`select_on_development`.
        alpha: per-error-rate level in (0, 1); family level / (2 · pairs) for
            simultaneous bounds.
        delta: the δ of the (ε, δ) claim tested, in [0, 1).
        dev_auc: development AUC per pair, copied into ``dev_auc`` (NaN when absent).

    Returns:
        DataFrame with :data:`CERTIFICATE_COLUMNS`, one row per pair; ``attainable`` is
        the bound with no test errors.

    Raises:
        PrivlabValueError / PrivlabTypeError: on malformed inputs, ``alpha`` or ``delta``
            out of range, or a pair without development or test rows.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> y = np.repeat(["a", "b"], 40)
        >>> x = rng.normal(size=(80, 2)) + 6 * (y == "b")[:, None]
        >>> t = certify_pairs(x, y, split_rows(y, 0.5), [("a", "b")], alpha=0.025)
        >>> row = t.iloc[0]
        >>> bool(row["epsilon_lb"] == row["attainable"] > 0), row["status"]
        (True, 'finite-sample certificate')
    """
    caller = "certify_pairs"
    x, labels, dev = _check_rows(embeddings, labels, dev, caller)
    alpha = _check_alpha(alpha, caller)
    delta = _check_delta(delta, caller)
    dev_auc = {} if dev_auc is None else dev_auc
    rows = []
    for la, lb in pairs:
        ia, ib = labels == la, labels == lb
        dev_a, dev_b = x[ia & dev], x[ib & dev]
        test_a, test_b = x[ia & ~dev], x[ib & ~dev]
        for name, rows_of in (("development", (dev_a, dev_b)), ("test", (test_a, test_b))):
            if min(len(r) for r in rows_of) < 1:
                raise invalid("pairs", caller, f"pairs with {name} rows for both identities",
                              f"pair {(la, lb)!r}", given_is_text=True)
        score, orientation, cut = fixed_rule(dev_a, dev_b, alpha, delta,
                                             (len(test_a), len(test_b)))
        # the fixed rule meets the test rows exactly once, here
        fp = int(np.sum(orientation * score(test_a) > orientation * cut))
        fn = int(np.sum(orientation * score(test_b) <= orientation * cut))
        rows.append({"id_a": la, "id_b": lb, "dev_auc": dev_auc.get((la, lb), math.nan),
                     "n_test_a": len(test_a), "n_test_b": len(test_b),
                     "false_positives": fp, "false_negatives": fn,
                     "u_fpr": clopper_pearson_upper(fp, len(test_a), alpha),
                     "u_fnr": clopper_pearson_upper(fn, len(test_b), alpha),
                     "epsilon_lb": certified_epsilon(fp, len(test_a), fn, len(test_b), alpha,
                                                     delta),
                     "attainable": certified_epsilon(0, len(test_a), 0, len(test_b), alpha,
                                                     delta),
                     "alpha_per_rate": alpha, "status": Status.CERTIFICATE.value})
    return pd.DataFrame(rows, columns=list(CERTIFICATE_COLUMNS))


def cascade_table(certificates: pd.DataFrame, stage: str = "pass") -> pd.DataFrame:
    """Per pass of a cascade: the certified bounds summarised as the paper's Table 7.

    Args:
        certificates: rows of :func:`certify_pairs` for every pass, ``alpha`` corrected
            over every pair and pass.
        stage: the column that names the pass.

    Returns:
        DataFrame indexed by pass with the columns of :data:`PAPER_TABLE7`; ``censored``
        counts pairs with no test error, whose bound is the ceiling.

    Raises:
        PrivlabValueError: when ``stage`` or a certificate column is missing.

    Example:
        >>> rows = pd.DataFrame({"pass": [1, 1], "epsilon_lb": [2.338, 1.2],
        ...                      "false_positives": [0, 1], "false_negatives": [0, 0]})
        >>> cascade_table(rows).loc[1, ["positive", "> 1", "censored"]].tolist()
        ['2/2', '2/2', '1/2']
    """
    caller = "cascade_table"
    needed = [stage, "epsilon_lb", "false_positives", "false_negatives"]
    missing = [c for c in needed if c not in certificates.columns]
    if missing:
        raise invalid("certificates", caller, f"a table with columns {needed}",
                      f"a table without {missing}", given_is_text=True)
    rows = {}
    for key, g in certificates.groupby(stage, sort=True):
        lb = g["epsilon_lb"].astype(float)
        total = len(g)
        censored = int(((g["false_positives"] == 0) & (g["false_negatives"] == 0)).sum())
        rows[key] = {"median ε_LB": float(lb.median()),
                     "range": f"{lb.min():.3f}–{lb.max():.3f}",
                     "positive": f"{int((lb > 0).sum())}/{total}",
                     "> 1": f"{int((lb > 1).sum())}/{total}",
                     "censored": f"{censored}/{total}"}
    table = pd.DataFrame.from_dict(rows, orient="index",
                                   columns=list(PAPER_TABLE7.columns))
    table.index.name = stage
    return table
