"""SPIA's own prompts, read at run time from a user's checkout of the SPIA repository.

With ``prompts_from=<checkout>`` the LLM adversary sends SPIA's prompts instead of
privlab's, so its scores compare with SPIA's tables. The files are parsed with :mod:`ast`,
never imported, executed or copied into privlab. The layout read:
docs/methods/redaction-spia-adversaries.md.
"""

from __future__ import annotations

import ast
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from privlab.errors import invalid

#: ``key -> (file in the checkout, assigned name)``: the prompt templates read.
SPIA_TEMPLATES = {
    "subjects-tab": ("config/prompts/analysis_subjects.py", "ANALYSIS_AND_COUNT_SUBJECTS_TAB"),
    "subjects-panorama": ("config/prompts/analysis_subjects.py",
                          "ANALYSIS_AND_COUNT_SUBJECTS_PANORAMA"),
    "code": ("config/prompts/annotate_pii.py", "ANNOTATE_CODE_PII"),
    "non-code": ("config/prompts/annotate_pii.py", "ANNOTATE_NON_CODE_PII"),
}
#: ``group -> (file, function)``: where each profiling request's ``result_format`` is set.
SPIA_RESULT_FORMATS = {
    "code": ("src/llm/client.py", "get_subject_profiling_code"),
    "non-code": ("src/llm/client.py", "get_subject_profiling_non_code"),
}

_NO_VALUE = re.compile(
    r"^\W*(?:none|n/?a|no information)\b|\bunknown\b|"
    r"\bnot (?:inferable|specified|stated|provided|mentioned|available|disclosed|given|"
    r"determinable|identifiable)\b|\b(?:redacted|masked|anonymi[sz]ed|unspecified|undisclosed)\b",
    re.IGNORECASE)
_COUNT = re.compile(r"number\s+of\s+subjects\s*:?\s*\**\s*(\d+)", re.IGNORECASE)
_ANALYSIS = re.compile(r"individual\s+(?:character\s+)?analysis", re.IGNORECASE)


def _module_tree(path: Path, caller: str) -> ast.Module:
    if not path.is_file():
        raise invalid("prompts_from", caller, "a checkout of the SPIA repository (github.com/"
                      "maisonOP/spia) holding config/prompts/ and src/llm/client.py",
                      str(path.parent), f"{path.name} is missing there; clone the repository "
                      "and pass its root folder.")
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _string_assignments(tree: ast.Module) -> dict[str, str]:
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                continue
            if isinstance(value, str):
                found[node.targets[0].id] = value
    return found


def _function_literal(tree: ast.Module, function: str, name: str) -> Any:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == function:
            for inner in ast.walk(node):
                if isinstance(inner, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == name for t in inner.targets):
                    return ast.literal_eval(inner.value)
    raise KeyError(f"{function}() assigns no literal {name}")


def checkout_root(path: str | Path, caller: str = "read_spia_prompts") -> Path:
    """The checkout's root from its root, its ``config/prompts`` folder or a file in it.

    Example:
        >>> import tempfile
        >>> root = Path(tempfile.mkdtemp())
        >>> (root / "config" / "prompts").mkdir(parents=True)
        >>> checkout_root(root / "config" / "prompts") == root
        True
    """
    start = Path(path).expanduser().resolve()
    for candidate in (start, *start.parents):
        if (candidate / "config" / "prompts").is_dir():
            return candidate
    raise invalid("prompts_from", caller, "a checkout of the SPIA repository (a folder "
                  "holding config/prompts/)", str(path),
                  "git clone https://github.com/maisonOP/spia and pass the clone's folder.")


@dataclass(frozen=True)
class SPIAPrompts:
    """SPIA's prompt templates and result formats as read from a checkout.

    Attributes:
        root: the checkout's folder.
        templates: key of :data:`SPIA_TEMPLATES` -> the template text.
        result_formats: ``"code"``/``"non-code"`` -> the example list SPIA formats in.
        digest: SHA-256 (first 16 hex digits) of the files read, in a fixed order.
        files: the files read, relative to ``root``.
    """

    root: Path
    templates: dict[str, str] = field(repr=False)
    result_formats: dict[str, Any] = field(repr=False)
    digest: str
    files: tuple[str, ...]

    def subjects_prompt(self, text: str, corpus: str) -> str:
        """SPIA's subject-analysis request for ``text`` (corpus ``"tab"``/``"panorama"``)."""
        key = "subjects-panorama" if corpus == "panorama" else "subjects-tab"
        return self.templates[key].format(text=text)

    def profile_prompt(self, group: str, text: str, analysis: str) -> str:
        """SPIA's profiling request (``group`` ``"code"`` or ``"non-code"``), filled in as
        SPIA's client fills it: the text, the cleaned analysis and the example format."""
        return self.templates[group].format(text=text, result_of_subjects_analysis=analysis,
                                            result_format=self.result_formats[group])

    def describe(self) -> dict[str, Any]:
        """Provenance: where the prompts came from and the digest of the files read."""
        return {"source": "SPIA checkout", "path": str(self.root), "files": list(self.files),
                "sha256": self.digest}

    @property
    def label(self) -> str:
        """A short label for a headline: ``"SPIA's prompts (sha256 …)"``."""
        return f"SPIA's prompts from {self.root} (sha256 {self.digest})"


def read_spia_prompts(path: str | Path, caller: str = "read_spia_prompts") -> SPIAPrompts:
    """Read SPIA's prompts from a checkout (see the module's layout); nothing is executed.

    Args:
        path: the checkout's root (or its ``config/prompts`` folder).
        caller: the public function or class named in errors.

    Returns:
        The :class:`SPIAPrompts`.

    Raises:
        PrivlabValueError: no ``config/prompts`` above ``path``, a file missing, or a
            template or ``result_format`` not found where SPIA keeps it.

    Example:
        >>> read_spia_prompts("/nonexistent")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        privlab.errors.PrivlabValueError: The 'prompts_from' parameter of read_spia_prompts ...
    """
    root = checkout_root(path, caller)
    files = sorted({f for f, _ in SPIA_TEMPLATES.values()} | {f for f, _ in
                                                               SPIA_RESULT_FORMATS.values()})
    trees = {f: _module_tree(root / f, caller) for f in files}
    templates, formats = {}, {}
    for key, (file, name) in SPIA_TEMPLATES.items():
        value = _string_assignments(trees[file]).get(name)
        if value is None:
            raise invalid("prompts_from", caller, f"{file} assigning the string {name}",
                          str(root), "The checkout's layout differs from the one privlab "
                          "reads (see privlab.redaction.spia.checkout_prompts).")
        templates[key] = value
    for group, (file, function) in SPIA_RESULT_FORMATS.items():
        try:
            formats[group] = _function_literal(trees[file], function, "result_format")
        except (KeyError, ValueError) as exc:
            raise invalid("prompts_from", caller, f"{file} whose {function}() sets a literal "
                          "result_format", str(root), f"Not found ({exc}); the checkout's "
                          "layout differs from the one privlab reads.") from None
    sha = hashlib.sha256()
    for file in files:
        sha.update(file.encode() + b"\0" + (root / file).read_bytes() + b"\0")
    return SPIAPrompts(root, templates, formats, sha.hexdigest()[:16], tuple(files))


def corpus_of(data_id: str) -> str:
    """``"panorama"`` for a PANORAMA document id, else ``"tab"`` (SPIA's choice of prompt).

    Example:
        >>> corpus_of("PANORAMA-014EB"), corpus_of("TAB-bf828")
        ('panorama', 'tab')
    """
    return "panorama" if "panorama" in str(data_id).lower() else "tab"


def says_no_value(keyword: str) -> bool:
    """Whether a keyword only says that no value was found ("Unknown", "not specified",
    "[REDACTED]", "N/A"...). SPIA's parser turns such keywords into an empty one (nothing
    inferred); the adversary on SPIA's prompts drops them the same way, so that its scores
    compare with SPIA's.

    Example:
        >>> [says_no_value(k) for k in ("Unknown", "Cork / unknown", "N/A", "Not specified",
        ...                             "[REDACTED]", "Nonesuch Ltd", "Cork / Ireland")]
        [True, True, True, True, True, False, False]
    """
    return bool(_NO_VALUE.search(str(keyword)))


def clean_analysis(answer: str) -> tuple[str, int]:
    """The part of a subject-analysis answer passed on, and the number of subjects it gives.

    As SPIA passes it on: emphasis marks removed, lines joined by spaces, from the
    "Individual Character Analysis" heading (or, failing it, the count) to the end.

    Raises:
        ValueError: the answer states no "Number of Subjects: N".

    Example:
        >>> clean_analysis("Sure.\\n**Individual Character Analysis:**\\n- A - writer\\n"
        ...                "The Number of Subjects: 1")
        ('Individual Character Analysis: - A - writer The Number of Subjects: 1', 1)
    """
    flat = answer.replace("**", "").replace("\n", " ")
    counts = _COUNT.findall(flat)
    if not counts:
        raise ValueError('the answer must end with "The Number of Subjects: N"')
    start = _ANALYSIS.search(flat) or _COUNT.search(flat)
    return flat[start.start():], int(counts[-1])


__all__ = ["SPIAPrompts", "SPIA_RESULT_FORMATS", "SPIA_TEMPLATES", "checkout_root",
           "clean_analysis", "corpus_of", "read_spia_prompts", "says_no_value"]
