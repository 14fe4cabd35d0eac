"""Exercises of notebook 04 (Enron): a name filter against the contrastive test.

The notebook's names: ``panel`` (the Enron study panel), ``config`` (its settings),
``corpus`` (the first eight emails the panel's rule selects), ``encoder``, ``S``, ``T``
and ``a`` (the by-hand trial matrix of the name list) and ``answer``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from privlab.ui.exercises import Exercise, Verdict
from privlab.ui.lessons.answers import no_result, number

TOLERANCE = 1e-4

#: What the panel exercises read: the panel's last result.
NEEDS = {"result": "panel.result"}


def headline_tool(result: Any) -> str:
    """The tool the Enron headline reports: Presidio when it ran, else the best one."""
    return "presidio" if "presidio" in [row.name for row in result.table] else result.best()


def witness_names_target(result: Any) -> bool:
    """Whether the headline tool's decisive witness still holds the target's name."""
    from privlab.names import name_pattern

    witness = result.table[headline_tool(result)].members[0].witness
    pattern = name_pattern(result.corpus.names, match=result.corpus.name_match)
    return bool(pattern.search(witness.audited_sanitized))


def regex_resolution(corpus: Any, config: Any) -> float:
    """The regex-pii resolution of ``corpus`` under the first encoder of ``config``."""
    from privlab.contrastive import audit
    from privlab.sanitizers import registry

    cut = registry.create("regex-pii", concepts=tuple(corpus.concepts))
    return float(audit(list(corpus.texts), cut, encoders=config.encoders[:1]).members[0].value)


def _name_or_context(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    missing = no_result(result, "press Run and read the message if it shows one.")
    if missing is not None:
        return missing
    said = str(answer).strip().lower()
    if said not in ("name", "context"):
        return Verdict(False, f'Answer "name" or "context" (you wrote {answer!r}).')
    tool, named = headline_tool(result), witness_names_target(result)
    truth = "name" if named else "context"
    member = result.table[tool].members[0]
    seen = (f"{tool}'s witness (audited {member.witness.audited}, reference "
            f"{member.witness.reference}, resolution {member.value:.3f})")
    if said == truth:
        return Verdict(True, f"{seen} " + ("still holds the name: a leak the exact-name "
                                           "baseline also counts." if named else
                                           "no longer names the target: what points to him "
                                           "is context, which no name filter can see."))
    return Verdict(False, f"This run's {seen} says {truth}: read the witness in the panel.")


def _lexical_resolution(answer: Any, context: Mapping[str, Any]) -> Verdict:
    result = context["result"]
    missing = no_result(result, "press Run and read the message if it shows one.")
    if missing is not None:
        return missing
    tool = headline_tool(result)
    member = result.table[tool].members[0]
    if not str(member.encoder).startswith("lexical"):
        return Verdict(False, f"The panel last ran on {member.encoder}: choose lexical, press "
                              "Run, then read the resolution.")
    value = number(answer)
    if value is None or abs(value - member.value) > 5e-4:
        return Verdict(False, f"Read {tool}'s resolution in the table (you wrote {answer!r}).")
    baseline = result.table[tool].baseline
    kept = f"; the name count ({baseline.count}) did not move" if baseline else ""
    return Verdict(True, f"{tool} under lexical: {member.value:.3f}{kept}. The resolution "
                         "is on the encoder's scale and the lexical one sees only shared "
                         "words; the name count reads the text, not the encoder.")


def _regex_by_hand(answer: Any, context: Mapping[str, Any]) -> Verdict:
    value = number(answer)
    if value is None:
        return Verdict(False, f"Bind answer to a number, max(0, a.max()) (you wrote "
                              f"{answer!r}).")
    truth = regex_resolution(context["corpus"], context["config"])
    if abs(max(value, 0.0) - truth) <= TOLERANCE:
        return Verdict(True, f"regex-pii's resolution on these emails is {truth:.4f}, "
                             "privlab's audit gives the same.")
    return Verdict(False, f"{value:.4f} is not regex-pii's resolution on these emails: "
                          "sanitize with it in S and in the cleaned references (the same S).")


def _name_list_value(context: Mapping[str, Any]) -> float:
    """The by-hand cell's unedited answer (the name list's resolution), or an impossible
    one where it equals regex-pii's."""
    from privlab.contrastive import audit
    from privlab.sanitizers import ConceptListSanitizer

    corpus, config = context["corpus"], context["config"]
    value = float(audit(list(corpus.texts), ConceptListSanitizer(corpus.concepts),
                        encoders=config.encoders[:1]).members[0].value)
    return 2.0 if abs(value - regex_resolution(corpus, config)) <= TOLERANCE else value


EXERCISES = (
    Exercise(
        "04.1", "predict",
        "Does the headline tool's decisive witness still contain the target's name, or "
        "only identifying context?",
        _name_or_context,
        solution="from privlab.names import name_pattern\n"
                 "tool = 'presidio' if 'presidio' in [r.name for r in panel.result.table] "
                 "else panel.result.best()\n"
                 "witness = panel.result.table[tool].members[0].witness\n"
                 "pattern = name_pattern(panel.result.corpus.names, "
                 "match=panel.result.corpus.name_match)\n"
                 "answer = 'name' if pattern.search(witness.audited_sanitized) else "
                 "'context'\n",
        why="A name filter removes most names, so the strongest trial is usually an email "
            "with every name replaced that still describes him: his role, his company, a "
            "fact about him. Where the tool misses a form of the name (in capitals, glued to "
            "an address), the witness can hold the name itself.",
        wrong=lambda context: "context" if witness_names_target(context["result"]) else "name",
        needs=NEEDS),
    Exercise(
        "04.2", "change-setting",
        "Choose the lexical encoder, press Run, and report the headline tool's resolution.",
        _lexical_resolution,
        solution='panel.controls["encoders"].set(("lexical",))\npanel.run()\n'
                 "tool = 'presidio' if 'presidio' in [r.name for r in panel.result.table] "
                 "else panel.result.best()\n"
                 "answer = panel.result.table[tool].members[0].value\n",
        why="Only the encoder changed, so only the resolutions and their witnesses move: "
            "the lexical encoder compares word counts, so it finds a connection only where a "
            "released email and a reference still share words. The exact-name baseline "
            "counts names in the text and does not depend on the encoder.",
        wrong=-1.0, needs=NEEDS),
    Exercise(
        "04.3", "code-edit",
        "Sanitize the eight emails with regex-pii in the by-hand cell and bind answer to "
        "max(0, max a).",
        _regex_by_hand,
        solution="from privlab.sanitizers import registry\n"
                 'cut = registry.create("regex-pii", concepts=tuple(corpus.concepts))\n'
                 "S = encoder.encode(cut.sanitize(list(corpus.texts)))\n"
                 "a = S @ (T - S).T\nanswer = max(float(a.max()), 0.0)\n",
        why="Only the sanitizer changes: S (the sanitized emails) and, in the symmetric "
            "test, the sanitized references, which are the same S. A tool that removes "
            "formats and keeps names leaves every email close to what little it removed.",
        wrong=_name_list_value,
        needs={"corpus": "corpus", "config": "config"}),
)


def fixture() -> dict[str, Any]:
    """The notebook's names after its by-hand cell, on the offline mailbox and the
    lexical encoder."""
    from dataclasses import replace

    from privlab.encoders import get_encoder
    from privlab.sanitizers import ConceptListSanitizer
    from privlab.studies import enron
    from privlab.ui.panel import study_panel

    panel = study_panel(enron, encoders=("minilm",), data="offline", limit=9,
                        sanitizers=("concept-list", "regex-pii"))
    panel.run()
    config = panel.config()
    corpus = enron.load_corpus(replace(config, limit=8))
    encoder = get_encoder(config.encoders[0])
    S = encoder.encode(ConceptListSanitizer(corpus.concepts).sanitize(list(corpus.texts)))
    T = encoder.encode(list(corpus.texts))
    return {"panel": panel, "config": config, "corpus": corpus, "encoder": encoder,
            "S": S, "T": T, "a": S @ (T - S).T, "result": panel.result}
