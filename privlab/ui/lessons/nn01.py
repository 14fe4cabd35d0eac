"""Exercises of notebook 01 (DiCaprio): a face blackout, its members and its placebo.

The notebook's names: ``panel`` (the study panel), ``result`` (its last result),
``audit`` (the face-only blackout's audit), ``member`` (the describe-then-embed member),
``S``, ``T`` and ``a`` (the by-hand trial matrix) and ``answer``. The exercise that
changes the panel's members comes last (see :mod:`privlab.ui.lessons`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from privlab.ui.exercises import Exercise, Verdict
from privlab.ui.lessons.answers import no_result, number

TOLERANCE = 1e-4
FACES_ONLY = "cues:faces only"
DESCRIBE = "describe-then-embed"

#: What the checks read: the panel's last result.
NEEDS = {"result": "panel.result"}


def member_value(result: Any, sanitizer: str, member: str, value: str = "value") -> float | None:
    """``value`` ("value" or "excess") of ``member`` (a registry name) on ``sanitizer``, or
    None when the run had no such member or sanitizer.

    Example:
        >>> from types import SimpleNamespace as N
        >>> r = N(config=N(encoders=("sface",)), table={"s": N(members=[N(value=0.5)])})
        >>> member_value(r, "s", "sface"), member_value(r, "s", "ocr-text")
        (0.5, None)
    """
    members = list(result.config.encoders)
    if member not in members:
        return None
    try:
        audit = result.table[sanitizer]
    except (KeyError, ValueError):
        return None
    return float(getattr(audit.members[members.index(member)], value))


def _ocr_blind(answer: Any, context: Mapping[str, Any]) -> Verdict:
    value = number(answer)
    if value is None:
        return Verdict(False, f"Bind answer to a number (you wrote {answer!r}).")
    if abs(value) > TOLERANCE:
        return Verdict(False, f"{value} is not it: plain OCR reads the same caption before and "
                              "after a face blackout, so every T_j - Tc_j is zero for it.")
    seen = member_value(context["result"], FACES_ONLY, "ocr-text") \
        if context.get("result") is not None else None
    run = f" This run: {seen:.3f}." if seen is not None else ""
    return Verdict(True, "0 by construction: the member sees no change in any reference, so "
                         f"no reference can witness anything, whatever the caption says.{run}")


def _excess(answer: Any, context: Mapping[str, Any]) -> Verdict:
    refused = no_result(context["result"])
    if refused:
        return refused
    truth = member_value(context["result"], FACES_ONLY, DESCRIBE, "excess")
    raw = member_value(context["result"], FACES_ONLY, DESCRIBE)
    if truth is None:
        return Verdict(False, f"The last run needs {DESCRIBE} among the members and "
                              f"{FACES_ONLY} among the sanitizers: choose them and press Run.")
    value = number(answer)
    if value is None:
        return Verdict(False, f"Bind answer to a number (you wrote {answer!r}).")
    if abs(value - truth) <= TOLERANCE:
        return Verdict(True, f"Excess {truth:.4f} (raw resolution {raw:.4f}): what is left above "
                             "the placebo's resolution, as privlab reports.")
    if abs(value - raw) <= TOLERANCE:
        return Verdict(False, "That is the raw resolution: subtract the placebo's resolution "
                              "(the same test on audit.placebo_sanitized).")
    return Verdict(False, f"{value:.4f} is not the excess; floor each resolution at 0 before "
                          "subtracting, and floor the difference at 0 too.")


def _dlib(answer: Any, context: Mapping[str, Any]) -> Verdict:
    refused = no_result(context["result"])
    if refused:
        return refused
    truth = member_value(context["result"], FACES_ONLY, "dlib-face")
    if truth is None:
        return Verdict(False, "Tick dlib-face among the members (keep the face-only row) and "
                              "press Run first.")
    value = number(answer)
    if value is None or abs(value - truth) > TOLERANCE:
        return Verdict(False, f"Read dlib's resolution on the {FACES_ONLY} row (you wrote "
                              f"{answer!r}).")
    return Verdict(True, f"dlib reads {truth:.3f} on the face-only blackout: with every face "
                         "blacked out it finds no face to compare, so a face member cannot see "
                         "the caption the blackout left. Only a member that reads text and "
                         "faces together can.")


EXERCISES = (
    Exercise(
        "01.1", "predict",
        "Predict what plain OCR (ocr-text) reads on the face-only blackout, before running.",
        _ocr_blind,
        solution="answer = 0.0   # OCR sees the same caption before and after: T - Tc = 0\n",
        why="A member only sees what was removed somewhere: the face-only blackout leaves "
            "every caption as it was, so to plain OCR each reference and its sanitized "
            "version read the same, every reference direction is zero and so is every trial.",
        wrong=0.5),
    Exercise(
        "01.2", "code-edit",
        "Extend the by-hand cell with the placebo: compute the excess of describe-then-embed "
        "on the face-only blackout.",
        _excess,
        solution="P = member.encode(audit.placebo_sanitized)   # the placebo twin's output\n"
                 "placebo = max(0.0, float((P @ (T - P).T).max()))\n"
                 "answer = max(0.0, max(0.0, float(a.max())) - placebo)\n",
        why="The placebo twin makes the same marks where no cue is; its resolution is the "
            "member's reaction to marks alone, and the excess is what remains above it.",
        wrong=lambda context: member_value(context["result"], FACES_ONLY, DESCRIBE,
                                           "excess") + 0.2,
        needs=NEEDS),
    Exercise(
        "01.3", "change-setting",
        "Tick dlib-face among the members, press Run, and report dlib's resolution on the "
        "face-only blackout; why does it miss the caption?",
        _dlib,
        solution='panel.controls["encoders"].set(tuple(panel.config().encoders) + '
                 '("dlib-face",))\npanel.run()\n'
                 'members = list(panel.result.config.encoders)\n'
                 'answer = panel.result.table["cues:faces only"].members['
                 'members.index("dlib-face")].value\n',
        why="A face-identity member compares faces; once every face is blacked out it has "
            "nothing to compare, whatever else the image still says.",
        wrong=-1.0, needs=NEEDS),
)


def image_namespace(study: Any, member: str, sanitizer: str, **settings: Any) -> dict[str, Any]:
    """An image notebook's names after its by-hand cell: its panel run on ``settings``,
    the ``sanitizer``'s audit and ``member``'s embeddings of the released images (``S``),
    the originals (``T``) and the placebo's outputs (``P``, when it ran)."""
    from privlab.ui.panel import study_panel

    panel = study_panel(study, data=None, **settings)
    panel.run()
    result = panel.result
    audit = result.audit(sanitizer)
    k = list(result.config.encoders).index(member)
    encoder = result.encoders[k]
    S, T = encoder.encode(audit.sanitized), encoder.encode(audit.originals)
    names = {"panel": panel, "result": result, "audit": audit, "member": encoder, "k": k,
             "S": S, "T": T, "a": S @ (T - S).T}
    if audit.placebo_sanitized is not None:
        names["P"] = encoder.encode(audit.placebo_sanitized)
    return names


def fixture() -> dict[str, Any]:
    """The notebook's names after its by-hand cell: four generated scenes, two sanitizers,
    describe-then-embed and plain OCR, with the placebo."""
    from privlab.studies import dicaprio

    return image_namespace(dicaprio, DESCRIBE, FACES_ONLY, encoders=[DESCRIBE, "ocr-text"],
                           sanitizers=("cues:every cue", FACES_ONLY), placebo=True, n_images=4)
