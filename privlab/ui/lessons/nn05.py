"""Exercises of notebook 05 (known ε): what a certificate can say, from its counts.

The notebook's names: ``panel`` (the known-ε study panel), ``config`` (its settings),
``m`` and ``alpha`` (test rows per identity and α per rate of the panel's setting),
``fp``, ``fn``, ``u_fp``, ``u_fn`` and ``eps_lb`` (the by-hand certificate), ``result``
(the panel's last result) and ``answer``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from privlab.ui.exercises import Exercise, Verdict
from privlab.ui.lessons.answers import no_result, number

#: What the panel exercises read: the panel's last result.
NEEDS = {"result": "panel.result"}

#: GaussMech's median below this reads "near 0".
NEAR_ZERO = 1.0

#: The bound exercise 05.3 asks a zero-error test to reach.
TARGET = 2.0


def explored(result: Any, method: str) -> Any:
    """The explored setting's summary row of ``method`` (None when it did not run)."""
    rows = result.explore[result.explore["method"] == method]
    return rows.iloc[0] if len(rows) else None


def rows_needed(config: Any, target: float = TARGET, most: int = 100_000) -> int:
    """The fewest test rows per identity with which a zero-error reserved test certifies
    ``target`` at the α per rate of ``config`` (0.05 / (2 · pairs)).

    Example:
        >>> from types import SimpleNamespace as N
        >>> rows_needed(N(n_pairs=40), target=1.277)
        30
    """
    from privlab.epsilon import certified_epsilon

    alpha = 0.05 / (2 * config.n_pairs)
    low, high = 1, most
    while low < high:   # the zero-error bound grows with the rows
        mid = (low + high) // 2
        if certified_epsilon(0, mid, 0, mid, alpha=alpha) >= target:
            high = mid
        else:
            low = mid + 1
    return low


def _gaussmech_at_null(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    missing = no_result(result)
    if missing is not None:
        return missing
    if result.config.epsilon != 0:
        return Verdict(False, f"The panel last ran at true ε = {result.config.epsilon:g}: set "
                              "True ε to 0, press Run, then check again.")
    row = explored(result, "gaussmech")
    if row is None:
        return Verdict(False, "GaussMech did not run: choose it among the auditors and press "
                              "Run.")
    said = str(answer).strip().lower()
    if said not in ("near 0", "far above 0"):
        return Verdict(False, f'Answer "near 0" or "far above 0" (you wrote {answer!r}).')
    median = float(row["median"])
    truth = "near 0" if median < NEAR_ZERO else "far above 0"
    floor = _floor(result)
    if said == truth:
        return Verdict(True, f"GaussMech's median is {median:.2f} at true ε = 0 (its null "
                             f"floor at n = {result.config.n}: {floor:.2f}): it measures the "
                             "sampling error of two means, not privacy loss.")
    return Verdict(False, f"This run's GaussMech median is {median:.2f} although the true ε "
                          "is 0: see the solution for its null floor.")


def _floor(result: Any) -> float:
    from privlab.epsilon import gaussmech_null_floor

    return float(gaussmech_null_floor(512, result.config.n))


def _positive_at_64(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    missing = no_result(result)
    if missing is not None:
        return missing
    if result.config.epsilon != 64:
        return Verdict(False, f"The panel last ran at true ε = {result.config.epsilon:g}: set "
                              "True ε to 64, press Run, then read the reserved row.")
    row = explored(result, "reserved")
    if row is None:
        return Verdict(False, "The reserved test did not run: choose it among the auditors "
                              "and press Run.")
    value, truth = number(answer), float(row["positive"])
    if value is None or abs(value - truth) > 5e-3:
        return Verdict(False, f"Read `positive` in the reserved row of the explored setting "
                              f"(you wrote {answer!r}).")
    return Verdict(True, f"The reserved test certifies a bound above 0 on {truth:.0%} of the "
                         f"pairs (median bound {float(row['median']):.3f}, true median ε "
                         f"{float(row['exact_median']):.3g}): the test rows' ceiling and the "
                         "learned rule, not ε, limit it.")


def _rows_for_two(answer: Any, context: Mapping[str, Any]) -> Verdict:
    config = context["config"]
    value = number(answer)
    truth = rows_needed(config)
    if value is None or value != int(value):
        return Verdict(False, f"Bind answer to a whole number of rows (you wrote {answer!r}).")
    alpha = 0.05 / (2 * config.n_pairs)
    if int(value) == truth:
        return Verdict(True, f"{truth} rows per identity: with fewer, even a perfect test "
                             f"certifies less than {TARGET:g} at α per rate {alpha:.6f}.")
    side = "too few: the bound stays below" if value < truth else "enough, but not the fewest " \
                                                                  "that reach"
    return Verdict(False, f"{int(value)} rows is {side} {TARGET:g}; loop m upwards and stop "
                          "at the first zero-error bound of at least 2.")


EXERCISES = (
    Exercise(
        "05.1", "predict",
        "At true ε = 0, will GaussMech's median over pairs be near 0 or far above 0?",
        _gaussmech_at_null,
        solution='gm = panel.result.explore.set_index("method").loc["gaussmech", "median"]\n'
                 'answer = "near 0" if gm < 1 else "far above 0"\n',
        why="With no signal, two sample means of n rows in 512 dimensions still differ by "
            "about σ√(2d/n), so GaussMech reports about √(2 ln(1.25/δ))·√(2d/n) (Eq. 22): "
            "its null floor. A GaussMech value is evidence of nothing unless it clearly "
            "exceeds that floor.",
        wrong=lambda context: "near 0" if float(explored(context["result"], "gaussmech")[
            "median"]) >= NEAR_ZERO else "far above 0",
        needs=NEEDS),
    Exercise(
        "05.2", "change-setting",
        "Set True ε to 64, press Run, and report the fraction of pairs the reserved test "
        "certifies above 0.",
        _positive_at_64,
        solution='panel.controls["epsilon"].set(64.0)\npanel.run()\n'
                 'answer = panel.result.explore.set_index("method").loc["reserved", '
                 '"positive"]\n',
        why="A certificate needs both a large ε and enough test rows: with n/2 test rows per "
            "identity its ceiling is the zero-error bound, and a learned rule that misses "
            "the separating direction makes errors the exact oracle would not.",
        wrong=-1.0, needs=NEEDS),
    Exercise(
        "05.3", "code-edit",
        "Find the fewest test rows per identity with which a zero-error test certifies "
        "ε ≥ 2 at the panel's α per rate.",
        _rows_for_two,
        solution="answer = next(rows for rows in range(1, 100_000)\n"
                 "              if certified_epsilon(0, rows, 0, rows, alpha=alpha) >= 2)\n",
        why="With no errors the Clopper–Pearson upper bound on each rate is 1 − α^(1/m), "
            "which falls slowly with m: the bound ln((1 − U)/U) needs U ≤ 1/(1 + e²), and "
            "more pairs (a smaller α per rate) need more rows.",
        wrong=lambda context: rows_needed(context["config"]) - 1,
        needs={"config": "config"}),
)


def fixture() -> dict[str, Any]:
    """The notebook's names after its by-hand cell and the panel, on tiny sub-grids."""
    from privlab.epsilon import certified_epsilon
    from privlab.studies import known_epsilon
    from privlab.ui.panel import study_panel

    panel = study_panel(known_epsilon, n=30, null_sizes=(30,), geometries=("dispersed",),
                        curve_n=30, curve_epsilons=(0.0, 8.0), power_epsilons=(0.0, 16.0),
                        power_sizes=(30,), appendix_epsilons=(0.0,), appendix_sizes=(30,),
                        distinguisher_grid=(), claim_epsilon=None, n_pairs=3,
                        mmd_permutations=50, reference_draws=100, n_jobs=1, progress=False)
    panel.run()
    config = panel.config()
    alpha = 0.05 / (2 * config.n_pairs)
    return {"panel": panel, "config": config, "m": config.n // 2, "alpha": alpha,
            "certified_epsilon": certified_epsilon, "result": panel.result}
