"""Exercises of notebook 02 (McDonald's): which member sees which brand cue, and the placebo.

The notebook's names: ``panel`` (the study panel), ``result`` (its last result),
``audit``, ``member`` (EfficientNet-Lite0), ``S``, ``T``, ``P`` (the by-hand embeddings
of the released, original and placebo images) and ``answer``. The exercise that changes
the panel's settings comes last (see :mod:`privlab.ui.lessons`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from privlab.ui.exercises import Exercise, Verdict
from privlab.ui.lessons.answers import no_result, number
from privlab.ui.lessons.nn01 import image_namespace, member_value

TOLERANCE = 1e-4
NAME_LEFT = "cues:logos and food (name left)"
FOOD_LEFT = "cues:logos and name (food left)"
GENERIC = "efficientnet-lite0"

#: What the checks read: the panel's last result.
NEEDS = {"result": "panel.result"}


def flagged(result: Any) -> int:
    """How many (image, sanitizer | member) cells the withhold table flags.

    Example:
        >>> import pandas as pd
        >>> from types import SimpleNamespace as N
        >>> flagged(N(flags=lambda: pd.DataFrame({"s | m": [0.0, 0.2, 0.1]})))
        2
    """
    return int((result.flags() > 0).to_numpy().sum())


def _no_faces(answer: Any, context: Mapping[str, Any]) -> Verdict:
    value = number(answer)
    if value is None:
        return Verdict(False, f"Bind answer to a number (you wrote {answer!r}).")
    if abs(value) > TOLERANCE:
        return Verdict(False, f"{value} is not it: SFace compares faces, and these brand "
                              "scenes hold none, before or after sanitizing.")
    result = context.get("result")
    seen = [member_value(result, a.name, "sface") for a in result.table] \
        if result is not None else []
    seen = [v for v in seen if v is not None]
    run = f" This run: at most {max(seen):.3f} over {len(seen)} rows." if seen else ""
    return Verdict(True, "0 on every row: with no face anywhere, no reference direction holds "
                         f"anything SFace can compare. A member blind to the target says 0.{run}")


def _food_row(answer: Any, context: Mapping[str, Any]) -> Verdict:
    refused = no_result(context["result"])
    if refused:
        return refused
    truth = member_value(context["result"], FOOD_LEFT, GENERIC, "excess")
    if truth is None:
        return Verdict(False, f"The last run needs {GENERIC} among the members and {FOOD_LEFT} "
                              "among the sanitizers, with the placebo: choose them and Run.")
    value = number(answer)
    if value is None:
        return Verdict(False, f"Bind answer to a number (you wrote {answer!r}).")
    if abs(value - truth) <= TOLERANCE:
        return Verdict(True, f"Excess {truth:.4f} on the food-left row, as privlab reports: "
                             "what EfficientNet reads above its reaction to the boxes alone.")
    same = member_value(context["result"], NAME_LEFT, GENERIC, "excess")
    if same is not None and abs(value - same) <= TOLERANCE:
        return Verdict(False, f"That is still the {NAME_LEFT} row: audit {FOOD_LEFT}.")
    return Verdict(False, f"{value:.4f} is not the excess; compute the placebo's resolution "
                          "from audit.placebo_sanitized and subtract, floored at 0.")


def _no_placebo(answer: Any, context: Mapping[str, Any]) -> Verdict:
    refused = no_result(context["result"])
    if refused:
        return refused
    result = context["result"]
    if result.config.placebo:
        return Verdict(False, "The last run still had the placebo: untick it and press Run.")
    value, truth = number(answer), flagged(result)
    if value is None or value != truth:
        return Verdict(False, "Count the non-zero cells of the withhold table (result.flags()) "
                              f"(you wrote {answer!r}).")
    return Verdict(True, f"{truth} flagged cells without the placebo. Each one is an image "
                         "whose worst trial reaches delta; with the placebo a cell also had to "
                         "beat the member's reaction to the marks alone, so cells that only "
                         "black boxes pushed up were not flagged.")


EXERCISES = (
    Exercise(
        "02.1", "predict",
        "Predict SFace's largest resolution over every sanitizer on the brand scenes.",
        _no_faces,
        solution="answer = 0.0   # no face in any scene: SFace has nothing to compare\n",
        why="A face-identity member reads faces only; brand scenes hold none, so it reads 0 "
            "on every row. That 0 says the member is blind to the target, not that the "
            "brand is hidden: an ensemble must be chosen for the concept.",
        wrong=0.3),
    Exercise(
        "02.2", "code-edit",
        "Edit the by-hand cell to audit the food-left row and bind answer to EfficientNet's "
        "excess there.",
        _food_row,
        solution='audit = result.audit("cues:logos and name (food left)")\n'
                 "S, T = member.encode(audit.sanitized), member.encode(audit.originals)\n"
                 "P = member.encode(audit.placebo_sanitized)\n"
                 "raw = max(0.0, float((S @ (T - S).T).max()))\n"
                 "placebo = max(0.0, float((P @ (T - P).T).max()))\n"
                 "answer = max(0.0, raw - placebo)\n",
        why="Only the audit changes; the member, the trial matrix and the placebo's matrix are "
            "computed the same way.",
        wrong=lambda context: member_value(context["result"], FOOD_LEFT, GENERIC,
                                           "excess") + 0.25,
        needs=NEEDS),
    Exercise(
        "02.3", "change-setting",
        "Untick the placebo in the panel, press Run, and count the flagged cells of the "
        "withhold table.",
        _no_placebo,
        solution='panel.controls["placebo"].set(False)\npanel.run()\n'
                 "answer = int((panel.result.flags() > 0).to_numpy().sum())\n",
        why="Without the placebo a flag needs only a trial at or above delta; a member that "
            "reacts to black boxes wherever they are then flags images for the marks alone.",
        wrong=lambda context: flagged(context["result"]) + 1, needs=NEEDS),
)


def fixture() -> dict[str, Any]:
    """The notebook's names after its by-hand cell: three generated scenes, two cue rows,
    EfficientNet-Lite0 and SFace, with the placebo."""
    from privlab.studies import mcdonalds

    return image_namespace(mcdonalds, GENERIC, NAME_LEFT, encoders=[GENERIC, "sface"],
                           sanitizers=(NAME_LEFT, FOOD_LEFT), placebo=True, n_images=3)
