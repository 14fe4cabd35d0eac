"""Exercises of notebook 03 (franchise comments): sanitizers on the privacy-utility plane.

The notebook's names: ``panel`` (the study panel), ``config``, ``corpus``, ``encoder``,
``texts``, ``S`` and ``T`` (the by-hand embeddings of the broad list) and ``answer``.
The exercise that changes the panel's comment set comes last (see
:mod:`privlab.ui.lessons`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from privlab.ui.exercises import Exercise, Verdict
from privlab.ui.lessons.answers import no_result, number

TOLERANCE = 1e-4
BROAD = "concept-list-broad"
NAME_ONLY = "concept-list"

#: What the checks read: the panel's last result.
NEEDS = {"result": "panel.result"}



def _sanitizers(result: Any) -> list[str]:
    return [a.name for a in result.table]


def _identity(answer: Any, context: Mapping[str, Any]) -> Verdict:
    value = number(answer)
    if value is None:
        return Verdict(False, f"Bind answer to a number (you wrote {answer!r}).")
    if abs(value) > TOLERANCE:
        return Verdict(False, f"{value} is not it: with X_c(y) = y every difference "
                              "T_j - Tc_j is the zero vector, so every trial is 0.")
    return Verdict(True, "Every trial is S_i . (T_j - T_j) = 0, so the resolution is 0 on any "
                         "encoder: it says nothing about privacy, only that nothing was removed.")


def _utility(answer: Any, context: Mapping[str, Any]) -> Verdict:
    refused = no_result(context["result"])
    if refused:
        return refused
    result = context["result"]
    if BROAD not in _sanitizers(result):
        return Verdict(False, f"The panel's last run had no {BROAD}: tick it and press Run.")
    value, truth = number(answer), result.table[BROAD].members[0].mean_utility
    if value is None:
        return Verdict(False, f"Bind answer to a number (you wrote {answer!r}).")
    if abs(value - truth) <= TOLERANCE:
        return Verdict(True, f"Mean cosine between each comment and its sanitized version: "
                             f"{truth:.4f}, privlab's utility for {BROAD}.")
    return Verdict(False, f"{value:.4f} is not the broad list's utility: average the row-wise "
                          "dot products of S and T (one per comment), not the whole matrix.")


def _nine(answer: Any, context: Mapping[str, Any]) -> Verdict:
    refused = no_result(context["result"])
    if refused:
        return refused
    result = context["result"]
    if len(result.corpus) != 9 or NAME_ONLY not in _sanitizers(result):
        return Verdict(False, f"The panel last ran on {len(result.corpus)} comments: choose 9, "
                              f"keep {NAME_ONLY} ticked and press Run.")
    value, truth = number(answer), result.table[NAME_ONLY].value
    if value is None or abs(value - truth) > TOLERANCE:
        return Verdict(False, f"Read the {NAME_ONLY} row's resolution in the table (you "
                              f"wrote {answer!r}).")
    return Verdict(True, f"{truth:.4f} on nine comments: the nine are among the 49, so their "
                         "trials are a corner of the 49 x 49 matrix and its maximum cannot be "
                         "larger. A small proxy set can only hide a connection.")


EXERCISES = (
    Exercise(
        "03.1", "predict",
        "Predict the identity sanitizer's resolution (it changes nothing) before reading it.",
        _identity,
        solution="answer = 0.0   # T - Tc is zero when nothing is removed\n",
        why="With X_c(y) = y the reference direction T_j - Tc_j is the zero vector, so every "
            "trial, and the resolution, is 0 under any encoder. That is why a 0 must be read "
            "with the unchanged and name-kept columns.",
        wrong=0.25),
    Exercise(
        "03.2", "code-edit",
        "Add one line to the by-hand cell: the broad list's utility, the mean cosine between "
        "each comment and its sanitized version.",
        _utility,
        solution="answer = float((S * T).sum(axis=1).mean())\n",
        why="Rows of S and T are unit vectors, so the row-wise dot product is the cosine of "
            "comment i with its sanitized version; utility is their mean.",
        wrong=lambda context: context["result"].table[BROAD].members[0].mean_utility + 0.1,
        needs=NEEDS),
    Exercise(
        "03.3", "change-setting",
        "Choose the nine-comment set in the panel, press Run, and report the name-only "
        "list's resolution; explain why it cannot be higher than on 49.",
        _nine,
        solution='panel.controls["proxy"].set("9")\npanel.run()\n'
                 'answer = panel.result.table["concept-list"].value\n',
        why="The nine comments are a subset of the 49: the audit on nine looks at a corner of "
            "the same trial matrix, whose maximum is at most the full one's.",
        wrong=-1.0, needs=NEEDS),
)


def fixture() -> dict[str, Any]:
    """The notebook's names after its by-hand cell, on the lexical encoder."""
    import numpy as np

    from privlab.encoders import get_encoder
    from privlab.sanitizers import ConceptListSanitizer
    from privlab.studies import avengers
    from privlab.ui.panel import study_panel

    panel = study_panel(avengers, encoders=("lexical",), proxy="49",
                        sanitizers=("identity", NAME_ONLY, BROAD))
    panel.run()
    config = panel.config()
    corpus = avengers.load_corpus(config)
    encoder, texts = get_encoder(config.encoders[0]), list(corpus.texts)
    broad = ConceptListSanitizer(tuple(corpus.concepts) + avengers.broad_list(config))
    S, T = encoder.encode(broad.sanitize(texts)), encoder.encode(texts)
    return {"panel": panel, "config": config, "corpus": corpus, "encoder": encoder,
            "texts": texts, "S": S, "T": T, "a": S @ (T - S).T, "np": np}
