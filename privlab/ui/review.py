"""Notebook 08's person step: review the model's disagreements with the rule, then rescore.

SPIA's value decider ends with a person. :func:`review_panel` lists each pair of values
the rule scored 0 and the model did not, with a choice per pair (keep the model's answer,
yes, less precise, no), and a button that scores the same predictions again with those
decisions (:meth:`privlab.studies.spia.SPIAStudyResult.rescored`), showing CPR before and
after per anonymizer. Without a model decider there is nothing to review, and it says so.
"""

from __future__ import annotations

import html
from typing import Any

KEEP = "keep the model's answer"


def review_choices(result: Any) -> list[tuple[tuple[str, str, str], str]]:
    """The pairs to review, each with a one-line label (tag, gold, predicted, the model's answer).

    Returns an empty list when the run had no model decider.
    """
    review = getattr(result, "review", None)
    if review is None:
        return []
    names = {1.0: "yes", 0.5: "less precise"}
    return [(d.key, f"{d.tag}: gold \u201c{d.gold}\u201d vs predicted \u201c{d.predicted}\u201d"
                    f" \u2014 the model says {names.get(d.model_score, d.model_score)}")
            for d in review.disagreements()]


def decisions_from(values: dict) -> dict:
    """Decisions from the widgets' values, dropping the pairs left to the model.

    Example:
        >>> decisions_from({("AGE", "1", "2"): "no", ("SEX", "m", "f"): KEEP})
        {('AGE', '1', '2'): 'no'}
    """
    return {key: value for key, value in values.items() if value != KEEP}


def cpr_before_after(result: Any, rescored: Any):
    """CPR and IPR per anonymizer, with the model's answers and with the person's decisions."""
    import pandas as pd

    rows = []
    for name, before in result.protection.items():
        after = rescored.protection[name]
        rows.append({"anonymizer": name, "CPR (model)": before.cpr, "CPR (reviewed)": after.cpr,
                     "IPR (model)": before.ipr, "IPR (reviewed)": after.ipr})
    return pd.DataFrame(rows)


def review_panel(result: Any):
    """A widget listing the disagreements of ``result`` with a Rescore button.

    Args:
        result: a :class:`~privlab.studies.spia.SPIAStudyResult` (or None before a run).

    Returns:
        An ipywidgets VBox (an HTML note when there is nothing to review).
    """
    import ipywidgets as w
    from IPython.display import display

    choices = review_choices(result) if result is not None else []
    if not choices:
        why = ("Run the study first." if result is None else
               "This run used the per-tag rules only (value decider 'rule'), so no model "
               "answer disagrees with a rule. Choose 'rule+llm' (it needs an LLM endpoint) "
               "and press Run to get pairs to review." if getattr(result, "review", None) is None
               else "The model agreed with the rule on every pair: nothing to review.")
        return w.HTML(f"<p><i>{html.escape(why)}</i></p>")
    pickers = {key: w.Dropdown(options=[KEEP, "yes", "less precise", "no"], value=KEEP,
                               description=label, style={"description_width": "initial"},
                               layout=w.Layout(width="100%"))
               for key, label in choices}
    button = w.Button(description="Rescore with these decisions", button_style="primary",
                      icon="check", layout=w.Layout(width="auto"))
    out = w.Output()

    def rescore(_=None):
        from privlab.ui.tables import present

        rescored = result.rescored(decisions_from({k: p.value for k, p in pickers.items()}))
        out.clear_output(wait=True)
        with out:
            display(present(cpr_before_after(result, rescored)))

    button.on_click(rescore)
    intro = w.HTML(f"<p>{len(choices)} pair(s) where the rule said <b>no</b> and the model "
                   "did not. Decide the ones you can, then rescore: the model is not asked "
                   "again.</p>")
    return w.VBox([intro, *pickers.values(), button, out])


__all__ = ["KEEP", "cpr_before_after", "decisions_from", "review_choices", "review_panel"]
