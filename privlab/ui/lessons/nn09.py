"""Exercises of notebook 09 (calibration): reading a resolution against familiar boundaries.

The notebook's names: ``panel`` (the calibration study panel), ``config`` (its settings),
``c, d`` (the first pair's concepts), ``u, v`` (their first sentences), ``X_c, X_d``
(their concept-list sanitizers), ``encoder``, ``b`` (the by-hand boundary) and
``answer``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from privlab.ui.exercises import Exercise, Verdict
from privlab.ui.lessons.answers import no_result, number, truth_word

#: What the panel exercises read: the panel's last result.
NEEDS = {"result": "panel.result"}


def delta_read(result: Any) -> float:
    """The resolution a calibration result is read at: the panel's choice when it was
    redrawn with another one, else the one it ran with.

    Example:
        >>> from types import SimpleNamespace as N
        >>> delta_read(N(provenance={"choices": {"delta": 0.05}}, config=N(delta=0.13)))
        0.05
    """
    chosen = (getattr(result, "provenance", None) or {}).get("choices", {})
    return float(chosen.get("delta", result.config.delta))


def first_pair(result: Any):
    """The text boundaries of the first pair of a calibration result."""
    return result.text.pairs[0]


def boundary(config: Any, c: str, d: str) -> float:
    """``b(u, v)`` for the first sentence of ``c`` and the first of ``d``, under the
    config's encoder and sentence set (privlab's :func:`calibrate_pair`)."""
    from privlab.contrastive.calibration import calibrate_pair
    from privlab.datasets.concepts import concept_words
    from privlab.sanitizers import ConceptListSanitizer
    from privlab.studies.calibration import load_sets

    sets = load_sets(config.data)
    return float(calibrate_pair([sets[c][0]], [sets[d][0]],
                                ConceptListSanitizer(concept_words(c)),
                                ConceptListSanitizer(concept_words(d)),
                                config.encoders[0]).values[0, 0])


def _above_p95(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    missing = no_result(result)
    if missing is not None:
        return missing
    pair, delta = first_pair(result), delta_read(result)
    p95 = float(pair.percentiles[95.0])
    truth = delta > p95
    said = truth_word(answer)
    if said is None:
        return Verdict(False, f"Answer True or False (you wrote {answer!r}).")
    share = pair.share_below(delta)
    numbers = (f"{pair.concept_c}/{pair.concept_d} p95 {p95:.4f}, resolution {delta:g}, "
               f"{share:.0%} of the boundaries below it")
    if said == truth:
        return Verdict(True, f"{numbers}." + (" A test at this resolution would miss most "
                                               "of these familiar connections." if truth
                                               else ""))
    return Verdict(False, f"Not on this run: {numbers}.")


def _share_below(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    missing = no_result(result)
    if missing is not None:
        return missing
    delta = delta_read(result)
    if abs(delta - 0.05) > 1e-9:
        return Verdict(False, f"The panel reads the result at {delta:g}: set Resolution to "
                              "read to 0.05 and press Run first.")
    pair, value = first_pair(result), number(answer)
    truth = pair.share_below(delta)
    if value is None or abs(value - truth) > 0.005:
        return Verdict(False, f"Read the {pair.concept_c}/{pair.concept_d} row of the table "
                              f"'share below 0.05', as a share between 0 and 1 (you wrote "
                              f"{answer!r}).")
    return Verdict(True, f"{truth:.1%} of the {pair.concept_c}/{pair.concept_d} boundaries "
                         "lie below 0.05: a smaller resolution misses fewer connections.")


def _dogs_oranges(answer: Any, context: Mapping[str, Any]) -> Verdict:
    config, value = context["config"], number(answer)
    if value is None:
        return Verdict(False, f"Bind answer to the number b (you wrote {answer!r}).")
    truth = boundary(config, "dogs", "oranges")
    if abs(value - truth) <= 1e-5:
        return Verdict(True, f"b = {truth:.4f} for dogs/oranges on {config.encoders[0]}, the "
                             "same as calibrate_pair gives.")
    c, d = config.pairs[0]
    if abs(value - boundary(config, c, d)) <= 1e-5:
        return Verdict(False, f"That is still the {c}/{d} boundary: set c, d = 'dogs', "
                              "'oranges' and run the cell again.")
    return Verdict(False, f"{value:.4f} is not the dogs/oranges boundary; keep the rest of "
                          "the cell as it was.")


EXERCISES = (
    Exercise(
        "09.1", "predict",
        "Is the resolution chosen in the panel above the 95th percentile of the first "
        "pair's boundaries?",
        _above_p95,
        solution='answer = bool(panel.values()["delta"] > '
                 'panel.result.text.pairs[0].percentiles[95.0])\n',
        why="Compare the resolution with the 95th-percentile column of the first pair. Above "
            "it, the test would fail to register at least 95% of these familiar "
            "connections: it is coarser than the difference between a dog and a cat.",
        wrong=lambda context: not (delta_read(context["result"])
                                   > first_pair(context["result"]).percentiles[95.0]),
        needs=NEEDS),
    Exercise(
        "09.2", "change-setting",
        "Set Resolution to read to 0.05, press Run, and report the share of the first "
        "pair's boundaries below it.",
        _share_below,
        solution='panel.controls["delta"].set(0.05)\npanel.run()\n'
                 "answer = panel.result.text.pairs[0].share_below(0.05)\n",
        why="The resolution is only a reading of the boundaries: the study is not run again. "
            "A smaller resolution lies below fewer boundaries, so the test misses a smaller "
            "share of the familiar connections.",
        wrong=1.5, needs=NEEDS),
    Exercise(
        "09.3", "code-edit",
        "Change the by-hand cell to dogs and oranges and bind answer to their boundary b.",
        _dogs_oranges,
        solution='c, d = "dogs", "oranges"\n'
                 "u, v = sets[c][0], sets[d][0]\n"
                 "X_c, X_d = ConceptListSanitizer(concept_words(c)), "
                 "ConceptListSanitizer(concept_words(d))\n"
                 "U, Us, V, Vs = encoder.encode([u, X_c.sanitize([u])[0], v, "
                 "X_d.sanitize([v])[0]])\n"
                 "answer = float(U @ V - max(Us @ V, U @ Vs))\n",
        why="Only the concepts change. An unrelated pair is barely connected to begin with, "
            "so removing either concept changes little: its boundaries sit near 0, the floor "
            "of the ruler.",
        wrong=lambda context: boundary(context["config"], *context["config"].pairs[0]),
        needs={"config": "config"}),
)


def fixture() -> dict[str, Any]:
    """The notebook's names after its by-hand cell, on the lexical encoder, six sentences
    per concept and no image part."""
    from privlab.datasets.concepts import concept_words
    from privlab.encoders import get_encoder
    from privlab.sanitizers import ConceptListSanitizer
    from privlab.studies import calibration
    from privlab.ui.panel import study_panel

    panel = study_panel(calibration, encoders=("lexical",), per_concept=6, images=False)
    panel.run()
    config = panel.config()
    c, d = config.pairs[0]
    sets = calibration.load_sets(config.data)
    encoder = get_encoder(config.encoders[0])
    return {"panel": panel, "config": config, "c": c, "d": d, "sets": sets,
            "encoder": encoder, "ConceptListSanitizer": ConceptListSanitizer,
            "concept_words": concept_words}
