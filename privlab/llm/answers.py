"""Parsing a model's JSON answer, in time linear in its length and with bounded depth.

A model may wrap its JSON in a fenced block or in prose; :func:`parse_json_answer`
finds it without backtracking regular expressions and refuses, before parsing, answers
longer than :data:`MAX_ANSWER_CHARS` or nested deeper than :data:`MAX_ANSWER_DEPTH`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from privlab.errors import invalid, wrong_type

#: The longest answer :func:`parse_json_answer` reads, in characters.
MAX_ANSWER_CHARS = 1_000_000
#: The deepest nesting of arrays and objects :func:`parse_json_answer` reads.
MAX_ANSWER_DEPTH = 100


def _fenced(text: str) -> str:
    """The inside of the first ```` ``` ```` (or ```` ```json ````) block, else ``text``."""
    opening = text.find("```")
    if opening < 0:
        return text
    inside = opening + 3
    if text.startswith("json", inside):
        inside += 4
    while inside < len(text) and text[inside].isspace():
        inside += 1
    closing = text.find("```", inside)
    return text if closing < 0 else text[inside:closing]


def _outermost(text: str) -> str | None:
    """From the first ``{`` (or ``[``) to the last ``}`` (or ``]``), whichever starts first."""
    spans = []
    for opener, closer in ("{}", "[]"):
        first, last = text.find(opener), text.rfind(closer)
        if 0 <= first < last:
            spans.append((first, last))
    if not spans:
        return None
    first, last = min(spans)
    return text[first:last + 1]


def _nesting_depth(text: str, limit: int) -> int:
    """How deep ``[`` and ``{`` nest outside JSON strings, counted up to ``limit + 1``."""
    depth = deepest = 0
    in_string = False
    escaped_at = -1
    for match in re.finditer(r'[\[\]{}"\\]', text):
        char, at = match.group(), match.start()
        if at == escaped_at:
            continue
        if char == "\\":
            if in_string:
                escaped_at = at + 1
        elif char == '"':
            in_string = not in_string
        elif in_string:
            continue
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        else:
            depth = max(depth - 1, 0)
    return deepest


def _bounded_loads(text: str, max_depth: int) -> Any:
    """``json.loads(text)``, refusing nesting deeper than ``max_depth`` before parsing."""
    if _nesting_depth(text, max_depth) > max_depth:
        raise invalid("text", "parse_json_answer",
                      f"JSON nested at most max_depth={max_depth} levels deep",
                      f"an answer nested more than {max_depth} levels deep",
                      "A model's answer is this deep only when it went wrong; ask again, or "
                      "raise max_depth.", given_is_text=True)
    try:
        return json.loads(text)
    except RecursionError:  # a max_depth above what this interpreter can parse
        raise invalid("text", "parse_json_answer", "JSON this interpreter can parse",
                      "an answer nested too deep for Python's recursion limit",
                      "Lower max_depth.", given_is_text=True) from None


def parse_json_answer(text: str, *, max_chars: int = MAX_ANSWER_CHARS,
                      max_depth: int = MAX_ANSWER_DEPTH) -> Any:
    """Parse a model's JSON answer, tolerating a fenced ```json block around it.

    Takes time linear in the answer's length: answers longer than ``max_chars`` or
    nested deeper than ``max_depth`` are refused before parsing.

    Example:
        >>> parse_json_answer('```json\\n{"a": 1}\\n```')
        {'a': 1}
        >>> parse_json_answer("[" * 500)
        Traceback (most recent call last):
        ...
        privlab.errors.PrivlabValueError: The 'text' parameter of parse_json_answer must be JSON nested at most max_depth=100 levels deep. Got an answer nested more than 100 levels deep instead. A model's answer is this deep only when it went wrong; ask again, or raise max_depth.

    Raises:
        ValueError: the text holds no valid JSON, or is too long or too deep.
    """
    if not isinstance(text, str):
        raise wrong_type("text", "parse_json_answer", "a str", text)
    if len(text) > max_chars:
        raise invalid("text", "parse_json_answer", f"at most max_chars={max_chars:,} characters",
                      f"an answer of {len(text):,} characters",
                      "Ask for a shorter answer (max_tokens=), or raise max_chars.",
                      given_is_text=True)
    candidate = _fenced(text)
    try:
        return _bounded_loads(candidate, max_depth)
    except json.JSONDecodeError:
        inner = _outermost(candidate)
        if inner is not None:
            try:
                return _bounded_loads(inner, max_depth)
            except json.JSONDecodeError:
                pass
    raise ValueError(f"not valid JSON: {text[:120]!r}")


__all__ = ["MAX_ANSWER_CHARS", "MAX_ANSWER_DEPTH", "parse_json_answer"]
