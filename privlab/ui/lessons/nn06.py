"""Exercises of notebook 06 (face generators): a certified bound from its error counts.

The notebook's names: ``panel`` (the face-generator study panel), ``result`` (its last
result), ``row`` (the first generator's first selected pair in the reserved test),
``m_a``, ``m_b``, ``fp``, ``fn``, ``alpha``, ``u_fp``, ``u_fn`` and ``eps_lb`` (the
by-hand bound) and ``answer``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from privlab.ui.exercises import Exercise, Verdict
from privlab.ui.lessons.answers import no_result, number

TOLERANCE = 1e-4

#: What every check here reads: the panel's last result.
NEEDS = {"result": "panel.result"}


def best_bound(condition: Any) -> float:
    """The largest certified bound over a condition's selected pairs (NaN if none).

    Example:
        >>> import pandas as pd
        >>> from types import SimpleNamespace as N
        >>> best_bound(N(certificate=pd.DataFrame({"epsilon_lb": [0.2, 0.5]})))
        0.5
    """
    cert = condition.certificate
    return float(cert["epsilon_lb"].max()) if len(cert) else float("nan")


def first_bound(condition: Any) -> float:
    """The certified bound of a condition's first selected pair (NaN if none)."""
    cert = condition.certificate
    return float(cert["epsilon_lb"].iloc[0]) if len(cert) else float("nan")


def _two_generators(result: Any) -> Verdict | None:
    missing = no_result(result)
    if missing is not None:
        return missing
    if len(result.conditions) < 2:
        return Verdict(False, "The panel ran one generator only: set 'Compare with' to a "
                              "stronger one (0.4) and press Run.")
    return None


def _strong_against_weak(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    missing = _two_generators(result)
    if missing is not None:
        return missing
    said = str(answer).strip().lower()
    if said not in ("lower", "same", "higher"):
        return Verdict(False, f'Answer "lower", "same" or "higher" (you wrote {answer!r}).')
    weak, strong = (best_bound(c) for c in result.conditions[:2])
    truth = ("lower" if strong < weak - TOLERANCE else
             "higher" if strong > weak + TOLERANCE else "same")
    numbers = f"{result.conditions[0].name}: ε ≥ {weak:.3f}; {result.conditions[1].name}: " \
              f"ε ≥ {strong:.3f}"
    if said == truth:
        return Verdict(True, f"{truth.capitalize()} ({numbers}). Read the faces-only rows "
                             "before concluding the outputs look alike.")
    return Verdict(False, f"This run says {truth} ({numbers}): see the solution for what "
                          "moves the bound.")


def _bound_at_alpha(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    missing = no_result(result)
    if missing is not None:
        return missing
    if abs(result.config.alpha - 0.2) > 1e-9:
        return Verdict(False, f"The panel last ran at α = {result.config.alpha:g}: move α to "
                              "0.2, press Run, then read the bound.")
    value, truth = number(answer), best_bound(result.conditions[0])
    if value is None or abs(value - truth) > 5e-4:
        return Verdict(False, f"Read {result.conditions[0].name}'s largest `epsilon_lb` in the "
                              f"certified bounds (you wrote {answer!r}).")
    return Verdict(True, f"At α = 0.2 the bound is {truth:.3f} (α per rate "
                         f"{result.alpha_per_rate:.4f}): a larger α gives smaller "
                         "Clopper–Pearson upper bounds on the error rates, so a larger "
                         "certified ε, held with less confidence.")


def _strong_by_hand(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    missing = _two_generators(result)
    if missing is not None:
        return missing
    value = number(answer)
    if value is None:
        return Verdict(False, f"Bind answer to a number, your eps_lb (you wrote {answer!r}).")
    strong, weak = first_bound(result.conditions[1]), first_bound(result.conditions[0])
    if abs(value - strong) <= TOLERANCE:
        row = result.conditions[1].certificate.iloc[0]
        return Verdict(True, f"ε ≥ {strong:.4f} from {int(row['false_positives'])} + "
                             f"{int(row['false_negatives'])} errors, as privlab reports.")
    if abs(value - weak) <= TOLERANCE:
        return Verdict(False, "That is still the weak generator's bound: take the row from "
                              "result.conditions[1].certificate.")
    return Verdict(False, f"{value:.4f} is not the strong generator's first bound: check "
                          "which rows go with fp (identity A) and fn (identity B).")


def _other_than(value: float, avoid: float) -> float:
    """``value``, or an impossible bound where it equals ``avoid``."""
    return -1.0 if abs(value - avoid) <= TOLERANCE else value


EXERCISES = (
    Exercise(
        "06.1", "predict",
        "Will the strong generator's certified bound be lower, the same or higher than the "
        "weak one's?",
        _strong_against_weak,
        solution="weak, strong = (c.certificate['epsilon_lb'].max() "
                 "for c in panel.result.conditions[:2])\n"
                 'answer = "lower" if strong < weak else "higher" if strong > weak else '
                 '"same"\n',
        why="A stronger generator usually makes the identities harder to tell apart, and "
            "the bound falls. On the toy default much of the fall is detection failure: the "
            "strong generator's outputs often have no face, they all share one vector, and "
            "the test's errors fall on them. The faces-only rows show how separable the "
            "remaining faces still are.",
        wrong=lambda context: "higher" if best_bound(context["result"].conditions[1])
        < best_bound(context["result"].conditions[0]) else "lower",
        needs=NEEDS),
    Exercise(
        "06.2", "change-setting",
        "Move α to 0.2, press Run, and report the weak generator's certified bound.",
        _bound_at_alpha,
        solution='panel.controls["alpha"].set(0.2)\npanel.run()\n'
                 "answer = panel.result.conditions[0].certificate['epsilon_lb'].max()\n",
        why="α is the chance, over all bounds together, that some bound is wrong. A larger α "
            "lowers each Clopper–Pearson upper bound on an error rate, so the same errors "
            "certify a larger ε, and the ceiling `attainable` rises with it.",
        wrong=-1.0, needs=NEEDS),
    Exercise(
        "06.3", "code-edit",
        "Recompute by hand the bound of the strong generator's first selected pair and "
        "bind answer to it.",
        _strong_by_hand,
        solution="row = panel.result.conditions[1].certificate.iloc[0]\n"
                 'm_a, m_b = int(row["n_test_a"]), int(row["n_test_b"])\n'
                 'fp, fn = int(row["false_positives"]), int(row["false_negatives"])\n'
                 "alpha = panel.result.alpha_per_rate\n"
                 "u_fp = beta.ppf(1 - alpha, fp + 1, m_a - fp)\n"
                 "u_fn = beta.ppf(1 - alpha, fn + 1, m_b - fn)\n"
                 "answer = max(0.0, np.log((1 - u_fn) / u_fp), np.log((1 - u_fp) / u_fn))\n",
        why="Only the row changes: the counts of errors and test rows of the strong "
            "generator's pair, at the same α per rate. Errors raise the upper bounds on the "
            "error rates, and the bound falls towards 0.",
        wrong=lambda context: _other_than(first_bound(context["result"].conditions[0]),
                                          first_bound(context["result"].conditions[1])),
        needs=NEEDS),
)


def fixture() -> dict[str, Any]:
    """The notebook's names after its by-hand cell, on the toy default's smoke settings
    without the cascade."""
    import numpy as np
    from scipy.stats import beta

    from privlab.studies import face_generators
    from privlab.ui.panel import study_panel

    panel = study_panel(face_generators, data=None, strength=0.1, compare_strength=0.4,
                        cascade_passes=0, n_per_identity=30,
                        methods=("gaussmech", "mmd-tv", "roc-ht"))
    panel.run()
    result = panel.result
    return {"panel": panel, "result": result, "np": np, "beta": beta,
            "row": result.conditions[0].certificate.iloc[0],
            "alpha": result.alpha_per_rate}
