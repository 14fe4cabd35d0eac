"""Execute the study notebooks headless (``make demo`` and the notebook smoke tests).

Each notebook runs top to bottom with its widgets at their plain defaults; the
executed copy and an HTML rendering go to ``reports/``, and the study's headline
(:meth:`privlab.studies.contract.Headline.show`) is read back from the outputs.

Several notebooks may share one kernel (:class:`SharedKernel`): privlab, torch and the
models are then imported and loaded once, and each notebook starts from an empty
namespace, so a name one notebook defined is never seen by the next.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from privlab.errors import invalid
from privlab.studies.contract import Headline
from privlab.ui.static import inline_widget_outputs, plain_texts, write_html


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


#: Run in a shared kernel before each notebook: the last notebook's names and figures go.
RESET_SOURCE = "%reset -f\nimport matplotlib.pyplot\nmatplotlib.pyplot.close('all')\n%reset -f"


class SharedKernel:
    """One kernel that runs notebooks in turn (``run_notebook(..., kernel=shared)``).

    The first notebook starts it; each later one first clears the namespace
    (:data:`RESET_SOURCE`), so only imported modules and loaded models carry over. A
    kernel that died, or was started for another profile, is replaced. Use it as a
    context manager, or call :meth:`close`.

    Example:
        >>> with SharedKernel() as shared:
        ...     shared.runs
        0
    """

    def __init__(self) -> None:
        self.km = None
        self.profile: str | None = None
        self.runs = 0

    def usable(self, profile: str) -> bool:
        """True when the kernel is running, alive and on ``profile``."""
        if self.km is None:
            return False
        try:
            alive = bool(_wait(self.km.is_alive()))
        except Exception:  # a manager whose process is gone
            alive = False
        if alive and self.profile == profile:
            return True
        self.close()
        return False

    def close(self) -> None:
        """Shut the kernel down (nothing if none is running)."""
        km, self.km, self.profile = self.km, None, None
        if km is not None:
            try:
                _wait(km.shutdown_kernel(now=True))
            except Exception:  # already gone
                pass

    def __enter__(self) -> "SharedKernel":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _wait(value):
    """The value of a kernel manager's call, awaited when the manager is asynchronous."""
    import inspect

    if not inspect.isawaitable(value):
        return value
    from jupyter_core.utils import run_sync

    async def wait():  # run_sync takes a coroutine function, not an awaitable
        return await value

    return run_sync(wait)()


def _clear_namespace(kernel: SharedKernel, path: Path, timeout: int) -> None:
    import nbformat
    from nbclient import NotebookClient

    reset = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(RESET_SOURCE)])
    client = NotebookClient(reset, km=kernel.km, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    client.kc.stop_channels()


def _execute(nb, path: Path, kernel: SharedKernel | None, profile: str, timeout: int,
             kernel_log) -> None:
    """Run every cell of ``nb``, in ``kernel`` when given (started by this call when it is
    not running), else in a kernel of its own."""
    from nbclient import NotebookClient

    reuse = kernel is not None and kernel.usable(profile)
    if reuse:
        _clear_namespace(kernel, path, timeout)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            km=kernel.km if reuse else None,
                            resources={"metadata": {"path": str(path.parent)}})
    if kernel is None:
        client.execute(stdout=kernel_log, stderr=kernel_log)
        return
    try:
        # kept running for the next notebook (the kernel process's own output goes on
        # to the log of the notebook that started it)
        client.execute(stdout=kernel_log, stderr=kernel_log, cleanup_kc=False)
    finally:
        kernel.km, kernel.profile = client.km, profile
        kernel.runs += 1
        if client.kc is not None:
            client.kc.stop_channels()


def read_notebook(path: Path, parameter: str, caller: str):
    """The notebook at ``path`` (nbformat 4), or a refusal naming the file and the fix."""
    import nbformat

    try:
        return nbformat.read(path, as_version=4)
    except (ValueError, KeyError, TypeError, AttributeError, OSError,
            nbformat.reader.NotJSONError) as exc:
        reason = str(exc).split("\n")[0][:160] or type(exc).__name__
        raise invalid(parameter, caller, "Jupyter notebooks (.ipynb JSON)",
                      f"{path} (not a readable notebook: {reason})",
                      "Restore it (git checkout -- FILE) or run make notebooks to write it "
                      "again from its .py source.", given_is_text=True) from None


def run_notebook(path: str | Path, out_dir: str | Path | None = None, *, smoke: bool = False,
                 profile: str | None = None, timeout: int = 1800,
                 html: bool = True, kernel: SharedKernel | None = None) -> NotebookRun:
    """Execute one notebook in its own folder and save the executed copy (and HTML).

    Args:
        path: the ``.ipynb`` file.
        out_dir: where to write (default ``reports/``).
        smoke: the smallest settings (same as ``profile="smoke"``).
        profile: the settings profile for the kernel, ``"smoke"``, ``"demo"`` or
            ``"full"`` (:func:`privlab.config.profile`); default ``"demo"``.
        timeout: seconds allowed per cell.
        html: also write an HTML copy.
        kernel: a :class:`SharedKernel` to run in (None: a kernel of its own, shut down
            after).

    Returns:
        A :class:`NotebookRun`; a failing cell is reported in ``error``, not raised.
    """
    from privlab.config import PROFILES

    profile = "smoke" if smoke else (profile or "demo")
    if profile not in PROFILES:
        raise invalid("profile", "run_notebook", f"one of {list(PROFILES)}", profile)
    import nbformat
    from nbclient.exceptions import CellExecutionError

    from privlab.config import reports_dir

    path = Path(path)
    out_dir = Path(out_dir) if out_dir else reports_dir()
    out_dir.mkdir(parents=True, exist_ok=True)
    nb = read_notebook(path, "path", "run_notebook")
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
        for attempt in (1, 2):
            try:
                _execute(nb, path, kernel, profile, timeout, kernel_log)
                break
            except RuntimeError as exc:
                # a new kernel that dies before its first reply (two kernels starting at
                # once can race for a port) is started once more; nothing ran in it
                if attempt == 2 or "before replying to kernel_info" not in str(exc):
                    raise
                if kernel is not None:
                    kernel.close()
    except CellExecutionError as exc:
        run.error = str(exc)[-3000:]
    except Exception as exc:  # a dead kernel or a timeout is a failed run, reported
        run.error = f"{type(exc).__name__}: {exc}"[-3000:]
        if kernel is not None:
            kernel.close()  # it may still be busy with the cell that timed out
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
    if html:  # math typeset by a local MathJax beside it: it renders offline
        run.html = write_html(nb, executed.with_suffix(".html"))
    return run
