"""Inference-based scores of a redaction: RedacBench (propositions) and SPIA (subjects).

* :mod:`privlab.redaction.redacbench` — policy-conditioned redaction scored proposition
  by proposition: Security = TN / (TN + FP), Utility = TP / (TP + FN); registries of
  strategies and judges.
* :mod:`privlab.redaction.spia` — subject-level PII inference: CPR and IPR; registries
  of subject matchers, adversaries (:mod:`~privlab.redaction.spia.adversaries`) and
  anonymizers (:mod:`~privlab.redaction.spia.spans`, with the span metrics).
* :mod:`privlab.redaction.utility` — text utility of a redaction (BLEU, ROUGE-1,
  ROUGE-L against the original), usable by both.

The two packages are independent; RedacBench only reads SPIA records to derive a
benchmark from them.
"""
