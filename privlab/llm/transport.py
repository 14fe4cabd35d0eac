"""One request of :class:`~privlab.llm.LLMClient`, sent by the official ``openai`` client.

``openai`` builds and sends the request (``base_url``, the key, the query, multipart
forms, timeouts, its connection and timeout errors). It does not bound what it reads:
an error body is read whole before ``APIStatusError`` is raised, and its timeouts bound
each read, not the request. So each request is sent with ``with_streaming_response``
and read here, chunk by chunk, up to ``max_body_bytes`` and the request's deadline; an
answer that is not 2xx is read the same way by a response hook, before ``openai`` would
read it. The request runs in a worker thread that the caller waits for no longer than
the deadline. Why: ``docs/decisions/2026-12-05-llm-transport.md``.
"""

from __future__ import annotations

import base64
import os
import threading
import time
from functools import lru_cache
from typing import Any, Callable


class DeadlineExceeded(Exception):
    """A request ran past its ``timeout``."""


class TooLarge(Exception):
    """An answer ran past ``max_body_bytes``."""


class _Answered(Exception):
    """A non-2xx answer, read whole within the bounds (raised by the response hook so
    that ``openai`` never reads the body itself)."""

    def __init__(self, reply: tuple[int, str, bytes]):
        super().__init__(reply[0])
        self.reply = reply


#: The bounds of the request the current thread is sending (read by the response hook).
_attempt = threading.local()


def _read(response: Any) -> tuple[int, str, bytes]:
    """The status, the content type and the body of ``response``, read within the
    current attempt's deadline and size."""
    size_cap, deadline = _attempt.max_body_bytes, _attempt.deadline
    _attempt.outcome["response"] = response  # closed by the caller at the deadline
    stated = response.headers.get("Content-Length", "")
    if stated.strip().isdigit() and int(stated) > size_cap:
        raise TooLarge(f"states {int(stated)} bytes")
    read, size = [], 0
    for chunk in response.iter_bytes():
        read.append(chunk)
        size += len(chunk)
        if size > size_cap:
            raise TooLarge(f"sent more than {size_cap} bytes")
        if time.monotonic() > deadline:
            raise DeadlineExceeded()
    return response.status_code, response.headers.get("Content-Type", ""), b"".join(read)


def _read_refusal(response: Any) -> None:
    """Response hook: a non-2xx answer is read here, within the bounds, and handed over."""
    if not 200 <= response.status_code < 300:
        raise _Answered(_read(response))


def _spell_authorization(request: Any) -> None:
    """Request hook: ``openai`` sends header names in lower case; the ``Authorization``
    header keeps its usual spelling, as privlab always sent it (a server that reads
    names case-sensitively still finds it)."""
    if "Authorization" in request.headers:
        request.headers["Authorization"] = request.headers["Authorization"]


def _grouped(query: list[tuple[str, str]]) -> dict[str, Any]:
    """The query's values by name (a list for a name given more than once)."""
    grouped: dict[str, list[str]] = {}
    for name, value in query:
        grouped.setdefault(name, []).append(value)
    return {name: values[0] if len(values) == 1 else values for name, values in grouped.items()}


@lru_cache(maxsize=4)
def _http_client(pid: int) -> Any:
    """The HTTP client every LLMClient of this process shares (its certificates load once;
    a forked process gets its own)."""
    import openai

    return openai.DefaultHttpxClient(follow_redirects=False,
                                     event_hooks={"request": [_spell_authorization],
                                                  "response": [_read_refusal]})


def send(call: Callable[..., Any], *, base_url: str, key: str | None,
         credentials: tuple[str, str] | None, query: list[tuple[str, str]],
         timeout: float, max_body_bytes: int) -> tuple[int, str, bytes]:
    """One request: the status, the content type and the whole body, within ``timeout``
    seconds in all and ``max_body_bytes`` bytes.

    Args:
        call: given an ``openai.OpenAI`` and ``extra_headers=`` (the authorization),
            opens the request as a streaming response, e.g. ``lambda api, **options:
            api.chat.completions.with_streaming_response.create(**payload, **options)``.
        base_url: the endpoint, without user info or query.
        key: the API key sent as a bearer token, or None for none.
        credentials: ``(user, password)`` sent as basic auth (in place of the key).
        query: the endpoint's query parameters, sent with the request.
        timeout: seconds the request may take, from connecting to the last byte.
        max_body_bytes: bytes of the answer read at most.

    Returns:
        The HTTP status, the Content-Type and the body.

    Raises:
        DeadlineExceeded: no complete answer within ``timeout``.
        TooLarge: the answer states or sends more than ``max_body_bytes``.
        openai.APIConnectionError: the request could not be sent or its answer read
            (``openai.APITimeoutError`` for a timeout); other transport errors of the
            body's read as the HTTP library raises them.
    """
    import openai

    deadline = time.monotonic() + timeout
    headers: dict[str, Any] = {} if key else {"Authorization": openai.omit}
    if credentials:
        token = base64.b64encode(":".join(credentials).encode()).decode()
        headers = {"Authorization": f"Basic {token}"}
    api = openai.OpenAI(base_url=base_url, api_key=key or (lambda: ""), max_retries=0,
                        timeout=timeout,
                        default_query=_grouped(query), http_client=_http_client(os.getpid()))
    outcome: dict[str, Any] = {}
    finished = threading.Event()

    def attempt() -> None:
        _attempt.deadline, _attempt.max_body_bytes = deadline, max_body_bytes
        _attempt.outcome = outcome
        try:
            with call(api, extra_headers=headers) as response:
                outcome["reply"] = _read(response)
        except _Answered as answered:
            outcome["reply"] = answered.reply
        except BaseException as exc:  # handed to the caller below
            outcome["error"] = exc
        finally:
            finished.set()

    worker = threading.Thread(target=attempt, name="privlab-llm-request", daemon=True)
    worker.start()
    if not finished.wait(max(0.0, deadline - time.monotonic())):
        response = outcome.get("response")
        if response is not None:
            response.close()  # ends a worker still reading
        raise DeadlineExceeded()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["reply"]


def is_transport_error(exc: BaseException) -> bool:
    """Whether ``exc`` is ``openai``'s or its HTTP library's failure to send or read."""
    import openai

    return isinstance(exc, openai.APIConnectionError) or \
        type(exc).__module__.split(".")[0] in ("httpx", "httpx2", "httpcore", "httpcore2")


__all__ = ["DeadlineExceeded", "TooLarge", "is_transport_error", "send"]
