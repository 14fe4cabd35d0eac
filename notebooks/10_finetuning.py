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
# **The question** (paper §4.4.4 and §5.1.1). The test only sees what the distance
# mechanism $\mathcal{D}$ connects to the target. A pretrained model that never saw an
# obscure person cannot link that person's recurring objects, clothing or backgrounds to
# them, so a sanitizer that blacks out the face and leaves such a cue can pass at
# resolution 0: a false pass. The paper's remedy is to fine-tune $\mathcal{D}$ on media of
# the target with *coarse* captions only ("a picture of John Doe"), never listing which
# properties reveal the target, and to audit again.
#
# **Offline here: a stand-in, not CLIP.** No CLIP or SigLIP weights ship with installed
# packages, so the default fine-tuned $\mathcal{D}$ is an *adapter*: a frozen packaged
# image extractor $f$ (EfficientNet-Lite0 or SFace) and a linear projection
# $g(x)=\mathrm{normalise}(Wf(x)+c)$ into the space of the packaged text encoder (MiniLM),
# trained on the captions. The audited mechanism blends both,
# $\mathcal{E}(x)=[\sqrt{1-m}\,f(x),\ \sqrt{m}\,g(x)]$, as a fine-tuned model keeps what it
# knew and adds what it learned. "siglip" below is the name of the *loss*, not of the
# model: the headline says "linear adapter on frozen EfficientNet-Lite0 + MiniLM, not
# CLIP". With weights at hand, `privlab.encoders.adapter.finetune_open_clip` fine-tunes
# both towers of any open_clip model with the paper's §5.1.1 recipe (sigmoid loss, AdamW
# at $10^{-5}$, weight decay 0.1, $\beta=(0.9, 0.98)$, $\epsilon=10^{-6}$, clipping at 1)
# and saves a checkpoint `OpenCLIPEncoder` loads.
#
# **Choosing the blend $m$.** $m$ is not tuned on the audited scenes. A third set of
# scenes of the target, drawn with its own seed and used neither for training nor for
# the held-out audit, is audited at each candidate $m$ (0.25, 0.5, 0.75, 1) after both
# blackouts, and the rule is: *the largest $m$ whose control (face and poster blacked
# out) passes at 0 on these validation scenes; if none passes, the smallest.* A
# $\mathcal{D}$ whose control fails flags the black boxes themselves, so its positive
# value on the face blackout says nothing about the poster; below that limit, the rule
# keeps as much of what training taught as it can. The face-blackout values are shown
# beside the control but do not enter the choice, so the rule cannot favour a pass or a
# fail of the audit. It reads the generator's masks of the validation scenes, as a
# hyperparameter search reads validation labels; the held-out scenes stay unseen until
# the audit, and their control is reported as measured, pass or fail.
#
# **The losses.** For a batch of $n$ pairs with unit image rows $u_i$, caption rows $v_j$,
# temperature $t$ and bias $b$, let $z_{ij}=t\,u_i\cdot v_j$.
#
# * CLIP (softmax): $\displaystyle L=-\frac{1}{2n}\sum_i\Big[\log\frac{e^{z_{ii}}}{\sum_j e^{z_{ij}}}
#   +\log\frac{e^{z_{ii}}}{\sum_j e^{z_{ji}}}\Big]$
# * SigLIP (sigmoid): $\displaystyle L=-\frac{1}{n}\sum_{i,j}\log\sigma\big(s_{ij}(z_{ij}+b)\big)$,
#   $s_{ij}=+1$ for a matching pair, $-1$ otherwise.
#
# As in the paper, each batch holds one example per identity: the target (Eileen Collins)
# and a contrast person (Grace Hopper). Every other training scene also shows the person's
# *signature object* (a space-shuttle poster for the target, a coffee picture for the
# contrast person), never named in any caption.
#
# **The audit.** Held-out scenes of the target, audited symmetrically after a blackout of
# the face, which leaves the poster in half of them; the control blacks out face and poster.

# %% tags=["parameters"]
ENCODER = "efficientnet-lite0"   # the base D: "efficientnet-lite0" or "sface"
LOSS = "siglip"
EPOCHS = None      # None: the study's default (fewer under PRIVLAB_SMOKE=1)
LR = 0.01
MIX = None         # blend weight in (0, 1]; None: chosen on the validation scenes
PROJECTOR = False  # True: large print for a projector (every figure below)

# %%
from privlab.studies import finetune
from privlab.ui import plots, study_panel

plots.projector(PROJECTOR)

# %% [markdown]
# ## Run it
#
# Pick the base extractor, the loss, the number of epochs, the learning rate and the
# blend, then press **Run** (training takes a little while; the bar under the button
# follows it). The output holds, in order: the headline; base D against the fine-tuned
# D on the held-out scenes; the blend chosen on the validation scenes (one row per
# candidate $m$: the fine-tuned $\mathcal{D}$'s resolution on the validation scenes after
# the face blackout and after the control blackout, and the one the rule chose); the
# training curve (epoch 0 is the loss before the first step; a curve that reaches 0 says
# the projection separates the two training identities, nothing yet about *which* cues
# it uses); and what the adapted D learned.

# %%
panel = study_panel(finetune, encoders=(ENCODER,), loss=LOSS, epochs=EPOCHS, lr=LR,
                              mix=MIX)
panel.show()

# %% [markdown]
# ## What the adapted D learned, measured
#
# The score is the cosine to "a picture of Eileen Collins" minus the cosine to "a picture
# of Grace Hopper", on held-out images. Read the last three rows together: if the poster
# rows do not stand above the others, the projection has not singled out the poster; it
# has learned "not the contrast person", and with two identities any face-less scene can
# fall on the target's side. The headline's last caveat states which it is for this run
# (`result.poster_learned`). On this notebook's settings, held-out scenes with face and
# poster blacked out score <!--q:score.face_and_poster-->1.004<!--/q--> against <!--q:score.poster_kept-->0.990<!--/q--> with the poster kept (and <!--q:score.no_poster-->0.886<!--/q--> for scenes
# with no poster). Where the poster rows do not stand above, the projection alone ($m=1$)
# also flags the control (held-out: <!--q:mix1.tuned.control-->0.193<!--/q--> on the control against <!--q:mix1.tuned.face-->0.212<!--/q--> on the face
# blackout); the blend keeps the base's geometry, under which blacked-out scenes resemble
# each other, but only up to a point. Pick the blend 1.0 in the panel (or set
# `MIX = 1.0`) to see it.

# %% [markdown]
# ## Reading the resolutions
#
# * **Base D at 0 on the face blackout** is the false pass the paper warns of: the base
#   extractor does not connect the poster to the target.
# * **Fine-tuned D above 0**, with a decisive witness that still shows the poster
#   (*witness keeps the poster* in the panel), is target-related signal the base missed.
# * **The control at 0** for both says the positive value is not the black boxes alone;
#   a control above 0 (the headline then says FAILS, and says before the fine-tuned
#   value that this value is not evidence of an exposed leak) says the fine-tuned value
#   cannot be told apart from the black boxes, whatever the poster does.
#
# **On this notebook's settings (measured; `benchmarks/figures.py` audits the other
# blends on the same trained weights).** On the 20 validation scenes the controls score
# <!--q:validation.0.25.control-->0.000<!--/q-->, <!--q:validation.0.5.control-->0.000<!--/q-->, <!--q:validation.0.75.control-->0.000<!--/q--> and <!--q:validation.1.control-->0.057<!--/q--> for $m$ = 0.25, 0.5, 0.75 and 1 (the face blackouts
# <!--q:validation.0.25.face-->0.000<!--/q-->, <!--q:validation.0.5.face-->0.000<!--/q-->, <!--q:validation.0.75.face-->0.000<!--/q--> and <!--q:validation.1.face-->0.043<!--/q-->). The rule takes $m$ = <!--q:mix-->0.75<!--/q-->. On the held-out scenes the
# fine-tuned $\mathcal{D}$ then scores <!--q:tuned.face-->0.124<!--/q--> on the face blackout, with its control at
# <!--q:tuned.control-->0.085<!--/q--> (the headline says FAILS when the control is above 0: the value cannot then
# be credited to the poster). For comparison, on the same held-out scenes and the same
# trained weights, $m$ = 0.25 gives <!--q:mix0.25.tuned.face-->0.010<!--/q--> with the control at <!--q:mix0.25.tuned.control-->0.000<!--/q-->, $m$ = 0.5 gives
# <!--q:mix0.5.tuned.face-->0.058<!--/q--> with the control at <!--q:mix0.5.tuned.control-->0.000<!--/q-->, and $m$ = 1 gives <!--q:mix1.tuned.face-->0.212<!--/q--> with the control at
# <!--q:mix1.tuned.control-->0.193<!--/q-->. Where validation does not separate the candidates below 1 and the
# held-out controls start failing between two blends, the line between "sees the poster"
# and "flags black boxes" falls between them: with an adapter that has not singled out
# the poster, a larger share of it buys sensitivity to blackouts, not to
# the target. This is a finding about the stand-in; the paper's fine-tuned SigLIP 2 was
# trained end to end and returned 0 on its control ($c_2$).
#
# **What the numbers do not say.** The closure premise (that the removed cues reach the
# target's other cues in $\mathcal{D}$) is plausible for the fine-tuned D after
# identity-specific training and deliberately uncertain for the base. A D tuned on the
# same proxy set it audits may overfit to it: its resolution is corpus-specific, and here
# the held-out scenes come from the same generator as the training gallery. A resolution
# of 0 stays "nothing found by this D on these images", and the SFace base, which sees
# faces only, stays blind to the poster after any training of a projection on top of it.
