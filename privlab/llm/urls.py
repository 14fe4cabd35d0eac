"""The LLM client's URL and key checks: credentials and query values split off the base URL,
keys refused when they cannot be sent.

Every refusal names where the value came from, never the value (it may be a secret).
"""

from __future__ import annotations

import re

from privlab.errors import PrivlabValueError


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


#: A query parameter whose value is an API key or token (``?key=...``, ``?api_key=...``):
#: redacted in ``name=value`` form in any text, whichever endpoint sent it.
_QUERY_SECRET = re.compile(r"(?i)([?&](?:key|api[_-]?key|apikey|access[_-]?token|token|auth|"
                           r"secret|password|sig|signature|code|subscription[_-]?key)=)"
                           r"[^&#\s\"']+")

#: A query value at least this long is redacted wherever it shows; a shorter one only
#: as ``name=value`` (a two-letter value would otherwise blank out ordinary words).
MIN_QUERY_SECRET = 6


def _split_query(url: str) -> tuple[str, str, set[str], set[str]]:
    """``url`` without its query, the query (sent with every request), the query's values
    that are redacted wherever they show and the names of its parameters.

    Every value of the endpoint's query is treated as a secret, whatever its name
    (``?subscription-key=`` of Azure API Management, ``?code=`` of Azure Functions):
    values of ``MIN_QUERY_SECRET`` characters or more in every form a server echoes,
    shorter ones as ``name=value``."""
    from urllib.parse import parse_qsl, urlsplit, urlunsplit

    parts = urlsplit(url)
    if not parts.query:
        return url, "", set(), set()
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    secrets = {value for _, value in pairs if len(value) >= MIN_QUERY_SECRET}
    public = urlunsplit((parts.scheme, parts.netloc, parts.path, "", parts.fragment))
    return public, parts.query, secrets, {name for name, _ in pairs if name}


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
