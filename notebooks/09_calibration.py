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
# # 09 · Calibration: what does a resolution of 0.13 mean?
#
# **The question.** A resolution is a cosine difference on one encoder's scale, with no
# unit. To read it, compare it with connections everyone agrees on: a sentence about a
# dog and one about a cat are related; one about a dog and one about an orange much less.
#
# **The formula.** For sentences $u$ about concept $c$ and $v$ about concept $d$, with
# $D(a, b) = 1 - \cos(\mathcal{E}(a), \mathcal{E}(b))$ and $X_c$ the redaction of the
# words that name $c$,
#
# $$b(u, v) = \min\{D(X_c(u), v),\ D(u, X_d(v))\} - D(u, v).$$
#
# It is the shared strict upper bound on $\delta$ for both inequalities that make $u$
# and $v$ semantically connected: a test run at a resolution above $b(u, v)$ would no
# longer register that pair as connected. We take every pair of the cross product and
# report the 90th, 95th and 99th percentiles.
#
# **What the numbers mean.** Accepting an audit at resolution $\delta$ treats violations
# up to $\delta$ as undetectable. If $\delta$ is above the 95th percentile of dog/cat
# boundaries, the encoder-as-adversary would fail to register about 95% of familiar
# dog–cat connections. Unrelated pairs (dogs/oranges) give a floor near 0.
#
# **What they do not mean.** The percentiles depend on the encoder, the sentences and
# the sanitizer; they are a ruler for this setting, not a universal scale. privlab's
# default sets are small (12 sentences per concept); bring larger ones (one sentence per
# blank-line-separated block, one file per concept) with `source=<folder>`. Image
# encoders plug into `privlab.calibration.calibrate_pair` with an image sanitizer.

# %% tags=["parameters"]
ENCODER = "minilm"   # a text encoder from privlab.encoders.registry
SOURCE = "default"   # "default", "shared" (reference files when present) or a folder
DELTA = 0.13         # a resolution to interpret

# %%
import ipywidgets as widgets

import privlab
from privlab.config import smoke
from privlab.studies import calibration
from privlab.widgets import encoder_picker

config = calibration.Config.smoke() if smoke() else calibration.Config()
config.encoders = (ENCODER,)
config.source = SOURCE
picker = encoder_picker(ENCODER, include_online=False)
delta_slider = widgets.FloatSlider(value=DELTA, min=0.0, max=0.5, step=0.01,
                                   description="resolution")
widgets.VBox([picker, delta_slider])

# %% [markdown]
# The widgets above hold plain defaults; change them and re-run the cells below.

# %%
config.encoders = (picker.value,)
table = calibration.run(config)
table

# %% [markdown]
# ## Reading a resolution
#
# For the chosen resolution, the share of each pair's boundaries that lie below it: the
# fraction of those familiar connections a test at that resolution would not register.

# %%
table.interpret(delta_slider.value)

# %%
ax = table.values_frame().boxplot(column="boundary", by="pair", figsize=(7, 4), grid=False)
ax.axhline(delta_slider.value, color="red", linestyle="--")
ax.set_title("boundaries b(u, v) per pair; dashed: the chosen resolution")

# %%
privlab.headline("09 calibration", calibration.headline(table))
