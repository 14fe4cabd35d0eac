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
# # 01 · DiCaprio: is the person still recognisable after their face is blacked out?
#
# **The question** (paper §5.1). Each photo shows one person. A sanitizer blacks out what
# it believes identifies them. Is the person still recognisable in what is released?
#
# The paper audits 30 photos of Leonardo DiCaprio under EVA-CLIP. Offline, privlab
# *generates* scenes with ground truth: astronaut Eileen Collins (a real face that
# scikit-image ships), sometimes with her name as a caption, a second person or a space
# poster. Knowing which cue is where, we can build sanitizers that miss a chosen cue on
# purpose and check that the test finds it. Type a folder in the panel to audit real
# photos.

# %% tags=["parameters"]
ENCODERS = ["sface", "describe-then-embed", "ocr-text", "efficientnet-lite0"]
SANITIZERS = None          # None: the study's defaults
FOLDER = ""                # a folder of real photos instead of the generated corpus
RECURSIVE = False          # with FOLDER: include its sub-folders
MAX_SIDE = None            # with FOLDER: downscale photos to this longer side (None: 640)
GALLERY = ""               # known faces: a folder of <name>/*.jpg or <name>.jpg crops
LOGOS = ""                 # a logo gallery: a folder of <brand>/*.jpg or <brand>.jpg crops
NAME_OCR = "rapidocr"       # the name check's OCR: "rapidocr" or "easyocr" (independent of the text blackouts)
DELTA = 0.0                # flag images whose worst trial reaches this resolution
PLACEBO = True             # audit each sanitizer's placebo twin and report the excess
LADDER_MEMBERS = ["sface", "dlib-face", "describe-then-embed", "ocr-text", "efficientnet-lite0"]
TILT = 30.0                # degrees by which every other target portrait is turned (detector miss)
BY_HAND = "cues:faces only"  # the sanitizer the by-hand cell audits (a folder: "face-blackout-yunet")
MEMBER = "describe-then-embed"  # the member the by-hand cell uses
PROJECTOR = False          # True: large print for a projector (every figure below)

# %%
import numpy as np

from privlab.studies import dicaprio
from privlab.ui import exercises, plots, study_panel

plots.projector(PROJECTOR)
panel = study_panel(dicaprio, encoders=ENCODERS, sanitizers=SANITIZERS, data=FOLDER or None,
                    recursive=RECURSIVE, max_side=MAX_SIDE, gallery=GALLERY or None,
                    logos=LOGOS or None, name_ocr=NAME_OCR, delta=DELTA, placebo=PLACEBO)
print("members:", ", ".join(panel.config().encoders))

# %% [markdown]
# ## Exercise 01.1 · predict, then run
#
# The *faces only* sanitizer blacks out every face and leaves the name caption. Plain
# OCR (`ocr-text`) turns each image into the text it reads. Predict its resolution on
# that row before running the panel: set `answer` to a number.

# %%
answer = None   # ocr-text's resolution on "cues:faces only"

# %% [markdown]
# ## The study panel
#
# The test is notebook 00's, with images: for each member (a distance mechanism), the
# trial of released image $i$ against reference $j$ is
# $a_{ij} = \mathcal{E}(X_c(x_i)) \cdot (\mathcal{E}(y_j) - \mathcal{E}(X_c(y_j)))$, and
# the resolution is $\max(0, \max_{ij} a_{ij})$. Members are reported side by side, never
# averaged. Change the members, the sanitizers or the corpus and press **Run**;
# embeddings are cached by image content.

# %%
panel.show()

# %% [markdown]
# **How to read it**, in the order shown.
#
# - **Headline**: sanitizers that fail the operational condition first, then each
#   member's worst *excess* over the detector-based sanitizers that met it. The `cues:`
#   rows are controls that leave a cue on purpose: they stay in the tables, out of the
#   headline.
# - **Fidelity table**: does each sanitizer really remove the person (a face that still
#   matches the gallery, the name read by OCR), image by image? *independent* is False
#   where the check uses the sanitizer's own detector.
# - **Raw resolutions**: one column per member. *every cue* should read 0 under SFace
#   and describe-then-embed; *faces only* is the paper's false pass (SFace reads 0, the
#   caption is still there).

# %% [markdown]
# - **Placebo floor and excess**: the placebo twin makes the same marks where no cue
#   is; its resolution is the member's reaction to marks alone. The **excess**,
#   $\max(0, \delta^* - \delta^*_P)$, is what the sanitizer *left*.
# - **Decisive witnesses**: released image, original reference, sanitized reference,
#   with the words describe-then-embed read under each.
# - **Which images to withhold**: images whose worst trial reaches $\delta$ and exceeds
#   the placebo.
# - **Do the members agree?** Spearman's $\rho$ over how members rank the sanitizers;
#   with fewer than four sanitizers the *reading* column says not to read it.
# - **Leak detection per cue**: each row leaves one cue; a row with no *flag* is a blind
#   spot of the whole ensemble (the space poster, here).

# %% [markdown]
# **When a number reads 0**: no trial found a connection for these images under this
# member. Check three things before calling it private: did the sanitizer pass the
# fidelity table; does the member *see* what was left (a face member cannot read a
# caption, OCR cannot see a face); and is another member positive on the same row?

# %%
exercises.check("01.1", answer, result=panel.result)
exercises.solution("01.1")

# %% [markdown]
# ## By hand: one member, one sanitizer
#
# Take the released images and the originals of the *faces only* blackout from the
# panel's last run, embed both with `MEMBER`, describe-then-embed (it writes the OCR
# text and the name of a recognised face into one sentence, then embeds it), and build
# the trial matrix. Every image is also a reference, so $T_c = S$.

# %%
result = panel.result                          # the panel's last run drives this cell
audit = result.audit(BY_HAND)                  # that sanitizer's audit
k = list(result.config.encoders).index(MEMBER) if MEMBER in result.config.encoders else 0
member = result.encoders[k]                    # MEMBER, or the first member if unticked
S = member.encode(audit.sanitized)             # released images, one unit row each
T = member.encode(audit.originals)             # originals
a = S @ (T - S).T
i, j = np.unravel_index(a.argmax(), a.shape)

# %%
value = audit.members[k].value
print(f"by hand ({result.config.encoders[k]}): max a = {a.max():.4f} at released {result.labels[i]}, "
      f"reference {result.labels[j]}")
print(f"privlab: resolution {value:.4f}")
print("agree:", bool(np.isclose(max(a.max(), 0.0), value, atol=1e-4)))

# %% [markdown]
# ## Exercise 01.2 · edit the code
#
# The placebo's outputs are in `audit.placebo_sanitized`. Extend the by-hand cell: embed
# them with `member`, compute the placebo's resolution the same way, and bind `answer`
# to the excess $\max(0, \delta^* - \delta^*_P)$. Compare it with the panel's excess.

# %%
answer = None   # the excess of describe-then-embed on BY_HAND
exercises.check("01.2", answer, result=panel.result)
exercises.solution("01.2")

# %% [markdown]
# ## The sanitization ladder
#
# How much has to go before nothing is left? Four rungs, each removing more: **face**;
# **face + text** (every line OCR reads); **whole person + text**; **full image** (every
# pixel: a control that every member must read as 0, placebo included). The ladder runs on
# the corpus of the panel above and says so when that panel has run on other settings.

# %%
ladder = study_panel("dicaprio.ladder", follow=panel, encoders=LADDER_MEMBERS)
ladder.show()

# %% [markdown]
# **How to read it**: raw resolution, placebo and excess rung by rung, then what each
# rung leaves of the seeded cues (the share of each cue's box blacked out). The
# resolution falls to 0 where the cues these members read (faces and names) are gone. It
# does not say that rung is private: the astronaut suit and the space poster are still
# there, and no offline member reads them.

# %% [markdown]
# ## A face the blackout's detector misses
#
# A face blackout removes only the faces its detector finds. OpenCV's Haar cascade stops
# at about 20° of tilt; here every other portrait is turned by `TILT` degrees. The Haar
# and the YuNet blackouts are audited under SFace (which detects with YuNet) and dlib
# (its own detector). Change the tilt and press **Run**.

# %%
miss = study_panel("dicaprio.detector_miss", follow=panel, tilt=TILT)
miss.show()

# %% [markdown]
# **How to read it**: each side's detector, resolution, placebo, excess and the faces a
# member still counts in the released images. A member that shares the blackout's
# detector cannot see what that detector missed: its 0 there holds by construction, which
# is why dlib, whose detector shares no model with either blackout, is in the table.

# %% [markdown]
# ## Exercise 01.3 · change a setting
#
# Tick **dlib-face** among the panel's members and press Run. Set `answer` to dlib's
# resolution on the *faces only* row. Why does a second face member not catch the
# caption either?

# %%
answer = None   # dlib-face's resolution on "cues:faces only"
exercises.check("01.3", answer, result=panel.result)
exercises.solution("01.3")

# %% [markdown]
# **A folder of your photos.** Set `FOLDER` (and `GALLERY`, named face crops, so that
# describe-then-embed can name a face). The `cues:` rows and the leak table are gone (no
# ground truth); four detector-based sanitizers run instead, and the witnesses name the
# files.
#
# ## Going further
#
# - [DiCaprio in detail](../docs/lessons/01-dicaprio.md): what a member can and cannot
#   see, the placebo control, the operational condition and its fidelity checks, text a
#   sanitizer made, the ladder and the detector miss, with a recorded run's figures.
