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
# # 03 · Franchise comments: which sanitizer hides a film franchise, and at what cost?
#
# **The question.** Forty-nine forum comments each name a film franchise. Removing the
# name is easy; the comments also mention characters, the studio, plot twists and box
# office. Which sanitizer removes the franchise's *identity*, and how much of each
# comment survives?
#
# Offline, privlab ships 49 comments written about a fictional franchise, *Vanguard
# Legion*, with seeded clues whose ground truth is known: a **stand-in** for the paper's
# Reddit comments about the Avengers, and the headline says so. With the paper's comments
# at hand, set `COMMENTS` to their folder (or type it into the panel).

# %% tags=["parameters"]
ENCODER = "minilm"   # a text encoder from privlab.encoders.registry
PROXY = None         # "9" (fixed nine-comment proxy set) or "49"; None: the study's ("49")
COMMENTS = None      # a folder of .txt comments (one per file) or Pushshift JSON lines;
                     # None: privlab's fictional franchise comments
KEYWORD = None       # the franchise's name in those comments; None: "Avengers"
PROJECTOR = False    # True: large print for a projector (every figure below)

# %%
import dataclasses

import numpy as np

from privlab.encoders import get_encoder
from privlab.sanitizers import ConceptListSanitizer
from privlab.studies import avengers
from privlab.ui import exercises, plots, study_panel

plots.projector(PROJECTOR)
panel = study_panel(avengers, encoders=(ENCODER,), proxy=PROXY, data=COMMENTS,
                    keyword=KEYWORD)
corpus = avengers.load_corpus(panel.config())
print(f"{len(corpus)} comments; the first: {corpus.texts[0]!r}")

# %% [markdown]
# ## By hand: the broad list's trials
#
# As in notebook 00, the rows of $S$ embed the sanitized comments and the rows of $T$ the
# comments as written; every comment is also a reference, so
# $a_{ij} = S_i \cdot (T_j - S_j)$ and the resolution is $\max(0, \max_{ij} a_{ij})$.
# The **broad** list removes the franchise's name, its film titles and the vocabulary of
# any superhero franchise. The cell reads the encoder and the comments from the panel.

# %%
config = panel.config()                      # the panel's encoder and comments
corpus = avengers.load_corpus(config)
encoder, texts = get_encoder(config.encoders[0]), list(corpus.texts)
broad = ConceptListSanitizer(tuple(corpus.concepts) + avengers.broad_list(config))
S = encoder.encode(broad.sanitize(texts))    # sanitized comments
T = encoder.encode(texts)                    # comments as written
a = S @ (T - S).T
i, j = np.unravel_index(a.argmax(), a.shape)

# %%
one = avengers.run(dataclasses.replace(config, sanitizers=("concept-list-broad",)))
member = one.table["concept-list-broad"].members[0]
print(f"by hand: max a = {a.max():.4f} at audited {i}, reference {j}")
print(f"privlab: resolution {member.value:.4f}, witness {member.witness.audited},"
      f"{member.witness.reference}")
print("agree:", bool(np.isclose(max(a.max(), 0.0), member.value, atol=1e-5)))

# %% [markdown]
# ## Exercise 03.1 · predict, then run
#
# The panel also audits **identity**, a sanitizer that changes nothing. Predict its
# resolution before you run the panel: set `answer` to a number.

# %%
answer = None   # the identity sanitizer's resolution

# %% [markdown]
# ## The study panel
#
# The sanitizers: **identity** (the baseline), **concept-list** (the name only),
# **concept-list-broad**, **regex-pii** (formats such as emails and phones), **presidio**
# (Microsoft Presidio offline) and **entity-types** (spaCy named entities). Entries marked
# *needs* say what they need. Pick an encoder, the 9- or 49-comment set, the sanitizers
# or a folder of comments, and press **Run**.

# %%
panel.show()

# %% [markdown]
# **How to read it**, top to bottom. The **headline** names the best sanitizer, on which
# comments and under which encoder, with its status. The **tradeoff plot**: lower is
# better privacy, further right keeps more of each comment; a sanitizer that moves
# down-left buys privacy with meaning. The **table** has one row per sanitizer; read the
# resolution with the *unchanged* and *name kept* columns.
#
# **The witnesses**: for each sanitizer, the released comment, the reference as written
# and as sanitized. Highlighted words are shared with the reference; a witness can also
# connect through meaning alone.
#
# **The seeded clues**: for each clue type, whether sanitizing **removed** it everywhere,
# or a kept one is the audited comment of a top witness (**caught**). **Missed** clues
# survived unnoticed: look at them before trusting a small resolution. A folder of
# comments has no answer key, and the panel says so.

# %% [markdown]
# **When a resolution reads 0**: "no violation detected for these comments, these
# references and this encoder", not privacy. A sanitizer that changes nothing also scores
# 0, trivially; a small proxy set or an encoder that does not know the lore can miss a
# clue.

# %%
exercises.check("03.1", answer)
exercises.solution("03.1")

# %% [markdown]
# ## Exercise 03.2 · edit the code
#
# **Utility** is the mean cosine between each comment and its sanitized version. Using
# `S` and `T` from the by-hand cell, bind `answer` to the broad list's utility and
# compare it with the table.

# %%
answer = None   # one line of numpy on S and T
exercises.check("03.2", answer, result=panel.result)
exercises.solution("03.2")

# %% [markdown]
# ## Exercise 03.3 · change a setting
#
# Choose **9** comments in the panel and press Run. Set `answer` to the name-only list's
# (`concept-list`) resolution. Can it ever be higher than on all 49? Why?

# %%
answer = None   # read from the table after the run on 9 comments
exercises.check("03.3", answer, result=panel.result)
exercises.solution("03.3")

# %% [markdown]
# ## Going further
#
# - [Franchise comments in detail](../docs/lessons/03-avengers.md): the test and the
#   utility formula, why the broad list names no character, the paper's 49 comments and
#   what a recorded run of privlab found on them, and how the clue table is scored.
