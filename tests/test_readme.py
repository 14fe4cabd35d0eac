"""README is read in five minutes, and every Python block in it runs as written.

The long sections live in ``docs/`` (tests/test_docs.py builds them); README keeps what a
newcomer came for: what privlab measures, the two commands, the bring-your-own recipes,
the notebooks, where the documentation is.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
TEXT = README.read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", TEXT, re.S)


def test_readme_is_short_and_opens_with_what_privlab_measures():
    assert len(TEXT.split()) <= 3000
    opening = TEXT.split("\n## ", 1)[0].replace("# privlab", "", 1)
    assert len(opening.split()) <= 150
    headings = re.findall(r"^## (.+)$", TEXT, re.M)
    assert headings[:2] == ["Two commands", "Bring your own"], headings
    for link in re.findall(r"\]\((docs/[^)#]+)", TEXT):   # every docs page it names exists
        assert (README.parent / link).is_file(), link


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_every_python_block_runs_and_prints_a_headline_with_its_status(block, capsys,
                                                                         monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    exec(compile(block, "README.md", "exec"), {"__name__": "readme"})
    printed = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert printed and len(printed) == block.count("print(")
    for line in printed:   # each recipe prints one headline: number, status, what it rests on
        assert " — " in line and "rests on" in line, line


def test_readme_has_python_blocks():
    assert len(BLOCKS) >= 3
