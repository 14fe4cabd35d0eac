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

# %%
import ipywidgets as widgets
from IPython.display import display

from privlab.redaction.spia.adversaries import adversaries
from privlab.redaction.spia.spans import anonymizer_options
from privlab.studies import spia as study

defaults = study.Config.for_notebook(adversary=ADVERSARY, anonymizers=ANONYMIZERS)
available = [a.name for a in anonymizer_options() if a.available]
data_picker = widgets.Text(value=study.default_data(), description="data")
adversary_picker = widgets.Dropdown(options=adversaries.options(), value=ADVERSARY,
                                    description="adversary")
anonymizer_picker = widgets.SelectMultiple(
    options=available, value=tuple(a for a in defaults.anonymizers if a in available),
    description="anonymizers")
display(widgets.VBox([data_picker, adversary_picker, anonymizer_picker]))
for a in anonymizer_options():
    if not a.available:
        print(f"not available: {a.name} ({a.reason})")

# %% [markdown]
# The data defaults to SPIA's PANORAMA-151 file when the shared reference data is present
# (`privlab.config.shared_data_dir()`), and otherwise to three short documents written
# for privlab in the same schema.
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

# %%
config = study.Config.for_notebook(data=data_picker.value, adversary=adversary_picker.value,
                                   anonymizers=tuple(anonymizer_picker.value),
                                   matcher=MATCHER, value_decider=VALUE_DECIDER,
                                   reference_date=REFERENCE_DATE)
result = study.run(config)
print(result.status)
print(f"{len(result.documents)} documents, spans {result.provenance['spans']}")
for name, why in result.skipped.items():
    print(f"skipped {name}: {why}")
for name, failed in result.failed.items():
    if failed:
        print(f"{name}: {len(failed)} documents failed and are left out of its CPR")

# %% [markdown]
# ## Span recall next to inference protection

# %%
table = result.to_frame()
table

# %%
ax = table.set_index("anonymizer")[["token recall", "CPR", "IPR"]].plot.bar(
    figsize=(7, 3.5), ylim=(0, 1.05), rot=20, title="span recall vs inference protection")

# %% [markdown]
# ## Per tag and per person
#
# Per-tag CPR shows *what* stays inferable; the worst-protected subjects show *who*.
# Shown for the anonymizer of the headline (never an oracle).

# %%
shown = result.headline_anonymizer() or table.iloc[0]["anonymizer"]
chosen = result.protection[shown]
print("anonymizer:", shown)
display(chosen.tag_frame())
display(chosen.to_frame())
result.worst_subjects(shown, 5)

# %% [markdown]
# The text the adversary read for the least protected subject:

# %%
worst = chosen.subject_frame().iloc[0]
index = [r.data_id for r in result.documents].index(worst["data_id"])
print(worst["data_id"], "subject", worst["subject"], "-", worst["description"])
print(result.texts[shown][index][:1500])

# %% [markdown]
# ## Where privlab departs from SPIA's evaluation, and what each choice changes
#
# privlab follows SPIA's per-tag rules (age within 5 years or overlapping ranges,
# four-level locations, category maps, identifier suffixes, exact e-mail, Jaro-Winkler
# $\ge 0.85$), its certainty threshold (3) and its 1 September 2025 reference date. It
# departs in a few places; the table scores the same predictions, with the same pairs,
# under each of SPIA's choices instead:
#
# * **same-tag duplicates** — privlab counts every gold PII, SPIA one per tag and person
#   (the best pair): 943 against 942 PIIs on PANORAMA-151;
# * **single-level locations** — two different one-level places ("Ireland", "Poland")
#   score 0 in privlab, 0.5 in SPIA;
# * **ages** — a value that is not a number or a range ("adult", "Philippines" in
#   PANORAMA-531) scores 0 in privlab; SPIA's parser fails and its evaluator drops the
#   whole person;
# * **documents without predicted people** — protected in privlab, left out by SPIA;
# * **empty input** — no counted PII gives CPR NaN in privlab, 0 in SPIA;
# * **value decider** — SPIA's is rule, then the model, then a person; privlab's is rule,
#   then the model (`VALUE_DECIDER = "rule+llm"`), with no human step;
# * **failed documents** — an LLM answer that never validates (after retries that say
#   what was wrong, each a little warmer) fails that document only; it is counted and
#   left out of the CPR.

# %%
result.departures(shown)

# %%
result.headline().show()
