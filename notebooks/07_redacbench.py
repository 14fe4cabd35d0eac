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
# # 07 · RedacBench: what a redaction removes, and what it destroys
#
# **The question.** A policy says what must stay confidential ("all sensitive financial
# information"). A redaction strategy rewrites a text to obey it. After the rewrite, can
# a reader still learn what the policy forbids, and can they still learn everything else?
#
# **The test.** Each source text comes with *propositions*, the small facts it states or
# implies, and each policy marks some of them *sensitive*. A **judge** reads the redacted
# text and says, for every proposition, whether it is still stated or necessarily
# inferable (*retained*) or not (*removed*):
#
# | | retained | removed |
# |---|---|---|
# | sensitive | FP (leaked) | TN (protected) |
# | harmless | TP (kept) | FN (lost) |
#
# $$\text{Security} = \frac{TN}{TN + FP}, \qquad \text{Utility} = \frac{TP}{TP + FN}.$$
#
# **What the numbers mean.** Security 0.8: four in five sensitive propositions can no
# longer be inferred *by this judge*. Utility 0.9: nine in ten harmless ones survive.
#
# **What they do not mean.** They are not guarantees: a sharper reader may infer more
# than the judge did, so Security is at best an upper bound on what a real adversary
# would fail to learn. The offline default judge compares embeddings and key words; it
# is a **weak stand-in** that cannot follow an inference. Its own error rates against
# gold labels are shown below: read the scores through them. For the benchmark's real
# judge, set an OpenAI-compatible endpoint (`PRIVLAB_LLM_BASE_URL`,
# `PRIVLAB_LLM_MODEL`) and choose the `llm` judge.

# %% tags=["parameters"]
DATA = "sample"        # "sample", "spia" (derived from the SPIA files) or a .jsonl path
JUDGE = "heuristic"    # "heuristic" (offline, weak) or "llm"
STRATEGIES = ("none", "regex-pii", "masking")   # add "adversarial" with an endpoint

# %%
import ipywidgets as widgets
from IPython.display import display

from privlab.redaction.redacbench import judges, strategies
from privlab.studies import redacbench as study

data_picker = widgets.Dropdown(options=study.data_options(), value=DATA, description="data")
judge_picker = widgets.Dropdown(options=judges.options(), value=JUDGE, description="judge")
strategy_picker = widgets.SelectMultiple(options=strategies.options(), value=STRATEGIES,
                                         description="strategies")
display(widgets.VBox([data_picker, judge_picker, strategy_picker]))

# %% [markdown]
# The widgets start at the plain defaults; change them and re-run the cells below.
# The sample benchmark is six short texts written for privlab (personal, corporate,
# government), each with its propositions and one or two policies.

# %%
config = study.Config.for_notebook(data=data_picker.value, judge=judge_picker.value,
                                   strategies=tuple(strategy_picker.value))
result = study.run(config)
doc = result.documents[0]
print(doc.text, "\n")
for p in doc.propositions:
    marks = [pol.id for pol in doc.policies if p.id in pol.sensitive]
    print(f"{p.id}: {p.text}   sensitive under: {', '.join(marks) or '-'}")

# %% [markdown]
# ## The judge first
#
# Before trusting any score, check the judge on texts whose answer is known: the source
# text (everything inferable), the empty text (nothing), and the hand-redacted checks in
# the data file. A *false "inferable"* inflates leaks (Security looks worse than it is);
# a *false "not inferable"* hides them (Security looks better).

# %%
errors = result.judge_errors
print(f"judge: {result.provenance['judge']}")
print(f"false 'inferable'    : {errors.false_inferable:.3f}  "
      f"(of {errors.counts['gold not inferable']} gold 'not inferable')")
print(f"false 'not inferable': {errors.false_not_inferable:.3f}  "
      f"(of {errors.counts['gold inferable']} gold 'inferable')")

# %% [markdown]
# ## Scores per strategy
#
# `none` is the unredacted baseline: its Security is the share of sensitive propositions
# the judge *misses* even in the original text, so every other row should be read against
# it. `regex-pii` ignores the policy (it removes formats such as e-mails and phone
# numbers); `masking` removes the policy's keywords token by token.

# %%
table = result.to_frame()
table

# %%
ax = table.plot.scatter(x="utility", y="security", figsize=(5, 4), xlim=(-0.05, 1.05),
                        ylim=(-0.05, 1.05), title="Security-utility trade-off")
for _, row in table.iterrows():
    ax.annotate(row["strategy"], (row["utility"], row["security"]),
                textcoords="offset points", xytext=(4, 4))

# %% [markdown]
# ## Confusion matrix, per policy and per domain
#
# Shown for the strategy with the highest Security.

# %%
best = table.sort_values("security", ascending=False).iloc[0]["strategy"]
chosen = result.results[best]
print("strategy:", best)
display(chosen.confusion_frame())
display(chosen.by_policy())
chosen.by_domain()

# %% [markdown]
# ## What leaked
#
# The sensitive propositions the judge still finds inferable after the best strategy,
# with the redacted text they were found in. This is where a reader should look first.

# %%
leaks = chosen.leaks()
leaks[["document", "policy", "text", "redacted"]].head(8) if len(leaks) else "no leaks found"

# %%
result.headline().show()
