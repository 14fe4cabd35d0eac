"""Exercises of notebook 10 (fine-tuning D): the false pass, the control, the kernel by hand.

The notebook's names: ``panel`` (the fine-tuning study panel), ``config`` (its settings),
``scenes`` (the held-out scenes), ``blacked`` (their face blackouts), ``encoder`` (the
base D), ``S``, ``T``, ``a`` (the by-hand trial matrix), ``delta`` (its resolution) and
``answer``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from privlab.ui.exercises import Exercise, Verdict
from privlab.ui.lessons.answers import no_result, number, truth_word

#: Every check here reads the panel's last result.
NEEDS = {"result": "panel.result"}
TOLERANCE = 1e-4


def face_value(result: Any, which: str) -> float:
    """The resolution of the face blackout under ``which`` D (``"base"`` or
    ``"fine-tuned"``)."""
    from privlab.studies.finetune import FACE

    return float(result.resolution(FACE, which))


def _base_flags(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    missing = no_result(result)
    if missing is not None:
        return missing
    said, value = truth_word(answer), face_value(result, "base")
    if said is None:
        return Verdict(False, f"Answer True or False (you wrote {answer!r}).")
    truth = value > 0
    if said != truth:
        return Verdict(False, f"Not on this run: the base D gives {value:.4f} on the face "
                              "blackout.")
    if truth:
        return Verdict(True, f"The base D gives {value:.4f}: it connects something the "
                             "blackout left to the target on these scenes.")
    return Verdict(True, f"The base D gives {value:.4f}: the false pass. It never learned "
                         "that the poster belongs to the target.")


def _control_at_blend_one(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    missing = no_result(result)
    if missing is not None:
        return missing
    if result.config.mix != 1.0:
        how = "chosen on validation" if result.config.mix is None else "given"
        return Verdict(False, f"The panel last ran with the blend {result.mix:g} ({how}): "
                              "choose Blend m = 1.0 and press Run first.")
    said = str(answer).strip().lower()
    if said not in ("passes", "fails"):
        return Verdict(False, f'Answer "passes" or "fails" (you wrote {answer!r}).')
    truth = "passes" if result.control_passes else "fails"
    from privlab.studies.finetune import CONTROL

    face = face_value(result, "fine-tuned")
    control = float(result.resolution(CONTROL, "fine-tuned"))
    numbers = f"face blackout {face:.4f}, control {control:.4f} under the projection alone"
    if said != truth:
        return Verdict(False, f"This run's control {truth} ({numbers}).")
    return Verdict(True, f"The control {truth} ({numbers})."
                   + (" The projection alone flags black boxes, so its value on the face "
                      "blackout is no evidence about the poster." if truth == "fails" else ""))


def _tuned_by_hand(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result, value = context["result"], number(answer)
    missing = no_result(result)
    if missing is not None:
        return missing
    if value is None:
        return Verdict(False, f"Bind answer to delta, a number (you wrote {answer!r}).")
    tuned, base = face_value(result, "fine-tuned"), face_value(result, "base")
    if abs(value - tuned) <= TOLERANCE:
        return Verdict(True, f"{tuned:.4f}: the fine-tuned D's resolution in the panel; the "
                             "kernel by hand and privlab agree.")
    if abs(value - base) <= TOLERANCE:
        return Verdict(False, "That is the base D's value: set encoder = "
                              "panel.result.tuned_encoder and run the by-hand cell again.")
    return Verdict(False, f"{value:.4f} is neither D's value; keep the held-out scenes and "
                          "the face blackout as they were.")


def _base_unless_equal(result: Any) -> float:
    """The base D's value (an unedited cell's answer), or an impossible one where both D
    give the same."""
    base = face_value(result, "base")
    return base if base != face_value(result, "fine-tuned") else -1.0


EXERCISES = (
    Exercise(
        "10.1", "predict",
        "Does the base D flag the face blackout (a resolution above 0)?",
        _base_flags,
        solution='answer = panel.result.resolution("face (signature left)", "base") > 0\n',
        why="A pretrained extractor that never saw the target has no reason to connect a "
            "space-shuttle poster to her, so it finds nothing once her face is gone: "
            "resolution 0, which is a pass the poster does not deserve.",
        wrong=lambda context: not face_value(context["result"], "base") > 0, needs=NEEDS),
    Exercise(
        "10.2", "change-setting",
        "Choose Blend m = 1.0, press Run, and say whether the held-out control passes.",
        _control_at_blend_one,
        solution='panel.controls["mix"].set(1.0)\npanel.run()\n'
                 'answer = "passes" if panel.result.control_passes else "fails"\n',
        why="The projection alone knows only the two captions. A scene with black boxes "
            "and no face can fall on the target's side whatever it shows, so the control "
            "can be flagged too; the blend keeps the frozen features, under which "
            "blacked-out scenes resemble each other.",
        wrong=lambda context: "fails" if context["result"].control_passes else "passes",
        needs=NEEDS),
    Exercise(
        "10.3", "code-edit",
        "Encode with panel.result.tuned_encoder in the by-hand cell and bind answer to its "
        "resolution delta.",
        _tuned_by_hand,
        solution="encoder = panel.result.tuned_encoder\n"
                 "S, T = encoder.encode(blacked), encoder.encode(scenes.images)\n"
                 "a = S @ (T - S).T\n"
                 "answer = delta = max(0.0, float(a.max()))\n",
        why="Only the encoder changes: the scenes, the blackout and the kernel stay. The "
            "fine-tuned D is the one the panel audited, so the by-hand value is its "
            "fine-tuned resolution.",
        wrong=lambda context: _base_unless_equal(context["result"]), needs=NEEDS),
)


def fixture() -> dict[str, Any]:
    """The notebook's names after its by-hand cell, on the smallest settings."""
    import numpy as np

    from privlab.datasets.scene_cues import cue_blackout
    from privlab.encoders import get_encoder
    from privlab.studies import finetune
    from privlab.ui.panel import study_panel

    panel = study_panel(finetune, encoders=("efficientnet-lite0",), epochs=15,
                        gallery_size=8, heldout_size=6, validation_size=6)
    panel.run()
    config = panel.config()
    scenes = finetune.heldout_scenes(config)
    blacked = cue_blackout(scenes, finetune.SANITIZERS[finetune.FACE]).sanitize(scenes.images)
    encoder = get_encoder(config.encoders[0])
    S, T = encoder.encode(blacked), encoder.encode(scenes.images)
    a = S @ (T - S).T
    return {"panel": panel, "config": config, "scenes": scenes, "blacked": blacked,
            "encoder": encoder, "S": S, "T": T, "a": a, "np": np,
            "delta": max(0.0, float(a.max()))}
