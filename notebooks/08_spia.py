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
# **gap** is token recall minus CPR, with its sign: positive when the span metric
# overstates protection (SPIA's finding: on PANORAMA its highest-recall anonymizer has
# token recall 0.984 and CPR 0.799, a gap of +0.185, against Claude-Sonnet-4.5),
# negative when the adversary recovers less than the spans left.
#
# **Excess over a blind guess.** Part of any recovery needs no reading: most writers of
# posts are married, many people in them are Indian or Filipino. The `base-rate`
# adversary makes only that guess: for each person the contextual adversary counts, it
# predicts the most frequent value of each attribute in the development split, without
# reading anything else. The headline reports the contextual adversary's recovery
# ($1 - \text{CPR}$) beside its **excess** over the base-rate's on the same texts:
#
# $$\text{excess} = (1 - \text{CPR}_{\text{contextual}}) - (1 - \text{CPR}_{\text{base-rate}}).$$
#
# An excess near 0 means reading the text added nothing to a guess; a negative excess
# means the adversary declined to guess where a guess would have scored.
#
# **Developed on one split, scored on another.** Every rule, word list, gazetteer entry
# and threshold of the offline adversary is held to the development split, PANORAMA-531
# minus the 151 test documents (380 online posts); PANORAMA-151 and TAB-144 are
# evaluation only (`privlab.redaction.spia.split`, written into the result's provenance).
# A test fails if a fixed value the adversary writes occurs in the evaluation files'
# annotation but neither in the development split's nor as a generic value (a SPIA
# category, or the role noun the text must contain). No court judgment is in the
# development split, so TAB-144 is text of a genre the rules were not tuned on, and the
# base rates are those of online posts.
#
# **What they do not mean.** CPR is protection against *this* adversary on *this* data,
# never a guarantee. The default adversary, `contextual`, is offline and **weak**: rules
# and word lists that read titles, pronouns, kin nouns ("his wife"), role nouns ("their
# Agent", "a lawyer practising in Izmir"), the country the case was brought against,
# place names (GeoNames), first names, and the prefixes of codes. It lists only people the
# text mentions (a count such as "four kids" makes nobody) and fills no value from a
# genre's habits. It does not reason, so its CPR overstates protection against SPIA's
# LLM adversary (`llm`: set `PRIVLAB_LLM_BASE_URL` and `PRIVLAB_LLM_MODEL`).
#
# **Measured** (`spia.run` with its default anonymizers, on each side of the split:
# `benchmarks/figures.py` writes these figures; recovery $1 - \text{CPR}$, then its
# excess over the base-rate guess in points):
#
# | data (role) | unredacted | Presidio: token recall, CPR, gap | Presidio: recovery | `gold-spans` (oracle) CPR |
# |---|---|---|---|---|
# | PANORAMA-151 (evaluation) | <!--q:panorama151.none.recovered-->44.8%<!--/q-->, <!--q:panorama151.none.excess-->+24.1<!--/q--> | <!--q:panorama151.presidio.token_recall-->0.60<!--/q-->, <!--q:panorama151.presidio.cpr-->0.83<!--/q-->, **<!--q:panorama151.presidio.gap-->−0.23<!--/q-->** | <!--q:panorama151.presidio.recovered-->17.0%<!--/q-->, <!--q:panorama151.presidio.excess-->+5.2<!--/q--> | <!--q:panorama151.gold-spans.cpr-->0.992<!--/q--> |
# | TAB-144 (evaluation) | <!--q:tab144.none.recovered-->56.7%<!--/q-->, <!--q:tab144.none.excess-->+48.8<!--/q--> | <!--q:tab144.presidio.token_recall-->0.82<!--/q-->, <!--q:tab144.presidio.cpr-->0.78<!--/q-->, **<!--q:tab144.presidio.gap-->+0.04<!--/q-->** | <!--q:tab144.presidio.recovered-->21.7%<!--/q-->, <!--q:tab144.presidio.excess-->+14.3<!--/q--> | <!--q:tab144.gold-spans.cpr-->0.715<!--/q--> |
# | PANORAMA dev-380 (development) | <!--q:dev380.none.recovered-->48.0%<!--/q-->, <!--q:dev380.none.excess-->+28.2<!--/q--> | <!--q:dev380.presidio.token_recall-->0.74<!--/q-->, <!--q:dev380.presidio.cpr-->0.84<!--/q-->, <!--q:dev380.presidio.gap-->−0.09<!--/q--> | <!--q:dev380.presidio.recovered-->16.2%<!--/q-->, <!--q:dev380.presidio.excess-->+3.8<!--/q--> | — |
#
# On PANORAMA-151 the gap of this weak adversary is <!--q:panorama151.presidio.gap-->−0.23<!--/q-->, where SPIA reports
# +0.185 against Claude-Sonnet-4.5 on PANORAMA: a negative gap means it recovers less than
# the spans Presidio left, and of what it recovers, the excess over a blind guess is
# <!--q:panorama151.presidio.excess-->+5.2<!--/q--> points. On TAB-144, SPIA reports +0.316 (token recall 0.990, CPR 0.674 for
# DeID-GPT); this adversary gives <!--q:tab144.presidio.gap-->+0.04<!--/q-->. The development split's figures sit beside the
# evaluation files' on the same genre, so the rules can be seen not to be fitted to the
# files they are scored on; TAB-144's are on a genre the rules never saw (its base rates
# are the posts'). Of what it recovers after Presidio, <!--q:panorama151.presidio.low_certainty-->48%<!--/q--> on PANORAMA-151 and
# <!--q:tab144.presidio.low_certainty-->25%<!--/q--> on TAB-144 it rated certainty below 3 itself. The dev-380 token recall uses
# spans derived from the profiles (PANORAMA-531 has no span file).
#
# **Oracles.** `gold-spans` and `gold-direct` mask the annotated spans they are scored on,
# and `names-list` masks the annotated names: they read the answer key, so they are an
# upper bound on what span masking can do, marked `oracle` in the table and never the
# headline. The headline reports a real anonymizer (Presidio, or the best non-oracle one)
# beside what the same adversary recovers from the unredacted text.

# %% tags=["parameters"]
ADVERSARY = "contextual"  # "contextual" (offline, weak), "ner", "base-rate", "none", "llm"
MATCHER = "offline"       # "offline" (person first), "agreement" (values first) or "llm"
VALUE_DECIDER = "rule"    # "rule" or "rule+llm" (SPIA: rule, then the model where it says 0)
REFERENCE_DATE = "2025-09-01"  # SPIA's date for ages
ANONYMIZERS = None        # a tuple of anonymizer names; None: the study's list
PROJECTOR = False         # True: large print for a projector (every figure below)

# %%
from privlab.studies import spia
from privlab.ui import plots, study_panel

plots.projector(PROJECTOR)

# %% [markdown]
# The data defaults to SPIA's PANORAMA-151 file when the shared reference data is present
# (`privlab.config.shared_data_dir()`), and otherwise to three short documents written
# for privlab in the same schema. Ages are inferred at `REFERENCE_DATE` (SPIA's,
# 1 September 2025).
#
# **Pairing people: by person, then by value.** Before a value is scored, each predicted
# person is paired with at most one annotated person, on identity evidence only: names,
# roles (kin and role nouns of the description, occupation, position) and codes. The
# values a prediction gets right never decide whom it is paired with, so a value is
# credited only to the person the adversary meant: the writer's "Married" is not given to
# the spouse. A partial name ("Leigh" for "Leigh Lawrence") scores 0.5, SPIA's partial
# match. Predicted people with no identity evidence at all (the base-rate's slots) take
# the annotated people left, in order. The `agreement` matcher pairs on values first: the
# pairing most favourable to the adversary, an upper bound on recovery. The `llm` matcher
# is SPIA's: the model reads the original text, the anonymized text and both lists with
# their values. The certainty the adversary gave each value is kept: the panel shows what
# was recovered at each level, and the headline how much of it the adversary itself rated
# below 3.
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
panel = study_panel(spia, adversary=ADVERSARY, anonymizers=ANONYMIZERS, matcher=MATCHER,
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
