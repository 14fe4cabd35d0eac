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
# trials. Algorithm 1 scores every one of them:
#
# $$\delta^* = \max\big(0, \max_{i,j}\ s_i \cdot t_j\big), \qquad
#   s_i = \mathcal{E}(X_c(x_i)),\quad t_j = \mathcal{E}(y_j) - \mathcal{E}(X_c(y_j)).$$
#
# At $m = 10^5$ and $n = 10^4$ that is $10^9$ dot products. Can we get **the same answer**
# (value, decisive witness, tie rule, top list) with less work, and what does a faster
# but *approximate* look give?
#
# **Certified pruning (same answer, less work).** The $s_i$ have unit length, so by
# Cauchy–Schwarz
#
# $$s_i \cdot t_j \le \lVert s_i \rVert\, \lVert t_j \rVert, \qquad
#   s_i \cdot t_j \le s_i \cdot c + \lVert s_i \rVert\, r \ \text{ for every } t_j
#   \text{ within } r \text{ of a centre } c.$$
#
# References are visited in decreasing order of these bounds; a block of trials is
# scored only if its bound reaches the $k$-th largest value already found (or the
# item's own best). The bounds are proven for the kernel's float64 values *including
# rounding*, and the comparison is strict, so a trial that could tie is always scored:
# the answer equals the plain kernel's bit for bit. How much is skipped depends on the
# data: a leak that stands out lets almost everything go; references that all moved
# alike let little go.
#
# **A screen (a quick look, labelled).** An approximate index (HNSW) over the $t_j$,
# queried with each $s_i$, proposes a few references per item; their trials are
# rescored exactly. The largest is a **lower bound** on $\delta^*$ with status
# *uncertified screen*: the index may miss the decisive witness, and a screened value
# of 0 says nothing.
#
# **A cluster.** The same call runs its blocks as dask tasks (here on a LocalCluster on
# this machine; `Client("tcp://…")` points it at an existing cluster) and merges them
# with a max that keeps the witness and the tie rule, so the answer is again the same.
#
# **What the numbers mean.** "certified = plain" compares value, witness and top list
# exactly. Seconds and skipped fractions describe this machine and these generated
# embeddings: random unit rows, with one audited item that still carries what
# sanitizing removed from one reference (a planted leak of 0.2), and an audit with none.
#
# **What they do not mean.** Nothing here measures privacy: the data are generated. A
# fast certified run on real data says the same as the plain kernel, no more (resolution
# 0 is still only "no violation detected for these items, references and encoder").

# %% tags=["parameters"]
M = None        # audited items (default 100,000; smoke runs use 3,000)
N = None        # references (default 10,000)
D = None        # embedding dimension (default 128)
TOP_K = None    # trials listed and compared (default 1: the value and the decisive witness)
WORKERS = None  # LocalCluster workers (default 2; 0 skips the cluster run)
PROJECTOR = False  # True: large print for a projector (every figure below)

# %%
from privlab.studies import scale
from privlab.ui import plots, study_panel

plots.projector(PROJECTOR)

# %% [markdown]
# ## Run it
#
# Pick the sizes, the generated scenarios, the length of the top list, the screen and the
# number of cluster workers, then press **Run**. The output holds, in order: the
# headline; certified vs plain per scenario; the screen and its recall; the LocalCluster
# run; the cost curve.
#
# **Reading "certified vs plain".** `certified = plain` is True when value, decisive
# witness and the top trials are identical. `trials skipped` is the share of the
# $m \cdot n$ trials never scored. With the planted leak the witness is the planted pair,
# and after the references that sanitizing moved most, every other block is bounded
# below what was already found. Without a leak the best trials are chance alignments of
# similar size everywhere: the bounds would skip almost nothing, so after a quick
# estimate the certified path scores the rest in the plain kernel's own blocks
# (`references in plain blocks`) and costs about what the plain kernel does (a tile walk
# that skips nothing costs 1.3–1.5 times as much: each tile rescores its own row maxima).
#
# **The top list.** The study asks for the value and the decisive witness (`k = 1`). A
# top list of $k$ trials needs the $k$-th largest trial exactly; when that is a chance
# alignment (about $\lVert t \rVert \sqrt{2 \ln(mn)/d}$, small in high dimension) no
# norm falls below it and nothing can be skipped, leak or not. Set **Top list k** to 5
# and press Run to see it. The same holds for every item's own maximum
# (`mode="per_audited"`) unless most references barely moved.
#
# **Reading the screen.** `screen found witness` says whether the approximate index
# proposed the decisive witness. Its value is never above the exact one; when it
# matches, that is known only because the exact kernel ran as well.
#
# **The cluster.** The same call with `client=…`; the dashboard link shows the tasks
# while it runs. On one machine the cluster shares the same cores, so it is not faster
# here: it is there for data one machine cannot hold.
#
# **The cost curve.** Seconds against the number of trials $m \cdot n$ (log–log). The
# plain kernel grows linearly in $m \cdot n$; the certified path follows it without a
# leak and stays far below it with one.

# %%
panel = study_panel(scale, m=M, n=N, d=D, top_k=TOP_K, cluster_workers=WORKERS)
panel.show()

# %% [markdown]
# ## In code
#
# The panel calls `privlab.studies.scale.run(config)`; the same result is
# `panel.result`. Its tables are `result.to_frame()` and `result.cost_frame()`, and
# `result.identical` says whether every fast exact path gave the plain kernel's answer.

# %%
result = panel.result
result.identical if result is not None else "no result: see the message in the panel"
