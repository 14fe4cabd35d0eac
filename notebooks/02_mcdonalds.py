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
# # 02 · McDonald's: is the brand still recognisable after the logo is gone?
#
# **The question** (paper §5.2). Photos each show a fast-food brand's logo. A sanitizer
# removes the logo, or more. Is the brand still identifiable from what is released: the
# name on a sign, a sticker on a door, the shape of the food?
#
# The paper audits 49 McDonald's photos under EVA-CLIP. Offline, privlab generates scenes
# of a fictional brand, QUIKBITE (an original logo: a red tile with a golden ring and
# bolt), on storefronts, cups, bags and signs, with the name in text and fries-like and
# burger-like props, all with ground truth. Type a folder in the panel to audit real
# photos.

# %% tags=["parameters"]
ENCODERS = ["describe-then-embed", "ocr-text", "efficientnet-lite0", "sface"]
SANITIZERS = None          # None: the study's defaults
FOLDER = ""                # a folder of real photos instead of the generated corpus
RECURSIVE = False          # with FOLDER: include its sub-folders
MAX_SIDE = None            # with FOLDER: downscale photos to this longer side (None: 640)
GALLERY = ""               # known faces: a folder of <name>/*.jpg or <name>.jpg crops
LOGOS = ""                 # logo gallery: a folder of <brand>/*.jpg or <brand>.jpg logo crops
NAME_OCR = "rapidocr"       # the name check's OCR: "rapidocr" or "easyocr" (independent of the text blackouts)
DELTA = 0.0                # flag images whose worst trial reaches this resolution
PLACEBO = True             # audit each sanitizer's placebo twin and report the excess
BY_HAND = "cues:logos and food (name left)"  # the row the by-hand cell audits (a folder: "text-blackout-ocr")
PROJECTOR = False          # True: large print for a projector (every figure below)

# %%
import numpy as np

from privlab.studies import mcdonalds
from privlab.ui import exercises, plots, study_panel

plots.projector(PROJECTOR)
panel = study_panel(mcdonalds, encoders=ENCODERS, sanitizers=SANITIZERS, data=FOLDER or None,
                    recursive=RECURSIVE, max_side=MAX_SIDE, gallery=GALLERY or None,
                    logos=LOGOS or None, name_ocr=NAME_OCR, delta=DELTA, placebo=PLACEBO)
print("members:", ", ".join(panel.config().encoders))

# %% [markdown]
# ## Exercise 02.1 · predict, then run
#
# SFace is a face-identity member. Predict its **largest** resolution over every
# sanitizer on these brand scenes, before running the panel.

# %%
answer = None   # SFace's largest resolution over the rows

# %% [markdown]
# ## The study panel
#
# The test and the placebo are notebook 01's: for each member, the trials
# $a_{ij} = \mathcal{E}(X_c(x_i)) \cdot (\mathcal{E}(y_j) - \mathcal{E}(X_c(y_j)))$, the
# resolution $\delta^* = \max(0, \max_{ij} a_{ij})$, and the **excess**
# $\max(0, \delta^* - \delta^*_P)$ over the placebo twin, which makes the same marks where
# no cue is. Change the members, the sanitizers or the corpus and press **Run**.

# %%
panel.show()

# %% [markdown]
# **How to read it**, in the order shown.
#
# - **Headline**: sanitizers failing the operational condition first, then each member's
#   worst excess over the detector-based sanitizers that met it; the `cues:` controls
#   leave cues on purpose and stay in the tables.
# - **Fidelity table**: is the brand's name still read by OCR, image by image?
# - **Raw resolutions**: *every cue* removes all seeded cues; each other row leaves one
#   kind. SFace reads 0 everywhere (no faces). The text members read 0 when the name is
#   left everywhere: they see nothing removed to compare with. EfficientNet reacts to what
#   is left, and to black boxes too.

# %% [markdown]
# - **Placebo floor and excess**: only what is above the placebo is excess. The table
#   prints each member's floor; a generic member's floor can be as large as its raw values.
# - **Decisive witnesses**: released image, original reference, sanitized reference,
#   with the words describe-then-embed read in each.
# - **Which images to withhold**: worst trial at or above $\delta$ and above the placebo.
# - **Agreement**: Spearman's $\rho$ of how members rank the sanitizers (not read with
#   fewer than four).
# - **Leak detection per cue**: a row with no *flag* is a blind spot of the whole offline
#   ensemble; here the food props, and the name for every member that reads words.

# %% [markdown]
# **When a number reads 0**: this member found nothing on these images. For brands that
# often means the member cannot see the cue that was left (SFace sees no logo, OCR no
# fries), or that the cue was left everywhere, so nothing removed shows what it looks
# like. Read the leak table's blind spots before calling a sanitizer private.

# %%
exercises.check("02.1", answer, result=panel.result)
exercises.solution("02.1")

# %% [markdown]
# ## By hand: EfficientNet's excess on one row
#
# From the panel's last run, take the row that removes the logos and the food and leaves
# the name. Embed the released images, the originals and the placebo's outputs with
# EfficientNet-Lite0, and compute the resolution, the placebo's, and the excess.

# %%
result = panel.result                                    # the panel's last run
audit = result.audit(BY_HAND)
member = result.encoders[list(result.config.encoders).index("efficientnet-lite0")]
S, T = member.encode(audit.sanitized), member.encode(audit.originals)
P = member.encode(audit.placebo_sanitized)               # the placebo twin's outputs
raw = max(0.0, float((S @ (T - S).T).max()))
placebo = max(0.0, float((P @ (T - P).T).max()))
excess = max(0.0, raw - placebo)

# %%
mine = audit.members[list(result.config.encoders).index("efficientnet-lite0")]
print(f"by hand: resolution {raw:.4f}, placebo {placebo:.4f}, excess {excess:.4f}")
print(f"privlab: resolution {mine.value:.4f}, excess {mine.excess:.4f}")
print("agree:", bool(np.isclose(raw, mine.value, atol=1e-4)
                     and np.isclose(excess, mine.excess, atol=1e-4)))

# %% [markdown]
# ## Exercise 02.2 · edit the code
#
# Copy the by-hand cell and change it to audit the row that leaves the food
# (`"cues:logos and name (food left)"`). Bind `answer` to EfficientNet's excess there.
# Is the food a cue this member sees beyond the boxes?

# %%
answer = None   # EfficientNet's excess on the food-left row
exercises.check("02.2", answer, result=panel.result)
exercises.solution("02.2")

# %% [markdown]
# ## Exercise 02.3 · change a setting
#
# Untick **Placebo** in the panel and press Run. Set `answer` to the number of non-zero
# cells of the withhold table. Why do more images get flagged?

# %%
answer = None   # a count read from the table
exercises.check("02.3", answer, result=panel.result)
exercises.solution("02.3")

# %% [markdown]
# **A folder of your photos.** Type a folder in the panel (or set `FOLDER`). The
# `cues:` rows and the leak table are gone; four detector-based sanitizers run instead,
# plus the logo blackout when a logo gallery is given, and file names label every
# witness and flag.
#
# ## Going further
#
# - [McDonald's in detail](../docs/lessons/02-mcdonalds.md): what each member can and
#   cannot see, the logo finder on real photos, the placebo, the fidelity checks and a
#   recorded run's figures.
# - [The logo finder](../docs/methods/logo-finder.md): how logos are found on real photos.
