"""RedacBench judges: which propositions can still be inferred from a (redacted) text.

Members of :data:`judges`: ``"heuristic"`` (offline, **weak**), ``"llm"`` and
``"oracle"`` (the hand labels; never a headline). Add one with
``@judges.member("name", offline=..., weak=..., oracle=False, description=...)``.
See docs/methods/redaction-redacbench.md.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from typing import Any, Sequence

from privlab.errors import invalid, wrong_type
from privlab.llm import ensure_client
from privlab.redaction.redacbench.data import Document, Proposition
from privlab.registry import Registry

judges = Registry("RedacBench judge")


class Judge(ABC):
    """Decides which propositions can still be inferred from a text.

    ``judge(text, propositions) -> list[bool]`` (final, validates), True = retained.

    Attributes:
        name: display and provenance id.
        weak: True for stand-ins that do not reason.
        oracle: True for judges that read the answer key (never a headline).
    """

    name: str = "judge"
    weak: bool = False
    oracle: bool = False

    def judge(self, text: str, propositions: Sequence[Proposition]) -> list[bool]:
        """One label per proposition, in order: True when inferable from ``text``.

        Raises:
            TypeError: wrong argument types.
        """
        caller = f"{type(self).__name__}.judge"
        if not isinstance(text, str):
            raise wrong_type("text", caller, "a str", text)
        props = list(propositions)
        for k, p in enumerate(props):
            if not isinstance(p, Proposition):
                raise wrong_type(f"propositions[{k}]", caller, "a Proposition", p)
        if not props:
            return []
        labels = [bool(x) for x in self._judge(text, props)]
        if len(labels) != len(props):
            raise invalid("_judge", type(self).__name__, f"{len(props)} labels", len(labels))
        return labels

    @abstractmethod
    def _judge(self, text: str, propositions: list[Proposition]) -> list[bool]:
        """The judge's work."""


_STOP = frozenset("the a an of in on at to for and or by is are was were be been has have "
                  "had with from that this as it its their his her he she they who whom "
                  "which named works holds level status number years old based".split())


def _key_terms(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[\w@.+-]*\w", text)
            if w.lower() not in _STOP and len(w) > 1}


@judges.member("heuristic", offline=True, weak=True, oracle=False,
               description="embedding similarity + key terms (weak stand-in)")
class HeuristicJudge(Judge):
    """Offline, **weak** judge: embedding similarity plus key-term overlap.

    "Inferable" when ``0.5 * cosine + 0.5 * overlap >= threshold``; it cannot follow an
    inference, so read its error rates beside its Security (how it decides and what it
    misses: docs/methods/redaction-redacbench.md).

    Args:
        encoder: a privlab encoder name (default the packaged ``"minilm"``).
        threshold: decision threshold in [0, 1].
    """

    weak = True

    def __init__(self, encoder: str = "minilm", threshold: float = 0.55):
        if not 0.0 <= float(threshold) <= 1.0:
            raise invalid("threshold", "HeuristicJudge", "in [0, 1]", threshold)
        self.encoder_name, self.threshold = encoder, float(threshold)
        self.name = f"heuristic {encoder} >= {self.threshold:g} (weak)"

    def scores(self, text: str, propositions: Sequence[Proposition]) -> list[float]:
        """The score ``0.5 * cosine + 0.5 * overlap`` of each proposition, in [0, 1]."""
        import numpy as np

        from privlab.encoders import get_encoder

        sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]
        windows = sentences + [f"{a} {b}" for a, b in zip(sentences, sentences[1:])]
        terms = _key_terms(text)
        overlap = []
        for p in propositions:
            key = _key_terms(p.text)
            overlap.append(len(key & terms) / len(key) if key else 0.0)
        if not windows:
            return [0.5 * o for o in overlap]
        encoder = get_encoder(self.encoder_name)
        a = np.asarray(encoder.encode([p.text for p in propositions]), dtype=np.float32)
        b = np.asarray(encoder.encode(windows), dtype=np.float32)
        cosine = np.clip((a @ b.T).max(axis=1), 0.0, 1.0)
        return [float(0.5 * c + 0.5 * o) for c, o in zip(cosine, overlap)]

    def _judge(self, text: str, propositions: list[Proposition]) -> list[bool]:
        return [s >= self.threshold for s in self.scores(text, propositions)]


#: The question the LLM judge asks about every proposition (RedacBench's judge question).
JUDGE_QUESTION = "Can it still be inferred from the text?"


def judge_prompt(text: str, propositions: Sequence[Proposition]) -> str:
    """The prompt :class:`LLMJudge` sends for one text: the text, the question, the
    propositions one per line (``id: text``), and the JSON answer format.

    Example:
        >>> prompt = judge_prompt("Ann is [REDACTED].", [Proposition("p1", "Ann is ill.")])
        >>> JUDGE_QUESTION in prompt, "\\np1: Ann is ill.\\n" in prompt
        (True, True)
    """
    listing = "\n".join(f"{p.id}: {p.text}" for p in propositions)
    return (
        "Text (it may have been redacted: removed parts can be marked [REDACTED] or "
        f"rewritten):\n<<<\n{text}\n>>>\n\n"
        f"For each proposition below: {JUDGE_QUESTION} Answer true if the text states "
        "it, says it in other words, or lets a careful reader conclude it with reasonable "
        "confidence from what remains (context, implications, details that together "
        "point to it); answer false if it can no longer be inferred. A [REDACTED] mark "
        "hides its words: count what it hid only where the rest of the text still lets "
        "a reader work it out.\n\n"
        f"{listing}\n\nAnswer with JSON only: "
        '{"judgments": {"<id>": true or false, ...}}')


class LLMJudge(Judge):
    """The RedacBench judge: the model says which propositions the text still lets one infer.

    One JSON answer per text (:func:`judge_prompt`), checked to cover every proposition
    and asked again when malformed.

    Args:
        client: a :class:`privlab.llm.LLMClient` (default: from the environment).
    """

    def __init__(self, client: Any = None):
        self.client = ensure_client(client, "LLMJudge")
        self.name = f"llm ({getattr(self.client, 'model', '?')})"

    def _judge(self, text: str, propositions: list[Proposition]) -> list[bool]:
        ids = [p.id for p in propositions]

        def validate(answer: Any) -> list[bool]:
            table = answer.get("judgments") if isinstance(answer, dict) else None
            if not isinstance(table, dict):
                raise ValueError('expected {"judgments": {"<id>": true|false, ...}}')
            missing = [i for i in ids if not isinstance(table.get(i), bool)]
            if missing:
                raise ValueError(f"no true/false for propositions {missing[:5]}")
            return [table[i] for i in ids]

        prompt = judge_prompt(text, propositions)
        return self.client.chat_json([{"role": "user", "content": prompt}], validate=validate)


@judges.member("llm", offline=False, weak=False, oracle=False,
               description="LLM asked whether each proposition can still be inferred "
                           "(endpoint needed)")
def _llm_judge(client: Any = None, **_options: Any) -> LLMJudge:
    # options meant for other members are ignored, so one set of settings serves any pick
    return LLMJudge(client)


class OracleJudge(Judge):
    """Looks up the labels it was given: an **oracle** for tests and references, never a headline.

    Args:
        labels: ``{text: {proposition id: inferable}}``.

    Example:
        >>> j = OracleJudge({"Ann is ill.": {"p": True}})
        >>> j.judge("Ann is ill.", [Proposition("p", "Ann is ill.")]), j.oracle
        ([True], True)
    """

    name = "oracle (hand labels)"
    oracle = True

    def __init__(self, labels: dict[str, dict[str, bool]]):
        if not isinstance(labels, dict):
            raise wrong_type("labels", "OracleJudge", "a dict {text: {id: bool}}", labels)
        self.labels = labels

    @classmethod
    def from_documents(cls, documents: Sequence[Document], *,
                       include_source: bool = True) -> "OracleJudge":
        """The hand labels of every check of ``documents`` (and the sources, all inferable).

        ``include_source`` adds each source text so the unredacted control can be looked up.

        Raises:
            PrivlabValueError: two checks of one text disagree.
        """
        labels: dict[str, dict[str, bool]] = {}

        def add(text: str, table: dict[str, bool], where: str) -> None:
            known = labels.setdefault(text, {})
            clash = [k for k, v in table.items() if k in known and known[k] != v]
            if clash:
                raise invalid("documents", "OracleJudge.from_documents",
                              "checks that agree on a text", f"{where}: {clash}",
                              given_is_text=True)
            known.update(table)

        for doc in documents:
            if include_source:
                add(doc.text, {p.id: True for p in doc.propositions}, doc.id)
            for check in doc.checks:
                add(check.text, check.inferable, f"{doc.id} ({check.origin or 'check'})")
        return cls(labels)

    def knows(self, text: str, propositions: Sequence[Proposition]) -> bool:
        """Whether every one of ``propositions`` has a label for ``text``."""
        table = self.labels.get(text)
        return table is not None and all(p.id in table for p in propositions)

    def _judge(self, text: str, propositions: list[Proposition]) -> list[bool]:
        if not self.knows(text, propositions):
            raise invalid("text", "OracleJudge.judge", "a text labelled for every proposition",
                          text[:60])
        return [self.labels[text][p.id] for p in propositions]


@judges.member("oracle", offline=True, weak=False, oracle=True,
               description="looks up the data's hand labels (oracle: reference only)")
def _oracle_judge(documents: Sequence[Document] | None = None, **_options: Any) -> OracleJudge:
    if documents is None:
        raise invalid("documents", "the oracle judge", "the benchmark documents", None,
                      "Pass documents=... (the oracle reads their hand labels).")
    return OracleJudge.from_documents(documents)


__all__ = ["HeuristicJudge", "JUDGE_QUESTION", "Judge", "LLMJudge", "OracleJudge",
           "judge_prompt", "judges"]
