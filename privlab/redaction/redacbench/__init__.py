"""RedacBench: policy-conditioned redaction scored proposition by proposition (Security, Utility).

* :mod:`~privlab.redaction.redacbench.data` — documents, propositions, policies, gold
  checks; loading, the sample and the benchmark derived from SPIA;
* :mod:`~privlab.redaction.redacbench.strategy` — redaction strategies (registry
  :data:`strategies`);
* :mod:`~privlab.redaction.redacbench.judge` — judges of what is still inferable
  (registry :data:`judges`);
* :mod:`~privlab.redaction.redacbench.evaluation` — the confusion matrix, Security,
  Utility and a judge's error rates.
"""

from privlab.redaction.redacbench.data import (
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
)
from privlab.redaction.redacbench.judge import (
    HeuristicJudge,
    Judge,
    LLMJudge,
    OracleJudge,
    judges,
)
from privlab.redaction.redacbench.strategy import (
    MASK,
    AdversarialRedaction,
    Iterative,
    Masking,
    NoRedaction,
    SanitizerStrategy,
    Strategy,
    strategies,
)

__all__ = ["AdversarialRedaction", "Confusion", "Document", "HeuristicJudge", "Iterative",
           "Judge", "JudgeCheck", "JudgeErrors", "LLMJudge", "MASK", "Masking", "NoRedaction",
           "OracleJudge", "Policy", "Proposition", "RedacBenchResult", "SanitizerStrategy",
           "Strategy", "confusion", "derive_from_spia", "document_to_json", "evaluate",
           "judge_errors", "judges", "load_redacbench", "parse_document", "sample_path",
           "strategies"]
