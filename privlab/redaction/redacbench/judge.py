"""RedacBench judges: which propositions are still stated or inferable from a text.

Members of :data:`judges`:

* ``"heuristic"`` — offline, **weak**: embedding similarity plus key-term overlap;
* ``"llm"`` — the model is asked proposition by proposition (endpoint needed).

:class:`OracleJudge` looks up gold labels (tests and calibration). Add a judge by
subclassing :class:`Judge` and decorating it (or a factory returning it) with
``@judges.member("name", offline=..., weak=..., description=...)``.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from typing import Any, Sequence

from privlab.errors import invalid, wrong_type
from privlab.llm import ensure_client
from privlab.redaction.redacbench.data import Proposition
from privlab.registry import Registry

judges = Registry("RedacBench judge")


class Judge(ABC):
    """Decides which propositions are stated or necessarily inferable from a text.

    ``judge(text, propositions) -> list[bool]`` (final, validates), True = retained.

    Attributes:
        name: display and provenance id.
        weak: True for stand-ins that do not reason.
    """

    name: str = "judge"
    weak: bool = False

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


@judges.member("heuristic", offline=True, weak=True,
               description="embedding similarity + key terms (weak stand-in)")
class HeuristicJudge(Judge):
    """Offline, **weak** judge: embedding similarity plus key-term overlap.

    For each proposition it takes the best cosine similarity between the proposition
    and the text's sentences (and pairs of sentences) under an offline encoder, and the
    share of the proposition's content words present in the text; it says "inferable"
    when ``0.5 * cosine + 0.5 * overlap >= threshold``. It cannot follow an inference
    ("born in 1970" -> "is about 55"), and a paraphrase can fool it either way: treat
    its Security as a rough guide and read its error rates against gold labels.

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


class LLMJudge(Judge):
    """The RedacBench judge: asks, for each proposition, whether it is stated or
    necessarily inferable from the text; one JSON answer per text, checked to cover
    every proposition, retried when malformed, cached by the client.

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

        listing = "\n".join(f"{p.id}: {p.text}" for p in propositions)
        prompt = (f"Text:\n<<<\n{text}\n>>>\n\nFor each proposition below, answer true if "
                  "the text states it or it necessarily follows from the text, false "
                  "otherwise (masked or removed information does not count).\n\n"
                  f"{listing}\n\nAnswer with JSON only: "
                  '{"judgments": {"<id>": true or false, ...}}')
        return self.client.chat_json([{"role": "user", "content": prompt}], validate=validate)


@judges.member("llm", offline=False, weak=False,
               description="LLM asked proposition by proposition (endpoint needed)")
def _llm_judge(client: Any = None, **_options: Any) -> LLMJudge:
    # options meant for other judges (e.g. threshold=) are ignored, so a caller can
    # pass the same settings to whichever judge is picked
    return LLMJudge(client)


class OracleJudge(Judge):
    """Looks up gold labels for texts it has been given (for tests and calibration).

    Args:
        labels: ``{text: {proposition id: inferable}}``.
    """

    name = "oracle"

    def __init__(self, labels: dict[str, dict[str, bool]]):
        self.labels = labels

    def _judge(self, text: str, propositions: list[Proposition]) -> list[bool]:
        if text not in self.labels:
            raise invalid("text", "OracleJudge.judge", "a text with gold labels",
                          text[:60])
        return [self.labels[text][p.id] for p in propositions]


__all__ = ["HeuristicJudge", "Judge", "LLMJudge", "OracleJudge", "judges"]
