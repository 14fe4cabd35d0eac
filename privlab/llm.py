"""One OpenAI-compatible client for every LLM path (sanitizers, judges, adversaries).

OpenAI, vLLM, Ollama and the llama.cpp server all speak the ``/v1/chat/completions``
protocol, so one small client serves them all. Configuration comes from arguments or
the environment (``PRIVLAB_LLM_BASE_URL``, ``PRIVLAB_LLM_MODEL``, and the API key from
the variable named by ``api_key_env``, ``OPENAI_API_KEY`` by default). Keys are read
from the environment at call time and never written anywhere, including the cache.

Successful answers are cached on disk (keyed by endpoint, model and request), so
re-running a notebook costs nothing; malformed answers are retried and never cached.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import sqlite3
import time
from typing import Any, Callable

from privlab.errors import invalid, wrong_type
from privlab.hashing import bytes_hash


class LLMError(RuntimeError):
    """The endpoint could not give a usable answer (after retries)."""


class LLMUnavailableError(LLMError):
    """No endpoint is configured, or it cannot be reached."""


def image_part(image: Any, *, max_side: int = 1024) -> dict:
    """A chat message content part carrying an image as a PNG data URL.

    Args:
        image: PIL image or ``HxWxC`` uint8 array.
        max_side: downscale so that the longer side is at most this many pixels.
    """
    from PIL import Image
    import numpy as np

    if isinstance(image, np.ndarray):
        image = Image.fromarray(image)
    image = image.convert("RGB")
    if max(image.size) > max_side:
        image = image.copy()
        image.thumbnail((max_side, max_side))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    data = base64.b64encode(buffer.getvalue()).decode()
    return {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{data}"}}


def parse_json_answer(text: str) -> Any:
    """Parse a model's JSON answer, tolerating a fenced ```json block around it.

    Example:
        >>> parse_json_answer('```json\\n{"a": 1}\\n```')
        {'a': 1}

    Raises:
        ValueError: the text holds no valid JSON.
    """
    fenced = re.search(r"```(?:json)?\s*(.*?)```", text, re.S)
    candidate = fenced.group(1) if fenced else text
    try:
        return json.loads(candidate)
    except json.JSONDecodeError:
        match = re.search(r"(\{.*\}|\[.*\])", candidate, re.S)
        if match:
            try:
                return json.loads(match.group(1))
            except json.JSONDecodeError:
                pass
    raise ValueError(f"not valid JSON: {text[:120]!r}")


class LLMClient:
    """Chat completions against an OpenAI-compatible endpoint, with retries and a cache.

    Args:
        base_url: e.g. ``"http://127.0.0.1:8000/v1"`` (default ``$PRIVLAB_LLM_BASE_URL``,
            then ``$OPENAI_BASE_URL``).
        model: model name (default ``$PRIVLAB_LLM_MODEL``).
        api_key_env: name of the environment variable holding the key (may be unset
            for local servers).
        timeout: seconds per request.
        max_retries: extra attempts after a failed or malformed answer.
        backoff: seconds before the first retry, doubled each time.
        cache: cache successful answers on disk.
    """

    def __init__(self, base_url: str | None = None, model: str | None = None, *,
                 api_key_env: str = "OPENAI_API_KEY", timeout: float = 60.0,
                 max_retries: int = 2, backoff: float = 0.5, cache: bool = True):
        self.base_url = (base_url or os.environ.get("PRIVLAB_LLM_BASE_URL")
                         or os.environ.get("OPENAI_BASE_URL") or "")
        self.model = model or os.environ.get("PRIVLAB_LLM_MODEL") or ""
        if not self.base_url:
            raise LLMUnavailableError(
                "No LLM endpoint is configured. Pass base_url= (e.g. 'http://127.0.0.1:8000/v1' "
                "for a local vLLM, Ollama or llama.cpp server, 'https://api.openai.com/v1' for "
                "OpenAI) or set PRIVLAB_LLM_BASE_URL.")
        if not self.model:
            raise invalid("model", "LLMClient", "a model name", self.model,
                          "Pass model= or set PRIVLAB_LLM_MODEL.")
        if not isinstance(max_retries, int) or max_retries < 0:
            raise invalid("max_retries", "LLMClient", "a non-negative int", max_retries)
        self.base_url = self.base_url.rstrip("/")
        self.api_key_env = api_key_env
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.cache = cache

    # -- transport -------------------------------------------------------------------
    def _headers(self) -> dict[str, str]:
        key = os.environ.get(self.api_key_env)
        return {"Authorization": f"Bearer {key}"} if key else {}

    def _post(self, path: str, payload: dict) -> dict:
        import httpx

        url = f"{self.base_url}{path}"
        delay = self.backoff
        last: Exception | None = None
        for attempt in range(self.max_retries + 1):
            try:
                response = httpx.post(url, json=payload, headers=self._headers(),
                                      timeout=self.timeout)
            except httpx.ConnectError as exc:
                raise LLMUnavailableError(
                    f"Cannot reach the LLM endpoint {self.base_url}: {exc}. Start the server "
                    "or fix base_url.") from exc
            except httpx.TimeoutException as exc:
                last = exc
            else:
                if response.status_code == 200:
                    try:
                        return response.json()
                    except ValueError as exc:
                        last = exc
                elif response.status_code in (408, 409, 425, 429) or response.status_code >= 500:
                    last = LLMError(f"HTTP {response.status_code}: {response.text[:200]}")
                else:
                    raise LLMError(f"The LLM endpoint refused the request with HTTP "
                                   f"{response.status_code}: {response.text[:300]}")
            if attempt < self.max_retries:
                time.sleep(delay)
                delay *= 2
        raise LLMError(f"No usable answer from {url} after {self.max_retries + 1} attempts: {last}")

    # -- cache -----------------------------------------------------------------------
    def _cache_key(self, kind: str, payload: dict) -> str:
        blob = json.dumps([kind, self.base_url, payload], sort_keys=True, default=str)
        return bytes_hash(blob.encode())

    def _cache_db(self) -> sqlite3.Connection:
        from privlab.config import cache_dir

        con = sqlite3.connect(cache_dir() / "llm.sqlite", timeout=60)
        con.execute("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, answer TEXT)")
        return con

    def _cached(self, key: str) -> str | None:
        if not self.cache:
            return None
        with self._cache_db() as con:
            row = con.execute("SELECT answer FROM answers WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def _store(self, key: str, answer: str) -> None:
        if self.cache:
            with self._cache_db() as con:
                con.execute("INSERT OR REPLACE INTO answers VALUES (?, ?)", (key, answer))

    # -- public ----------------------------------------------------------------------
    def chat(self, messages: list[dict], *, temperature: float = 0.0,
             max_tokens: int | None = None, json_mode: bool = False) -> str:
        """The assistant's text for ``messages`` (OpenAI chat format).

        Raises:
            LLMUnavailableError: the endpoint cannot be reached.
            LLMError: no usable answer after the retries.
        """
        payload: dict[str, Any] = {"model": self.model, "messages": messages,
                                   "temperature": temperature}
        if max_tokens is not None:
            payload["max_tokens"] = max_tokens
        if json_mode:
            payload["response_format"] = {"type": "json_object"}
        key = self._cache_key("chat", payload)
        cached = self._cached(key)
        if cached is not None:
            return cached
        body = self._post("/chat/completions", payload)
        try:
            text = body["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError) as exc:
            raise LLMError(f"The LLM endpoint answered without a message: {str(body)[:200]}") from exc
        if not isinstance(text, str):
            raise LLMError("The LLM endpoint answered with empty content.")
        self._store(key, text)
        return text

    def chat_json(self, messages: list[dict], *, validate: Callable[[Any], Any] | None = None,
                  temperature: float = 0.0, json_mode: bool = True) -> Any:
        """Ask for JSON; retry malformed or invalid answers, cache only valid ones.

        Args:
            messages: the chat.
            validate: called on the parsed answer; returns the value to keep or raises
                ValueError to have the question asked again.

        Raises:
            LLMError: still malformed after ``max_retries`` extra attempts.
        """
        payload = {"model": self.model, "messages": messages, "temperature": temperature,
                   "response_format": {"type": "json_object"} if json_mode else None}
        key = self._cache_key("chat_json", payload)
        cached = self._cached(key)
        if cached is not None:
            value = parse_json_answer(cached)
            return validate(value) if validate else value
        problems = []
        for attempt in range(self.max_retries + 1):
            saved, self.cache = self.cache, False  # malformed answers must not be cached
            try:
                text = self.chat(messages if attempt == 0 else messages + [{
                    "role": "user", "content": "Answer again with valid JSON only."}],
                    temperature=temperature, json_mode=json_mode)
            finally:
                self.cache = saved
            try:
                value = parse_json_answer(text)
                value = validate(value) if validate else value
            except ValueError as exc:
                problems.append(str(exc))
                continue
            self._store(key, text)
            return value
        raise LLMError(f"The model did not return valid JSON after {self.max_retries + 1} "
                       f"attempts: {problems[-1]}")

    def edit_image(self, image: Any, prompt: str, *, size: str | None = None) -> Any:
        """Ask an image-editing model to redact, through ``/images/edits`` (base64 answer).

        Returns:
            The edited image as a PIL image.
        """
        import httpx
        from PIL import Image

        buffer = io.BytesIO()
        (Image.fromarray(image) if not hasattr(image, "save") else image).convert("RGB").save(
            buffer, format="PNG")
        data = {"model": self.model, "prompt": prompt, "response_format": "b64_json"}
        if size:
            data["size"] = size
        try:
            response = httpx.post(f"{self.base_url}/images/edits", data=data,
                                  files={"image": ("image.png", buffer.getvalue(), "image/png")},
                                  headers=self._headers(), timeout=self.timeout)
        except httpx.ConnectError as exc:
            raise LLMUnavailableError(f"Cannot reach the image endpoint {self.base_url}: {exc}") from exc
        if response.status_code != 200:
            raise LLMError(f"Image edit failed with HTTP {response.status_code}: {response.text[:200]}")
        try:
            b64 = response.json()["data"][0]["b64_json"]
        except (KeyError, IndexError, ValueError) as exc:
            raise LLMError("The image endpoint answered without b64_json image data.") from exc
        return Image.open(io.BytesIO(base64.b64decode(b64))).convert("RGB")


def ensure_client(client: Any = None, caller: str = "ensure_client") -> Any:
    """The chat client an LLM path uses: ``client`` itself, or one built from the environment.

    Judges, adversaries and redaction strategies take an optional ``client``; this is the
    one place that turns that argument into something they can call ``chat_json`` on.

    Args:
        client: an :class:`LLMClient`, anything else with a ``chat_json`` method (a
            scripted stand-in, for instance), or None for ``LLMClient()`` configured from
            ``PRIVLAB_LLM_BASE_URL`` and ``PRIVLAB_LLM_MODEL``.
        caller: the public class or function that took ``client``, named in errors.

    Returns:
        The client to use.

    Raises:
        PrivlabTypeError: ``client`` has no ``chat_json`` method.
        LLMUnavailableError: ``client`` is None and no endpoint is configured.

    Example:
        >>> class Scripted:
        ...     def chat_json(self, messages, **options):
        ...         return {}
        >>> scripted = Scripted()
        >>> ensure_client(scripted, "LLMJudge") is scripted
        True
        >>> ensure_client("http://127.0.0.1:8000/v1", "LLMJudge")
        Traceback (most recent call last):
        ...
        privlab.errors.PrivlabTypeError: The 'client' parameter of LLMJudge must be an LLMClient (or anything with chat_json). Got str instead.
    """
    if client is None:
        return LLMClient()
    if not hasattr(client, "chat_json"):
        raise wrong_type("client", caller, "an LLMClient (or anything with chat_json)", client)
    return client
