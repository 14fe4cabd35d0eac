"""RedacBench: policy-conditioned redaction scored proposition by proposition (Security, Utility).

Documents, policies and hand-labelled checks (``data``), strategies (``strategy``,
registry :data:`strategies`), judges (``judge``, registry :data:`judges`), the scores
(``evaluation``) and :func:`score` for your own redaction (``byo``, also
``privlab.redacbench.score``). See docs/methods/redaction-redacbench.md.
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
    """Import every module of this package, so that each member in it registers itself.

    Called on import, so a member in a new file needs no other edit. Returns the names.
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
