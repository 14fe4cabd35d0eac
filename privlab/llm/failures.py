"""The LLM paths' errors (re-exported by :mod:`privlab.llm`)."""

from __future__ import annotations


class LLMError(RuntimeError):
    """The endpoint could not give a usable answer (after retries)."""


class LLMUnavailableError(LLMError):
    """No endpoint is configured, or it cannot be reached."""


__all__ = ["LLMError", "LLMUnavailableError"]
