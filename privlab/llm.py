"""One OpenAI-compatible client for every LLM path (sanitizers, judges, adversaries).

OpenAI, vLLM, Ollama and the llama.cpp server all speak the ``/v1/chat/completions``
protocol, so one small client serves them all. Configuration comes from arguments or
the environment (``PRIVLAB_LLM_BASE_URL``, ``PRIVLAB_LLM_MODEL``, and the API key from
the variable named by ``api_key_env``, ``OPENAI_API_KEY`` by default). Keys are read
from the environment at call time and never written anywhere, including the cache.

Successful answers are cached on disk (keyed by endpoint, model and request), so
re-running a notebook costs nothing; malformed answers are retried and never cached.

Failures end in an :class:`LLMError` naming the endpoint. ``timeout`` bounds a whole
request (connecting, sending, waiting and reading the full answer), however slowly a
server trickles it. A dropped connection, a timeout, an HTTP 408/409/425/429 or 5xx and
a malformed body are retried with backoff; other HTTP errors are not. The API key is
replaced by ``[redacted]`` in every message and in the client's repr, also when a
server echoes it back. A cached answer that is not text, not UTF-8 or (for
:meth:`LLMClient.chat_json`) no longer valid is dropped with a warning and asked again;
a cache file SQLite reports as damaged is moved aside to ``llm.sqlite.damaged`` with a
warning, and a fresh one started.
"""

from __future__ import annotations

import base64
import io
import json
import math
import numbers
import os
import re
import sqlite3
import threading
import time
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from privlab.errors import invalid, wrong_type
from privlab.hashing import bytes_hash
from privlab.io import is_damaged_database, set_aside


class LLMError(RuntimeError):
    """The endpoint could not give a usable answer (after retries)."""


class LLMUnavailableError(LLMError):
    """No endpoint is configured, or it cannot be reached."""


class _DeadlineExceeded(Exception):
    """A request ran past the client's ``timeout``."""


_REDACTED = "[redacted]"


@lru_cache(maxsize=1)
def _ssl_context():
    # Loading the certificate store takes ~0.1 s; one context serves every request.
    import httpx

    return httpx.create_ssl_context()


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
        timeout: seconds one request may take in all, from connecting to the last byte
            of the answer (each retry gets its own).
        max_retries: extra attempts after a failed or malformed answer.
        backoff: seconds before the first retry, doubled each time.
        cache: cache successful answers on disk.

    Example:
        >>> LLMClient("http://127.0.0.1:8000/v1", "m", timeout=0)
        Traceback (most recent call last):
        ...
        privlab.errors.PrivlabValueError: The 'timeout' parameter of LLMClient must be a finite number of seconds above 0. Got 0 instead. It bounds a whole request, e.g. timeout=60.
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
        if not isinstance(max_retries, int) or isinstance(max_retries, bool) or max_retries < 0:
            raise invalid("max_retries", "LLMClient", "a non-negative int", max_retries)
        for name, value, lowest in (("timeout", timeout, "above 0"),
                                    ("backoff", backoff, "0 or more")):
            if not isinstance(value, numbers.Real) or isinstance(value, bool):
                raise wrong_type(name, "LLMClient", "a number of seconds", value)
            if not math.isfinite(value) or value < 0 or (name == "timeout" and value == 0):
                raise invalid(name, "LLMClient", f"a finite number of seconds {lowest}", value,
                              "It bounds a whole request, e.g. timeout=60." if name == "timeout"
                              else "e.g. backoff=0.5.")
        self.base_url = self.base_url.rstrip("/")
        self.api_key_env = api_key_env
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.cache = cache

    # -- transport -------------------------------------------------------------------
    def _api_key(self) -> str | None:
        return os.environ.get(self.api_key_env) or None

    def _headers(self) -> dict[str, str]:
        key = self._api_key()
        return {"Authorization": f"Bearer {key}"} if key else {}

    def _redact(self, text: Any, key: str | None = None) -> str:
        """``text`` without the API key (the one sent, and the current one), any bearer
        token or any password in a URL."""
        text = str(text)
        for secret in {key, self._api_key()} - {None, ""}:
            text = text.replace(secret, _REDACTED)
        text = re.sub(r"(?i)(bearer\s+)[^\s\"',;}]+", rf"\g<1>{_REDACTED}", text)
        return re.sub(r"(//)[^/@\s]+@", rf"\g<1>{_REDACTED}@", text)

    def __repr__(self) -> str:
        key = "set" if self._api_key() else "unset"
        return (f"LLMClient(base_url={self._redact(self.base_url)!r}, model={self.model!r}, "
                f"api_key_env={self.api_key_env!r} ({key}), timeout={self.timeout!r}, "
                f"max_retries={self.max_retries!r}, cache={self.cache!r})")

    def _send(self, url: str, headers: dict[str, str], **body: Any) -> tuple[int, bytes]:
        """One POST: the status and the whole body, within ``timeout`` seconds in all.

        The request runs in a worker thread that reads the answer as it streams in and
        stops at the deadline; the caller waits for it no longer than the deadline, then
        closes the connection, whatever the server is doing.
        """
        import httpx

        deadline = time.monotonic() + self.timeout
        client = httpx.Client(timeout=httpx.Timeout(self.timeout), verify=_ssl_context())
        outcome: dict[str, Any] = {}
        finished = threading.Event()

        def attempt() -> None:
            try:
                with client.stream("POST", url, headers=headers, **body) as response:
                    chunks = []
                    for chunk in response.iter_bytes():
                        chunks.append(chunk)
                        if time.monotonic() > deadline:
                            raise _DeadlineExceeded()
                    outcome["reply"] = (response.status_code, b"".join(chunks))
            except BaseException as exc:  # handed to the caller below
                outcome["error"] = exc
            finally:
                finished.set()

        worker = threading.Thread(target=attempt, name="privlab-llm-request", daemon=True)
        worker.start()
        try:
            if not finished.wait(self.timeout):
                raise _DeadlineExceeded()
        finally:
            client.close()  # also ends a worker still reading
        if "error" in outcome:
            raise outcome["error"]
        return outcome["reply"]

    def _post(self, path: str, payload: dict | None = None, **form: Any) -> Any:
        """POST JSON ``payload`` (or a multipart ``data=``/``files=`` form); the parsed answer.

        Raises:
            LLMUnavailableError: the endpoint cannot be reached.
            LLMError: an HTTP error that is not worth retrying, or no usable answer
                after the retries; the endpoint is named and the API key redacted.
        """
        import httpx

        url = f"{self.base_url}{path}"
        key = self._api_key()
        headers = self._headers()
        body = {"json": payload} if payload is not None else form
        delay = self.backoff
        last = ""
        for attempt in range(self.max_retries + 1):
            try:
                status, raw = self._send(url, headers, **body)
            except httpx.ConnectError as exc:
                raise LLMUnavailableError(self._redact(
                    f"Cannot reach the LLM endpoint {self.base_url}: {exc}. Start the server "
                    "or fix base_url.", key)) from None
            except httpx.UnsupportedProtocol as exc:
                raise LLMUnavailableError(self._redact(
                    f"The LLM endpoint {self.base_url} is not an http(s) URL: {exc}. Fix "
                    "base_url, e.g. 'http://127.0.0.1:8000/v1'.", key)) from None
            except _DeadlineExceeded:
                last = f"no complete answer within timeout={self.timeout} s"
            except httpx.TransportError as exc:  # dropped connection, read error, timeout
                last = f"{type(exc).__name__}: {exc or 'the connection failed'}"
            else:
                text = raw.decode("utf-8", "replace")
                if status == 200:
                    try:
                        return json.loads(text)
                    except ValueError:
                        last = f"a body that is not JSON: {text[:200]!r}"
                elif status in (408, 409, 425, 429) or status >= 500:
                    last = f"HTTP {status}: {text[:200]}"
                else:
                    raise LLMError(self._redact(
                        f"The LLM endpoint {url} refused the request with HTTP {status}: "
                        f"{text[:300]}", key))
            if attempt < self.max_retries:
                time.sleep(delay)
                delay *= 2
        raise LLMError(self._redact(
            f"No usable answer from {url} after {self.max_retries + 1} attempts: {last}", key))

    # -- cache -----------------------------------------------------------------------
    def _cache_key(self, kind: str, payload: dict) -> str:
        blob = json.dumps([kind, self.base_url, payload], sort_keys=True, default=str)
        return bytes_hash(blob.encode())

    def _cache_transaction(self, path: Path, action: Callable[[sqlite3.Connection], Any]) -> Any:
        con = sqlite3.connect(path, timeout=60)
        try:
            with con:
                con.execute("CREATE TABLE IF NOT EXISTS answers "
                            "(key TEXT PRIMARY KEY, answer TEXT)")
                return action(con)
        finally:
            con.close()

    def _cache_run(self, action: Callable[[sqlite3.Connection], Any]) -> Any:
        """``action(con)`` on the answer cache, on a fresh file if this one is damaged."""
        from privlab.config import cache_dir

        path = cache_dir() / "llm.sqlite"
        try:
            return self._cache_transaction(path, action)
        except sqlite3.DatabaseError as exc:
            if not is_damaged_database(exc):
                raise
            aside = set_aside(path)
            warnings.warn(f"The LLM answer cache {path} is damaged ({exc}); moved it to {aside} "
                          "and started a fresh one, so answers are asked for again.",
                          RuntimeWarning, stacklevel=4)
        return self._cache_transaction(path, action)

    def _cached(self, key: str) -> str | None:
        if not self.cache:
            return None

        def read(con: sqlite3.Connection) -> tuple[str | None, str]:
            row = con.execute("SELECT typeof(answer), CAST(answer AS BLOB) FROM answers "
                              "WHERE key=?", (key,)).fetchone()
            if row is None:
                return None, ""
            kind, raw = row
            if kind == "text":
                try:
                    return raw.decode("utf-8"), ""
                except UnicodeDecodeError:
                    problem = "text that is not UTF-8"
            else:
                problem = f"a {kind} value instead of text"
            con.execute("DELETE FROM answers WHERE key=?", (key,))
            return None, problem

        answer, problem = self._cache_run(read)
        if problem:
            self._warn_dropped(key, problem)
        return answer

    def _drop(self, key: str, problem: str) -> None:
        self._cache_run(lambda con: con.execute("DELETE FROM answers WHERE key=?", (key,)))
        self._warn_dropped(key, problem)

    def _warn_dropped(self, key: str, problem: str) -> None:
        from privlab.config import cache_dir

        warnings.warn(f"Dropped a damaged entry (key {key[:12]}) from the LLM answer cache "
                      f"{cache_dir() / 'llm.sqlite'}: {self._redact(problem)}; asking the "
                      "endpoint again.", RuntimeWarning, stacklevel=4)

    def _store(self, key: str, answer: str) -> None:
        if self.cache:
            self._cache_run(lambda con: con.execute(
                "INSERT OR REPLACE INTO answers VALUES (?, ?)", (key, answer)))

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
            raise LLMError(self._redact(f"The LLM endpoint {self.base_url} answered without a "
                                        f"message: {str(body)[:200]}")) from exc
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
            try:
                value = parse_json_answer(cached)
                return validate(value) if validate else value
            except ValueError as exc:  # stored before the file was damaged or the check changed
                self._drop(key, f"the answer no longer parses or validates ({exc})")
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
        raise LLMError(self._redact(f"The model at {self.base_url} did not return valid JSON "
                                    f"after {self.max_retries + 1} attempts: {problems[-1]}"))

    def edit_image(self, image: Any, prompt: str, *, size: str | None = None) -> Any:
        """Ask an image-editing model to redact, through ``/images/edits`` (base64 answer).

        Retried, bounded by ``timeout`` and redacted like :meth:`chat`; not cached.

        Returns:
            The edited image as a PIL image.

        Raises:
            LLMUnavailableError: the endpoint cannot be reached.
            LLMError: no usable image after the retries.
        """
        from PIL import Image

        buffer = io.BytesIO()
        (Image.fromarray(image) if not hasattr(image, "save") else image).convert("RGB").save(
            buffer, format="PNG")
        data = {"model": self.model, "prompt": prompt, "response_format": "b64_json"}
        if size:
            data["size"] = size
        body = self._post("/images/edits", data=data,
                          files={"image": ("image.png", buffer.getvalue(), "image/png")})
        try:
            edited = Image.open(io.BytesIO(base64.b64decode(body["data"][0]["b64_json"])))
            return edited.convert("RGB")
        except (KeyError, IndexError, TypeError, ValueError, OSError) as exc:
            raise LLMError(f"The image endpoint {self.base_url} answered without usable "
                           f"b64_json image data ({type(exc).__name__}).") from None


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
