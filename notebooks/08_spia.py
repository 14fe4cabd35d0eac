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
# # 08 · SPIA: masking the names is not protecting the people
#
# **The question.** An anonymizer masks the names, numbers and places in a document. Can a
# reader still work out who each person is: their age, job, town, family? *Span metrics*
# only check that the annotated mentions are gone (**token recall**). SPIA's *inference*
# metrics let an adversary read the anonymized text, list the people it can tell apart,
# infer 15 kinds of personal information (PIIs) about each, and score what it got right
# against the annotation.

# %% [markdown]
# **The score.** For person $i$, $O_i$ counts the annotated PIIs and $A_i$ adds up how well
# the adversary recovered them (1 exact, 0.5 less precise, 0 not at all):
#
# $$\text{CPR} = 1 - \frac{\sum_i A_i}{\sum_i O_i}, \qquad
#   \text{IPR} = \frac{1}{N}\sum_i \Big(1 - \frac{A_i}{O_i}\Big).$$
#
# CPR 1 means nothing was recovered. IPR weighs every person the same, so a low IPR beside
# a high CPR means some people were left exposed. The **gap** is token recall minus CPR:
# positive when the span metric overstates protection.

# %% tags=["parameters"]
ADVERSARY = "contextual"  # "contextual" (offline, weak), "ner", "base-rate", "none", "llm"
MATCHER = "offline"       # "offline" (person first), "agreement" (values first) or "llm"
VALUE_DECIDER = "rule"    # "rule" or "rule+llm" (SPIA: rule, then the model where it says 0)
REFERENCE_DATE = "2025-09-01"  # SPIA's date for ages
ANONYMIZERS = None        # a tuple of anonymizer names; None: the study's list
PROJECTOR = False         # True: large print for a projector (every figure below)

# %%
from dataclasses import replace

import numpy as np

from privlab.studies import spia
from privlab.ui import exercises, plots, study_panel

plots.projector(PROJECTOR)
panel = study_panel(spia, adversary=ADVERSARY, anonymizers=ANONYMIZERS, matcher=MATCHER,
                          value_decider=VALUE_DECIDER, reference_date=REFERENCE_DATE)

# %% [markdown]
# ## By hand: CPR from recovered facts
#
# First three documents only, with the settings of the panel below (change one there, and
# this cell follows). `spia.run` masks them, lets the adversary infer, pairs its people with
# the annotated ones and scores every annotated PII. Each row is one such *fact*: what was
# annotated (`gold`), what the adversary said (`predicted`), and its `score`.

# %%
few = spia.run(replace(panel.config(), max_documents=3))
name = few.headline_anonymizer()          # Presidio, or the best real anonymizer run
facts = few.protection[name].pii_frame()
facts[["data_id", "subject", "tag", "gold", "predicted", "score"]]

# %% [markdown]
# CPR and IPR are two averages of that `score` column: one over all facts, one over
# people.

# %%
cpr = 1 - facts["score"].sum() / len(facts)                      # 1 - sum A / sum O
per_person = facts.groupby(["data_id", "subject"])["score"].agg(["sum", "count"])
ipr = (1 - per_person["sum"] / per_person["count"]).mean()       # each person weighs 1/N
p = few.protection[name]
print(f"{name}, {len(facts)} facts about {len(per_person)} people")
print(f"  by hand: CPR {cpr:.4f}  IPR {ipr:.4f}")
print(f"  privlab: CPR {p.cpr:.4f}  IPR {p.ipr:.4f}")
print("  agree:", bool(np.isclose([cpr, ipr], [p.cpr, p.ipr]).all()))

# %% [markdown]
# ## The whole study
#
# The panel runs every anonymizer on every document. The data are SPIA's PANORAMA-151
# posts when the reference data is present, else three documents privlab wrote in the same
# schema. The default adversary, `contextual`, is offline rules and word lists: **weak**,
# so its CPR overstates protection against SPIA's LLM adversary. Entries marked *needs an
# LLM endpoint* say what to set. Press **Run** after a change.

# %%
panel.show()

# %% [markdown]
# **Reading the headline and the table.** One row per anonymizer. Rows marked `oracle`
# read the answer key (the annotated spans or names): an upper bound on span masking,
# never the headline. `recovered` is $1 - \text{CPR}$. Part of it needs no reading: the
# `base-rate` adversary guesses each attribute's most frequent value, blind, and
# `excess recovered` is what reading the text added to that guess. The `none` row is the
# unredacted text: what the adversary gets when nothing is masked.

# %%
result = panel.result   # None when the panel shows a message instead
print(result.spia_reported() or "SPIA reports no figure for this data" if result else
      "no result: see the message in the panel")

# %% [markdown]
# That is the paper's figure, for its own adversary (an LLM); compare its sign with the
# sign of this run's gap in the headline.
#
# **The bars** put token recall beside CPR and IPR; where a CPR bar stands above its
# token-recall bar, the gap is negative.

# %%
panel.part("bars")   # redrawn on every Run

# %% [markdown]
# **Per tag.** The tag table says which kinds of information survive the headline
# anonymizer; the next splits protection by kind of subject.

# %%
panel.part("tags")

# %% [markdown]
# **By certainty.** What was recovered, split by the certainty the adversary gave it:
# below 3 are its own guesses.

# %%
panel.part("certainty")

# %% [markdown]
# **Per person.** The five least protected people come with the text the adversary read
# for the worst of them: read it and find what gave them away.

# %%
panel.part("people")

# %% [markdown]
# **Departures from SPIA.** The last table scores the same predictions, with the same pairs
# of people, under each of SPIA's own choices where privlab's differ.

# %%
panel.part("departures")

# %% [markdown]
# ## Exercises
#
# **08.1 (predict, then run).** Against this weak adversary, will the headline
# anonymizer's token recall be above or below its CPR? Answer `"above"` or `"below"`, then
# run the check.

# %%
answer = None   # "above" or "below"
exercises.check("08.1", answer, result=panel.result)

# %%
exercises.solution("08.1")

# %% [markdown]
# **08.2 (change a setting).** Choose the `base-rate` adversary in the panel and press
# **Run**. What is the headline anonymizer's `excess recovered` now, in points? Explain
# why.

# %%
answer = None   # a number of points, e.g. 3.5
exercises.check("08.2", answer, result=panel.result)

# %%
exercises.solution("08.2")

# %% [markdown]
# **08.3 (edit the code).** Copy the by-hand CPR line and keep only the documents' main
# people (`subject == 0`, the *targets*). What is their CPR? privlab calls it
# `CPR target`.

# %%
answer = None   # the targets' CPR, by hand
exercises.check("08.3", answer, few=few, name=name)

# %%
exercises.solution("08.3")

# %% [markdown]
# ## The person step (with an LLM endpoint)
#
# With the value decider `rule+llm`, the model decides the values the rule scored 0. Below,
# decide the pairs where it overruled the rule and press **Rescore**: the same predictions
# are scored again with your decisions. With the rules alone there is nothing to review.
# After a new Run, run this cell again.

# %%
from privlab.ui.review import review_panel

review_panel(panel.result)

# %% [markdown]
# ## Going further
#
# [docs/lessons/08-spia.md](../docs/lessons/08-spia.md) holds the method in full: the
# excess over a blind guess, the development and evaluation split of the adversary's
# rules, what the adversary reads and misses, the measured tables on both sides of the
# split, the oracles, how people are paired, each departure from SPIA's evaluation and
# the person step.
