"""Execute the study notebooks headless (``make demo`` and the notebook smoke tests).

Each notebook runs top to bottom with its widgets at their plain defaults; the
executed copy and an HTML rendering go to ``reports/``, and the study's headline
(:meth:`privlab.studies.contract.Headline.show`) is read back from the outputs.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from privlab.errors import invalid
from privlab.studies.contract import Headline
from privlab.ui.static import inline_widget_outputs, plain_texts


@dataclass
class NotebookRun:
    """The outcome of one headless run.

    Attributes:
        notebook: the source ``.ipynb``.
        executed: the executed copy (None if execution failed before writing).
        html: the HTML rendering.
        headlines: the :class:`Headline` objects the notebook printed.
        seconds: wall time.
        error: the error text when a cell failed, else None.
    """

    notebook: Path
    executed: Path | None = None
    html: Path | None = None
    headlines: list[Headline] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def notebook_paths(folder: str | Path | None = None) -> list[Path]:
    """The numbered study notebooks, in order."""
    from privlab.config import home

    folder = Path(folder) if folder else home() / "notebooks"
    return sorted(p for p in folder.glob("[0-9][0-9]_*.ipynb"))


def run_notebook(path: str | Path, out_dir: str | Path | None = None, *, smoke: bool = False,
                 profile: str | None = None, timeout: int = 1800,
                 html: bool = True) -> NotebookRun:
    """Execute one notebook in its own folder and save the executed copy (and HTML).

    Args:
        path: the ``.ipynb`` file.
        out_dir: where to write (default ``reports/``).
        smoke: the smallest settings (same as ``profile="smoke"``).
        profile: the settings profile for the kernel, ``"smoke"``, ``"demo"`` or
            ``"full"`` (:func:`privlab.config.profile`); default ``"demo"``.
        timeout: seconds allowed per cell.
        html: also write an HTML copy.

    Returns:
        A :class:`NotebookRun`; a failing cell is reported in ``error``, not raised.
    """
    from privlab.config import PROFILES

    profile = "smoke" if smoke else (profile or "demo")
    if profile not in PROFILES:
        raise invalid("profile", "run_notebook", f"one of {list(PROFILES)}", profile)
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    from privlab.config import reports_dir

    path = Path(path)
    out_dir = Path(out_dir) if out_dir else reports_dir()
    out_dir.mkdir(parents=True, exist_ok=True)
    nb = nbformat.read(path, as_version=4)
    # The kernel inherits this environment: smallest settings on request, no hub access,
    # and figures captured as outputs (a headless Agg backend would drop them).
    kernel_env = {"PRIVLAB_SMOKE": "0", "PRIVLAB_PROFILE": profile,
                  "MPLBACKEND": "module://matplotlib_inline.backend_inline"}
    saved = {key: os.environ.get(key) for key in kernel_env}
    os.environ.update(kernel_env)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    run = NotebookRun(notebook=path)
    start = time.time()
    kernel_log = open(out_dir / f"{path.stem}.kernel.log", "w")  # the kernel's own chatter
    try:
        client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                                resources={"metadata": {"path": str(path.parent)}})
        client.execute(stdout=kernel_log, stderr=kernel_log)
    except CellExecutionError as exc:
        run.error = str(exc)[-3000:]
    except Exception as exc:  # a dead kernel or a timeout is a failed run, reported
        run.error = f"{type(exc).__name__}: {exc}"[-3000:]
    finally:
        kernel_log.close()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    run.seconds = time.time() - start
    executed = out_dir / path.name
    inline_widget_outputs(nb)  # a study panel's outputs, as the cell's own
    nbformat.write(nb, executed)
    run.executed = executed
    run.headlines = Headline.parse(plain_texts(nb))
    if html:
        from nbconvert import HTMLExporter

        body, _ = HTMLExporter().from_notebook_node(nb)
        run.html = executed.with_suffix(".html")
        run.html.write_text(body, encoding="utf-8")
    return run
