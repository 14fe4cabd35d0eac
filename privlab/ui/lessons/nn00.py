"""Exercises of notebook 00 (quickstart): the resolution of two concept lists, by hand.

The notebook's names: ``panel`` (the quickstart study panel), ``config`` (its settings),
``a`` (the by-hand trial matrix of the weak list) and ``answer``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from privlab.ui.exercises import Exercise, Verdict
from privlab.ui.lessons.answers import no_result, number

TOLERANCE = 1e-4

#: What every check here reads: the panel's last result.
NEEDS = {"result": "panel.result"}


def resolution(result: Any, label: str) -> float:
    """The resolution of one concept list ("weak" or "strong") in a quickstart result.

    Example:
        >>> from types import SimpleNamespace as N
        >>> resolution(N(audits={"weak": N(members=[N(value=0.25)])}), "weak")
        0.25
    """
    return float(result.audits[label].members[0].value)



def _compare(answer: Any, context: Mapping[str, Any]) -> Verdict:
    refused = no_result(context["result"])
    if refused:
        return refused
    weak, strong = (resolution(context["result"], k) for k in ("weak", "strong"))
    truth = ("lower" if strong < weak - TOLERANCE else
             "higher" if strong > weak + TOLERANCE else "same")
    said = str(answer).strip().lower()
    if said not in ("lower", "same", "higher"):
        return Verdict(False, f'Answer "lower", "same" or "higher" (you wrote {answer!r}).')
    numbers = f"weak {weak:.4f}, strong {strong:.4f} on {context['result'].config.encoders[0]}"
    if said == truth:
        return Verdict(True, f"The strong list's resolution is {truth} ({numbers}).")
    return Verdict(False, f"This run says {truth} ({numbers}); see the solution for why "
                          "more removed words need not mean a lower resolution.")


def _strong_on_lexical(answer: Any, context: Mapping[str, Any]) -> Verdict:
    refused = no_result(context["result"])
    if refused:
        return refused
    result = context["result"]
    if tuple(result.config.encoders) != ("lexical",):
        return Verdict(False, f"The panel last ran on {result.config.encoders[0]}: choose "
                              "lexical, press Run, then read the strong list's resolution.")
    value, truth = number(answer), resolution(result, "strong")
    if value is None or abs(value - truth) > TOLERANCE:
        return Verdict(False, f"Read the strong list's resolution in the table (you wrote "
                              f"{answer!r}).")
    return Verdict(True, f"On the lexical encoder the strong list reads {truth:.4f}: only "
                         "shared surface words count there, so paraphrased details leak less.")


def _strong_by_hand(answer: Any, context: Mapping[str, Any]) -> Verdict:
    refused = no_result(context["result"])
    if refused:
        return refused
    value = number(answer)
    truth, weak = resolution(context["result"], "strong"), resolution(context["result"], "weak")
    if value is None:
        return Verdict(False, f"Bind answer to a number: the max of a (you wrote {answer!r}).")
    if abs(max(value, 0.0) - truth) <= TOLERANCE:
        return Verdict(True, f"max(0, max a) = {truth:.4f}, the strong list's resolution in "
                             "the panel: the by-hand matrix and privlab agree.")
    if abs(max(value, 0.0) - weak) <= TOLERANCE:
        return Verdict(False, "That is still the weak list's number: sanitize with "
                              "config.strong_concepts in both S and the cleaned references.")
    return Verdict(False, f"{value:.4f} is not the strong list's resolution; check that S and "
                          "T are the sanitized and original texts, in that order.")


EXERCISES = (
    Exercise(
        "00.1", "predict",
        "Before reading the table: is the strong list's resolution lower, the same or higher "
        "than the weak list's?",
        _compare,
        solution='weak, strong = (panel.result.audits[k].members[0].value for k in ("weak", '
                 '"strong"))\nanswer = "lower" if strong < weak else "higher" if strong > '
                 'weak else "same"\n',
        why="It depends on the encoder. Removing details takes away what other texts share "
            "with the audited one, which usually lowers the resolution; but a sanitized text "
            "that lost most of its words is short, and the few words left weigh more in its "
            "embedding, so a single shared word can score higher than before.",
        wrong=lambda context: "higher" if resolution(context["result"], "strong") < resolution(
            context["result"], "weak") else "lower",
        needs=NEEDS),
    Exercise(
        "00.2", "change-setting",
        "Choose the lexical encoder in the panel, press Run, and report the strong list's "
        "resolution.",
        _strong_on_lexical,
        solution='panel.controls["encoders"].set(("lexical",))\npanel.run()\n'
                 'answer = panel.result.audits["strong"].members[0].value\n',
        why="The lexical encoder compares word counts only, so it sees a connection only "
            "where the sanitized text and a reference still share a word.",
        wrong=-1.0, needs=NEEDS),
    Exercise(
        "00.3", "code-edit",
        "Edit the by-hand cell to sanitize with the strong list, and bind answer to the "
        "max of a.",
        _strong_by_hand,
        solution="strong = ConceptListSanitizer(list(config.strong_concepts))\n"
                 "S = encoder.encode(strong.sanitize(texts))\n"
                 "a = S @ (T - S).T\nanswer = float(a.max())\n",
        why="Only the sanitizer changes: S (the sanitized texts) and, because the test is "
            "symmetric, the sanitized references, which are the same S.",
        wrong=lambda context: resolution(context["result"], "weak") + 0.5,
        needs=NEEDS),
)


def fixture() -> dict[str, Any]:
    """The notebook's names after its by-hand cell, on the lexical encoder."""
    from privlab.encoders import get_encoder
    from privlab.sanitizers import ConceptListSanitizer
    from privlab.studies import quickstart
    from privlab.ui.panel import study_panel

    panel = study_panel(quickstart, encoders=("lexical",))
    panel.run()
    config = panel.config()
    encoder, texts = get_encoder(config.encoders[0]), list(config.data)
    weak = ConceptListSanitizer(list(config.weak_concepts))
    S, T = encoder.encode(weak.sanitize(texts)), encoder.encode(texts)
    return {"panel": panel, "config": config, "encoder": encoder, "texts": texts,
            "ConceptListSanitizer": ConceptListSanitizer, "S": S, "T": T,
            "a": S @ (T - S).T, "result": panel.result}
