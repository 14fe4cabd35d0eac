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
# reader still work out who each person is: their age, job, town, family?
#
# **Two ways to score it.** *Span metrics* check whether the annotated mentions are gone:
# **token recall** (share of words inside DIRECT and QUASI identifier mentions that were
# removed) and **entity recall** (share of entities with every mention removed).
# *Inference metrics* (SPIA) ask an adversary to read the anonymized text, list every
# person it can tell apart, and infer 15 kinds of personal information about each. For
# subject $i$, $O_i$ counts the gold PIIs (certainty $\ge 3$) and $A_i$ adds up how well
# the adversary recovered them (1 exact, 0.5 less precise, 0 not at all):
#
# $$\text{CPR} = 1 - \frac{\sum_i A_i}{\sum_i O_i}, \qquad
#   \text{IPR} = \frac{1}{N}\sum_i \Big(1 - \frac{A_i}{O_i}\Big).$$
#
# **What the numbers mean.** CPR 0.7: the adversary recovered 30% of all the personal
# information (people with much information weigh more). IPR weighs every person the
# same, so a low IPR next to a high CPR means some people were left exposed. Subject 0
# is each document's main person (the *target*); the others are *non-target*. The
# **gap** is token recall minus CPR: how much the span metric overstates protection.
#
# **What they do not mean.** CPR is protection against *this* adversary on *this* data,
# never a guarantee. The default adversary, `contextual`, is offline and **weak**: rules
# and word lists that read titles, pronouns, kin nouns ("his wife"), role nouns ("their
# Agent", "a lawyer practising in Izmir"), the country the case was brought against,
# place names (GeoNames), first names, and the prefixes of codes. It does not reason, so
# its CPR overstates protection against SPIA's LLM adversary (`llm`: set
# `PRIVLAB_LLM_BASE_URL` and `PRIVLAB_LLM_MODEL`). Measured on the *unredacted* text it
# recovers 51% of the PIIs of PANORAMA-151, 70% of TAB-144 and 51% of PANORAMA-531 (the
# earlier `ner` adversary: 16% of PANORAMA-151). With every annotated span masked
# (`gold-spans`) it still recovers 4% on PANORAMA-151 and 37% on TAB-144 (CPR 0.63; SPIA
# reports 0.67 for its best anonymizer on TAB against Claude).
#
# **Oracles.** `gold-spans` and `gold-direct` mask the annotated spans they are scored on,
# and `names-list` masks the annotated names: they read the answer key, so they are an
# upper bound on what span masking can do, marked `oracle` in the table and never the
# headline. The headline reports a real anonymizer (Presidio, or the best non-oracle one)
# beside what the same adversary recovers from the unredacted text.

# %% tags=["parameters"]
ADVERSARY = "contextual"  # "contextual" (offline, weak), "ner" (weaker), "none" or "llm"
MATCHER = "offline"       # "offline" (PII agreement first) or "llm" (SPIA's alignment)
VALUE_DECIDER = "rule"    # "rule" or "rule+llm" (SPIA: rule, then the model where it says 0)
REFERENCE_DATE = "2025-09-01"  # SPIA's date for ages
ANONYMIZERS = None        # a tuple of anonymizer names; None: the study's list
PROJECTOR = False         # True: large print for a projector (every figure below)

# %%
from privlab.ui import panels, plots

plots.projector(PROJECTOR)

# %% [markdown]
# The data defaults to SPIA's PANORAMA-151 file when the shared reference data is present
# (`privlab.config.shared_data_dir()`), and otherwise to three short documents written
# for privlab in the same schema. Ages are inferred at `REFERENCE_DATE` (SPIA's,
# 1 September 2025).
#
# **Pairing people.** Before a value is scored, each predicted person is paired with at
# most one annotated person. The offline matcher pairs on PII-value agreement first (what
# the pair would score), then on names and descriptions: a prediction that gets everyone's
# values right but calls them "Person 1", "Person 2" is paired correctly (CPR within 0.05
# of the true pairing on all three files; pairing on names and descriptions alone left 479
# of 580 TAB subjects unmatched and reported CPR 0.850 instead of 0.119). Agreement-first
# pairing is the one most favourable to the adversary, so the share of people left
# unmatched is reported with the result. The `llm` matcher is SPIA's: the model reads the
# original text, the anonymized text and both lists with their values.
#
# ## Run it
#
# Pick the data, the adversary, the anonymizers, the matcher and the value decider, and
# press **Run**; entries marked *needs an LLM endpoint* say what to set. The output
# holds, in order: the headline; span recall next to inference protection, as a table
# and a bar chart; for the anonymizer of the headline (never an oracle), what stays
# inferable per tag and the least protected people, with the text the adversary read
# for the worst of them; and where privlab departs from SPIA's evaluation.

# %%
panel = panels.spia_panel(adversary=ADVERSARY, anonymizers=ANONYMIZERS, matcher=MATCHER,
                          value_decider=VALUE_DECIDER, reference_date=REFERENCE_DATE)
panel.show()

# %% [markdown]
# ## Where privlab departs from SPIA's evaluation, and what each choice changes
#
# privlab follows SPIA's per-tag rules (age within 5 years or overlapping ranges,
# four-level locations, category maps, identifier suffixes, exact e-mail, Jaro-Winkler
# $\ge 0.85$), its certainty threshold (3) and its 1 September 2025 reference date. It
# departs in a few places; the last table of the panel scores the same predictions, with
# the same pairs, under each of SPIA's choices instead:
#
# * **same-tag duplicates** — privlab counts every gold PII, SPIA one per tag and person
#   (the best pair): 943 against 942 PIIs on PANORAMA-151;
# * **single-level locations** — two different one-level places ("Ireland", "Poland")
#   score 0 in privlab, 0.5 in SPIA;
# * **ages** — a value that is not a number or a range ("adult", "Philippines" in
#   PANORAMA-531) scores 0 in privlab; SPIA's parser fails and its evaluator drops the
#   whole person;
# * **documents without predicted people** — protected in privlab, left out by SPIA;
# * **empty input** — no counted PII gives CPR NaN in privlab (shown as —), 0 in SPIA;
# * **value decider** — SPIA's is rule, then the model, then a person; privlab's is the
#   rule, then the model (`VALUE_DECIDER = "rule+llm"`), then, if you take it, the person
#   step below (without it the model's answers stand);
# * **failed documents** — an LLM answer that never validates (after retries that say
#   what was wrong, each a little warmer) fails that document only; it is counted and
#   left out of the CPR.

# %% [markdown]
# ## The person step: review where the model overruled the rule
#
# With the value decider `rule+llm`, every pair of values the rule scored 0 went to the
# model, and its answers were recorded. The pairs it scored *yes* or *less precise* are
# the disagreements: decide the ones you can and press **Rescore**; the same predictions
# and subject pairs are scored again with your decisions, and the model is not asked
# again. CPR rises where you say *no* (the adversary did not really recover that value)
# and falls where you confirm a match. With the rules alone (the offline default) there
# is nothing to review, and the widget says so. After a new Run, run this cell again.

# %%
from privlab.ui.review import review_panel

review_panel(panel.result)
