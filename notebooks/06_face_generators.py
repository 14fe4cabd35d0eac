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
# Each identity's generated images, embedded by a face encoder, are a sample from a
# channel. Notebook 05 showed, on mechanisms of known ε, that only the **reserved
# test**'s lower confidence bound is evidence about ε; the other routes are diagnostics.
# Here no generator has a known privacy value: the numbers rank nothing.

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
import numpy as np
from scipy.stats import beta

from privlab.epsilon import certified_epsilon
from privlab.studies import face_generators
from privlab.ui import exercises, plots, study_panel

plots.projector(PROJECTOR)
panel = study_panel(face_generators, data=TABLE or None, strength=STRENGTH,
                                     compare_strength=COMPARE_STRENGTH, encoders=ENCODERS,
                                     n_pairs=N_PAIRS, alpha=ALPHA,
                                     cascade_passes=CASCADE_PASSES)

# %% [markdown]
# ## The study panel
#
# With no table file, a **toy generator** crops, shifts, rotates, relights, blurs and
# occludes the only three real faces installed packages ship (one photo each), with
# ranges set by `strength`. SFace embeds each output; an output with no detectable face
# becomes one shared "no face" vector. The study audits identity pairs with every route,
# runs the reserved test on unused rows, and runs a repeated face-swap cascade. Press
# **Run** after a change.

# %% [markdown]
# ## Exercise 06.1 · predict, then run
#
# The panel compares the weak toy generator with a stronger one on the same pairs.
# Predict: will the strong generator's certified bound be **lower**, the **same** or
# **higher** than the weak one's? Write it down, then run the panel.

# %%
answer = None   # "lower", "same" or "higher"

# %%
panel.show()

# %% [markdown]
# ## By hand: the certified bound from the test's errors
#
# On development rows the reserved test fixes a rule; on the test rows it makes `fp`
# errors on identity A's $m_A$ rows and `fn` on B's $m_B$. With one-sided
# Clopper–Pearson upper bounds $U_{FP}, U_{FN}$ at the run's α per rate (δ = 0),
#
# $$\varepsilon_{LB} = \max\Big\{0, \ln\frac{1-U_{FN}}{U_{FP}}, \ln\frac{1-U_{FP}}{U_{FN}}\Big\}.$$
#
# The cell reads the counts of the first generator's selected pair from the panel.

# %%
result = panel.result                       # the panel's last run
row = result.conditions[0].certificate.iloc[0]   # its first selected pair
m_a, m_b = int(row["n_test_a"]), int(row["n_test_b"])
fp, fn, alpha = int(row["false_positives"]), int(row["false_negatives"]), result.alpha_per_rate
u_fp = beta.ppf(1 - alpha, fp + 1, m_a - fp)     # Clopper–Pearson upper bound on FP rate
u_fn = beta.ppf(1 - alpha, fn + 1, m_b - fn)     # ... and on the FN rate
eps_lb = max(0.0, np.log((1 - u_fn) / u_fp), np.log((1 - u_fp) / u_fn))

# %%
print(f"{row['id_a']} vs {row['id_b']}: {fp} + {fn} errors on {m_a} + {m_b} test rows, "
      f"α per rate {alpha:.5f}")
print(f"by hand: ε ≥ {eps_lb:.4f}")
print(f"privlab: ε ≥ {row['epsilon_lb']:.4f} (certified_epsilon: "
      f"{certified_epsilon(fp, m_a, fn, m_b, alpha):.4f})")
print("agree:", bool(np.isclose(eps_lb, row["epsilon_lb"], atol=1e-9)))

# %% [markdown]
# ## Reading the panel, part by part
#
# **Every route, read by its `status` column.** GaussMech and KDE-LR are diagnostics,
# MMD-TV an uncertified population bound, ROC-HT descriptive: none is a bound on ε. A
# +∞ ROC conversion comes from an ROC endpoint with no observed errors, not from
# evidence of infinite ε. An MMD rejection says two identities' embeddings differ,
# nothing about the size of ε.

# %%
result.summary().round(3)

# %% [markdown]
# **The certified bounds.** `attainable` is the ceiling: the bound a test with no errors
# would give with these test sizes and this α. **Detection failure is not privacy**:
# outputs with no face share one vector, so a classifier cannot tell them apart; the
# rows `..., faces only` run the same test without them.

# %%
print(result.summary_line())
result.no_face_counts()

# %%
result.certificates().round(4)

# %%
exercises.check("06.1", answer, result=panel.result)
exercises.solution("06.1")

# %% [markdown]
# **The random-donor cascade.** A toy face swap is applied to its own output several
# times, each pass with a new random donor. Table 7 gives, per selected pair and pass,
# a *lower* confidence bound: bounds that fall from pass to pass do not show that ε
# falls. Where a bound after the last pass is positive, the swaps have not removed the
# target's identity, under the iid assumption.

# %%
result.cascade_table7().round(3) if result.cascade is not None else "cascade skipped"

# %% [markdown]
# **When a bound reads 0**: the test found too little to certify anything with these
# rows and this α. A zero bound certifies nothing; it is not privacy.

# %% [markdown]
# ## Exercise 06.2 · change a setting
#
# Move **α (all bounds)** to 0.2 in the panel and press **Run**. Set `answer` to the
# weak generator's certified bound (the largest of its selected pairs). Why did it move?

# %%
answer = None   # the first generator's bound at α = 0.2
exercises.check("06.2", answer, result=panel.result)
exercises.solution("06.2")

# %% [markdown]
# ## Exercise 06.3 · edit the code
#
# Copy the by-hand cell and recompute the bound of the **strong** generator's first
# selected pair, `result.conditions[1]`, with the outputs that have no face. Bind
# `answer` to your `eps_lb`.

# %%
answer = None   # the strong generator's bound, by hand
exercises.check("06.3", answer, result=panel.result)
exercises.solution("06.3")

# %% [markdown]
# ## Going further
#
# - [The face-generator study in detail](../docs/lessons/06-face-generators.md): the
#   threat model, every route's formula and status, the toy generator, the reserved test
#   and detection failure, what a rerun must record, and the cascade's Tables 7 and 8.
# - [ε auditors and their validity](../docs/methods/epsilon.md).
# - [Bring your own](../docs/bring-your-own.md): audit a table of your generator's
#   embeddings.
