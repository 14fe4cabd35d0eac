"""One OpenAI-compatible client for every LLM path (sanitizers, judges, adversaries).

OpenAI, vLLM, Ollama and the llama.cpp server all speak the ``/v1/chat/completions``
protocol; :class:`LLMClient` sends through the official ``openai`` client
(:mod:`privlab.llm.transport`) and adds what it does not do: a ``deadline`` over a whole
call (retries and backoff included; ``PRIVLAB_LLM_DEADLINE``, else 60 s), ``timeout`` over
a whole request however slowly a server trickles it, a cap on the bytes of any answer read
(error bodies too), bodies decoded by their declared charset, malformed answers asked
again, an on-disk answer cache (:mod:`privlab.llm.answer_cache`) and secrets redacted
from every message, warning, repr, log record and cache entry (:func:`redact_secrets`).

Configuration comes from arguments or the environment (``PRIVLAB_LLM_BASE_URL``,
``PRIVLAB_LLM_MODEL``, the key from the variable named by ``api_key_env``); keys are read
at call time and never written anywhere. Failures end in an :class:`LLMError` naming the
endpoint. Details: ``docs/real-models.md``; the transport's design:
``docs/decisions/2026-12-05-llm-transport.md``.
"""

from __future__ import annotations

import base64
import io
import json
import math
import numbers
import os
import re
import time
import warnings
from typing import Any, Callable
from urllib.parse import parse_qsl

from privlab.errors import PrivlabValueError, invalid, wrong_type
from privlab.llm.messages import check_messages as _check_messages, image_part  # noqa: F401
from privlab.llm.answers import MAX_ANSWER_CHARS, MAX_ANSWER_DEPTH, parse_json_answer  # noqa: F401
from privlab.llm import logs as _logs, transport
from privlab.llm.answer_cache import CACHE_RETRY_S, AnswerCache, transaction  # noqa: F401
from privlab.llm.failures import LLMError, LLMUnavailableError
from privlab.llm.secrets import REDACTED as _REDACTED, decode_body, redact_secrets
from privlab.llm.urls import _QUERY_SECRET, _check_key, _split_credentials, _split_query


#: Seconds one call (retries and backoff included) may take unless told otherwise.
DEFAULT_DEADLINE = 60.0
#: The environment variable that sets the default ``deadline`` of :class:`LLMClient`.
DEADLINE_ENV = "PRIVLAB_LLM_DEADLINE"
#: Bytes of one answer read at most unless told otherwise (an edited 1024-pixel image in
#: base64 is a few MB): past it reading stops and the call fails saying so.
MAX_BODY_BYTES = 64 * 2**20


def _deadline_from_env() -> float:
    text = os.environ.get(DEADLINE_ENV)
    if not text:
        return DEFAULT_DEADLINE
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise PrivlabValueError(
            f"The environment variable {DEADLINE_ENV} read by LLMClient must be a finite "
            f"number of seconds above 0. Got {text!r} instead. E.g. {DEADLINE_ENV}=60.")
    return value


class LLMClient:
    """Chat completions against an OpenAI-compatible endpoint, with retries and a cache.

    Args:
        base_url: e.g. ``"http://127.0.0.1:8000/v1"`` (default ``$PRIVLAB_LLM_BASE_URL``,
            then ``$OPENAI_BASE_URL``). A ``user:password@`` in it is sent as basic auth,
            percent-decoded; the password (or a user name without one, a token) is
            treated as a secret, and ``client.base_url`` is the URL without either.
        model: model name (default ``$PRIVLAB_LLM_MODEL``).
        api_key_env: name of the environment variable holding the key (may be unset
            for local servers).
        timeout: seconds one request may take in all, from connecting to the last byte
            of the answer.
        deadline: seconds one call may take in all, every retry and backoff included
            (default ``$PRIVLAB_LLM_DEADLINE``, else 60); each request gets at most what
            is left of it.
        max_retries: extra attempts after a dropped connection, a timeout, an HTTP
            408/409/425/429 or 5xx or a malformed body (other HTTP errors are final).
        backoff: seconds before the first retry, doubled each time.
        cache: cache successful answers on disk.
        max_body_bytes: bytes of one answer read at most (stated or streamed); a larger
            answer fails the call, unread past this size, and is not retried.

    Example:
        >>> LLMClient("http://127.0.0.1:8000/v1", "m", timeout=0)
        Traceback (most recent call last):
        ...
        privlab.errors.PrivlabValueError: The 'timeout' parameter of LLMClient must be a finite number of seconds above 0. Got 0 instead. It bounds a whole request, e.g. timeout=60.
    """

    def __init__(self, base_url: str | None = None, model: str | None = None, *,
                 api_key_env: str = "OPENAI_API_KEY", timeout: float = 60.0,
                 deadline: float | None = None, max_retries: int = 2, backoff: float = 0.5,
                 cache: bool = True, max_body_bytes: int = MAX_BODY_BYTES):
        source = "'base_url' parameter"
        if not base_url:
            variable = next((name for name in ("PRIVLAB_LLM_BASE_URL", "OPENAI_BASE_URL")
                             if os.environ.get(name)), None)
            base_url = os.environ.get(variable) if variable else ""
            source = f"environment variable {variable}"
        self.model = model or os.environ.get("PRIVLAB_LLM_MODEL") or ""
        if not base_url:
            raise LLMUnavailableError(
                "No LLM endpoint is configured. Pass base_url= (e.g. 'http://127.0.0.1:8000/v1' "
                "for a local vLLM, Ollama or llama.cpp server, 'https://api.openai.com/v1' for "
                "OpenAI) or set PRIVLAB_LLM_BASE_URL.")
        if not isinstance(base_url, str):
            raise wrong_type("base_url", "LLMClient", "a URL string", base_url)
        if not isinstance(self.model, str):
            raise wrong_type("model", "LLMClient", "a model name (a string)", self.model)
        if not self.model:
            raise invalid("model", "LLMClient", "a model name", self.model,
                          "Pass model= or set PRIVLAB_LLM_MODEL.")
        if not isinstance(api_key_env, str) or not api_key_env:
            raise wrong_type("api_key_env", "LLMClient",
                             "the name of an environment variable, e.g. 'OPENAI_API_KEY'",
                             api_key_env)
        if not isinstance(max_retries, int) or isinstance(max_retries, bool) or max_retries < 0:
            raise invalid("max_retries", "LLMClient", "a non-negative int", max_retries)
        if not isinstance(max_body_bytes, int) or isinstance(max_body_bytes, bool) \
                or max_body_bytes < 1:
            raise invalid("max_body_bytes", "LLMClient", "a positive int (bytes)",
                          max_body_bytes, f"E.g. max_body_bytes={MAX_BODY_BYTES}.")
        if deadline is None:
            deadline = _deadline_from_env()
        for name, value, lowest in (("timeout", timeout, "above 0"),
                                    ("deadline", deadline, "above 0"),
                                    ("backoff", backoff, "0 or more")):
            if not isinstance(value, numbers.Real) or isinstance(value, bool):
                raise wrong_type(name, "LLMClient", "a number of seconds", value)
            if not math.isfinite(value) or value < 0 or (name != "backoff" and value == 0):
                raise invalid(name, "LLMClient", f"a finite number of seconds {lowest}", value,
                              "It bounds a whole request, e.g. timeout=60." if name == "timeout"
                              else "It bounds a whole call with its retries, e.g. deadline=60."
                              if name == "deadline" else "e.g. backoff=0.5.")
        public, self._credentials = _split_credentials(base_url, source)
        # Every value of the URL's query (?key=..., ?subscription-key=..., ?code=...) is
        # sent with each request and treated as a secret; client.base_url is the URL
        # without the query.
        public, self._query, self._query_secrets, self._query_names = _split_query(public)
        self._query_pattern = _logs.query_pattern(self._query_names)
        self.max_body_bytes = max_body_bytes
        self.base_url = public.rstrip("/")
        self.api_key_env = api_key_env
        self.timeout = timeout
        self.deadline = deadline
        self.max_retries = max_retries
        self.backoff = backoff
        self.cache = cache
        self._answers = AnswerCache(self._redact, self._holds_secret)
        _logs.remember(self._secrets(), self._query_names)

    #: The answer cache's transaction (:func:`privlab.llm.answer_cache.transaction`).
    _cache_transaction = staticmethod(transaction)

    # -- secrets ---------------------------------------------------------------------
    def _api_key(self) -> str | None:
        return os.environ.get(self.api_key_env) or None

    def _secrets(self, key: str | None = None) -> set[str]:
        """The API key sent, the current one and the URL's password (or its user name
        when it has no password: a token given as ``https://TOKEN@host/v1``)."""
        user, password = self._credentials or (None, None)
        return ({key, self._api_key(), password or user} | self._query_secrets) - {None, ""}

    def _redact(self, text: Any, key: str | None = None) -> str:
        """``text`` without any secret (see :func:`redact_secrets`), bearer token or
        ``user:password@`` in a URL."""
        text = _logs.scrub(str(text), self._secrets(key), self._query_pattern)
        text = _QUERY_SECRET.sub(rf"\g<1>{_REDACTED}", text)
        return re.sub(r"(//)[^/@\s]+@", rf"\g<1>{_REDACTED}@", text)

    def _redact_cut(self, text: str, size: int, key: str | None = None) -> str:
        """The first ``size`` characters of ``text`` redacted, redacting before the cut.

        Only a window is searched: ``size`` characters and enough after them to hold any
        encoded form of a secret that starts inside them (a body of megabytes would take
        seconds to search whole, and no more of it is shown)."""
        longest = max((len(secret) for secret in self._secrets(key)), default=0)
        return self._redact(text[:size + 32 * longest + 64], key)[:size]

    def _holds_secret(self, text: str) -> bool:
        return redact_secrets(text, self._secrets()) != text

    def __repr__(self) -> str:
        key = "set" if self._api_key() else "unset"
        return (f"LLMClient(base_url={self._redact(self.base_url)!r}, model={self.model!r}, "
                f"api_key_env={self.api_key_env!r} ({key}), timeout={self.timeout!r}, "
                f"deadline={self.deadline!r}, max_retries={self.max_retries!r}, "
                f"cache={self.cache!r})")

    # -- transport -------------------------------------------------------------------
    def _post(self, path: str, call: Callable[..., Any], *,
              until: float | None = None) -> tuple[Any, bool]:
        """Send the request ``call`` opens on an ``openai.OpenAI`` (see
        :func:`privlab.llm.transport.send`); the parsed answer, and whether its body
        decoded without a replaced byte (only then may it be cached; otherwise a warning
        says so).

        Retries until ``max_retries`` extra attempts are spent or the monotonic clock
        reaches ``until`` (default: ``deadline`` seconds from now). The retries are
        privlab's, not ``openai``'s: they also ask again after a malformed body, and they
        fit their backoff into the deadline and count their attempts in the error.

        Raises:
            LLMUnavailableError: the endpoint cannot be reached.
            LLMError: an HTTP error that is not worth retrying, or no usable answer
                after the retries or within the deadline; the endpoint is named, the
                attempts counted and every secret redacted.
        """
        until = time.monotonic() + self.deadline if until is None else until
        url = f"{self.base_url}{path}"
        key = self._api_key()
        if key:
            _check_key(key, self.api_key_env)
        _logs.remember(self._secrets(key), self._query_names)  # before anything is logged
        query = parse_qsl(self._query, keep_blank_values=True)
        delay = self.backoff
        last = "no attempt was made"
        attempts = 0
        while attempts <= self.max_retries:
            left = until - time.monotonic()
            if left <= 0:
                break
            attempts += 1
            limit = min(self.timeout, left)
            try:
                status, content_type, raw = transport.send(
                    call, base_url=self.base_url, key=key, credentials=self._credentials,
                    query=query, timeout=limit, max_body_bytes=self.max_body_bytes)
            except transport.TooLarge as exc:
                raise LLMError(self._redact(
                    f"The LLM endpoint {url} {exc}, past max_body_bytes="
                    f"{self.max_body_bytes}; stopped reading it. Raise max_body_bytes= if "
                    "answers this large are expected.", key)) from None
            except Exception as exc:  # noqa: BLE001 - told apart, or raised again, there
                last = self._failure(exc, limit, key)
            else:
                text, lossless = decode_body(raw, content_type)
                if status == 200:
                    try:
                        answer = json.loads(text)
                    except ValueError:
                        last = f"a body that is not JSON: {self._redact_cut(text, 200, key)!r}"
                    else:
                        if not lossless:
                            warnings.warn(self._redact(
                                f"The answer from {self.base_url} is not valid text in the "
                                "charset it declares (else UTF-8); its bad bytes were "
                                "replaced by U+FFFD and it is not cached.", key),
                                RuntimeWarning, stacklevel=4)
                        return answer, lossless
                elif status in (408, 409, 425, 429) or status >= 500:
                    last = f"HTTP {status}: {self._redact_cut(text, 200, key)}"
                else:
                    raise LLMError(self._redact(
                        f"The LLM endpoint {url} refused the request with HTTP {status}: "
                        f"{self._redact_cut(text, 300, key)}", key))
            if attempts <= self.max_retries:
                time.sleep(max(0.0, min(delay, until - time.monotonic())))
                delay *= 2
        plural = "attempt" if attempts == 1 else "attempts"
        if attempts <= self.max_retries:  # the deadline ended the retries
            raise LLMError(self._redact(
                f"No usable answer from {url} within deadline={self.deadline} s "
                f"({attempts} {plural} of {self.max_retries + 1}): {last}. Raise deadline= "
                f"(or {DEADLINE_ENV}) for a slower server.", key))
        raise LLMError(self._redact(
            f"No usable answer from {url} after {attempts} {plural}: {last}", key))

    def _failure(self, exc: BaseException, limit: float, key: str | None) -> str:
        """What went wrong in one attempt that failed to send or read, to retry; raises
        :class:`LLMUnavailableError` for an endpoint that cannot be reached, and ``exc``
        itself when it is no transport failure."""
        names = {type(error).__name__ for error in (exc, exc.__cause__) if error}
        cause = exc.__cause__ or exc
        if "ConnectError" in names:
            raise LLMUnavailableError(self._redact(
                f"Cannot reach the LLM endpoint {self.base_url}: {cause}. Start the server "
                "or fix base_url.", key)) from None
        if names & {"UnsupportedProtocol", "InvalidURL"}:
            raise LLMUnavailableError(self._redact(
                f"The LLM endpoint {self.base_url} is not a usable http(s) URL: {cause}. "
                "Fix base_url, e.g. 'http://127.0.0.1:8000/v1'.", key)) from None
        if "DecodingError" in names:  # e.g. Content-Encoding: gzip over plain bytes
            return (f"a body that cannot be decoded as its Content-Encoding says "
                    f"({type(cause).__name__}: {cause})")
        if isinstance(exc, transport.DeadlineExceeded) or any("Timeout" in n for n in names):
            return (f"no complete answer within timeout={self.timeout} s"
                    if limit == self.timeout else
                    f"no complete answer within the {limit:.3g} s left of "
                    f"deadline={self.deadline} s")
        if not transport.is_transport_error(exc):
            raise exc
        return f"{type(cause).__name__}: {cause or 'the connection failed'}"

    # -- public ----------------------------------------------------------------------
    def _chat_payload(self, messages: list[dict], temperature: float, max_tokens: int | None,
                      json_mode: bool) -> dict[str, Any]:
        _check_messages(messages, temperature)
        payload: dict[str, Any] = {"model": self.model, "messages": messages,
                                   "temperature": temperature}
        if max_tokens is not None:
            payload["max_tokens"] = max_tokens
        if json_mode:
            payload["response_format"] = {"type": "json_object"}
        return payload

    def _ask(self, payload: dict, until: float | None = None) -> tuple[str, bool]:
        """The assistant's text, every secret redacted, and whether it held none and came
        without a replaced byte (only then may it be cached)."""
        body, lossless = self._post(
            "/chat/completions",
            lambda api, **options: api.chat.completions.with_streaming_response.create(
                **payload, **options),
            until=until)
        try:
            text = body["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError) as exc:
            raise LLMError(self._redact(f"The LLM endpoint {self.base_url} answered without a "
                                        f"message: {self._redact_cut(str(body), 200)}")) from exc
        if isinstance(text, list):  # content given as parts: their text, in order
            parts = [part.get("text") for part in text if isinstance(part, dict)]
            text = "".join(part for part in parts if isinstance(part, str)) if parts and all(
                isinstance(part, str) for part in parts) else None
        if not isinstance(text, str):
            raise LLMError(f"The LLM endpoint {self.base_url} answered without text content "
                           "(choices[0].message.content is neither a string nor a list of "
                           "text parts).")
        clean = redact_secrets(text, self._secrets())
        if clean != text:
            warnings.warn(f"The answer from {self.base_url} holds a secret (the API key in "
                          f"{self.api_key_env} or the endpoint URL's password); it is returned "
                          f"with the secret replaced by {_REDACTED} and not cached.",
                          RuntimeWarning, stacklevel=3)
        return clean, clean == text and lossless

    def chat(self, messages: list[dict], *, temperature: float = 0.0,
             max_tokens: int | None = None, json_mode: bool = False) -> str:
        """The assistant's text for ``messages`` (OpenAI chat format).

        An answer holding a secret is returned with it redacted, with a warning, and not
        cached.

        Raises:
            LLMUnavailableError: the endpoint cannot be reached.
            LLMError: no usable answer after the retries or within ``deadline``.
        """
        payload = self._chat_payload(messages, temperature, max_tokens, json_mode)
        key = AnswerCache.key("chat", self.base_url, payload)
        cached = self._answers.get(key) if self.cache else None
        if cached is not None:
            return cached
        text, clean = self._ask(payload)
        if clean and self.cache:
            self._answers.put(key, text)
        return text

    def chat_json(self, messages: list[dict], *, validate: Callable[[Any], Any] | None = None,
                  temperature: float = 0.0, json_mode: bool = True) -> Any:
        """Ask for JSON; retry malformed or invalid answers, cache only valid ones.

        All attempts together take at most ``deadline`` seconds.

        Args:
            messages: the chat.
            validate: called on the parsed answer; returns the value to keep or raises
                ValueError to have the question asked again.

        Raises:
            LLMError: still malformed after ``max_retries`` extra attempts, or none valid
                within ``deadline``.
        """
        _check_messages(messages, temperature)
        if validate is not None and not callable(validate):
            raise wrong_type("validate", "LLMClient.chat_json",
                             "a function of the parsed answer, or None", validate)
        payload = {"model": self.model, "messages": messages, "temperature": temperature,
                   "response_format": {"type": "json_object"} if json_mode else None}
        key = AnswerCache.key("chat_json", self.base_url, payload)
        cached = self._answers.get(key) if self.cache else None
        if cached is not None:
            try:
                value = parse_json_answer(cached)
                return validate(value) if validate else value
            except ValueError as exc:  # stored before the file was damaged or the check changed
                self._answers.drop(key, f"the answer no longer parses or validates ({exc})")
        until = time.monotonic() + self.deadline
        problems = []
        for attempt in range(self.max_retries + 1):
            if attempt and time.monotonic() >= until:
                raise LLMError(self._redact(
                    f"The model at {self.base_url} did not return valid JSON within "
                    f"deadline={self.deadline} s ({attempt} of {self.max_retries + 1} "
                    f"attempts): {problems[-1]}"))
            asked = messages if attempt == 0 else messages + [{
                "role": "user", "content": "Answer again with valid JSON only."}]
            text, clean = self._ask(self._chat_payload(asked, temperature, None, json_mode),
                                    until)
            try:
                value = parse_json_answer(text)
                value = validate(value) if validate else value
            except ValueError as exc:  # malformed answers are never cached
                problems.append(str(exc))
                continue
            if clean and self.cache:
                self._answers.put(key, text)
            return value
        raise LLMError(self._redact(f"The model at {self.base_url} did not return valid JSON "
                                    f"after {self.max_retries + 1} attempts: {problems[-1]}"))

    def edit_image(self, image: Any, prompt: str, *, size: str | None = None) -> Any:
        """Ask an image-editing model to redact, through ``/images/edits`` (base64 answer).

        Retried, bounded by ``timeout`` and ``deadline`` and redacted like :meth:`chat`;
        not cached.

        Returns:
            The edited image as a PIL image.

        Raises:
            LLMUnavailableError: the endpoint cannot be reached.
            LLMError: no usable image after the retries or within ``deadline``.
        """
        from PIL import Image
        import numpy as np

        if not (hasattr(image, "save") or isinstance(image, np.ndarray)):
            raise wrong_type("image", "LLMClient.edit_image",
                             "a PIL image or an (H, W, 3) uint8 array", image)
        buffer = io.BytesIO()
        (Image.fromarray(image) if not hasattr(image, "save") else image).convert("RGB").save(
            buffer, format="PNG")
        data = {"model": self.model, "prompt": prompt, "response_format": "b64_json"}
        if size:
            data["size"] = size
        image_file = ("image.png", buffer.getvalue(), "image/png")
        body, _ = self._post("/images/edits", lambda api, **options: (
            api.images.with_streaming_response.edit(image=image_file, **data, **options)))
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
    if not hasattr(client, "chat_json") and hasattr(getattr(client, "chat", None),
                                                    "completions"):
        raise wrong_type("client", caller, "an LLMClient (or anything with chat_json)", client,
                         "An official openai client goes in wrapped, with its model: "
                         "privlab.llm.from_openai(client, model='gpt-4o-mini').")
    if not hasattr(client, "chat_json"):
        raise wrong_type("client", caller, "an LLMClient (or anything with chat_json)", client)
    return client


from privlab.llm.openai_client import OpenAIChat, from_openai  # noqa: E402 - needs the above
