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
# # 10 · Fine-tuning the distance mechanism for an unseen identity
#
# **The question** (the paper's §4.4.4). The test only sees what its distance mechanism D
# connects to the target. A model that never saw an obscure person cannot link the
# objects they are always seen with to them, so a sanitizer that blacks out the face and
# leaves such an object can pass at resolution 0: a *false pass*. Does fine-tuning D on
# pictures of the target, with coarse captions only ("a picture of Eileen Collins"), make
# the test see it?

# %% [markdown]
# **The scenes** are generated with ground truth: the target's portrait and, in every
# other scene, her *signature object*, a space-shuttle poster that no caption names. A
# contrast person (Grace Hopper) has her own. **The fine-tuned D** is a stand-in, not
# CLIP: a linear adapter on a frozen image extractor, trained towards the text encoder's
# caption embeddings and blended with the frozen features at a weight $m$ chosen on
# validation scenes. **The audit**: held-out scenes with the face blacked out (half keep
# the poster); the *control* blacks out face and poster.

# %% tags=["parameters"]
ENCODER = "efficientnet-lite0"   # the base D: "efficientnet-lite0" or "sface"
LOSS = "siglip"
EPOCHS = None      # None: the study's default
LR = 0.01
MIX = None         # blend weight in (0, 1]; None: chosen on the validation scenes
PROJECTOR = False  # True: large print for a projector (every figure below)

# %%
import numpy as np

from privlab.contrastive import audit
from privlab.datasets.scene_cues import cue_blackout
from privlab.encoders import get_encoder
from privlab.studies import finetune
from privlab.ui import exercises, plots, study_panel

plots.projector(PROJECTOR)
panel = study_panel(finetune, encoders=(ENCODER,), loss=LOSS, epochs=EPOCHS, lr=LR,
                              mix=MIX)

# %% [markdown]
# ## By hand: the contrastive kernel under the base D
#
# The held-out scenes $x_i$ are audited against themselves: row $i$ of $S$ embeds the
# sanitized scene $X(x_i)$, row $j$ of $T$ the scene as drawn, and $T_c$ the sanitized
# references, which here are $S$ again. The trial is $a_{ij} = S_i \cdot (T_j - T_{c,j})$,
# the resolution $\max(0, \max_{ij} a_{ij})$, and its argmax the decisive witness. The
# base D is the one chosen in the panel below.

# %%
config = panel.config()                                   # the panel's base D and sizes
scenes = finetune.heldout_scenes(config)                  # the study's held-out scenes
blacked = cue_blackout(scenes, finetune.SANITIZERS[finetune.FACE]).sanitize(scenes.images)
encoder = get_encoder(config.encoders[0])                 # the base D
S, T = encoder.encode(blacked), encoder.encode(scenes.images)
a = S @ (T - S).T                                         # T_c = S: every scene is a reference
delta, (i, j) = max(0.0, float(a.max())), np.unravel_index(a.argmax(), a.shape)

# %%
member = audit(scenes.images, sanitized=blacked, encoders=[encoder]).members[0]
print(f"by hand: max a = {a.max():.4f}, resolution {delta:.4f}, witness ({i}, {j})")
print(f"privlab: max a = {member.resolution.max_difference:.4f}, resolution "
      f"{member.value:.4f}, witness ({member.witness.audited}, {member.witness.reference})")
print("agree:", bool(np.isclose(delta, member.value, atol=1e-5)))

# %% [markdown]
# ## The whole study
#
# The panel trains the adapter, chooses the blend on validation scenes, and audits the
# held-out scenes under the base D and the fine-tuned D. Pick the base extractor, the
# loss, the epochs, the learning rate and the blend, then press **Run** (the bar under the
# button follows the training).

# %%
panel.show()

# %% [markdown]
# **Base D against fine-tuned D.** A base D at 0 on the face blackout is the false pass
# the paper warns of. A fine-tuned D above 0, with a witness that keeps the poster, is
# signal the base missed, but only if **the control passes at 0**: a control above 0 means
# the fine-tuned D flags the black boxes themselves, and the headline then says FAILS
# before it gives the value.

# %% [markdown]
# **The blend** table has one row per candidate $m$, audited on validation scenes; the
# rule takes the largest $m$ whose control passes (else the smallest).

# %%
panel.part("blend")   # redrawn on every Run

# %% [markdown]
# **The training curve** starts at epoch 0, before training; a curve near 0 says the two
# training identities are separated, not *which* cues did it.

# %%
panel.part("curve")

# %% [markdown]
# **What the adapted D learned.** The score is the cosine to the target's caption minus
# the cosine to the contrast person's, on held-out images. If the poster rows do not stand
# above the others, the adapter has not singled out the poster: it has learned "not the
# contrast person".

# %%
panel.part("learned")

# %% [markdown]
# The headline's last caveat says which it is for this run:

# %%
result = panel.result   # None when the panel shows a message instead
print(f"poster singled out: {result.poster_learned}" if result else "no result")

# %% [markdown]
# ## Exercises
#
# **10.1 (predict, then run).** Does the base D flag the face blackout, that is, is its
# resolution above 0? Answer `True` or `False`.

# %%
answer = None   # True or False
exercises.check("10.1", answer, result=panel.result)

# %%
exercises.solution("10.1")

# %% [markdown]
# **10.2 (change a setting).** Choose **Blend m** = 1.0 (the projection alone) and press
# **Run**. Does the held-out control still pass? Answer `"passes"` or `"fails"`.

# %%
answer = None   # "passes" or "fails"
exercises.check("10.2", answer, result=panel.result)

# %%
exercises.solution("10.2")

# %% [markdown]
# **10.3 (edit the code).** In the by-hand cell, encode with the fine-tuned D instead:
# `encoder = panel.result.tuned_encoder`. Run it and bind `answer` to `delta`. Is it the
# panel's fine-tuned value?

# %%
answer = None   # the fine-tuned D's resolution, by hand
exercises.check("10.3", answer, result=panel.result)

# %%
exercises.solution("10.3")

# %% [markdown]
# ## Going further
#
# [docs/lessons/10-finetuning.md](../docs/lessons/10-finetuning.md) holds the stand-in
# adapter and the recipe for a real open_clip model, the rule that chooses the blend, the
# two losses, the measured resolutions of every blend on the same trained weights, and
# what the numbers do not say.
