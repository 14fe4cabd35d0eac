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
# # 09 · Calibration: what does a resolution of 0.13 mean?
#
# **The question.** A resolution is a cosine difference on one encoder's scale, with no
# unit. To read it, compare it with connections everyone agrees on: a sentence about a dog
# and one about a cat are related; one about a dog and one about an orange much less. How
# large a resolution would miss such familiar connections?

# %% [markdown]
# **The boundary.** Take a sentence $u$ about concept $c$ (dogs), a sentence $v$ about
# concept $d$ (cats), $X_c$ the redaction of the words that name $c$, and cosines under
# the encoder:
#
# $$b(u, v) = \cos(u, v) - \max\{\cos(X_c(u), v),\ \cos(u, X_d(v))\}.$$
#
# A test run at a resolution above $b(u, v)$ would no longer register the pair as
# connected. The study computes $b$ for every pair of the two sets and reports
# percentiles: a resolution above the 95th percentile of dog/cat boundaries misses about
# 95% of those familiar connections.

# %% tags=["parameters"]
ENCODER = "minilm"   # a text encoder from privlab.encoders.registry
SOURCE = "auto"      # "auto" (the paper's files when present, else privlab's),
                     # "shared", "default" or a folder
DELTA = 0.13         # a resolution to interpret
IMAGE_ENCODERS = None  # image encoders from privlab.encoders.registry; None: the study's
IMAGE_SOURCE = "generated"  # "generated" (packaged photos) or a folder with images/ and masks/
PROJECTOR = False    # True: large print for a projector (every figure below)

# %%
import numpy as np

from privlab.contrastive.calibration import calibrate_pair
from privlab.datasets.concepts import concept_words
from privlab.encoders import get_encoder
from privlab.sanitizers import ConceptListSanitizer
from privlab.studies import calibration
from privlab.ui import exercises, plots, study_panel

plots.projector(PROJECTOR)
panel = study_panel(calibration, encoders=(ENCODER,), data=SOURCE, delta=DELTA,
                                 image_encoders=IMAGE_ENCODERS, image_data=IMAGE_SOURCE)

# %% [markdown]
# ## By hand: one boundary b(u, v)
#
# The first sentence of each concept of the first pair, with the encoder and sentence set
# chosen in the panel below (change them there, and this cell follows). The encoder gives
# unit rows, so a dot product is a cosine.

# %%
config = panel.config()                                     # the panel's choices
c, d = config.pairs[0]                                      # e.g. dogs and cats
sets = calibration.load_sets(config.data)
u, v = sets[c][0], sets[d][0]
X_c, X_d = ConceptListSanitizer(concept_words(c)), ConceptListSanitizer(concept_words(d))
encoder = get_encoder(config.encoders[0])
U, Us, V, Vs = encoder.encode([u, X_c.sanitize([u])[0], v, X_d.sanitize([v])[0]])
b = U @ V - max(Us @ V, U @ Vs)

# %% [markdown]
# privlab's `calibrate_pair` does the same for whole sets (here a set of one each):

# %%
pair = calibrate_pair([u], [v], X_c, X_d, encoder, concept_c=c, concept_d=d)
print(f"u    = {u}\nX(u) = {X_c.sanitize([u])[0]}\nv    = {v}\nX(v) = {X_d.sanitize([v])[0]}")
print(f"by hand: b = {b:.6f}   privlab: b = {pair.values[0, 0]:.6f}")
print("agree:", bool(np.isclose(b, pair.values[0, 0], atol=1e-6)))

# %% [markdown]
# ## The whole study
#
# One run computes both rulers: every text pair, then the same for images. Pick the
# encoder, the sentence set, the image members and the resolution to read, then press
# **Run**. The sentences are the paper's files (about 50 per concept) when the reference
# data is present, else privlab's own sets (12 per concept); the headline names which.

# %%
panel.show()

# %% [markdown]
# **Reading the text part.** The table in the panel gives the 90th, 95th and 99th
# percentiles of each pair's boundaries. The next table says, for the resolution you
# chose, the share of each pair's boundaries below it: the share of those familiar
# connections a test at that resolution would not register.

# %%
panel.part("resolution")   # redrawn on every Run

# %% [markdown]
# The box plot shows each pair's spread, with the chosen resolution as a dashed line.
# Unrelated pairs (dogs/oranges) sit near 0: the floor. The percentiles are a ruler for
# this encoder, these sentences and this sanitizer, not a universal scale.

# %%
panel.part("boxplot")

# %% [markdown]
# **Reading the image part** (when the panel runs image members). Each image member is
# its own adversary with its own scale: a generic one reads the black box as content, a
# face model sees only faces, and a describe-then-embed member sees only what its words
# name. A boundary at or below 0 is a pair the member never connects. Compare numbers
# within a member, never across members or with the text table.

# %%
panel.part("images")

# %% [markdown]
# Each concept is rendered from one packaged photo with seeded variations, and $X_c$
# blacks out exactly its pixels: what every member is shown.

# %%
panel.part("renderings")

# %% [markdown]
# The last table is a ceiling: one concept against itself.

# %%
panel.part("ceiling")

# %% [markdown]
# ## Exercises
#
# **09.1 (predict, then run).** Is the resolution you chose in the panel above the 95th
# percentile of the first pair's boundaries? Answer `True` or `False`, then check.

# %%
answer = None   # True or False
exercises.check("09.1", answer, result=panel.result)

# %%
exercises.solution("09.1")

# %% [markdown]
# **09.2 (change a setting).** Set **Resolution to read** to 0.05 and press **Run** (the
# result is redrawn, not recomputed). What share of the first pair's boundaries lies below
# 0.05 now? Why is it smaller?

# %%
answer = None   # a share between 0 and 1
exercises.check("09.2", answer, result=panel.result)

# %%
exercises.solution("09.2")

# %% [markdown]
# **09.3 (edit the code).** Change the by-hand cell to the unrelated pair dogs and oranges
# (`c, d = "dogs", "oranges"`) and run it. Bind `answer` to its boundary `b`.

# %%
answer = None   # b for the first dogs sentence and the first oranges sentence
exercises.check("09.3", answer, config=config)

# %%
exercises.solution("09.3")

# %% [markdown]
# ## Going further
#
# [docs/lessons/09-calibration.md](../docs/lessons/09-calibration.md) holds the formula
# with both of its forms, the sentence sets and how the paper's differ from privlab's,
# how the image renderings are made, what each image member can and cannot see, the
# offline image figures beside the paper's, and what the percentiles do not mean.
