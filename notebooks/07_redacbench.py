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
# **The question.** A policy says what must stay confidential ("any information about a
# person's health"). A redaction strategy rewrites a text to obey it. After the rewrite,
# **can a reader still infer** what the policy forbids, and can they still learn
# everything else?
#
# **The test.** Each source text comes with *propositions*, the small facts it states or
# implies, and each policy marks some of them *sensitive*. A **judge** reads the redacted
# text and answers, for every proposition, RedacBench's question: *can it still be
# inferred from the text?* Yes means *retained*, no means *removed*:
#
# | | retained | removed |
# |---|---|---|
# | sensitive | FP (leaked) | TN (protected) |
# | harmless | TP (kept) | FN (lost) |
#
# $$\text{Security} = \frac{TN}{TN + FP}, \qquad \text{Utility} = \frac{TP}{TP + FN}.$$
#
# Beside them, **BLEU** and **ROUGE-L** compare each redacted text with its original
# (`privlab.redaction.utility`, on `sacrebleu` and `rouge-score`): how much of the
# wording survived, on a 0-1 scale.
#
# **What the numbers mean.** Security 0.8: four in five sensitive propositions can no
# longer be inferred *according to this judge*. Utility 0.9: nine in ten harmless ones
# can still be inferred. ROUGE-L 0.95: almost all of the wording is still there.
#
# **What they do not mean.** They are not guarantees: a sharper reader may infer more
# than the judge did, so Security is an upper bound on what an adversary would fail to
# learn, and only as good as the judge. A high BLEU or ROUGE-L does not mean the meaning
# survived (a text can keep every word but one crucial fact), and a low one does not
# mean it was lost (a faithful paraphrase scores low). The offline default judge
# compares embeddings and shared words; it is a **weak stand-in** that cannot follow an
# inference. That is why the judge is checked first, against labels written by hand.
# For RedacBench's kind of judge, set an OpenAI-compatible endpoint
# (`PRIVLAB_LLM_BASE_URL`, `PRIVLAB_LLM_MODEL`) and choose the `llm` judge.

# %% tags=["parameters"]
DATA = "sample"        # "sample", "spia" (derived from the SPIA files) or a .jsonl path
JUDGE = "heuristic"    # "heuristic" (offline, weak) or "llm"
STRATEGIES = ("none", "regex-pii", "masking")   # add "adversarial" with an endpoint
HEADLINE = "masking"   # the strategy the headline reports, fixed before anything runs

# %%
import ipywidgets as widgets
from IPython.display import display

from privlab.redaction.redacbench import judges, strategies
from privlab.studies import redacbench as study

data_picker = widgets.Dropdown(options=study.data_options(), value=DATA, description="data")
judge_picker = widgets.Dropdown(options=judges.options(oracle=False), value=JUDGE,
                                description="judge")
strategy_picker = widgets.SelectMultiple(options=strategies.options(oracle=False),
                                         value=STRATEGIES, description="strategies")
headline_picker = widgets.Dropdown(
    options=[n for n in strategies.names(oracle=False) if n != study.BASELINE],
    value=HEADLINE, description="headline")
display(widgets.VBox([data_picker, judge_picker, strategy_picker, headline_picker]))

# %% [markdown]
# The widgets start at the plain defaults; change them and re-run the cells below. The
# headline strategy is chosen here, before any score exists: the headline reports it
# against the unredacted baseline `none`, not whichever strategy scores best. Oracles
# (the judge that reads the hand labels, masking with gold keywords) are never offered
# as a headline.
#
# ## The sample, and how it differs from RedacBench's
#
# RedacBench has 514 human-written texts (student essays, Enron and Clinton e-mails),
# 187 policies induced from the data and 8,053 propositions, drafted by an LLM and
# reviewed by two annotators; its judge (GPT-4.1-mini) was checked on all 8,053
# propositions. privlab's offline sample is much smaller and written by one author for
# privlab: **16 short documents** (four each personal, corporate, government, medical),
# **134 propositions** and **31 policies** (one or two per document), with 75 sensitive
# proposition-policy pairs. It is written to embarrass a weak judge: the sensitive facts
# are meant to stay inferable through paraphrase ("a full year without a fit"),
# implication (a "due date" and "antenatal appointments") and details that combine to
# identify someone ("the site's only participant with a transplanted kidney"), without
# sharing words with what a keyword masker removes. The masking keywords are written in
# the data file, as the words a keyword masker would flag for each policy (RedacBench's
# Masking asks a model for them). The judge is checked on **394 hand labels** over 47
# redacted texts: each policy's masked text and one hand-written rewrite per document,
# every proposition labelled *inferable* or *not inferable* by hand (290 and 104). No
# label is generated by the program.

# %%
config = study.Config.for_notebook(data=data_picker.value, judge=judge_picker.value,
                                   strategies=tuple(strategy_picker.value),
                                   headline=headline_picker.value)
result = study.run(config)
docs = result.documents
print(f"{len(docs)} documents, {sum(len(d.propositions) for d in docs)} propositions, "
      f"{sum(len(d.policies) for d in docs)} policies, "
      f"{sum(len(d.checks) for d in docs)} hand-labelled texts\n")
doc = docs[0]
print(doc.text, "\n")
for p in doc.propositions:
    marks = [pol.id for pol in doc.policies if p.id in pol.sensitive]
    print(f"{p.id}: {p.text}   sensitive under: {', '.join(marks) or '-'}")
policy = doc.policies[0]
print(f"\n{config.headline} under '{policy.id}':\n"
      + result.results[config.headline].redacted[(doc.id, policy.id)])

# %% [markdown]
# ## The judge first
#
# Before trusting any score, check the judge on texts whose answer is known by hand.
# A *false "inferable"* calls a removed fact still there: it makes Security look worse
# than it is. A *false "not inferable"* misses a fact that a reader can still work out:
# it hides leaks and makes Security look better. RedacBench's GPT-4.1-mini judge erred
# at 2.62% and 1.45% respectively. The intervals are exact 95% binomial intervals: with
# a few hundred labels, rates are known to a few points at best.

# %%
errors = result.judge_errors
print(f"judge: {result.provenance['judge']}")
print(errors.summary())
for name, (low, high) in errors.intervals.items():
    print(f"  {name.replace('_', ' ')}: 95% interval {low:.2f}-{high:.2f}")
errors.by_origin()

# %% [markdown]
# Where the judge and the hand labels disagree. A weak judge typically misses a fact
# kept in other words (gold *inferable*, judged not) and takes shared words for a kept
# fact (gold *not inferable*, judged inferable).

# %%
labels = errors.to_frame()
labels[labels["gold"] != labels["judged"]].head(10)

# %% [markdown]
# ## Scores per strategy
#
# `none` is the unredacted baseline: every proposition is still in the text, so its
# Security under a perfect judge is 0, and whatever the judge reports above 0 is the
# share of sensitive propositions it misses even in the original. Read every other row
# against it. `regex-pii` ignores the policy (it removes formats such as e-mails and
# phone numbers); `masking` removes the policy's keywords word by word. The `hand
# security` and `hand utility` columns score the same redacted texts by the hand labels
# where every text has them: an **oracle** reference that shows how far the judge is
# from a careful reader, never a headline.

# %%
table = result.to_frame()
table

# %%
ax = table.plot.scatter(x="utility", y="security", figsize=(5, 4), xlim=(-0.05, 1.05),
                        ylim=(-0.05, 1.05), title="Security-utility trade-off (judge)")
for _, row in table.iterrows():
    ax.annotate(row["strategy"], (row["utility"], row["security"]),
                textcoords="offset points", xytext=(4, 4))

# %% [markdown]
# ## The headline strategy, per policy and per domain
#
# Shown for the strategy fixed in the parameters (`HEADLINE`), whatever it scored.

# %%
chosen = result.results[config.headline]
print("strategy:", config.headline)
display(chosen.confusion_frame())
display(chosen.by_policy())
chosen.by_domain()

# %% [markdown]
# ## What leaked
#
# The sensitive propositions the judge still finds inferable after the headline
# strategy, with the redacted text they were found in. A weak judge misses some leaks;
# the hand labels above say roughly how many.

# %%
leaks = chosen.leaks()
leaks[["document", "policy", "text", "redacted"]].head(8) if len(leaks) else "no leaks found"

# %% [markdown]
# ## How much wording survived
#
# BLEU and ROUGE-L per redacted text (original as the reference). Masking keeps almost
# every word, so both stay high even where the judge and the hand labels say a sensitive
# fact leaked: surface similarity is not privacy, and not utility in the proposition
# sense either.

# %%
chosen.texts()[["document", "policy", "bleu", "rougeL"]].head(8)

# %%
result.headline().show()
