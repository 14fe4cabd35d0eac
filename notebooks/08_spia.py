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
# is each document's main person (the *target*); the others are *non-target*.
#
# **What they do not mean.** CPR is protection against *this* adversary. The offline
# default adversary (spaCy names plus patterns nearby) is **weak**: it does not reason,
# so its CPR is an optimistic upper bound. SPIA's adversary is an LLM
# (`PRIVLAB_LLM_BASE_URL`, `PRIVLAB_LLM_MODEL`, then choose `llm`). High span recall
# with a lower CPR is the gap this notebook makes visible.

# %% tags=["parameters"]
ADVERSARY = "ner"      # "ner" (offline, weak), "none" (baseline) or "llm"
ANONYMIZERS = None     # a tuple of anonymizer names; None: the study's list

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
# for privlab in the same schema. `gold-spans` masks the human-annotated DIRECT and QUASI
# mentions: an ideal span masker, the best a span-based tool can do.

# %%
config = study.Config.for_notebook(data=data_picker.value, adversary=adversary_picker.value,
                                   anonymizers=tuple(anonymizer_picker.value))
result = study.run(config)
print(result.status)
print(f"{len(result.documents)} documents, spans {result.provenance['spans']}")
for name, why in result.skipped.items():
    print(f"skipped {name}: {why}")

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
# Shown for the anonymizer with the highest token recall.

# %%
best = table.sort_values("token recall", ascending=False).iloc[0]["anonymizer"]
chosen = result.protection[best]
print("anonymizer:", best)
display(chosen.tag_frame())
display(chosen.to_frame())
result.worst_subjects(best, 5)

# %% [markdown]
# The text the adversary read for the least protected subject:

# %%
worst = chosen.subject_frame().iloc[0]
index = [r.data_id for r in result.documents].index(worst["data_id"])
print(worst["data_id"], "subject", worst["subject"], "-", worst["description"])
print(result.texts[best][index][:1500])

# %%
result.headline().show()
