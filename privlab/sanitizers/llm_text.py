"""Redaction by a language model through any OpenAI-compatible endpoint.

The model receives privlab's redaction prompt (:data:`REDACTION_PROMPT`) with the
concept to remove and one passage, and must answer JSON ``{"redacted": "..."}``. Malformed
answers are asked again by :meth:`privlab.llm.LLMClient.chat_json`; answers are cached on
disk, so a rerun costs nothing. Without an endpoint the sanitizer fails when used, with
the message of :class:`privlab.llm.LLMUnavailableError`.
"""

from __future__ import annotations

from typing import Any

from privlab.errors import invalid
from privlab.sanitizers.base import Sanitizer, registry
from privlab.sanitizers.text import BOX

REDACTION_PROMPT = """You remove one concept from a passage so that a reader can no longer \
tell that the passage is about it.

Concept to remove: {concept}

Rules:
1. Replace every word or phrase that names the concept, or that would let a careful \
reader infer it (nicknames, people and characters tied to it, titles, places, dates, \
numbers and facts specific to it), with the character {box} repeated once per \
replaced character.
2. Change nothing else: keep every other word, the punctuation and the line breaks \
exactly as written. Do not paraphrase, summarise or add anything.
3. Answer with JSON only: {{"redacted": "<the passage after redaction>"}}

Passage:
{passage}"""


class LLMRedactionSanitizer(Sanitizer):
    """Ask a language model to redact a concept from each text.

    Args:
        concept: what to remove, in words (e.g. "the Avengers film franchise").
        client: an :class:`privlab.llm.LLMClient` (default: one built from the
            ``PRIVLAB_LLM_BASE_URL`` / ``PRIVLAB_LLM_MODEL`` environment variables).
        prompt: a template with ``{concept}``, ``{box}`` and ``{passage}``.
        temperature: sampling temperature (0 for repeatable answers).

    Raises:
        ValueError: an empty concept or a prompt lacking a placeholder.
        privlab.llm.LLMUnavailableError: no endpoint configured or reachable (on use).
    """

    modality = "text"
    cacheable = False  # a served model may answer differently, and may change

    def __init__(self, concept: str, *, client: Any = None, prompt: str = REDACTION_PROMPT,
                 temperature: float = 0.0):
        if not isinstance(concept, str) or not concept.strip():
            raise invalid("concept", "LLMRedactionSanitizer", "a non-empty description", concept)
        missing = [p for p in ("{concept}", "{passage}") if p not in prompt]
        if missing:
            raise invalid("prompt", "LLMRedactionSanitizer", "a template with {concept} and "
                          "{passage}", f"a template without {missing}", given_is_text=True)
        self.concept = concept
        self.prompt = prompt
        self.temperature = float(temperature)
        self._client = client
        self.name = "llm"

    @property
    def client(self):
        """The LLM client (built from the environment on first use)."""
        if self._client is None:
            from privlab.llm import LLMClient

            self._client = LLMClient()
        return self._client

    @staticmethod
    def _validate(answer: Any) -> str:
        if not isinstance(answer, dict) or not isinstance(answer.get("redacted"), str):
            raise ValueError('expected {"redacted": "<text>"}')
        return answer["redacted"]

    def _sanitize_one(self, text: str) -> str:
        message = self.prompt.format(concept=self.concept, box=BOX, passage=text)
        return self.client.chat_json([{"role": "user", "content": message}],
                                     validate=self._validate, temperature=self.temperature)

    def describe(self) -> dict:
        client = self._client
        return {**super().describe(), "concept": self.concept,
                "model": getattr(client, "model", None), "endpoint": getattr(client, "base_url", None),
                "temperature": self.temperature, "prompt": "privlab redaction prompt"
                if self.prompt == REDACTION_PROMPT else "custom"}


@registry.member("llm", modality="text", offline=False,
                 description="a language model redacts the concept (needs an endpoint)")
def llm(concepts=(), concept=None, **kw) -> LLMRedactionSanitizer:
    """A language model redacts ``concept``, else the study's concepts joined in words.

    Example:
        >>> llm(["Ken Lay", "Enron"]).concept
        'Ken Lay, Enron'
    """
    return LLMRedactionSanitizer(concept or ", ".join(concepts) or "the target", **kw)


__all__ = ["LLMRedactionSanitizer", "REDACTION_PROMPT", "llm"]
