"""Bring your own ``openai.OpenAI`` client to every LLM path (judges, adversaries, redactors).

A researcher who already holds a configured official client (Azure, a proxy, custom
headers) wraps it once::

    judge = LLMJudge(client=from_openai(openai.OpenAI(), model="gpt-4o-mini"))

The wrapper gives the client the one method privlab's LLM paths call, ``chat_json``, with
the same guarantees as :class:`~privlab.llm.LLMClient`: malformed answers asked again, an
answer holding the key returned redacted with a warning, and every error message and
log record free of the key and of the endpoint URL's query values
(:mod:`privlab.llm.logs`). Answers are not cached: the official client keeps no cache.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

from privlab.errors import invalid, wrong_type
import privlab.llm.logs as logs
from privlab.llm.failures import LLMError
from privlab.llm.answers import parse_json_answer
from privlab.llm.messages import check_messages
from privlab.llm.secrets import redact_secrets
from privlab.llm.urls import _split_query


class OpenAIChat:
    """An ``openai.OpenAI`` client seen through privlab's ``chat_json``.

    Args:
        client: an ``openai.OpenAI`` (or ``AzureOpenAI``) instance.
        model: the model (or Azure deployment) to ask.
        max_retries: extra attempts after a malformed or invalid answer (the client's own
            ``max_retries`` covers network errors).
    """

    def __init__(self, client: Any, model: str, *, max_retries: int = 2):
        if not hasattr(getattr(getattr(client, "chat", None), "completions", None), "create"):
            raise wrong_type("client", "from_openai", "an openai.OpenAI client", client,
                             "E.g. from_openai(openai.OpenAI(base_url=..., api_key=...), "
                             "model='gpt-4o-mini').")
        if not isinstance(model, str) or not model:
            raise invalid("model", "from_openai", "a model name", model,
                          "E.g. model='gpt-4o-mini'.")
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise invalid("max_retries", "from_openai", "a non-negative int", max_retries)
        self.client, self.model, self.max_retries = client, model, max_retries
        self.base_url = str(getattr(client, "base_url", "")).split("?")[0].rstrip("/")
        logs.remember(self._secrets(), self._query_names())

    def _query_names(self) -> set[str]:
        return _split_query(str(getattr(self.client, "base_url", "")))[3]

    def _secrets(self) -> set[str]:
        """The client's key and the values of its base URL's query (see
        :func:`privlab.llm.urls._split_query`)."""
        values = _split_query(str(getattr(self.client, "base_url", "")))[2]
        key = getattr(self.client, "api_key", None)
        return ({key} if isinstance(key, str) and key else set()) | values

    def __repr__(self) -> str:
        return f"OpenAIChat(base_url={logs.redact(self.base_url)!r}, model={self.model!r})"

    def _ask(self, messages: list[dict], json_mode: bool) -> str:
        options: dict[str, Any] = {"model": self.model, "messages": messages,
                                   "temperature": 0.0}
        if json_mode:
            options["response_format"] = {"type": "json_object"}
        try:
            reply = self.client.chat.completions.create(**options)
            text = reply.choices[0].message.content
        except Exception as exc:  # noqa: BLE001 - any client error, told without secrets
            detail = logs.redact(redact_secrets(f"{type(exc).__name__}: {exc}",
                                                self._secrets()))
            raise LLMError(f"The OpenAI client at {logs.redact(self.base_url)} gave no "
                           f"answer: {detail[:400]}") from None
        if not isinstance(text, str):
            raise LLMError(f"The OpenAI client at {logs.redact(self.base_url)} answered "
                           "without text content.")
        clean = redact_secrets(text, self._secrets())
        if clean != text:
            warnings.warn(f"The answer from {logs.redact(self.base_url)} holds a secret (the "
                          "client's API key); it is returned with the secret replaced by "
                          "[redacted].", RuntimeWarning, stacklevel=3)
        return clean

    def chat_json(self, messages: list[dict], *, validate: Callable[[Any], Any] | None = None,
                  temperature: float = 0.0, json_mode: bool = True) -> Any:
        """The parsed JSON answer to ``messages``, asked again while malformed or invalid.

        Raises:
            LLMError: no valid answer after ``max_retries`` extra attempts.
        """
        check_messages(messages, temperature)
        problems = []
        for attempt in range(self.max_retries + 1):
            asked = messages if attempt == 0 else messages + [
                {"role": "user", "content": "Answer again with valid JSON only."}]
            text = self._ask(asked, json_mode)
            try:
                value = parse_json_answer(text)
                return validate(value) if validate else value
            except ValueError as exc:
                problems.append(str(exc))
        raise LLMError(f"The model {self.model} at {logs.redact(self.base_url)} did not return "
                       f"valid JSON after {self.max_retries + 1} attempts: {problems[-1]}")


def from_openai(client: Any, model: str, *, max_retries: int = 2) -> OpenAIChat:
    """Wrap an ``openai.OpenAI`` client so privlab's judges and adversaries can use it.

    Example:
        >>> from_openai(object(), "m")
        Traceback (most recent call last):
        ...
        privlab.errors.PrivlabTypeError: The 'client' parameter of from_openai must be an openai.OpenAI client. Got object instead. E.g. from_openai(openai.OpenAI(base_url=..., api_key=...), model='gpt-4o-mini').
    """
    return OpenAIChat(client, model, max_retries=max_retries)


__all__ = ["OpenAIChat", "from_openai"]
