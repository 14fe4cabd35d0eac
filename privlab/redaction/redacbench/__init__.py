"""RedacBench: policy-conditioned redaction scored proposition by proposition (Security, Utility).

* :mod:`~privlab.redaction.redacbench.data` — documents, propositions, policies,
  hand-labelled checks; loading, the sample and the benchmark derived from SPIA;
* :mod:`~privlab.redaction.redacbench.strategy` — redaction strategies (registry
  :data:`strategies`);
* :mod:`~privlab.redaction.redacbench.judge` — judges of what can still be inferred
  (registry :data:`judges`; the oracle is marked ``oracle=True``);
* :mod:`~privlab.redaction.redacbench.evaluation` — the confusion matrix, Security,
  Utility, text utility (BLEU, ROUGE) and a judge's error rates on the hand labels;
* :mod:`~privlab.redaction.redacbench.byo` — :func:`score`, your redaction (a function or
  a file of outputs) with the unredacted control and the judge's errors (also
  ``privlab.redacbench.score``).
"""

import importlib

from privlab.redaction.redacbench.byo import RedacBenchScore, read_outputs, score
from privlab.redaction.redacbench.data import (
    KEYWORD_SOURCES,
    Document,
    JudgeCheck,
    Policy,
    Proposition,
    derive_from_spia,
    document_to_json,
    load_redacbench,
    parse_document,
    sample_path,
)
from privlab.redaction.redacbench.evaluation import (
    Confusion,
    JudgeErrors,
    RedacBenchResult,
    confusion,
    evaluate,
    judge_errors,
    score_redactions,
)
from privlab.redaction.redacbench.judge import (
    JUDGE_QUESTION,
    HeuristicJudge,
    Judge,
    LLMJudge,
    OracleJudge,
    judge_prompt,
    judges,
)
from privlab.redaction.redacbench.strategy import (
    MASK,
    AdversarialRedaction,
    FunctionStrategy,
    Iterative,
    Masking,
    NoRedaction,
    SanitizerStrategy,
    Strategy,
    as_strategy,
    strategies,
)
from privlab.registry import member_modules


def load_members() -> tuple[str, ...]:
    """Import every module of this package, so that each strategy and judge in it
    registers itself.

    Called below, on import: a member in a new file here is registered without editing
    any other file. The modules imported above (for the names they export) register
    first, the rest in name order. Returns the modules' names, sorted.
    """
    return tuple(importlib.import_module(f"{__name__}.{name}").__name__
                 for name in member_modules(__path__))


load_members()

__all__ = ["AdversarialRedaction", "Confusion", "Document", "FunctionStrategy",
           "HeuristicJudge", "Iterative", "as_strategy",
           "JUDGE_QUESTION", "Judge", "JudgeCheck", "JudgeErrors", "KEYWORD_SOURCES",
           "LLMJudge", "MASK", "Masking", "NoRedaction", "OracleJudge", "Policy",
           "Proposition", "RedacBenchResult", "RedacBenchScore", "SanitizerStrategy",
           "Strategy", "confusion",
           "derive_from_spia", "document_to_json", "evaluate", "judge_errors", "judge_prompt",
           "judges", "load_members", "load_redacbench", "parse_document", "read_outputs",
           "sample_path", "score", "score_redactions",
           "strategies"]
