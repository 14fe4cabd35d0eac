"""Exercises of notebook 07 (RedacBench): Security and Utility from a judge's labels.

The notebook's names: ``panel`` (the RedacBench study panel), ``config`` (its settings),
``study`` (the study run on them by the by-hand cell), ``rows`` (the judge's verdicts on
the headline strategy's texts) and ``answer``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from privlab.ui.exercises import Exercise, Verdict
from privlab.ui.lessons.answers import number

TOLERANCE = 1e-4

#: What the panel exercises read: the panel's last result.
NEEDS = {"result": "panel.result"}


def security_of(rows: Any) -> float:
    """Security of a judge's verdicts: TN / (TN + FP) over the sensitive rows.

    Example:
        >>> security_of([{"sensitive": True, "retained": False},
        ...              {"sensitive": True, "retained": True},
        ...              {"sensitive": False, "retained": True}])
        0.5
    """
    sensitive = [r for r in rows if r["sensitive"]]
    return sum(not r["retained"] for r in sensitive) / len(sensitive)


def domain_security(study: Any, strategy: str, domain: str) -> float:
    """Security of ``strategy``'s texts in one ``domain`` of a RedacBench study result."""
    return security_of([r for r in study.results[strategy].rows if r["domain"] == domain])


def _none_security(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    if result is None or "none" not in result.results:
        return Verdict(False, "The panel has no result with the unredacted baseline `none`: "
                              "keep `none` among the strategies and press Run.")
    said = str(answer).strip().lower()
    if said not in ("zero", "above zero"):
        return Verdict(False, f'Answer "zero" or "above zero" (you wrote {answer!r}).')
    value = result.results["none"].security
    truth = "above zero" if value > 0 else "zero"
    if said == truth:
        return Verdict(True, f"The judge gives the unredacted texts Security {value:.2f}: "
                             + ("it misses that share of sensitive propositions before "
                                "anything is removed, so read every strategy against it."
                                if value > 0 else "it found every sensitive proposition in "
                                "the original texts, as a perfect judge would."))
    return Verdict(False, f"This judge gives `none` Security {value:.2f}: see the solution "
                          "for what that says about the judge.")


def _regex_security(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    if result is None or result.config.headline != "regex-pii":
        return Verdict(False, "The panel's headline strategy is not regex-pii yet: choose it, "
                              "press Run, then read its Security in the table.")
    value, truth = number(answer), result.results["regex-pii"].security
    if value is None or abs(value - truth) > 0.005:
        return Verdict(False, f"Read regex-pii's `security` column in the table (you wrote "
                              f"{answer!r}).")
    base = result.results["none"].security if "none" in result.results else float("nan")
    same = "the same as" if abs(truth - base) <= TOLERANCE else "different from"
    return Verdict(True, f"regex-pii scores {truth:.2f}, {same} the unredacted baseline's "
                         f"{base:.2f}: it removes formats (e-mails, phone numbers), not what "
                         "the policies forbid.")


def _medical_security(answer: Any, context: Mapping[str, Any]) -> Verdict:
    study, config = context["study"], context["config"]
    value = number(answer)
    truth = domain_security(study, config.headline, "medical")
    overall = study.results[config.headline].security
    if value is None:
        return Verdict(False, f"Bind answer to a number, the medical rows' Security (you "
                              f"wrote {answer!r}).")
    if abs(value - truth) <= TOLERANCE:
        return Verdict(True, f"Security on the medical texts is {truth:.4f} (all domains: "
                             f"{overall:.4f}); privlab's `by_domain()` gives the same.")
    if abs(value - overall) <= TOLERANCE:
        return Verdict(False, "That is the Security over all domains: filter the rows to "
                              "`domain == \"medical\"` before counting TN and FP.")
    return Verdict(False, f"{value:.4f} is not the medical rows' Security: TN / (TN + FP) "
                          "over the sensitive medical rows.")


EXERCISES = (
    Exercise(
        "07.1", "predict",
        "Will the judge's Security for the unredacted baseline `none` be zero or above zero?",
        _none_security,
        solution='security_none = panel.result.results["none"].security\n'
                 'answer = "above zero" if security_none > 0 else "zero"\n',
        why="Under a perfect judge `none` scores 0: nothing was removed, so every sensitive "
            "proposition can still be inferred. A judge that compares embeddings and shared "
            "words misses facts stated in other words, and calls them removed even in the "
            "original: its Security for `none` is the share it misses, a floor under every "
            "other strategy's score.",
        wrong=lambda context: "zero" if context["result"].results["none"].security > 0
        else "above zero",
        needs=NEEDS),
    Exercise(
        "07.2", "change-setting",
        "Choose regex-pii as the headline strategy, press Run, and report its Security by "
        "the judge.",
        _regex_security,
        solution='panel.controls["headline"].set("regex-pii")\npanel.run()\n'
                 'answer = panel.result.results["regex-pii"].security\n',
        why="regex-pii ignores the policy: it removes formats such as e-mail addresses and "
            "phone numbers. Where the texts hold none, the redacted text is the original and "
            "the judge scores it as it scores `none`.",
        wrong=-1.0, needs=NEEDS),
    Exercise(
        "07.3", "code-edit",
        "Keep only the medical rows in the by-hand cell and bind answer to their Security.",
        _medical_security,
        solution='medical = rows[rows["domain"] == "medical"]\n'
                 'sensitive, retained = medical["sensitive"], medical["retained"]\n'
                 'TN, FP = (sensitive & ~retained).sum(), (sensitive & retained).sum()\n'
                 'answer = float(TN / (TN + FP))\n',
        why="Security is a ratio of counts, so a domain's Security counts TN and FP over that "
            "domain's sensitive rows only: it is not the overall Security, and the domains' "
            "values average to it only when weighted by their sensitive rows.",
        wrong=lambda context: context["study"].results[context["config"].headline].security
        if abs(context["study"].results[context["config"].headline].security
               - domain_security(context["study"], context["config"].headline, "medical"))
        > TOLERANCE else 2.0,
        needs={"study": "study", "config": "config"}),
)


def fixture() -> dict[str, Any]:
    """The notebook's names after its by-hand cell, on the offline sample."""
    import pandas as pd

    from privlab.studies import redacbench
    from privlab.ui.panel import study_panel

    panel = study_panel(redacbench, data="sample", judge="heuristic",
                        strategies=("none", "regex-pii", "masking"), headline="masking")
    panel.run()
    config = panel.config()
    study = redacbench.run(config)
    rows = pd.DataFrame(study.results[config.headline].rows)
    return {"panel": panel, "config": config, "study": study, "rows": rows,
            "result": panel.result}
