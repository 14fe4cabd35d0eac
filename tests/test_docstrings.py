"""Module docstrings say what a module does in at most 300 words.

The longer story (how a method works in detail, what was tried, the counts on each look at
held-out data) lives in the documentation pages and the dated decision records of
``docs/``, which the docstrings link to.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "privlab"
LIMIT = 300


def module_docstring_words(path: Path) -> int:
    """Words in the module docstring of the file at ``path`` (0 when it has none)."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")), clean=False)
    return len(doc.split()) if doc else 0


def test_word_count_reads_the_module_docstring_only(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""One two three."""\n\ndef f():\n    """Four five six seven."""\n')
    assert module_docstring_words(module) == 3
    module.write_text("x = 1\n")
    assert module_docstring_words(module) == 0


@pytest.mark.parametrize("limit", [LIMIT])
def test_no_module_docstring_is_over_the_limit(limit):
    long = {str(path.relative_to(PACKAGE.parent)): words
            for path in sorted(PACKAGE.rglob("*.py"))
            if (words := module_docstring_words(path)) > limit}
    assert not long, (f"module docstrings over {limit} words (move the details to a docs/ page "
                      f"or a dated record in docs/decisions/, and link it): {long}")
