"""The LLM client's URL and key checks: credentials and query keys split off the base URL,
keys refused when they cannot be sent, log lines that never show a query key.

Every refusal names where the value came from, never the value (it may be a secret).
"""

from __future__ import annotations

import logging
import re

from privlab.errors import PrivlabValueError
from privlab.llm.secrets import REDACTED as _REDACTED


def _refuse_secret(source: str, expected: str, problem: str, fix: str) -> PrivlabValueError:
    """The standard refusal for a value that may hold a secret: it is never shown."""
    return PrivlabValueError(f"The {source} of LLMClient must be {expected}. Got {problem} "
                             f"instead (the value is not shown: it may hold a secret). {fix}")


def _split_credentials(url: str, source: str) -> tuple[str, tuple[str, str] | None]:
    """``url`` without its ``user:password@`` part, and that part, percent-decoded.

    A password holding ``/``, ``?``, ``#`` or ``@`` unescaped makes the URL ambiguous:
    such a URL is refused, naming ``source`` but never showing the URL.
    """
    from urllib.parse import unquote, urlsplit, urlunsplit

    fix = ("Percent-encode the user name and password, e.g. "
           "urllib.parse.quote(password, safe='').")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a port that is no number
    except ValueError:
        raise _refuse_secret(source, "a URL like 'https://host:port/v1'",
                             "a URL whose host or port cannot be read", fix) from None
    if "@" in parts.path + parts.query + parts.fragment:
        raise _refuse_secret(source, "a URL whose password is percent-encoded",
                             "a URL with an '@' after its host (a password holding '/', '?' "
                             "or '#' unescaped)", fix)
    userinfo, at, host = parts.netloc.rpartition("@")
    if not at:
        return url, None
    user, _, password = userinfo.partition(":")
    public = urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))
    return public, (unquote(user), unquote(password))


#: Query parameters whose value is an API key or token (``?key=...``, ``?api_key=...``).
_SECRET_PARAMETERS = re.compile(r"(?i)^(?:key|api[_-]?key|apikey|access[_-]?token|token|"
                                r"auth|secret|password|sig|signature)$")


_QUERY_SECRET = re.compile(r"(?i)([?&](?:key|api[_-]?key|apikey|access[_-]?token|token|auth|"
                           r"secret|password|sig|signature)=)[^&#\s\"']+")


class _RedactQueryKeys(logging.Filter):
    """Keeps a key given in the URL's query out of httpx's request log lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a record that cannot be formatted is left alone
            return True
        clean = _QUERY_SECRET.sub(rf"\g<1>{_REDACTED}", message)
        if clean != message:
            record.msg, record.args = clean, ()
        return True


for _logger in ("httpx", "httpcore"):
    logging.getLogger(_logger).addFilter(_RedactQueryKeys())


def _split_query(url: str) -> tuple[str, str, set[str]]:
    """``url`` without its query, the query (sent with every request) and the values of
    its secret parameters (see :data:`_SECRET_PARAMETERS`), percent-decoded."""
    from urllib.parse import parse_qsl, urlsplit, urlunsplit

    parts = urlsplit(url)
    if not parts.query:
        return url, "", set()
    secrets = {value for name, value in parse_qsl(parts.query, keep_blank_values=True)
               if _SECRET_PARAMETERS.match(name) and value}
    public = urlunsplit((parts.scheme, parts.netloc, parts.path, "", parts.fragment))
    return public, parts.query, secrets


def _check_key(key: str, variable: str) -> str:
    """``key`` if it can go into an HTTP header, else a refusal naming ``variable``."""
    bad = next((i for i, char in enumerate(key) if not "!" <= char <= "~"), None)
    if bad is not None:
        kind = ("a non-ASCII character" if ord(key[bad]) > 127 else
                "a space" if key[bad] == " " else "a line break or control character")
        raise _refuse_secret(
            f"API key in the environment variable {variable} (api_key_env)",
            "printable ASCII without spaces, as API keys are",
            f"a key with {kind} at position {bad}",
            f"Set {variable} to the key exactly as issued, without quotes or a trailing "
            "newline.")
    return key
