"""Inference-based scores of a redaction: RedacBench (propositions) and SPIA (subjects).

* :mod:`privlab.redaction.redacbench` — policy-conditioned redaction scored proposition
  by proposition: Security = TN / (TN + FP), Utility = TP / (TP + FN).
* :mod:`privlab.redaction.spia` — subject-level PII inference: CPR and IPR.
* :mod:`privlab.redaction.spia_adversaries` — adversaries, matchers and the LLM value
  judge behind one protocol each, with registries.
* :mod:`privlab.redaction.spia_spans` — the span metrics (token and entity recall) and
  the anonymizers compared.
"""
