"""Errors as a person reads them: a short styled message, the exact fix, details folded.

A panel never lets a traceback reach the page. :func:`explain` turns an exception (or a
choice that cannot run here) into a :class:`Problem`: a title, one or two sentences, the
fix (a command to run or a setting to make) and the traceback inside a closed
``<details>`` block.

Kinds recognised: a missing package, a hub model that cannot be downloaded (offline), a
missing LLM endpoint, a file or folder that is not there or not usable, a refused
setting, and anything else (shown plainly as an unexpected error).
"""

from __future__ import annotations

import html
import re
import traceback
from dataclasses import dataclass
from typing import Iterable, Sequence

from privlab.fixes import download_command
from privlab.ui.choices import ENDPOINT_FIX, Option, hub_offline, pip_command

_COLOURS = {"package": "#b35806", "download": "#b35806", "endpoint": "#b35806",
            "data": "#b35806", "setting": "#b35806", "error": "#b2182b"}


@dataclass(frozen=True)
class Problem:
    """Why a run could not give a result, and what to do.

    Attributes:
        kind: "package", "download", "endpoint", "data", "setting" or "error".
        title: one line, e.g. "mpnet is not installed".
        message: one or two sentences (privlab's own message where there is one).
        fix: the command or setting that fixes it ("" when there is none to give).
        details: the full traceback text (shown folded).
    """

    kind: str
    title: str
    message: str
    fix: str = ""
    details: str = ""

    def html(self) -> str:
        """The message as HTML: a coloured box, the fix in a code block, details folded.

        Example:
            >>> p = Problem("package", "gliner is not installed", "GLiNER needs it.",
            ...             "pip install gliner", "Traceback ...")
            >>> "<details" in p.html() and "pip install gliner" in p.html()
            True
        """
        colour = _COLOURS.get(self.kind, "#b2182b")
        fix = ""
        if self.fix:
            fix = ("<div style='margin:.4em 0 .2em'><b>Fix:</b></div><pre style='margin:0;"
                   "padding:.4em .6em;background:rgba(0,0,0,.06);border-radius:4px;"
                   f"white-space:pre-wrap'>{html.escape(self.fix)}</pre>")
        details = ""
        if self.details:
            details = ("<details style='margin-top:.5em'><summary style='cursor:pointer'>"
                       "Technical details (for a bug report)</summary><pre style='font-size:"
                       "85%;max-height:24em;overflow:auto;white-space:pre-wrap'>"
                       f"{html.escape(self.details)}</pre></details>")
        return (f"<div class='privlab-problem' style='border-left:6px solid {colour};"
                "padding:.6em .9em;margin:.4em 0;background:rgba(240,160,40,.08);"
                "font-size:110%'>"
                f"<div style='font-weight:bold;color:{colour}'>{html.escape(self.title)}</div>"
                f"<div style='margin-top:.3em'>{html.escape(self.message)}</div>"
                f"{fix}{details}</div>")

    def _repr_html_(self) -> str:
        return self.html()

    def lines(self) -> str:
        """Plain text: title, message and fix (what a log or a terminal shows).

        Example:
            >>> print(Problem("setting", "A setting was refused", "x must be > 0.").lines())
            A setting was refused: x must be > 0.
        """
        text = f"{self.title}: {self.message}"
        return text + (f"\nFix: {self.fix}" if self.fix else "")


def _chain(exc: BaseException) -> list[BaseException]:
    out: list[BaseException] = []
    while exc is not None and exc not in out:
        out.append(exc)
        exc = exc.__cause__ or exc.__context__
    return out


def _names(exc: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(exc).__mro__}


def _first_line(exc: BaseException, limit: int = 600) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _hub_model(text: str) -> str | None:
    for pattern in (r"(?:hf|huggingface-cli) download ([\w.\-]+/[\w.\-]+)",
                    r"huggingface\.co/([\w.\-]+/[\w.\-]+)/resolve",
                    r"for ([\w.\-]+/[\w.\-]+)\.", r"'([\w.\-]+/[\w.\-]+)'"):
        found = re.search(pattern, text)
        if found:
            return found.group(1)
    return None


def unready_problem(options: Sequence[Option]) -> Problem | None:
    """The problem of running with choices that cannot run here (None when all can).

    Example:
        >>> unready_problem([Option("gliner", "", "package", "needs: pip install gliner",
        ...                         False, "pip install gliner")]).title
        'gliner is not installed'
        >>> unready_problem([Option("minilm")]) is None
        True
    """
    blocked = [o for o in options if not o.ready]
    if not blocked:
        return None
    first = blocked[0]
    names = ", ".join(str(o.name) for o in blocked)
    fixes = "\n".join(dict.fromkeys(o.fix for o in blocked if o.fix))
    if first.kind == "package":
        return Problem("package", f"{names} {'is' if len(blocked) == 1 else 'are'} not installed",
                       "Install the package in a terminal, in the privlab folder, then "
                       "restart the kernel (Kernel ▸ Restart) and press Run again.", fixes)
    if first.kind == "endpoint":
        return Problem("endpoint", f"{names} needs an LLM endpoint",
                       "No language-model endpoint is configured in this kernel. Run these "
                       "two lines in a cell (with your server's address and model), or set "
                       "the variables before starting Jupyter, then press Run again.",
                       fixes or ENDPOINT_FIX)
    return Problem(first.kind or "data", f"{names}: not available here", first.needs, fixes)


def explain(exc: BaseException, chosen: Iterable[Option] = ()) -> Problem:
    """A :class:`Problem` for an exception raised while running a study.

    Args:
        exc: the exception.
        chosen: the options the run was made with; their fixes name the exact command
            (e.g. the install command of the chosen encoder that is missing).

    Returns:
        The problem; its ``details`` hold the formatted traceback.

    Example:
        >>> from privlab.errors import MissingDependencyError
        >>> p = explain(MissingDependencyError("GLiNER redaction needs the 'gliner' module, "
        ...             "which is not installed. Install it with: pip install gliner"))
        >>> p.kind, p.fix.endswith("pip install gliner")
        ('package', True)
    """
    chosen = list(chosen)
    details = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    chain = _chain(exc)
    names = set().union(*(_names(e) for e in chain))
    text = "\n".join(str(e) for e in chain)
    head = _first_line(exc)

    if "LLMUnavailableError" in names:
        who = [o.name for o in chosen if o.kind == "endpoint"]
        return Problem("endpoint", f"{', '.join(map(str, who)) or 'This choice'} needs an LLM "
                       "endpoint", "No language-model endpoint is configured in this kernel. "
                       "Run these two lines in a cell (with your server's address and model), "
                       "or set the variables before starting Jupyter, then press Run again.",
                       ENDPOINT_FIX, details)
    if "LLMError" in names:
        return Problem("endpoint", "The LLM endpoint gave no usable answer", head,
                       "Check that the server at PRIVLAB_LLM_BASE_URL is running and serves "
                       "PRIVLAB_LLM_MODEL.", details)
    if names & {"MissingDependencyError", "ModuleNotFoundError"}:
        missing = [o for o in chosen if o.kind == "package" and not o.ready]
        found = re.search(r"(?:with|Install it with):\s*(pip install[^\n]+?)\.?$", text, re.M)
        fix = (missing[0].fix if missing else
               pip_command(found.group(1)) if found else "")
        module = next((e.name for e in chain if getattr(e, "name", None)), None)
        title = (f"{missing[0].name} is not installed" if missing else
                 f"A package is missing ({module})" if module else "A package is missing")
        return Problem("package", title, head + " Install it in a terminal, in the privlab "
                       "folder, then restart the kernel and press Run again.", fix, details)
    hub = names & {"LocalEntryNotFoundError", "OfflineModeIsEnabled", "HfHubHTTPError"}
    if hub or re.search(r"huggingface\.co|Failed to download|couldn't connect", text, re.I):
        model = _hub_model(text)
        who = [str(o.name) for o in chosen if o.kind == "download"]
        offline = hub_offline()
        message = (f"{', '.join(who) or 'This model'} downloads its weights on first use, and "
                   + ("this Jupyter runs offline (HF_HUB_OFFLINE=1, as `make lab` sets it)"
                      if offline else "they could not be downloaded")
                   + " and they are not in the local cache.")
        fix = ((download_command(model) + "\n" if model else "")
               + "# or start Jupyter with downloads allowed: HF_HUB_OFFLINE=0 make lab")
        return Problem("download", f"{', '.join(who) or 'A model'}: weights not available "
                       "offline", message, fix, details)
    if names & {"FileNotFoundError", "NotADirectoryError", "IsADirectoryError",
                "PermissionError"} or (
            "PrivlabValueError" in names and re.search(r"'(path|folder|comments|corpus|data|"
                                                       r"gallery|source|table)' parameter",
                                                       head)):
        return Problem("data", "That file or folder cannot be used", head,
                       "Type a folder or file that exists on the machine running Jupyter "
                       "(or leave the box empty for the offline default).", details)
    if names & {"PrivlabValueError", "PrivlabTypeError"}:
        return Problem("setting", "A setting was refused", head, "", details)
    if "KeyboardInterrupt" in names:
        return Problem("error", "Stopped", "The run was interrupted before it finished.", "",
                       details)
    return Problem("error", "The study stopped with an unexpected error",
                   f"{type(exc).__name__}: {head}", "If it happens again, copy the technical "
                   "details below into a bug report.", details)


__all__ = ["Problem", "explain", "unready_problem"]
