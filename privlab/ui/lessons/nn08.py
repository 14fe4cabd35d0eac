"""Exercises of notebook 08 (SPIA): span recall against inference protection.

The notebook's names: ``panel`` (the SPIA study panel), ``few`` (the study run on the
panel's settings and three documents), ``name`` (its headline anonymizer), ``facts`` (the
scored PIIs of ``name``: one row per annotated PII) and ``answer``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from privlab.ui.exercises import Exercise, Verdict
from privlab.ui.lessons.answers import no_result, number

TOLERANCE = 1e-6

#: What the panel exercises read: the panel's last result.
NEEDS = {"result": "panel.result"}


def gap(result: Any) -> tuple[str, float, float]:
    """The headline anonymizer of a SPIA result, its token recall and its CPR.

    Example:
        >>> from types import SimpleNamespace as N
        >>> r = N(headline_anonymizer=lambda: "presidio",
        ...       spans={"presidio": N(token_recall=0.6)}, protection={"presidio": N(cpr=0.8)})
        >>> gap(r)
        ('presidio', 0.6, 0.8)
    """
    name = result.headline_anonymizer()
    return name, float(result.spans[name].token_recall), float(result.protection[name].cpr)


def _no_result(result: Any) -> Verdict | None:
    fix = "press Run, with at least one non-oracle anonymizer besides 'none'."
    if result is not None and result.headline_anonymizer() is None:
        return Verdict(False, f"The panel's result has no real anonymizer: {fix}")
    return no_result(result, fix)


def _recall_against_cpr(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    missing = _no_result(result)
    if missing is not None:
        return missing
    name, recall, cpr = gap(result)
    truth = "above" if recall > cpr else "below" if recall < cpr else "equal"
    said = str(answer).strip().lower()
    if said not in ("above", "below", "equal"):
        return Verdict(False, f'Answer "above" or "below" (you wrote {answer!r}).')
    numbers = f"{name}: token recall {recall:.2f}, CPR {cpr:.2f}, gap {recall - cpr:+.2f}"
    if said == truth:
        return Verdict(True, f"Token recall is {truth} CPR here ({numbers}). "
                             + ("A weak adversary recovers less than the spans left, so "
                                "CPR stands above token recall." if truth == "below" else
                                "The span metric overstates protection against it."))
    return Verdict(False, f"This run says {truth} ({numbers}): see the solution for what "
                          "decides the sign.")


def _excess_of_base_rate(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    missing = _no_result(result)
    if missing is not None:
        return missing
    if result.config.adversary != "base-rate":
        return Verdict(False, f"The panel last ran with the adversary "
                              f"{result.config.adversary!r}: choose base-rate, press Run, "
                              "then read 'excess recovered'.")
    value, name = number(answer), result.headline_anonymizer()
    truth = 100 * result.excess(name)
    if value is None or abs(value - truth) > 0.05:
        return Verdict(False, f"Read {name}'s 'excess recovered' in the table, in points "
                              f"(you wrote {answer!r}).")
    return Verdict(True, f"{truth:+.1f} points: the adversary is now the blind guess "
                         "itself, so nothing is recovered beyond the guess.")


def _target_cpr(answer: Any, context: Mapping[str, Any]) -> Verdict:
    protection = context["few"].protection[context["name"]]
    value, truth = number(answer), float(protection.target["cpr"])
    if value is None:
        return Verdict(False, f"Bind answer to a number, the targets' CPR (you wrote "
                              f"{answer!r}).")
    if abs(value - truth) <= TOLERANCE:
        return Verdict(True, f"CPR of the targets {truth:.4f}, the 'CPR target' privlab "
                             f"reports (everyone: {protection.cpr:.4f}).")
    if abs(value - protection.cpr) <= TOLERANCE:
        return Verdict(False, "That is everyone's CPR: keep only the rows with subject 0 "
                              "before summing and counting.")
    return Verdict(False, f"{value:.4f} is not the targets' CPR: 1 minus the sum of their "
                          "scores over the number of their facts.")


def _opposite_side(result: Any) -> str:
    _name, recall, cpr = gap(result)
    return "below" if recall > cpr else "above"


def _everyone_cpr(protection: Any) -> float:
    """Everyone's CPR (the answer of a cell left unedited), or an impossible one where
    it equals the targets'."""
    return protection.cpr if protection.cpr != protection.target["cpr"] else 2.0


EXERCISES = (
    Exercise(
        "08.1", "predict",
        "Against this weak adversary, is the headline anonymizer's token recall above or "
        "below its CPR?",
        _recall_against_cpr,
        solution='name = panel.result.headline_anonymizer()\n'
                 'recall = panel.result.spans[name].token_recall\n'
                 'cpr = panel.result.protection[name].cpr\n'
                 'answer = "above" if recall > cpr else "below" if recall < cpr else "equal"\n',
        why="The sign depends on the adversary. SPIA's LLM adversary infers much of what the "
            "masked spans were meant to hide, so CPR falls below token recall (the paper's "
            "positive gap). The offline rules read titles, kin nouns, place names and codes "
            "only, recover less than the spans left, and CPR can stand above token recall.",
        wrong=lambda context: _opposite_side(context["result"]), needs=NEEDS),
    Exercise(
        "08.2", "change-setting",
        "Choose the base-rate adversary in the panel, press Run, and report the headline "
        "anonymizer's excess recovered in points.",
        _excess_of_base_rate,
        solution='panel.controls["adversary"].set("base-rate")\npanel.run()\n'
                 'answer = 100 * panel.result.excess(panel.result.headline_anonymizer())\n',
        why="The excess is the adversary's recovery minus the blind guess's on the same "
            "texts. With the base-rate adversary both are the same guess, so the excess is 0: "
            "any excess of the contextual adversary is what reading the text added.",
        wrong=5.0, needs=NEEDS),
    Exercise(
        "08.3", "code-edit",
        "Edit the by-hand CPR to keep only the documents' main people (subject 0), and bind "
        "answer to their CPR.",
        _target_cpr,
        solution='targets = facts[facts["subject"] == 0]\n'
                 'answer = 1 - targets["score"].sum() / len(targets)\n',
        why="CPR is one minus the recovered score over the annotated PIIs; restricted to the "
            "rows of subject 0 it is the targets' CPR, the row 'CPR target' of privlab's "
            "table. Non-target people (family, colleagues) are often mentioned less and "
            "recovered less.",
        wrong=lambda context: _everyone_cpr(context["few"].protection[context["name"]]),
        needs={"few": "few", "name": "name"}),
)


def fixture() -> dict[str, Any]:
    """The notebook's names after its by-hand cells, on three documents and three
    anonymizers."""
    from dataclasses import replace

    import numpy as np

    from privlab.studies import spia
    from privlab.ui.panel import study_panel

    panel = study_panel(spia, adversary="contextual", anonymizers=("none", "regex-pii",
                                                                   "gold-spans"),
                        max_documents=3)
    panel.run()
    few = spia.run(replace(panel.config(), max_documents=3))
    name = few.headline_anonymizer()
    return {"panel": panel, "few": few, "name": name, "spia": spia, "replace": replace,
            "np": np, "facts": few.protection[name].pii_frame()}
