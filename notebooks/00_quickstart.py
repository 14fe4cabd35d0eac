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
# # 00 · Quickstart: does removing a name remove the person?
#
# **The question.** Twelve short texts are about one person. A sanitizer removes a list
# of words from each. Is the person still recognisable in what is left?
#
# **The test (contrastive privacy).** Take a distance mechanism $\mathcal{E}$, an
# encoder whose unit-length embeddings are compared by cosine. For an audited text $x$
# and a reference text $y$, the *trial* $(x, y)$ asks whether the sanitized $x$ is closer
# to what sanitizing removed from $y$ than chance would explain:
#
# $$a(x, y) = \mathcal{E}(X_c(x)) \cdot \big(\mathcal{E}(y) - \mathcal{E}(X_c(y))\big)
#           = \cos(X_c(x), y) - \cos(X_c(x), X_c(y)).$$
#
# Over every audited $x_i$ and every reference $y_j$ the **resolution** is
#
# $$\delta^* = \max\big(0, \max_{i,j} a(x_i, y_j)\big),$$
#
# and the trial that attains it is the **decisive witness**. Here the test is
# *symmetric*: the twelve texts are both audited and references (a text against itself
# scores $\cos(X_c(x), x) - 1 \le 0$, so it never matters).
#
# **What the number means.** $\delta^* > 0$: some sanitized text still points towards
# what was removed from another text, by that much cosine; the witness shows where.
# $\delta^* = 0$: no trial found such a connection *for these texts, these references
# and this encoder*.
#
# **What it does not mean.** Resolution 0 is not a guarantee of privacy: an encoder that
# has never heard of the target, or a reference set that lacks some identifying detail,
# can miss a leak (notebooks 01 and 04 show both). And a positive number is a cosine
# difference on this encoder's scale, not a probability.

# %% tags=["parameters"]
ENCODER = "minilm"   # any text encoder from privlab.encoders.registry, or a model folder
PROJECTOR = False    # True: large print for a projector (every figure below)

# %%
from privlab.studies import quickstart
from privlab.ui import plots, study_panel, tables

plots.projector(PROJECTOR)
tables.numbered(quickstart.Config.for_notebook().data, caption="The twelve texts")

# %% [markdown]
# Two sanitizers, both exact-phrase redaction (case-insensitive, whole words, each
# character replaced by a box): the **weak** list removes only the name; the **strong**
# list also removes the details that identify him. Both lists are in the panel below,
# one word or phrase per line.
#
# ## Try it yourself
#
# Pick another encoder (the lexical one sees only surface words) or edit the lists, then
# press **Run**: the headline, the table, both decisive witnesses and the bars are redrawn
# together. Embeddings are cached, so switching back costs nothing. Choices stay as they
# are when you run the whole notebook again; an entry marked *needs* says what it needs,
# and pressing Run on one that is not available here says how to get it.

# %%
panel = study_panel(quickstart, encoders=(ENCODER,))
panel.show()

# %% [markdown]
# ## Reading the result
#
# **Mean utility** is the average cosine between each original and its sanitized
# version under the same encoder: how much of the text's meaning survives (1 = all).
# Stronger lists buy privacy with utility. "Name still present" counts sanitized texts
# that still contain the exact name (the baseline that regular PII tools check).
#
# **The decisive witnesses.** Read each one left to right: the sanitized audited text,
# the reference as written, and the reference after sanitizing. A positive signed
# difference means the left text is closer to the original reference than to its
# sanitized form: it still carries what the sanitizer removed from the reference.
# Highlighted words are the content words the released text shares with the reference.
#
# **Which texts to withhold.** Each bar is an audited text's largest signed difference
# (`per_audited`). Texts at or above the resolution you require would be withheld or
# sanitized further (the coloured bars, here at $\delta = 0$).
