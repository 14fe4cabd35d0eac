"""Exercises of notebook 11 (scale): what certified pruning can skip, and when.

The notebook's names: ``panel`` (the scale study panel), ``config`` (its settings), ``toy``
(the by-hand generated audit), ``S``, ``T``, ``a`` (its trial matrix), ``delta``,
``bound`` (the norms of the rows of T), ``skippable`` and ``answer``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from privlab.ui.exercises import Exercise, Verdict
from privlab.ui.lessons.answers import no_result, number

#: What the panel exercises read: the panel's last result.
NEEDS = {"result": "panel.result"}


def skipped(result: Any, scenario: str) -> float | None:
    """The share of trials the certified path skipped in ``scenario`` (None when the
    scenario was not run).

    Example:
        >>> from types import SimpleNamespace as N
        >>> skipped(N(audits=[{"scenario": "none", "skipped fraction": 0.25}]), "none")
        0.25
    """
    for row in result.audits:
        if row["scenario"] == scenario:
            return float(row["skipped fraction"])
    return None


def toy_skippable(config: Any, scenario: str) -> int:
    """How many references of the notebook's toy audit (8 x 6) the norm bound lets go
    after the resolution is found, in ``scenario``."""
    from privlab.scale.synthetic import synthetic_audit

    toy = synthetic_audit(8, 6, config.d, scenario=scenario, seed=config.seed)
    a = toy.S @ toy.T.T
    return int((np.linalg.norm(toy.T, axis=1) < max(0.0, float(a.max()))).sum())


def _needs_scenario(result: Any, scenario: str) -> Verdict | None:
    if result is None:
        return no_result(result)
    if skipped(result, scenario) is None:
        return Verdict(False, f"The last run has no '{scenario}' scenario: tick it in the "
                              "panel and press Run.")
    return None


def _none_skips(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    missing = _needs_scenario(result, "none")
    if missing is not None:
        return missing
    said = str(answer).strip().lower()
    if said not in ("more", "less"):
        return Verdict(False, f'Answer "more" or "less" (you wrote {answer!r}).')
    share = skipped(result, "none")
    truth = "more" if share > 0.5 else "less"
    if said != truth:
        return Verdict(False, f"This run skips {share:.1%} of the trials without a leak.")
    return Verdict(True, f"It skips {share:.1%}. Without a leak the best trials are chance "
                         "alignments of about the same size everywhere: few norms fall "
                         "below them." if truth == "less" else
                   f"It skips {share:.1%}: at these sizes the chance alignments stand above "
                   "most references' norms.")


def _top_five(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    missing = _needs_scenario(result, "planted")
    if missing is not None:
        return missing
    if result.config.top_k != 5:
        return Verdict(False, f"The panel last ran with Top list k = {result.config.top_k}: "
                              "set it to 5 and press Run first.")
    value, truth = number(answer), 100 * skipped(result, "planted")
    if value is None or abs(value - truth) > 0.1:
        hint = (" (in percent, not as a share)" if value is not None
                and abs(100 * value - truth) <= 0.1 and truth > 0.1 else "")
        return Verdict(False, f"Read 'trials skipped' of the planted row{hint} (you wrote "
                              f"{answer!r}).")
    return Verdict(True, f"{truth:.1f}% skipped with k = 5: the fifth largest trial is a "
                         "chance alignment, small, and few references have a norm below it.")


def _none_by_hand(answer: Any, context: Mapping[str, Any]) -> Verdict:
    config, value = context["config"], number(answer)
    if value is None or value != int(value):
        return Verdict(False, f"Bind answer to a count, skippable.sum() (you wrote "
                              f"{answer!r}).")
    truth, planted = toy_skippable(config, "none"), toy_skippable(config, "planted")
    if int(value) == truth:
        return Verdict(True, f"{truth} of 6 without a leak (with the planted leak: "
                             f"{planted}): the largest trial is a chance alignment, below "
                             "most norms, so the bound proves little.")
    if int(value) == planted:
        return Verdict(False, 'That is the planted scenario\'s count: set scenario="none" '
                              "and run the cell again.")
    return Verdict(False, f"{int(value)} is not the count for scenario 'none'; keep d and "
                          "the seed as the panel has them.")


def _planted_unless_equal(config: Any) -> int:
    planted = toy_skippable(config, "planted")
    return planted if planted != toy_skippable(config, "none") else -1


EXERCISES = (
    Exercise(
        "11.1", "predict",
        "Without a leak, does the certified path skip more or less than half of the trials?",
        _none_skips,
        solution='share = next(r["skipped fraction"] for r in panel.result.audits\n'
                 '             if r["scenario"] == "none")\n'
                 'answer = "more" if share > 0.5 else "less"\n',
        why="A reference can be let go only when its norm is below the best trial found. "
            "With a planted leak that trial stands far above chance; without one it is a "
            "chance alignment, and the norms of most references lie above it.",
        wrong=lambda context: "more" if skipped(context["result"], "none") <= 0.5 else "less",
        needs=NEEDS),
    Exercise(
        "11.2", "change-setting",
        "Set Top list k to 5, press Run, and report the planted scenario's trials skipped, "
        "in percent.",
        _top_five,
        solution='panel.controls["top_k"].set(5)\npanel.run()\n'
                 'answer = 100 * next(r["skipped fraction"] for r in panel.result.audits\n'
                 '                    if r["scenario"] == "planted")\n',
        why="A top list of 5 needs the fifth largest trial exactly. With one planted leak "
            "the second to fifth are chance alignments, so the threshold falls to chance "
            "level and the bound lets go of little, leak or not.",
        wrong=150.0, needs=NEEDS),
    Exercise(
        "11.3", "code-edit",
        'Change the by-hand cell to scenario="none" and bind answer to skippable.sum().',
        _none_by_hand,
        solution='toy = synthetic_audit(8, 6, config.d, scenario="none", seed=config.seed)\n'
                 "S, T = toy.S, toy.T\na = S @ T.T\n"
                 "delta = max(0.0, float(a.max()))\n"
                 "skippable = np.linalg.norm(T, axis=1) < delta\n"
                 "answer = int(skippable.sum())\n",
        why="Without a leak the largest trial is a chance alignment, well below the norms of "
            "the references, so the bound rules out few of them: the same reason the "
            "panel's 'none' scenario skips little.",
        wrong=lambda context: _planted_unless_equal(context["config"]),
        needs={"config": "config"}),
)


def fixture() -> dict[str, Any]:
    """The notebook's names after its by-hand cell, on small sizes without the cluster."""
    from privlab.scale.synthetic import synthetic_audit
    from privlab.studies import scale
    from privlab.ui.panel import study_panel

    panel = study_panel(scale, m=3_000, n=1_500, d=32, cluster_workers=0, block_size=512,
                        cost_sizes=(300, 600))
    panel.run()
    config = panel.config()
    toy = synthetic_audit(8, 6, config.d, scenario="planted", seed=config.seed)
    a = toy.S @ toy.T.T
    return {"panel": panel, "config": config, "toy": toy, "S": toy.S, "T": toy.T, "a": a,
            "np": np, "synthetic_audit": synthetic_audit}
