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
# We answer with the *contrastive* test: an encoder turns each text into a unit vector,
# and we ask whether a sanitized text is still closer to what sanitizing removed from
# another text than chance would explain. The largest such excess, in cosine, is the
# **resolution** $\delta^*$; the pair of texts that attains it is the **decisive
# witness**. Two sanitizers are compared: a **weak** list (only the name) and a
# **strong** list (the name plus the details that identify him).

# %% tags=["parameters"]
ENCODER = "minilm"   # any text encoder from privlab.encoders.registry, or a model folder
PROJECTOR = False    # True: large print for a projector (every figure below)

# %%
import numpy as np

from privlab.encoders import get_encoder
from privlab.sanitizers import ConceptListSanitizer
from privlab.studies import quickstart
from privlab.ui import exercises, plots, study_panel, tables

plots.projector(PROJECTOR)
panel = study_panel(quickstart, encoders=(ENCODER,))
tables.numbered(quickstart.Config.for_notebook().data, caption="The twelve texts")

# %% [markdown]
# ## By hand: the trial matrix
#
# Stack the embeddings of the sanitized texts as rows of $S$ and those of the texts as
# written as rows of $T$. Every text is also a reference, so the sanitized references
# $T_c$ are $S$ again. The trial of audited text $i$ against reference $j$ is
#
# $$a_{ij} = S_i \cdot (T_j - S_j) = \cos(S_i, T_j) - \cos(S_i, S_j),$$
#
# and the resolution is $\max(0, \max_{ij} a_{ij})$. The cell reads its settings from
# the panel below, so a choice made there is the one computed here.

# %%
config = panel.config()                    # the panel's encoder and lists
encoder = get_encoder(config.encoders[0])
texts = list(config.data)
weak = ConceptListSanitizer(list(config.weak_concepts))
S = encoder.encode(weak.sanitize(texts))   # one unit row per sanitized text
T = encoder.encode(texts)                  # one unit row per text as written
a = S @ (T - S).T                          # a[i, j]: audited i against reference j
i, j = np.unravel_index(a.argmax(), a.shape)

# %% [markdown]
# The same number from privlab, which also keeps the witnesses, the utility and the
# name-still-present baseline:

# %%
result = quickstart.run(config)
member = result.audits["weak"].members[0]
print(f"by hand: max a = {a.max():.4f} at audited {i}, reference {j}")
print(f"privlab: resolution {member.value:.4f}, witness audited {member.witness.audited}, "
      f"reference {member.witness.reference}")
print("agree:", bool(np.isclose(max(a.max(), 0.0), member.value, atol=1e-5)))

# %% [markdown]
# ## Exercise 00.1 · predict, then run
#
# The strong list removes 31 words and phrases instead of 3. Before running the panel,
# predict: is the strong list's resolution **lower**, the **same** or **higher** than
# the weak list's? Write your prediction, then run this cell and the panel.

# %%
answer = None   # "lower", "same" or "higher"

# %% [markdown]
# ## The study panel
#
# Pick another encoder (the lexical one sees only surface words) or edit the lists, then
# press **Run**: the headline, the table, both decisive witnesses and the bars are redrawn
# together. Choices stay as they are when you run the whole notebook again; an entry
# marked *needs* says what it needs.

# %%
panel.show()

# %% [markdown]
# **How to read it.** The headline gives each list's resolution with its status and what
# it rests on. **Mean utility** is the average cosine between each text and its
# sanitized version (1 = all meaning kept): stronger lists buy privacy with utility.
# "Name still present" counts sanitized texts that still contain the name, the check
# that ordinary PII tools make.
#
# **The decisive witnesses**, left to right: the sanitized audited text, the reference
# as written, the reference sanitized. A positive difference means the left text is
# closer to the original reference than to its sanitized form: it still carries what
# the sanitizer removed. Highlighted words are shared with the reference.
#
# **The bars** give each audited text's largest difference (a row maximum of $a$); the
# coloured ones are at or above the resolution you require.

# %% [markdown]
# **When a resolution reads 0**: no trial found a connection *for these texts, these
# references and this encoder*. That is not a guarantee of privacy: an encoder that has
# never heard of the person, or references that lack a detail, can miss a leak
# (notebooks 01 and 04 show both). A positive number is a cosine difference on this
# encoder's scale, not a probability.

# %%
exercises.check("00.1", answer, result=panel.result)
exercises.solution("00.1")

# %% [markdown]
# ## Exercise 00.2 · change a setting
#
# Choose **lexical** as the encoder in the panel and press Run. Set `answer` to the
# strong list's resolution that the table now shows. Why does it move?

# %%
answer = None   # a number read from the table
exercises.check("00.2", answer, result=panel.result)
exercises.solution("00.2")

# %% [markdown]
# ## Exercise 00.3 · edit the code
#
# Copy the by-hand cell here and change it to sanitize with the **strong** list
# (`config.strong_concepts`). Bind `answer` to the largest entry of your new `a`: it
# should equal the strong list's resolution in the panel.

# %%
answer = None   # float(a.max()) of the strong list
exercises.check("00.3", answer, result=panel.result)
exercises.solution("00.3")

# %% [markdown]
# ## Going further
#
# - [The quickstart in detail](../docs/lessons/00-quickstart.md): the test's definition,
#   why a text against itself never matters, what the number means and does not mean.
# - The next notebook, `01_dicaprio`, runs the same test on photographs.
