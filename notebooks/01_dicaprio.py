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
# **The question** (paper §5.1). A collection of photos each shows one person. A
# sanitizer blacks out what it believes identifies them. Is the person still
# recognisable in what is released?
#
# The paper audits 30 photos of Leonardo DiCaprio under the EVA-CLIP embedding. No CLIP
# weights ship with installable packages, so the offline default here is a *generated*
# corpus with ground truth: the target is astronaut Eileen Collins (the real face that
# scikit-image ships), composed into scenes that sometimes carry her name as a caption, a
# second person (Grace Hopper, the face matplotlib ships) or a space poster. Because we
# know which cue is where, we can build sanitizers that miss a chosen cue on purpose and
# check that the test finds it. Point the corpus widget at a folder to audit real photos.
#
# **The test.** For a distance mechanism $\mathcal{E}$ (unit embeddings, cosine), the
# trial of a sanitized audited image $x_i$ against a reference $y_j$ is
#
# $$a_{ij} = \mathcal{E}(X_c(x_i)) \cdot T_j, \qquad
#   T_j = \mathcal{E}(y_j) - \mathcal{E}(X_c(y_j)),$$
#
# that is $\cos(X_c(x_i), y_j) - \cos(X_c(x_i), X_c(y_j))$: is the released $x_i$ closer to
# the original $y_j$ than to its sanitized version? The **resolution** is
# $\delta^* = \max(0, \max_{ij} a_{ij})$ and the trial attaining it is the **decisive
# witness**. Every image is both audited and reference (the symmetric case of the paper).
#
# **What the number means.** $\delta^* > 0$: a released image still points toward what
# the sanitizer removed elsewhere, by that much cosine, *on this member's scale*.
# $\delta^* = 0$: no such trial for these images and this member. It is not a guarantee:
#
# * **A member only sees what was removed somewhere.** If the sanitizer left reference
#   $y_j$ unchanged *as this member sees it*, then $T_j = 0$ and $y_j$ can never witness
#   anything. A plain OCR → text member reads the same caption before and after a
#   face-only blackout, so every $T_j$ is 0 for it: it *cannot* catch the caption that the
#   blackout left. Catching it needs a space where the removed face and the caption's
#   words meet — CLIP in the paper; here *describe-then-embed*, which writes the name of a
#   recognised face and the OCR text into one sentence.
# * **A generic embedding is a poor distance for identity.** ImageNet features describe
#   what a picture looks like (colours, shapes, a black box), not whose identity it
#   reveals; they react to the blackout itself and miss a name written on a sign.
# * **Members are reported separately, never averaged** (§4.4.4): their scales differ,
#   and resolution 0 is required from every member.

# %% tags=["parameters"]
ENCODERS = ["sface", "describe-then-embed", "ocr-text", "efficientnet-lite0"]
SANITIZERS = None          # None: the study's defaults (smaller under PRIVLAB_SMOKE=1)
FOLDER = ""                # a folder of real photos instead of the generated corpus
DELTA = 0.0                # flag images whose worst trial reaches this resolution

# %%
from privlab.studies import dicaprio
from privlab.ui import plots
from privlab.ui.panels import ImageStudyControls

controls = ImageStudyControls(dicaprio, ENCODERS, SANITIZERS, FOLDER, DELTA)
controls

# %% [markdown]
# Change the widgets, then re-run the cells below. Embeddings and OCR readings are cached
# by image content, so changing one member re-encodes only that member.

# %%
result = dicaprio.run(controls.config())
result.members().round(4)

# %% [markdown]
# **Reading the table.** One column per member, one row per sanitizer; no column is an
# average. The *every cue* row removes everything the generator seeded: under SFace and
# describe-then-embed it should read 0. The *faces only* row is the paper's false pass:
# SFace finds no face anywhere and reads 0, plain OCR reads 0 for the structural reason
# above, and describe-then-embed reads a large violation. *Second face left* shows the
# concept ambiguity penalty: Grace Hopper's face is in the closure of "faces", so a
# released image that still shows her is closer to an original with a face than to its
# blacked-out version.

# %%
plots.privacy_utility_scatter(result.labelled_frame(),
                              title="privacy–utility, one marker per member");

# %% [markdown]
# ## Decisive witnesses
#
# Each gallery shows the released image $X_c(x)$, the original reference $y$ and its
# sanitized version $X_c(y)$, with the signed difference. Under each panel, the words the
# describe-then-embed member read.

# %%
plots.image_witness_galleries(result);

# %% [markdown]
# ## Which images to withhold
#
# An image whose worst trial reaches $\delta$ is flagged: withholding it (or sanitizing
# it again) is the remedy the audit workflow of §4.5 suggests.

# %%
result.flags(controls.delta.value).round(3)

# %% [markdown]
# ## Do the members agree? (Table 1)
#
# Spearman's $\rho$ compares how members *rank* the sanitizers (NaN where a member gives
# every sanitizer the same value); the counts are outcomes whose unrounded resolution is
# exactly 0, and *contradicted* counts a member's zeros that another member finds positive.

# %%
from IPython.display import display

display(result.agreement().round(3))
result.zeros()

# %% [markdown]
# ## Leak detection per cue
#
# Each row leaves one cue kind in place and removes every other; a cell reads *flag* when
# the member's resolution exceeds δ (\* when the decisive witness's released image really
# contains the left cue). A row with no flag is a blind spot the whole ensemble shares:
# here, a space poster left while the face is removed — a context cue that none of the
# offline members connects to the person (a CLIP-like member might).

# %%
result.leak_matrix()

# %%
result.headline().show()
