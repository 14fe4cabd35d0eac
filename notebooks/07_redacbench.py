# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---


# %% [markdown]
# # 07 · RedacBench: what a redaction removes, and what it destroys
#
# **The question.** A policy says what must stay confidential ("any information about a
# person's health"). A redaction strategy rewrites a text to obey it. After the rewrite,
# **can a reader still infer** what the policy forbids, and can they still learn
# everything else?
#
# Each text comes with *propositions*, the small facts it states, and each policy marks
# some of them *sensitive*. A **judge** reads the redacted text and says, for every
# proposition, whether it can still be inferred (*retained*) or not (*removed*).

# %% tags=["parameters"]
DATA = "sample"        # "sample", "spia" (derived from the SPIA files) or a .jsonl path
JUDGE = "heuristic"    # "heuristic" (offline, weak) or "llm"
STRATEGIES = ("none", "regex-pii", "masking")   # add "adversarial" with an endpoint
HEADLINE = "masking"   # the strategy the headline reports, fixed before anything runs
PROJECTOR = False      # True: large print for a projector (every figure below)

# %%
import numpy as np
import pandas as pd

from privlab.studies import redacbench
from privlab.ui import exercises, plots, study_panel

plots.projector(PROJECTOR)
panel = study_panel(redacbench, data=DATA, judge=JUDGE, strategies=STRATEGIES,
                                headline=HEADLINE)

# %% [markdown]
# ## By hand: Security and Utility from the judge's labels
#
# | | retained | removed |
# |---|---|---|
# | sensitive | FP (leaked) | TN (protected) |
# | harmless | TP (kept) | FN (lost) |
#
# $$\text{Security} = \frac{TN}{TN + FP}, \qquad \text{Utility} = \frac{TP}{TP + FN}.$$
#
# The cell runs the study with the panel's settings and counts the four cells of the
# table in the judge's verdicts on the headline strategy's texts: one row per
# (document, policy, proposition).

# %%
config = panel.config()                  # the panel's data, judge and strategies
study = redacbench.run(config)
rows = pd.DataFrame(study.results[config.headline].rows)
sensitive, retained = rows["sensitive"], rows["retained"]
TN, FP = (sensitive & ~retained).sum(), (sensitive & retained).sum()
TP, FN = (~sensitive & retained).sum(), (~sensitive & ~retained).sum()
security, utility = TN / (TN + FP), TP / (TP + FN)

# %%
ours = study.results[config.headline]
print(f"{config.headline}: TP {TP}, TN {TN}, FP {FP}, FN {FN} over {len(rows)} rows")
print(f"by hand: Security {security:.4f}, Utility {utility:.4f}")
print(f"privlab: Security {ours.security:.4f}, Utility {ours.utility:.4f}")
print("agree:", bool(np.isclose([security, utility], [ours.security, ours.utility]).all()))

# %% [markdown]
# ## Exercise 07.1 · predict, then run
#
# `none` leaves every text as it was, so a perfect judge would find every sensitive
# proposition still inferable. Predict: will this judge's Security for `none` be
# **zero** or **above zero**? Write it down, then run the panel.

# %%
answer = None   # "zero" or "above zero"

# %% [markdown]
# ## The study panel
#
# The headline strategy is fixed before any score exists, and the headline reports it
# against the unredacted baseline `none`. Where hand labels cover every text the
# strategy produced, the headline's numbers are the hand labels'; elsewhere only the
# judge's. Entries marked *needs* say what they need (an LLM endpoint for the `llm`
# judge and the `adversarial` strategy). Press **Run** after a change.

# %%
panel.show()

# %% [markdown]
# **The judge first.** Before trusting any score, the judge is checked on texts whose
# answer is known by hand. A *false "inferable"* makes Security look worse than it is; a
# *false "not inferable"* hides leaks and makes it look better. The intervals are exact
# 95% binomial intervals. Who wrote the hand labels, and how far a second pass agrees,
# is in the headline's caveats.

# %%
result = panel.result   # None when the panel shows a message instead
print(result.judge_errors.summary() if result else "no result: see the panel's message")

# %% [markdown]
# **Scores per strategy.** Read every row against `none`: whatever the judge reports
# above 0 there is the share of sensitive propositions it misses even in the original
# text, not something a redaction removed. The `hand security` and `hand utility`
# columns score the same texts by the hand labels, where every text has them.

# %%
result.to_frame() if result else None

# %%
exercises.check("07.1", answer, result=panel.result)
exercises.solution("07.1")

# %% [markdown]
# **What leaked, and how much wording survived.** The panel lists the sensitive
# propositions the judge still finds after the headline strategy, with the text they were
# found in. BLEU and ROUGE-L compare each redacted text with its original: masking keeps
# almost every word, so both stay high even where a sensitive fact leaked. Surface
# similarity is not privacy.
#
# **When Security reads 0** for a real strategy: the judge found every sensitive
# proposition still inferable. Check `none`'s row first, and the hand labels where they
# exist: a judge can be wrong in both directions.

# %% [markdown]
# ## Exercise 07.2 · change a setting
#
# In the panel, choose `regex-pii` as the headline strategy and press **Run**. Set
# `answer` to its Security by the judge. Why is it what it is?

# %%
answer = None   # a number read from the table
exercises.check("07.2", answer, result=panel.result)
exercises.solution("07.2")

# %% [markdown]
# ## Exercise 07.3 · edit the code
#
# Copy the by-hand cell and keep only the rows of the `medical` domain
# (`rows[rows["domain"] == "medical"]`) before counting. Bind `answer` to that domain's
# Security.

# %%
answer = None   # the medical domain's Security, by hand
exercises.check("07.3", answer, study=study, config=config)
exercises.solution("07.3")

# %% [markdown]
# ## Going further
#
# - [RedacBench in detail](../docs/lessons/07-redacbench.md): the test, how privlab's
#   sample differs from RedacBench's, the hand labels and their agreement, the judge's
#   error rates, and how to read every table of the panel.
# - [Using real models](../docs/real-models.md): an LLM judge and the adversarial
#   strategy.
# - [Bring your own](../docs/bring-your-own.md): your own documents and policies.
