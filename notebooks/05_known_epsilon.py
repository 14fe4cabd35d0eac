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
# # 05 · Which ε numbers mean something? Auditors on mechanisms of known ε
#
# **The question.** An audit turns the separation between two identities' outputs into
# a number called "ε". Is that number evidence about differential privacy (DP)? We ask
# on mechanisms whose pairwise ε is known *exactly*, including an exact null (ε = 0),
# before trusting any such number on real data (notebook 06).
#
# 400 identities have fixed prototypes in 512 dimensions; a mechanism (Laplace,
# Gaussian, and two appendix mechanisms) releases a prototype plus noise. Four routes
# turn two identities' outputs into "ε": GaussMech and KDE-LR (diagnostics), MMD-TV (an
# uncertified population bound), ROC-HT (descriptive), and the **reserved test**, the
# only **finite-sample certificate**: a lower confidence bound on ε.

# %% tags=["parameters"]
MECHANISM = None           # the explored setting; None: the study's (the exact null of Laplace)
GEOMETRY = None            # "dispersed" or "clustered" prototypes
N = None                   # rows per identity: 30, 100 or 300
EPSILON = None             # the mechanism's true ε
AUDITORS = None            # None: the paper's routes and the default certificates
FULL_GRID = False          # True: the paper's full grids (hours)
PROJECTOR = False          # True: large print for a projector

# %%
import numpy as np
from scipy.stats import beta

from privlab.epsilon import certified_epsilon, gaussmech_null_floor
from privlab.studies import known_epsilon
from privlab.ui import exercises, plots, study_panel
from privlab.ui.figures import plot_method_curves, plot_power

plots.projector(PROJECTOR)
panel = study_panel(known_epsilon, mechanism=MECHANISM, geometry=GEOMETRY, n=N,
                                   epsilon=EPSILON, auditors=AUDITORS, full_grid=FULL_GRID)
known_epsilon.members()

# %% [markdown]
# ## By hand: a certificate from two error counts
#
# The reserved test fixes a classifier and a threshold on development rows, then counts
# its errors once on $m$ unused test rows per identity: `fp` on A's rows, `fn` on B's.
# With one-sided Clopper–Pearson upper bounds $U_{FP}, U_{FN}$ on the two error rates
# (δ = 0, the Laplace family's),
#
# $$\varepsilon_{LB} = \max\Big\{0, \ln\frac{1-U_{FN}}{U_{FP}}, \ln\frac{1-U_{FP}}{U_{FN}}\Big\}.$$
#
# The cell takes $m$ and α per rate from the panel's setting: half the rows are test
# rows, and α = 0.05 / (2 · pairs) so that all pairs' bounds hold together.

# %%
config = panel.config()                           # the panel's n and number of pairs
m, alpha = config.n // 2, 0.05 / (2 * config.n_pairs)   # test rows per identity, α per rate
fp, fn = 1, 2                                     # the fixed test's errors on them
u_fp = beta.ppf(1 - alpha, fp + 1, m - fp)        # Clopper–Pearson upper bound on FP rate
u_fn = beta.ppf(1 - alpha, fn + 1, m - fn)        # ... and on the FN rate
eps_lb = max(0.0, np.log((1 - u_fn) / u_fp), np.log((1 - u_fp) / u_fn))

# %%
ours = certified_epsilon(fp, m, fn, m, alpha=alpha)
print(f"{fp} + {fn} errors on {m} + {m} test rows, α per rate {alpha:.6f}")
print(f"by hand: ε ≥ {eps_lb:.4f}")
print(f"privlab: ε ≥ {ours:.4f}")
print("agree:", bool(np.isclose(eps_lb, ours, atol=1e-9)))

# %% [markdown]
# **The ceiling.** Even with no error at all, $m$ test rows can certify only so much.
# Small samples cannot certify large ε, whatever the mechanism:

# %%
for rows in (10, 15, 30, 50, 150):
    print(f"zero errors on {rows:>3} rows per identity: ε ≥ "
          f"{certified_epsilon(0, rows, 0, rows, alpha=alpha):.3f}")

# %% [markdown]
# ## Exercise 05.1 · predict, then run
#
# At the panel's default, the true ε is exactly 0: the two identities' outputs have the
# same law. Predict: will GaussMech's median over pairs be **near 0** (below 1) or **far
# above 0**? Write it down, then run the panel.

# %%
answer = None   # "near 0" or "far above 0"

# %% [markdown]
# ## The study panel
#
# One run computes the explored setting (chosen here; the default is the exact null of
# the Laplace mechanism), the null table, Figures 2 and 3 and the appendix tables, on
# sub-grids of the paper's. The first run takes minutes on two cores; finished settings
# are cached, so changing the explored setting recomputes only that one. Press **Run**
# after a change.

# %%
panel.show()

# %% [markdown]
# ## Reading the panel, part by part
#
# **The explored setting**, read by the `status` column. Only the certificates' numbers
# are statements about ε. At true ε = 0 a valid certificate is 0, and a 0 says nothing:
# it does not certify privacy.

# %%
result = panel.result   # None when the panel shows a message instead
print(f"GaussMech's null floor (Eq. 22) at n = {result.config.n}: "
      f"{gaussmech_null_floor(512, result.config.n):.2f}")
result.explore[["method", "status", "pairs", "median", "infinite", "positive",
                "exact_median"]]

# %%
exercises.check("05.1", answer, result=panel.result)
exercises.solution("05.1")

# %% [markdown]
# **Table 4: at true ε = 0**, beside the paper's values. With no signal, two sample
# means differ by sampling error alone, so GaussMech reports about
# $\sqrt{2\ln(1.25/\delta)}\sqrt{2d/n}$ (Eq. 22), its *null floor*; KDE-LR reaches the
# thousands. Neither measures privacy loss. A $+\infty$ ROC conversion comes from an ROC
# stretch with no observed errors, not from evidence of infinite ε.

# %%
f = result.quoted_figures()
print(f"at n = {f['null.n']}: AUC {f['null.auc']}, MMD-TV {f.get('null.mmd_tv', 'n/a')}, "
      f"GaussMech {f['null.gaussmech']} (floor {f['null.gaussmech_floor']}), "
      f"KDE-LR {f.get('null.kde_lr', 'n/a')}")
print(f"certified bound > 0 on {f['null.certified_positive']} of {f['null.certified_tests']} "
      f"tests; ROC-HT +∞ on {f.get('null.roc_infinite', 'n/a')} of pairs; MMD test rejects "
      f"{f['null.mmd_rejects']} of {f['null.mmd_tests']} at p ≤ 0.05")
result.to_frame().round(3)

# %% [markdown]
# **Figure 2: do the outputs track the known ε?** Each panel plots a method's median
# against the exact ε. GaussMech and KDE-LR start high and respond only once the signal
# exceeds their floor; MMD-TV rises but stays far below ε; the learned AUC can lag the
# dotted optimum, so the classifier, not only ε, limits what a test sees.

# %%
plot_method_curves(result.curves)

# %% [markdown]
# **Figure 3: when does a certificate become informative?** The fraction of pairs
# certified above 0: the learned test (solid), the exact likelihood-ratio oracle
# (dashed), other certificates (dotted). A valid certificate is often zero: it needs a
# large ε and enough rows. Every certificate below is compared side by side, at one
# family level.

# %%
plot_power(result.power, geometry=result.config.power_geometries[0])

# %%
result.side_by_side

# %% [markdown]
# **Beyond the paper.** The panel also compares a logistic regression with a small
# neural network as the fixed rule, tests a stated claim (ε = 1) with the hockey-stick
# tester, gives the appendix tables (randomized response, an anisotropic Gaussian) and
# checks validity: no certified bound may exceed its exact ε.

# %%
result.validity

# %% [markdown]
# ## Exercise 05.2 · change a setting
#
# Set **True ε** to 64 in the panel and press **Run**. Set `answer` to the fraction of
# pairs on which the reserved test certifies a bound above 0 (`positive` in the explored
# setting's table). What limits it?

# %%
answer = None   # the reserved test's `positive` at true ε = 64
exercises.check("05.2", answer, result=panel.result)
exercises.solution("05.2")

# %% [markdown]
# ## Exercise 05.3 · edit the code
#
# With zero errors, how many test rows per identity does the reserved test need to
# certify ε ≥ 2 at the panel's α per rate? Edit the by-hand cell (or the ceiling loop)
# to find the smallest such $m$ and bind `answer` to it.

# %%
answer = None   # the smallest m with a zero-error bound of at least 2
exercises.check("05.3", answer, config=config)
exercises.solution("05.3")

# %% [markdown]
# ## How many rows would a certificate need? Planning from a pilot
#
# A certificate of 0 often only says the sample was too small. From a 300-row pilot,
# the planner predicts how many rows per identity each certificate needs to certify half
# the pilot's estimate with probability 0.8: first on one coordinate (ε = 1), then on
# the benchmark's Gaussian mechanism in 512 dimensions (ε = 4). Where the plan reads NaN,
# the pilot's learned test barely separates the identities: the limit is the test, not
# the sample size.

# %%
from privlab.epsilon import mechanisms, planner
from privlab.epsilon.validity import laplace_1d

plan_1d = planner.pilot_plan(laplace_1d(1.0), 0, 1, pilot_n=300, alpha=0.025, delta=0.0,
                             methods=("reserved", "dp-sniper"))
plots.sample_size_curve(plan_1d,
                        title="1-d Laplace, ε = 1: certified bound against n")
plan_1d

# %%
prototypes = mechanisms.make_prototypes("dispersed")
plan_512 = planner.pilot_plan(mechanisms.build_mechanism("gaussian", prototypes, 4.0),
                              *prototypes.l2_pair, pilot_n=300, alpha=0.025, delta=1e-5,
                              methods=("reserved", "dp-sniper"))
plots.sample_size_curve(plan_512,
                        title="512-d Gaussian, ε = 4: certified bound against n")
plan_512

# %% [markdown]
# ## Claims that fail: the peers' wrong mechanisms
#
# Other auditing tools test themselves on small mechanisms whose claims are known to
# hold or to fail: sparse-vector variants that release too much, a report-noisy-max that
# releases the maximum, a RAPPOR that claims the one-hash ε, and floating-point Laplace,
# which emits doubles one input can never produce. Each claim goes to the hockey-stick
# tester at the rows per input stated in the table; a certified bound above the claim
# refutes it with confidence 1 − α.

# %%
from privlab.epsilon import peers

refuted = peers.refutations()
refuted

# %% [markdown]
# **How to read it.** Every row whose claim does not hold should read `refuted`, and
# no row whose claim holds may: a refuted true claim would mean the tester is wrong.
# Snapping Laplace is the floating-point fix, and its claim survives. The check below
# says whether this run agrees.

# %%
print("every false claim refuted, no true one:",
      bool((refuted["refuted"] == ~refuted["claim holds"]).all()))

# %% [markdown]
# ## Going further
#
# - [Known ε in detail](../docs/lessons/05-known-epsilon.md): the mechanisms, every
#   auditor's formula and status, how to read Table 4 and Figures 2 and 3, the
#   certificates side by side, the distinguishers, the stated claim, the appendix
#   tables, validity and the planner.
# - [ε auditors and their validity](../docs/methods/epsilon.md), with the peers'
#   mechanisms and their published bounds beside privlab's.
# - Notebook `06_face_generators` uses these routes on a face generator.
