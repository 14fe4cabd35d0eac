"""Where privlab reads and writes, and which device it computes on.

Every path privlab uses comes from here, so a user can move all of them at once by
setting ``PRIVLAB_HOME`` (default: the repository root when privlab is installed from
a clone, else ``~/.privlab``). Raw data is never edited in place.

Layout under the home folder::

    data/      small generated default corpora and user downloads (git-ignored parts)
    cache/     embedding cache, unpacked models, LLM response cache
    reports/   executed notebooks, HTML copies, study outputs
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent
_REPO_ROOT = _PACKAGE_DIR.parent


def home() -> Path:
    """The root folder for privlab's data, caches and reports.

    Returns:
        ``$PRIVLAB_HOME`` when set, the repository root when privlab runs from a
        clone (a ``pyproject.toml`` beside the package), else ``~/.privlab``.
    """
    env = os.environ.get("PRIVLAB_HOME")
    if env:
        return Path(env).expanduser().resolve()
    if (_REPO_ROOT / "pyproject.toml").is_file():
        return _REPO_ROOT
    return Path.home() / ".privlab"


def data_dir() -> Path:
    """Folder of default corpora and downloads (``<home>/data``)."""
    return home() / "data"


def cache_dir() -> Path:
    """Folder of caches: embeddings, unpacked models, LLM responses.

    ``$PRIVLAB_CACHE`` overrides it (tests point it at a temporary folder).
    """
    env = os.environ.get("PRIVLAB_CACHE")
    path = Path(env).expanduser().resolve() if env else home() / "cache"
    _make_folder(path, "PRIVLAB_CACHE" if env else "PRIVLAB_HOME")
    return path


def _make_folder(path: Path, variable: str) -> None:
    """Create a folder privlab writes to, or say which setting to change and why."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        from privlab.errors import PrivlabValueError

        blocker = next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()),
                       None)
        why = (f"{blocker} is a file, not a folder" if blocker is not None
               else exc.strerror or str(exc))
        raise PrivlabValueError(
            f"The folder {path} (from {variable}) cannot be created: {why}. Set {variable} "
            "to a folder you can write to (or unset it for the default).") from None
    if not os.access(path, os.W_OK):
        from privlab.errors import PrivlabValueError

        raise PrivlabValueError(
            f"The folder {path} (from {variable}) is not writable. Set {variable} to a "
            "folder you can write to (or fix its permissions).")


def reports_dir() -> Path:
    """Folder of executed notebooks and study outputs (``<home>/reports``)."""
    path = home() / "reports"
    path.mkdir(parents=True, exist_ok=True)
    return path


def shared_data_dir() -> Path | None:
    """Third-party reference data used by tests, when present beside the repository.

    Returns:
        ``$PRIVLAB_SHARED_DATA`` or ``<repo>/../shared/data`` if it exists, else None.
    """
    env = os.environ.get("PRIVLAB_SHARED_DATA")
    candidate = Path(env) if env else _REPO_ROOT.parent / "shared" / "data"
    return candidate if candidate.is_dir() else None


#: The settings profiles a notebook can run on, smallest first.
PROFILES = ("smoke", "demo", "full")


def profile() -> str:
    """Which settings a notebook's study runs on: ``"smoke"``, ``"demo"`` or ``"full"``.

    * ``smoke``: the smallest settings (the test suite's notebook runs);
    * ``demo``: settings chosen to show each study's finding in about a minute
      (``make demo``, and a notebook opened in JupyterLab);
    * ``full``: the settings the docs' quoted figures come from (``make reproduce``).

    Read from ``PRIVLAB_PROFILE``; ``PRIVLAB_SMOKE=1`` also selects ``smoke``. Unset,
    the profile is ``demo``.

    Example:
        >>> import os; os.environ["PRIVLAB_PROFILE"] = "full"; profile()
        'full'
        >>> del os.environ["PRIVLAB_PROFILE"]
    """
    from privlab.errors import invalid

    if os.environ.get("PRIVLAB_SMOKE", "0") not in ("", "0", "false", "False"):
        return "smoke"
    value = os.environ.get("PRIVLAB_PROFILE", "").strip().lower()
    if not value:
        return "demo"
    if value not in PROFILES:
        raise invalid("PRIVLAB_PROFILE", "privlab.config.profile", f"one of {list(PROFILES)}",
                      os.environ.get("PRIVLAB_PROFILE"),
                      "Unset it (demo settings) or set it to smoke, demo or full.")
    return value


def smoke() -> bool:
    """True when notebooks and studies should run on their smallest settings.

    Set by ``PRIVLAB_SMOKE=1`` or ``PRIVLAB_PROFILE=smoke`` (the test suite's notebook
    runs do this).
    """
    return profile() == "smoke"


def threads() -> int | None:
    """How many threads one model may use, or None for each library's own choice.

    Read from ``PRIVLAB_THREADS``, else ``OMP_NUM_THREADS``; privlab passes it to the OCR
    engine, whose threads wait by spinning. Set it to 1 when several processes share
    few cores.

    Example:
        >>> import os; os.environ["PRIVLAB_THREADS"] = "1"; threads()
        1
        >>> del os.environ["PRIVLAB_THREADS"]
    """
    from privlab.errors import invalid

    for name in ("PRIVLAB_THREADS", "OMP_NUM_THREADS"):
        value = os.environ.get(name, "").strip()
        if not value:
            continue
        if not value.isdigit() or int(value) < 1:
            raise invalid(name, "privlab.config.threads", "a positive whole number", value,
                          f"Unset {name} (each library's own choice) or set it to e.g. 1.")
        return int(value)
    return None


def default_device() -> str:
    """``"cuda"`` when a CUDA GPU is visible to torch, else ``"cpu"``.

    ``$PRIVLAB_DEVICE`` overrides the choice (e.g. ``cpu`` on a GPU machine).
    """
    env = os.environ.get("PRIVLAB_DEVICE")
    if env:
        return env
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is a hard dependency
        return "cpu"
    return "cuda" if torch.cuda.is_available() else "cpu"
