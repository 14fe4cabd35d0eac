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
# # 04 · Enron: do off-the-shelf PII tools hide Ken Lay?
#
# **The question.** A PII tool is run over emails that mention Enron's chairman, Ken
# Lay. It targets person names, so we assume that removing names also removes his
# identity. Does it?
#
# Two checks. The **exact-name baseline** counts sanitized emails that still contain
# "Ken Lay": it sees explicit identifiers only. The **contrastive test** of notebook 00
# asks whether a sanitized email still points towards what the tool removed from
# another email; its **resolution** is the largest such excess, and the **decisive
# witness** is the pair of emails that attains it. Without Ken Lay's mailbox beside
# privlab, an offline mailbox about a fictional executive is used.

# %% tags=["parameters"]
ENCODER = "minilm"   # a text encoder from privlab.encoders.registry
CORPUS = "auto"      # "auto" (real mailbox when present), "real", "offline", or a path
LIMIT = None         # first N selected emails; None: the study's (all; 16 in a smoke run)
MATCH = None         # "substring" (the paper's rule) or "word"; None: the study's ("substring")
DEDUPE = None        # True drops repeated bodies; None: the study's (False, as in the paper)
PROJECTOR = False    # True: large print for a projector (every figure below)

# %%
from dataclasses import replace

import numpy as np

from privlab.contrastive import audit
from privlab.encoders import get_encoder
from privlab.sanitizers import ConceptListSanitizer
from privlab.studies import enron
from privlab.ui import exercises, plots, study_panel

plots.projector(PROJECTOR)
panel = study_panel(enron, encoders=(ENCODER,), data=CORPUS, limit=LIMIT, match=MATCH,
                           dedupe=DEDUPE)

# %% [markdown]
# ## By hand: the trial matrix on eight emails
#
# The first eight emails the panel's rule selects, sanitized by the simplest tool: a
# list that removes the target's name. Rows of $S$ embed the sanitized emails, rows of
# $T$ the emails as written; every email is also a reference, so
# $a_{ij} = S_i \cdot (T_j - S_j)$ and the resolution is $\max(0, \max_{ij} a_{ij})$.
# The cell reads the mailbox, the encoder and the rule from the panel below.

# %%
config = panel.config()                                # the panel's mailbox, encoder, rule
corpus = enron.load_corpus(replace(config, limit=8))   # the first eight selected emails
encoder = get_encoder(config.encoders[0])
cleaned = ConceptListSanitizer(corpus.concepts).sanitize(list(corpus.texts))
S, T = encoder.encode(cleaned), encoder.encode(list(corpus.texts))
a = S @ (T - S).T                                      # a[i, j]: audited i, reference j
i, j = np.unravel_index(a.argmax(), a.shape)

# %% [markdown]
# The same number from privlab's audit, which also keeps the witnesses and the
# exact-name baseline:

# %%
checked = audit(list(corpus.texts), ConceptListSanitizer(corpus.concepts),
                encoders=(encoder,), names=corpus.names).members[0]
print(f"by hand: max a = {a.max():.4f} at audited {i}, reference {j}")
print(f"privlab: resolution {checked.value:.4f}, witness audited {checked.witness.audited}, "
      f"reference {checked.witness.reference}")
print("agree:", bool(np.isclose(max(a.max(), 0.0), checked.value, atol=1e-5)))

# %% [markdown]
# ## Exercise 04.1 · predict, then run
#
# The panel audits Presidio, the tool the paper focuses on, over every selected email.
# Its decisive witness is a released email. Predict: does it still contain the target's
# **name**, or only identifying **context**? Write it down, then run the panel.

# %%
answer = None   # "name" or "context"

# %% [markdown]
# ## The study panel
#
# Pick an encoder, the mailbox, the sanitizers, the number of emails or the selection
# rule, and press **Run**. The headline puts Presidio's resolution beside its exact-name
# baseline, the emails that kept the surname or an address, and the paper's count.

# %%
panel.show()

# %% [markdown]
# **How to read it.** Table 2 has one row per tool: the resolution beside the
# exact-name baseline. A tool can keep the name in no email and still have a large
# resolution. The decisive witnesses show why, with the shared words highlighted; the
# table of witnesses whose released email no longer names the target is what no name
# filter can see. On the offline mailbox, each seeded leak type is listed as removed by
# the tool, caught by the test or missed.

# %% [markdown]
# **privlab against the paper.** The paper counts Presidio's kept names over 1,841
# emails from the whole Enron corpus; privlab reads one mailbox, Ken Lay's own, where
# much of the mail is addressed to him, in forms Presidio's small spaCy model misses.
# The counts are the same kind of number on different emails, not one an estimate of
# the other.

# %%
result = panel.result   # None when the panel shows a message instead
ran = [row.name for row in result.table] if result else []
enron.paper_comparison(result) if "presidio" in ran else "Choose presidio in the panel."

# %% [markdown]
# **When a resolution reads 0**: no trial found a connection for these emails, these
# references and this encoder. It is not a guarantee, and a name count of 0 is not
# privacy either.

# %%
exercises.check("04.1", answer, result=panel.result)
exercises.solution("04.1")

# %% [markdown]
# ## Exercise 04.2 · change a setting
#
# Choose the **lexical** encoder in the panel and press **Run**. Set `answer` to the
# resolution of the headline's tool (Presidio when it runs). Which numbers moved, and
# which stayed where they were?

# %%
answer = None   # the headline tool's resolution under the lexical encoder
exercises.check("04.2", answer, result=panel.result)
exercises.solution("04.2")

# %% [markdown]
# ## Exercise 04.3 · edit the code
#
# Copy the by-hand cell and sanitize with `regex-pii`, which removes formats (e-mail
# addresses, phone numbers) and not names:
# `registry.create("regex-pii", concepts=tuple(corpus.concepts))` with
# `from privlab.sanitizers import registry`. Bind `answer` to $\max(0, \max a)$.

# %%
answer = None   # the regex-pii resolution of the eight emails, by hand
exercises.check("04.3", answer, corpus=corpus, config=config)
exercises.solution("04.3")

# %% [markdown]
# ## Going further
#
# - [The Enron study in detail](../docs/lessons/04-enron.md): the data and its selection
#   rule, the four tools, the departures from the paper, why privlab's counts differ
#   from the paper's, and the selection rule by rule.
# - Notebook `09_calibration` puts a resolution on a scale of known leaks.
