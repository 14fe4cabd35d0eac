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
# # 11 · Scale: exact audits of 10⁵ items, faster when the data allow
#
# **The question.** An audit of $m$ sanitized items against $n$ references has $m \cdot n$
# trials: at $m = 10^5$ and $n = 10^4$, a billion dot products. Can we get **the same
# answer** (value, decisive witness, top list) with less work, and what does a faster but
# *approximate* look give? The embeddings here are generated, with a leak planted by
# construction: nothing in this notebook measures privacy.

# %% [markdown]
# **The kernel.** With $s_i = \mathcal{E}(X_c(x_i))$ of unit length and
# $t_j = \mathcal{E}(y_j) - \mathcal{E}(X_c(y_j))$,
# $\delta^* = \max\big(0, \max_{i,j} s_i \cdot t_j\big)$.
#
# **Certified pruning.** By Cauchy–Schwarz $s_i \cdot t_j \le \lVert t_j \rVert$: once a
# trial of value $v$ is found, no reference with $\lVert t_j \rVert < v$ can beat it, and
# its trials can be skipped with a proof. The answer is the plain kernel's, bit for bit.
# **A screen** (an approximate nearest-neighbour index) proposes a few references per
# item and rescores them exactly: a *lower bound*, labelled as such.

# %% tags=["parameters"]
M = None        # audited items (None: the study's default)
N = None        # references (None: the study's default)
D = None        # embedding dimension (None: the study's default)
TOP_K = None    # trials listed and compared (default 1: the value and the decisive witness)
WORKERS = None  # LocalCluster workers (default 2; 0 skips the cluster run)
PROJECTOR = False  # True: large print for a projector (every figure below)

# %%
import numpy as np

from privlab.resolution import resolution
from privlab.scale import certified_resolution
from privlab.scale.synthetic import synthetic_audit
from privlab.studies import scale
from privlab.ui import exercises, plots, study_panel

plots.projector(PROJECTOR)
panel = study_panel(scale, m=M, n=N, d=D, top_k=TOP_K, cluster_workers=WORKERS)

# %% [markdown]
# ## By hand: every trial, and the bound that skips them
#
# A toy audit of 8 items against 6 references, in the dimension and with the seed chosen
# in the panel below. The generator hands over the rows $t_j$ directly (what sanitizing
# removed from each reference, $T - T_c$ in the other notebooks), with one leak planted.

# %%
config = panel.config()                                  # the panel's dimension and seed
toy = synthetic_audit(8, 6, config.d, scenario="planted", seed=config.seed)
S, T = toy.S, toy.T                                      # T holds the rows t_j = T - T_c
a = S @ T.T                                              # every trial s_i . t_j
delta, (i, j) = max(0.0, float(a.max())), np.unravel_index(a.argmax(), a.shape)
bound = np.linalg.norm(T, axis=1)                        # no trial with reference j exceeds it
skippable = bound < delta                                # references that cannot beat delta

# %%
plain = resolution(S, T, top_k=1)
fast = certified_resolution(S, T, top_k=1)
print(f"by hand:   resolution {delta:.6f}, witness ({i}, {j}), planted {toy.planted}")
print(f"plain:     resolution {plain.value:.6f}, witness {plain.witness}")
print(f"certified: resolution {fast.value:.6f}, witness {fast.witness}")
print(f"references the bound lets go after the witness: {skippable.sum()} of {len(T)}")
print("agree:", bool(np.isclose(delta, plain.value, atol=1e-6) and fast.value == plain.value))

# %% [markdown]
# ## The whole study
#
# The panel audits large generated embeddings four ways: the plain kernel, the certified
# path, a screen, and the certified path again on a small local cluster; then it times
# growing sizes. Pick the sizes, the scenarios, the length of the top list, the screen and
# the workers, then press **Run**.

# %%
panel.show()

# %% [markdown]
# **Certified vs plain.** `certified = plain` is True when value, witness and top list are
# identical. `trials skipped` is the share of the $m \cdot n$ trials never scored. With the
# planted leak, once the references that moved most are scored, every other block is
# bounded below what was found. Without a leak the best trials are chance alignments of
# similar size everywhere, so little can be skipped, and the certified path then scores
# the rest in the plain kernel's own blocks (`references in plain blocks`).

# %% [markdown]
# **The screen.** `screen found witness` says whether the index proposed the decisive
# witness. Its value is never above the exact one, and a screened 0 says nothing.

# %%
panel.part("screen")   # redrawn on every Run

# %% [markdown]
# **The cluster** runs the same call as tasks and gives the same answer; on one machine it
# shares the same cores, so it is not faster here.

# %%
panel.part("cluster")

# %% [markdown]
# **The cost curve.** Seconds against $m \cdot n$ on log–log axes: the plain kernel grows
# linearly, and the certified path follows it without a leak and stays far below it with
# one.

# %%
panel.part("cost")

# %%
result = panel.result   # None when the panel shows a message instead
print(f"every fast exact path gave the plain kernel's answer: {result.identical}"
      if result else "no result: see the message in the panel")

# %% [markdown]
# ## Exercises
#
# **11.1 (predict, then run).** In the scenario without a leak (`none`), does the
# certified path skip more or less than half of the trials? Answer `"more"` or `"less"`.

# %%
answer = None   # "more" or "less"
exercises.check("11.1", answer, result=panel.result)

# %%
exercises.solution("11.1")

# %% [markdown]
# **11.2 (change a setting).** Set **Top list k** to 5 and press **Run**. What share of the
# planted scenario's trials does the certified path skip now, in percent? Why did it
# change?

# %%
answer = None   # a percentage, as in the table
exercises.check("11.2", answer, result=panel.result)

# %%
exercises.solution("11.2")

# %% [markdown]
# **11.3 (edit the code).** Change the by-hand cell to the scenario without a leak
# (`scenario="none"`) and run it. How many references can the bound let go now? Bind
# `answer` to `skippable.sum()`.

# %%
answer = None   # a count of references
exercises.check("11.3", answer, config=config)

# %%
exercises.solution("11.3")

# %% [markdown]
# ## Going further
#
# [docs/lessons/11-scale.md](../docs/lessons/11-scale.md) holds both bounds (norms and
# cluster centres) and why they hold with rounding, the screen, the cluster, how to read
# each table of the panel, why a longer top list skips little, and where the same results
# are in code.
