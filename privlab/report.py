"""Headlines: the one line per study that ``make demo`` prints.

A notebook's last cell calls :func:`headline`; the demo runner reads the marked line
from the executed notebook's output, so the number a user sees in the terminal is the
number the notebook computed.
"""

from __future__ import annotations

HEADLINE_MARKER = "privlab-headline"


def headline(study: str, text: str) -> str:
    """Print and return the study's headline in the marked form the demo runner reads.

    Args:
        study: short study name, e.g. ``"00 quickstart"``.
        text: the number that matters, in words, e.g. ``"resolution 0.083 (witness 3, 7)"``.

    Returns:
        The printed line.

    Example:
        >>> line = headline("00 quickstart", "resolution 0")
        privlab-headline | 00 quickstart | resolution 0
    """
    line = f"{HEADLINE_MARKER} | {study} | {text}"
    print(line)
    return line


def find_headlines(text: str) -> list[tuple[str, str]]:
    """Extract ``(study, text)`` pairs from captured output.

    Example:
        >>> find_headlines("noise\\nprivlab-headline | 05 known-ε | ok\\n")
        [('05 known-ε', 'ok')]
    """
    found = []
    for raw in text.splitlines():
        if raw.startswith(HEADLINE_MARKER + " | "):
            parts = raw.split(" | ", 2)
            if len(parts) == 3:
                found.append((parts[1], parts[2]))
    return found
