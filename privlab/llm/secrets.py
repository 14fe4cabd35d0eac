"""Secrets in what an LLM endpoint sends back: found in every form, replaced before use.

A server may echo the API key (or a URL's password) in an error body, a header it
reports, or an answer: raw, JSON-escaped, percent-encoded, HTML-escaped, in hex or
base64-encoded, alone or inside a longer base64 text such as a basic-auth header, with
NULs between its characters when a UTF-16 body is read as bytes. :func:`redact_secrets`
finds each of these forms and replaces it by ``[redacted]``; it runs before any text is
cut to length, so no part of a secret survives a cut. :func:`decode_body` reads a body by
its declared charset first, so that a UTF-16 echo is seen as text.
"""

from __future__ import annotations

import base64
import codecs
import re
from functools import lru_cache
from typing import Any

REDACTED = "[redacted]"
#: Base64 forms are looked for only where at least this many bytes of a secret line up
#: with base64's 3-byte groups (shorter runs would match unrelated base64 text).
_MIN_BASE64_BYTES = 6
#: A run of at least this many characters (and half the secret) from a secret's start or
#: end is redacted too: a server that cuts its echo short still shows no usable part.
_MIN_PARTIAL = 8
_BASE64_RUN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-%\\")


@lru_cache(maxsize=1)
def _html_names() -> dict[str, list[str]]:
    """Each character's named HTML entities (``/`` -> ``&sol;``, ``+`` -> ``&plus;``)."""
    from html.entities import html5

    names: dict[str, list[str]] = {}
    for name, value in html5.items():
        if name.endswith(";") and len(value) == 1:
            names.setdefault(value, []).append(name)
    return names


def _char_pattern(char: str) -> str:
    """One character as a server may echo it: raw, JSON-escaped (``\\/``, ``\\u00e9``, also
    escaped twice), percent-encoded (``%2F``, ``+`` for a space), a Python bytes escape
    (``\\x2f``) or HTML-escaped (``&#x2F;``, ``&#47;``, ``&sol;``), in either case of hex."""
    options = [re.escape(char)]
    code = ord(char)
    options.append(rf"&#(?i:x0*{code:x});?|&#0*{code};?")
    options += [re.escape(f"&{name}") for name in _html_names().get(char, [])]
    units = [code] if code < 0x10000 else [0xD800 + ((code - 0x10000) >> 10),
                                           0xDC00 + ((code - 0x10000) & 0x3FF)]
    options.append("".join(rf"\\+u(?i:{unit:04x})" for unit in units))
    options.append("".join(f"%(?i:{byte:02x})" for byte in char.encode("utf-8")))
    options.append("".join(rf"\\+x(?i:{byte:02x})" for byte in char.encode("utf-8")))
    if char in "/\"\\":
        options.append(r"\\+" + re.escape(char))
    if char == " ":
        options.append(r"\+")
    return "(?:" + "|".join(options) + ")"


#: What a server may put between two characters of an echoed secret: a line break
#: (a wrapped error body or base64 text), raw or JSON-escaped, with the next line's
#: indentation; or the NULs of a UTF-16 or UTF-32 text read byte by byte.
_WRAP = r"(?:\x00{1,3}|(?:\\+u0000){1,3}|(?:\\+x00){1,3}|(?:\r?\n|(?:\\+r)?\\+n)[ \t]*)?"


def _pattern(text: str) -> str:
    return _WRAP.join(_char_pattern(char) for char in text)


@lru_cache(maxsize=64)
def _secret_patterns(secret: str) -> tuple[re.Pattern, list[re.Pattern], list[tuple]]:
    """The patterns :func:`redact_secrets` looks for: the secret in any escaping; its
    base64 forms at the three alignments a substring can take inside a longer base64
    text (standard and URL-safe alphabets); and its long prefix and suffix."""
    whole = re.compile(_pattern(secret))
    data = secret.encode("utf-8")
    base64_forms = set()
    for skip in range(3):  # the secret starting at offset 0, 2 or 1 (mod 3) of the blob
        aligned = data[skip:]
        aligned = aligned[:len(aligned) // 3 * 3]
        if len(aligned) >= _MIN_BASE64_BYTES:
            base64_forms.add(base64.b64encode(aligned).decode())
            base64_forms.add(base64.urlsafe_b64encode(aligned).decode())
    size = max(_MIN_PARTIAL, -(-len(secret) // 2))
    # hex of the secret, or of its long prefix or suffix (the run around it is redacted)
    hex_forms = {data.hex()}
    if len(secret) > size:
        hex_forms |= {secret[:size].encode().hex(), secret[-size:].encode().hex()}
    encoded = [re.compile(_pattern(form)) for form in sorted(base64_forms)]
    encoded += [re.compile(f"(?i:{form})") for form in sorted(hex_forms)]
    partial = []
    if len(secret) > size:
        partial = [(re.compile(_pattern(secret[:size])), secret[size:], 1),
                   (re.compile(_pattern(secret[-size:])), secret[:-size][::-1], -1)]
    return whole, encoded, partial


def _base64_run(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of the whole base64-looking run around ``text[start:end]``."""
    while start > 0 and text[start - 1] in _BASE64_RUN:
        start -= 1
    while end < len(text) and text[end] in _BASE64_RUN:
        end += 1
    return start, end


def _replace_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span (merged where they overlap) replaced by ``[redacted]``."""
    pieces, position = [], 0
    for start, end in sorted(spans):
        if start < position:  # overlaps the span before: extend that one
            if end > position:
                position = end
            continue
        pieces += [text[position:start], REDACTED]
        position = end
    return "".join(pieces) + text[position:]


def redact_secrets(text: str, secrets: Any) -> str:
    """``text`` with every secret replaced by ``[redacted]``, in every form a server echoes.

    Covered for each secret: the secret itself; JSON-escaped (``\\/``, ``\\uXXXX``, escaped
    twice), percent-encoded (URL query, form body), HTML-escaped (``&#x2F;``, ``&#43;``,
    ``&sol;``) or bytes-escaped (``\\x2f``), in any mix; in hex (the whole hex run is
    redacted); with NULs between its characters; base64 of the secret or
    of a longer text holding it, such as ``user:key`` in a basic-auth header (the whole
    base64 run is redacted, at each of the three alignments a secret can take inside it;
    needs 8 or more bytes of secret); and a prefix or suffix of at least half the secret
    (and 8 characters), as left by a server that cuts its echo short; each also when a
    line break (and indentation) splits it, as in a wrapped body. Redact before
    cutting a text to length, never after.

    Args:
        text: any text (converted with ``str``).
        secrets: the secrets; empty ones and None are ignored.

    Example:
        >>> import base64
        >>> key = "sk-live-0123456789abcdef"
        >>> echo = 'key "sk-live-0123456789abcdef" url sk-live%2D0123456789abcdef basic '
        >>> echo += base64.b64encode(b"api:" + key.encode()).decode()
        >>> redact_secrets(echo, [key])
        'key "[redacted]" url [redacted] basic [redacted]'
    """
    text = str(text)
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        whole, encoded, partial = _secret_patterns(secret)
        text = whole.sub(REDACTED, text)
        for pattern in encoded:
            text = _replace_spans(text, [_base64_run(text, *match.span())
                                         for match in pattern.finditer(text)])
        for pattern, rest, direction in partial:
            spans = []
            for match in pattern.finditer(text):
                start, end = match.span()
                for char in rest:  # extend over more of the secret, shown raw
                    if direction > 0 and text[end:end + 1] == char:
                        end += 1
                    elif direction < 0 and start > 0 and text[start - 1] == char:
                        start -= 1
                    else:
                        break
                spans.append((start, end))
            text = _replace_spans(text, spans)
    return text


def decode_body(raw: bytes, content_type: str | None = None) -> tuple[str, bool]:
    """A body as text, read by the charset its ``Content-Type`` declares (else by its BOM,
    else UTF-8), and whether it decoded without replacing any byte.

    Redaction must see the text a person would read: a UTF-16 body read as UTF-8 shows a
    secret with NULs between its characters.

    Example:
        >>> decode_body("key sk-1".encode("utf-16"), "text/plain; charset=utf-16")
        ('key sk-1', True)
        >>> decode_body(b"caf\\xe9", "text/plain")[1]  # not UTF-8: a byte was replaced
        False
    """
    charset = None
    match = re.search(r"(?i)charset\s*=\s*[\"']?([\w.:-]+)", content_type or "")
    if match:
        try:
            charset = codecs.lookup(match.group(1)).name
        except LookupError:
            charset = None
    if charset is None:
        for bom, name in ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
                          (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                          (codecs.BOM_UTF16_BE, "utf-16")):
            if raw.startswith(bom):
                charset = name
                break
    try:
        return raw.decode(charset or "utf-8"), True
    except (UnicodeDecodeError, LookupError):
        return raw.decode(charset or "utf-8", "replace"), False


__all__ = ["REDACTED", "decode_body", "redact_secrets"]
