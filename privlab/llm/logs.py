"""Log records without secrets, from every logger: the HTTP client's, openai's, privlab's, root.

A server may echo the API key in its reason phrase (``HTTP/1.1 401 Invalid key sk-…``), a
header (``WWW-Authenticate``, ``Set-Cookie``, ``X-…``) or its body, and the HTTP layer logs
all of these at INFO or DEBUG. A filter on a named logger misses records of its children
(httpcore logs from ``httpcore.http11``), so privlab redacts where every record is made:
a log-record factory, installed when :mod:`privlab.llm` is imported and again before each
request if something replaced it, that passes each record's message, exception and stack
text through :func:`~privlab.llm.secrets.redact_secrets` with every secret an
:class:`~privlab.llm.LLMClient` of this process has used, before any handler formats it.

Secrets are remembered for the life of the process (a record may still be made by a
request's worker thread after the call returned); they are held in memory only.
"""

from __future__ import annotations

import logging
import re
import threading
import traceback
from typing import Iterable

from privlab.llm.secrets import REDACTED, redact_secrets

_lock = threading.Lock()
_secrets: frozenset[str] = frozenset()
_query_names: frozenset[str] = frozenset()
_query_pattern: re.Pattern | None = None
_BEARER = re.compile(r"(?i)(bearer\s+)[^\s\"',;}\]]+")


def query_pattern(names: Iterable[str]) -> re.Pattern | None:
    """The pattern of ``name=value`` for each query parameter name in ``names`` (a value
    of the endpoint URL's query is a secret whatever its name), or None for no names."""
    names = sorted({name for name in names if name}, key=len, reverse=True)
    if not names:
        return None
    alternatives = "|".join(re.escape(name) for name in names)
    return re.compile(rf"(?i)((?:^|[?&;\s\"'(/])(?:{alternatives})=)[^&#\s\"')<>]+")


def remember(secrets: Iterable[str | None], query_names: Iterable[str] = ()) -> None:
    """Add ``secrets`` (and the endpoint's query parameter names) to those redacted from
    every log record, and make sure the redacting factory is installed."""
    global _secrets, _query_names, _query_pattern
    new = {secret for secret in secrets if secret}
    names = set(query_names)
    with _lock:
        if not new <= _secrets:
            _secrets = _secrets | new
        if not names <= _query_names:
            _query_names = _query_names | names
            _query_pattern = query_pattern(_query_names)
    install()


def scrub(text: str, secrets, pattern: re.Pattern | None = None) -> str:
    """``text`` without ``secrets`` (in every echoed form), bearer tokens and the values of
    ``pattern``'s ``name=value`` pairs: the one redaction of log records and messages."""
    text = redact_secrets(text, secrets)
    text = _BEARER.sub(rf"\g<1>{REDACTED}", text)
    return pattern.sub(rf"\g<1>{REDACTED}", text) if pattern is not None else text


def redact(text: str) -> str:
    """``text`` without any remembered secret, bearer token or query value."""
    secrets, pattern = _secrets, _query_pattern
    if not secrets and pattern is None:
        return text
    return scrub(text, secrets, pattern)


def _redact_record(record: logging.LogRecord) -> None:
    try:
        message = record.getMessage()
    except Exception:  # noqa: BLE001 - a record that cannot be formatted: redact its parts
        message = " ".join(map(str, (record.msg, *(record.args or ()))))
        record.msg, record.args = redact(message), ()
    else:
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, ()
    if record.exc_info and record.exc_info[1] is not None:
        text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
        clean = redact(text)
        if clean != text:  # the formatted text, redacted, stands in for the exception
            record.exc_info, record.exc_text = None, clean
    if record.exc_text:
        record.exc_text = redact(record.exc_text)
    if record.stack_info:
        record.stack_info = redact(record.stack_info)


class _RedactingFactory:
    """Makes each record with the factory it replaced, then redacts it."""

    def __init__(self, inner):
        self.inner = inner

    def __call__(self, *args, **kwargs) -> logging.LogRecord:
        record = self.inner(*args, **kwargs)
        if _secrets or _query_pattern is not None:
            _redact_record(record)
        return record


def install() -> None:
    """Install the redacting record factory unless the current one already chains it."""
    with _lock:
        factory = logging.getLogRecordFactory()
        seen = factory
        while True:
            if isinstance(seen, _RedactingFactory):
                return
            seen = getattr(seen, "inner", None)
            if seen is None:
                break
        logging.setLogRecordFactory(_RedactingFactory(factory))


install()

__all__ = ["install", "query_pattern", "redact", "remember", "scrub"]
