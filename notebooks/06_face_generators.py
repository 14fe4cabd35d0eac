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
# # 06 · Face generators: what do the ε routes say about identity embeddings?
#
# **The question.** A face generator (a face swapper, an identity-conditioned image
# model) changes a picture a lot. Does a face-recognition model still tell *whose* face
# went in? And which of the numbers called "ε" that an audit can compute is evidence
# about differential privacy (DP)?
#
# **The threat model (one release).** A curator is handed one of two identities, A or
# B, by a hidden bit. It draws an image $X$ of that person from the person's image
# collection $P_{\mathrm{id}}$, runs the generator $Y = g(X; R)$ and releases $Y$. The
# auditor knows the procedure and the two candidates, embeds $Y$ with a fixed face
# encoder $\phi$ and guesses the bit. **Two things are random:** the drawn source image
# $X$ and the generator's own randomness $R$ (constant for a deterministic generator).
# After averaging over both, the channel maps an identity to a *distribution* of
# embeddings, and it is identity-indexed $(\varepsilon, \delta)$-DP if for every two
# identities and every set $S$ of embeddings
# $\Pr[\phi(Y) \in S \mid A] \le e^{\varepsilon} \Pr[\phi(Y) \in S \mid B] + \delta$.
# A table with one row per generated image (identity label + embedding) is a sample
# from that channel. This is not a claim about one fixed photograph a user picks.
#
# **The five numbers and their formal status** (δ = 0 in the conversions, as in the
# paper's face study; GaussMech keeps its formula δ = 1e-5):
#
# | route | formula | status | evidence about DP? |
# |---|---|---|---|
# | GaussMech | $\lVert\hat\mu_A-\hat\mu_B\rVert_2\sqrt{2\ln(1.25/\delta)}/\max(\hat\sigma_A,\hat\sigma_B)$ | diagnostic | no: a signal-to-noise score |
# | KDE-LR | $\sum_{d'}\max_x\lvert\log\tilde p^{(d')}_A(x)-\log\tilde p^{(d')}_B(x)\rvert$ | diagnostic | no: coordinates are not separate mechanisms |
# | MMD-TV | $\ln\frac{1+\widehat{\mathrm{MMD}}/2}{1-\widehat{\mathrm{MMD}}/2}$ | uncertified population bound | valid for the population MMD under pure DP; the sample value is not a bound |
# | ROC-HT (out of fold) | $\max_i\{\ln\frac{1-\widehat{\mathrm{FPR}}_i}{1-\widehat{\mathrm{TPR}}_i},\ln\frac{\widehat{\mathrm{TPR}}_i}{\widehat{\mathrm{FPR}}_i}\}$ | descriptive | no: often $+\infty$ from an ROC endpoint |
# | reserved test | $\max\{0,\ln\frac{1-U_{FN}}{U_{FP}},\ln\frac{1-U_{FP}}{U_{FN}}\}$ | finite-sample certificate | yes, if the rows are iid draws |
#
# The reserved test splits each identity's rows into development and test rows. On
# development rows only it ranks the pairs, picks the most distinguishable ones (no
# identity used twice), fits a logistic regression and fixes a threshold; the fixed rule
# then meets the test rows once. $U_{FP}$, $U_{FN}$ are one-sided Clopper–Pearson upper
# bounds on its two error rates, each at level α / (2 · number of selected pairs), so all
# bounds hold together with confidence 1 − α.
#
# **What no number here can say.** The generators audited with this notebook have no
# known privacy value, so the results calibrate nothing and rank no method (notebook 05
# does that on mechanisms of known ε). A positive certified bound refutes a claimed ε
# below it *only if* the rows are independent draws from each identity's channel; a zero
# bound certifies nothing, and a large diagnostic is not a measurement of ε.

# %% tags=["parameters"]
TABLE = ""            # a .csv or .npz table of generated-image embeddings; "" = offline toy default
STRENGTH = 0.1        # toy generator strength of the audited default table
COMPARE_STRENGTH = 0.4  # a second, stronger toy generator on the same pairs
ALPHA = 0.05          # simultaneous level of all certified bounds
CASCADE_PASSES = None  # random-donor cascade passes; None: the study's (5; 2 if smoke); 0 skips
ENCODERS = None       # the face member embedding the toy outputs, e.g. ("dlib-face",)
N_PAIRS = None        # identity pairs audited (None: the study's)
PROJECTOR = False     # True: large print for a projector

# %%
from privlab.studies import face_generators
from privlab.ui import plots, study_panel

plots.projector(PROJECTOR)

# %% [markdown]
# ## The offline default: a toy face generator
#
# With no table file, privlab builds one. The only real faces that installed packages
# ship are Eileen Collins (`skimage.data.astronaut()`), Grace Hopper (matplotlib's
# sample photo) and the cameraman of `skimage.data.camera()`: three identities, **one
# photo each**. The toy generator draws a crop, shift, zoom, rotation, mirror, lighting
# change, blur, pixel noise and an occluding patch per output, with ranges set by one
# knob, `strength`. Because each identity has a single photo, $P_{\mathrm{id}}$ is a
# point mass here and all randomness is the generator's $R$; the crops imitate, but are
# not, different photographs. SFace (YuNet detector + SFace recogniser) embeds each
# output; an output where no face is detected maps to one fixed "no face" vector, which
# is the same for every identity.
#
# The output of the panel below starts with four outputs of each identity, at the two
# strengths.

# %% [markdown]
# ## Run the study
#
# One call loads (or generates) the table(s), audits a seeded list of identity pairs
# with every chosen route, runs the reserved test on unused rows and writes the
# record a rerun needs, and runs the repeated random-donor cascade of the last section.
# `PRIVLAB_SMOKE=1` uses 30 outputs per identity instead of 60, and a cascade of 2 passes
# on 4 targets × 20 sequences instead of 5 passes on 8 × 60. The full cascade embeds
# 2,400 images and takes a few minutes (the embedding cache makes a rerun quick).
#
# Type a table file, or move the strengths, pick the encoder, the number of pairs, the
# routes and α, and press **Run**. The output holds, in order: the headline; the toy
# generators' outputs; the embedding tables' duplicate groups; every route on every pair;
# the certified bounds; the record a rerun needs (folded); the cascade. The sections
# below say how to read each.

# %%
panel = study_panel(face_generators, data=TABLE or None, strength=STRENGTH,
                                     compare_strength=COMPARE_STRENGTH, encoders=ENCODERS,
                                     n_pairs=N_PAIRS, alpha=ALPHA,
                                     cascade_passes=CASCADE_PASSES)
panel.show()

# %% [markdown]
# ## The embedding tables
#
# A table's load report says what happened to its rows: missing and zero-norm vectors
# are dropped and counted (never silently), and vectors that occur more than once are
# listed, within one identity and across identities. A vector shared by two identities
# is a warning sign for the iid row model and for any separability number. The output
# lists the duplicate groups of every audited table (the toy generator's "no face"
# outputs are such duplicates).

# %% [markdown]
# ## What each route reports (read by the `status` column)
#
# Medians over the same pairs: `median` counts +∞ values (it is +∞ when more than half
# the pairs are), `median (finite)` leaves them out; `+inf` counts out-of-fold ROC
# conversions that are infinite, and `(0,1) corner` counts ROC curves that really reach
# perfect separation. MMD-TV also runs a permutation test of equal distributions with
# 10^4 permutations (p = (b + 1)/(P + 1), so the smallest possible p is 1/10001):
# `MMD reject` counts the pairs it rejects at p ≤ 0.05 per pair and after a Bonferroni
# correction over the pairs. A rejection says the two identities' embeddings differ; it
# says nothing about the size of ε.

# %% [markdown]
# How to read it. GaussMech and MMD-TV fall when the generator gets stronger; the AUC
# falls too, while on the toy default the permutation test still rejects equal
# distributions for every pair. KDE-LR does not follow: identical "no face" vectors make
# some coordinates' densities spiky, so its sum can *grow* while the identities become
# harder to tell apart — a diagnostic of marginal shapes, not of privacy. ROC-HT's
# direct conversion is $+\infty$ for every pair even where the AUC is far from 1: a
# finite ROC curve has an endpoint with no observed errors, which is not evidence of
# infinite ε.

# %% [markdown]
# ## The reserved test on unused rows

# %% [markdown]
# **Detection failure is not privacy.** Every output in which the detector finds no
# face becomes the same "no face" vector, whatever the identity, so those outputs are
# neither near nor far from anything: a classifier cannot tell them apart, and a bound
# computed with them measures how often the detector fails. The study counts them per
# identity and condition (the table under the embedding tables), and where there are
# any it runs the routes and the certificate a second time on the outputs with a face
# only (rows `..., faces only`; same split, pairs selected again on development rows
# with a face).
# The headline gives the count, then the bound with them and without them. Measured on
# this notebook's settings (the toy audits are the same in every profile): at strength
# <!--q:0.strength-->0.1<!--/q-->, <!--q:0.no_face-->3<!--/q--> of <!--q:0.outputs-->180<!--/q--> outputs have no face (all of the
# cameraman); at strength <!--q:1.strength-->0.4<!--/q-->, **<!--q:1.no_face-->118<!--/q--> of <!--q:1.outputs-->180<!--/q-->** (the table
# under the embedding tables gives them per identity). With them, the strong generator's
# certificate is <!--q:1.bound-->0.000<!--/q-->: its selected pair (Eileen Collins, Grace Hopper) makes
# <!--q:1.errors-->9<!--/q--> errors on <!--q:1.test_rows-->36<!--/q--> test rows, all of them shared "no face" vectors. Without
# them the same pair makes <!--q:1.faces.errors-->0<!--/q--> errors on the <!--q:1.faces.test_rows-->17<!--/q--> test rows left,
# and certifies ε ≥ <!--q:1.faces.bound-->0.207<!--/q-->, the most those rows can certify at this α. The
# fall from the weak generator's bound (<!--q:0.bound-->1.122<!--/q--> with, <!--q:0.faces.bound-->1.086<!--/q--> without) is
# therefore mostly fewer usable faces, not outputs that look alike: on the faces the
# detector still finds, the strong generator's identities stay perfectly separable.

# %% [markdown]
# `attainable` is the ceiling: the bound a test with no errors at all would give with
# these test sizes and this α. With few test rows even a perfect classifier certifies
# little (at α per rate 0.000625, zero errors on 10 rows per class certify 0, on 30
# rows 1.277); the table under the bounds gives this ceiling at the run's own α per rate.

# %% [markdown]
# ## What a documented rerun must record
#
# Fields the table cannot tell are marked `not recorded`; for a file of generated
# embeddings pass what you know as `load_embedding_table(..., generation={...})`. For
# the toy default every field is known, including the encoder's checkpoint hashes and
# the seed of every output.

# %% [markdown]
# ## A generator applied again and again: the random-donor cascade
#
# **The experiment (the paper's Appendix E).** A face swapper is applied to its own
# output several times, each pass with a *newly sampled donor* whose distribution does
# not depend on the target. Does the target's identity survive the passes? An audit
# needs many outputs per identity, so every target gets many sequences: each starts from
# an image drawn with replacement from the target's pool, draws a different donor for
# each pass from a fixed donor pool (the same rule for every target) and is embedded
# after every pass. The sequences of each target are split into development and test
# sequences *before* any analysis, so every pass of a sequence falls on the same side.
#
# **Here: a toy cascade, not FaceFusion.** No face swapper and no face data set ship with
# the installed packages. privlab's toy stand-in (`privlab.datasets.toy_cascade`): the
# three shipped faces are aligned on YuNet's five landmarks to one template; a *toy
# identity* is one of them under a fixed seeded smooth warp and colour tone; a *toy swap
# pass* blends the donor's aligned face into the inner face region of the current image
# with weight 0.5 and adds its own lighting change, blur and pixel noise, while hair,
# outline and background of the current image stay. Donors are toy identities of a
# separate pool. (The cascade runs with the offline default, not on a table file.) The
# output shows one sequence of each of three targets (start image, then every pass).

# %% [markdown]
# **"No face found" is kept, not dropped.** After each pass the encoder either returns
# an identity embedding $\hat z$ or finds no face. The paper stores both as 513-d vectors,
# $[\hat z, 0]$ or $[\mathbf 0_{512}, 1]$; SFace does the same with its 128 coordinates
# (129-d). The last entry only says that detection failed; it does not pretend a failed
# image has a face embedding. Dropping those rows would audit only the successful
# detections and could hide a failure pattern that depends on the identity. The toy swap's
# ghosted blends and blur do defeat the detector now and then (the paper's FaceFusion
# run: 41 of 100,000 outputs).

# %% [markdown]
# ### Table 7: lower confidence bounds after each pass
#
# On development sequences only, the pairs are ranked by out-of-fold AUC after the last
# pass and the most distinguishable ones are selected without reusing an identity; for
# every selected pair and every pass a logistic regression and a threshold are fixed on
# that pass's development rows and evaluated once on its test rows. One Bonferroni
# correction covers every error rate of every pair and pass: α per rate =
# α / (2 · pairs · passes), so all bounds hold together with confidence 1 − α if the
# sequences are iid draws per identity (δ = 1e-5 as in the paper). `censored` counts
# pairs with no test error in either direction: their bound is the `cap`, the largest
# value this test size and α allow, whatever the data.

# %% [markdown]
# **How to read it, and how not to.** Every entry is a *lower* confidence bound on ε for
# one selected pair, not an estimate of ε. Bounds that fall from pass to pass do not show
# that ε falls, let alone by how much: a lower bound can fall because the test finds it
# harder to separate the pair while the true ε stays where it was, and a censored bound
# says only that the test ran out of test rows. The selected pairs are the most
# distinguishable ones on development data: a stress test, not a sample from which to
# estimate how common leakage is. What the table can say: where a bound after the last
# pass is positive, repeated swapping with random donors has not removed the target's
# identity from the outputs, under the iid assumption.
#
# The paper's Table 7 (FaceFusion, 50 pairs, 100 test sequences per identity, cap 2.338)
# beside ours, as a reference for the shape of the result only: the generator, the
# identities, the number of pairs and the test size all differ, so the numbers are not
# comparable and ours is not a reproduction of theirs.

# %% [markdown]
# ### Table 8: what the other routes say after each pass (development rows only)
#
# The registered routes on each pass's development rows, leaving out the rows where no
# face was found (as the paper's Table 8 does), each under its status: pairwise medians,
# the out-of-fold AUC, the ROC curves that reach the exact (0, 1) corner, the direct ROC
# conversions that are $+\infty$, and the MMD permutation tests that reject equal
# distributions after one Bonferroni correction over every test in the table. None is a
# finite-sample bound on ε.

# %% [markdown]
# **Bottom line.** The certified bound is the only number above that is a statement
# about ε, and only under the iid row model; the toy generator has no privacy value to
# compare it with. A weak generator leaves identities easy to tell apart; a strong one
# lowers every separability measure, yet the out-of-fold ROC conversion still says
# $+\infty$. After repeated random-donor swaps the separability falls pass by pass and
# so do the lower bounds, but falling lower bounds are not a falling ε.
