"""environment.yml and pyproject.toml name the same dependencies at the same versions."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirements(lines) -> dict[str, str]:
    out = {}
    for line in lines:
        match = re.match(r"\s*([A-Za-z0-9_.\-]+)\s*==\s*([^\s;#]+)", line)
        if match:
            out[_normalise(match.group(1))] = match.group(2)
    return out


def test_environment_yml_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    # the package's dependencies and the documentation site's extra (make docs)
    from_pyproject = _requirements(project["dependencies"] +
                                   project["optional-dependencies"]["docs"])
    pip_lines = []
    in_pip = False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if re.match(r"\s*- pip:\s*$", line):
            in_pip = True
            continue
        if in_pip and re.match(r"\s{6}- ", line):
            pip_lines.append(line.split("- ", 1)[1])
    from_env = _requirements(pip_lines)
    assert from_env == from_pyproject
    # privlab itself, with the second OCR reader the Makefile also installs
    assert "-e .[easyocr]" in [line.split("#")[0].strip() for line in pip_lines]
    assert ".[dev,easyocr]" in (ROOT / "Makefile").read_text()
    assert "python=3.11" in (ROOT / "environment.yml").read_text()


def test_every_pin_is_exact_and_commented_in_environment_yml():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert all("==" in dep for dep in project["dependencies"])
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if "==" in line:
            assert "#" in line, f"pin without a comment: {line.strip()}"
