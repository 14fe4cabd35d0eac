"""The papers' own data, laid out from a user's checkouts so that the notebooks run on it.

``privlab data paper PATH`` (:func:`lay_out`) and ``privlab data spia PATH``
(:func:`lay_out_spia`) link (or copy) a checkout's sets into privlab's data folder with a
``LAYOUT.json``; a notebook then takes its settings in one line:
``Config(**paper_settings("01"))``. The layout: ``docs/methods/data-loaders.md``.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from privlab.errors import invalid

#: The concepts of the paper's resolution calibration (Table 3).
PAPER_CONCEPTS = ("boats", "cars", "cats", "desks", "dogs", "lemons", "oranges", "paperclips")
#: The set folders laid out, and where each may sit in a checkout (first found wins).
PAPER_SETS = {
    "dicaprio": ("data/dicaprio", "images/dicaprio"),
    "mcdonalds_large": ("data/mcdonalds_large", "images/mcdonalds_large"),
    "mcdonalds_small": ("data/mcdonalds_small", "images/mcdonalds_small"),
    "avengers_large": ("data/avengers_large", "text/avengers_large"),
    "avengers_small": ("data/avengers_small", "text/avengers_small"),
}
#: Which set each notebook audits (the paper's sets of §5.1-5.3).
NOTEBOOK_SETS = {"01": "dicaprio", "02": "mcdonalds_large", "03": "avengers_large"}
#: The paper's calibration pairs, as the authors' experiments.sh orders them (folder1,
#: folder2): the photo pairs and the sentence pairs notebook 09 audits.
PAPER_IMAGE_PAIRS = (("paperclips", "desks"), ("cars", "boats"), ("dogs", "cats"),
                     ("oranges", "lemons"))
PAPER_TEXT_PAIRS = (("desks", "paperclips"), ("cars", "boats"), ("dogs", "cats"),
                    ("oranges", "lemons"))
MODES = ("link", "copy")
MANIFEST = "LAYOUT.json"


@dataclass(frozen=True)
class Layout:
    """What :func:`lay_out` or :func:`lay_out_spia` put where.

    Attributes:
        root: the folder laid out (``<home>/data/paper`` or ``<home>/data/spia``).
        source: the checkout read.
        mode: ``"link"`` (symbolic links into the checkout) or ``"copy"``.
        counts: laid-out name -> number of files in it.
        missing: what the checkout lacked (left out; its notebook keeps its default).
        settings: notebook -> the ``Config`` settings that audit the laid-out data.
        status: one line on what the layout is.
        provenance: source, mode, and the files found.
    """

    root: Path
    source: Path
    mode: str
    counts: dict[str, int]
    missing: tuple[str, ...]
    settings: dict[str, dict[str, Any]]
    status: str = ""
    provenance: dict[str, Any] = field(default_factory=dict)

    def lines(self) -> list[str]:
        """The layout in words, one line per set and one per notebook."""
        out = [f"{self.status}", f"laid out in {self.root} ({self.mode} from {self.source})"]
        out += [f"  {name}: {n} files" for name, n in self.counts.items()]
        out += [f"  missing in the checkout: {name}" for name in self.missing]
        out += [f"notebook {nb}: Config({', '.join(f'{k}={v!r}' for k, v in s.items())})"
                for nb, s in self.settings.items()]
        return out


def _files(folder: Path) -> int:
    return sum(1 for p in folder.rglob("*") if p.is_file() and not p.name.startswith("."))


def _place(source: Path, destination: Path, mode: str) -> None:
    """Link or copy ``source`` to ``destination``, replacing what an earlier layout put there."""
    if destination.is_symlink() or (destination.is_file()):
        destination.unlink()
    elif destination.is_dir():
        shutil.rmtree(destination)
    if mode == "link":
        destination.symlink_to(source.resolve(), target_is_directory=source.is_dir())
    elif source.is_dir():
        shutil.copytree(source, destination)
    else:
        shutil.copy2(source, destination)


def _prepare(target: Path, manifest_kind: str, caller: str) -> None:
    """Create ``target``; refuse a non-empty folder that no earlier layout wrote."""
    if target.exists() and not target.is_dir():
        raise invalid("target", caller, "a folder", str(target), "Pick another target.")
    if target.is_dir() and any(target.iterdir()):
        manifest = target / MANIFEST
        kind = json.loads(manifest.read_text()).get("kind") if manifest.is_file() else None
        if kind != manifest_kind:
            raise invalid("target", caller, f"an empty folder or one laid out by {caller}",
                          str(target), "It holds other files; pick an empty target.")
    target.mkdir(parents=True, exist_ok=True)


def _check(source: str | Path, mode: str, caller: str) -> Path:
    if mode not in MODES:
        raise invalid("mode", caller, f"one of {MODES}", mode)
    root = Path(source).expanduser()
    if not root.is_dir():
        raise invalid("source", caller, "the folder of a checkout", str(root),
                      "Clone the repository and pass its folder.")
    return root.resolve()


def _find(root: Path, candidates: tuple[str, ...]) -> Path | None:
    return next((root / c for c in candidates if (root / c).is_dir()), None)


def _concept_text(root: Path, concept: str) -> Path | None:
    for candidate in (root / "data" / f"{concept}.txt", root / "concepts" / f"{concept}.txt",
                      root.parent / "concepts" / f"{concept}.txt"):
        if candidate.is_file():
            return candidate
    return None


def lay_out(source: str | Path, target: str | Path | None = None, *,
            mode: str = "link") -> Layout:
    """Lay out a checkout of the contrastive-privacy repository for notebooks 01-03 and 09.

    Args:
        source: the checkout's folder (holding ``data/dicaprio`` ...), or a folder in the
            layout of ``../shared/data/paper``.
        target: where to lay it out (default ``<home>/data/paper``).
        mode: ``"link"`` (symbolic links into the checkout) or ``"copy"``.

    Returns:
        The :class:`Layout`; its ``settings`` are also written to ``LAYOUT.json``.

    Raises:
        PrivlabValueError: ``source`` is not a folder or holds none of the paper's sets;
            ``target`` holds files an earlier layout did not write; an unknown ``mode``.

    Example:
        >>> import tempfile
        >>> src = Path(tempfile.mkdtemp()); (src / "data" / "dicaprio").mkdir(parents=True)
        >>> _ = (src / "data" / "dicaprio" / "a.jpg").write_bytes(b"x")
        >>> layout = lay_out(src, Path(tempfile.mkdtemp()) / "paper")
        >>> layout.counts, layout.settings["01"]["data"].endswith("dicaprio")
        ({'dicaprio': 1}, True)
    """
    caller = "lay_out"
    root = _check(source, mode, caller)
    from privlab.config import data_dir

    target = Path(target).expanduser() if target is not None else data_dir() / "paper"
    found = {name: _find(root, where) for name, where in PAPER_SETS.items()}
    images = {c: _find(root, (f"data/{c}", f"images/{c}")) for c in PAPER_CONCEPTS}
    texts = {c: _concept_text(root, c) for c in PAPER_CONCEPTS}
    if not any(found.values()) and not any(images.values()) and not any(texts.values()):
        raise invalid("source", caller, "a checkout of github.com/umass-forensics/"
                      "contrastive-privacy (data/dicaprio, data/mcdonalds_*, data/avengers_*, "
                      "data/<concept>)", str(root), "Pass the clone's root folder.")
    _prepare(target, "paper", caller)
    counts: dict[str, int] = {}
    missing = []
    for name, folder in found.items():
        if folder is None:
            missing.append(name)
            continue
        _place(folder, target / name, mode)
        counts[name] = _files(folder)
    concepts = target / "concepts"
    (concepts / "images").mkdir(parents=True, exist_ok=True)
    for c in PAPER_CONCEPTS:
        if texts[c] is not None:
            _place(texts[c], concepts / f"{c}.txt", mode)
            counts[f"concepts/{c}.txt"] = 1
        else:
            missing.append(f"concepts/{c}.txt")
        if images[c] is not None:
            _place(images[c], concepts / "images" / c, mode)
            counts[f"concepts/images/{c}"] = _files(images[c])
        else:
            missing.append(f"concepts/images/{c}")
    settings = {nb: {"data": str(target / name)} for nb, name in NOTEBOOK_SETS.items()
                if found[name] is not None}
    pairs = tuple(p for p in PAPER_TEXT_PAIRS if all(texts[c] for c in p))
    image_pairs = tuple(p for p in PAPER_IMAGE_PAIRS if all(images[c] for c in p))
    if pairs or image_pairs:
        settings["09"] = {**({"data": str(concepts), "pairs": pairs} if pairs else {}),
                          **({"image_data": str(concepts), "image_pairs": image_pairs}
                             if image_pairs else {})}
    status = (f"the paper's data, laid out for notebooks {', '.join(settings) or 'none'}"
              + (f"; {len(missing)} sets missing in the checkout" if missing else ""))
    layout = Layout(target, root, mode, counts, tuple(missing), settings, status,
                    {"source": str(root), "mode": mode, "kind": "paper"})
    _write_manifest(layout, "paper")
    return layout


def lay_out_spia(source: str | Path, target: str | Path | None = None, *,
                 mode: str = "link") -> Layout:
    """Lay out a checkout of the SPIA repository for notebook 08.

    The SPIA files (``data/spia/spia_*.jsonl``) and their entity spans
    (``data/entity/entity_*.jsonl``) go side by side, where the study looks for them; a
    checkout with ``config/prompts`` also gives the LLM adversary SPIA's own prompts
    (``prompts_from``).

    Args:
        source: the checkout's folder, or a flat folder of those files
            (``../shared/data/spia``).
        target: where to lay it out (default ``<home>/data/spia``).
        mode: ``"link"`` or ``"copy"``.

    Returns:
        The :class:`Layout` (settings for ``"08"``).

    Raises:
        PrivlabValueError: no ``spia_*.jsonl`` in the checkout, or as :func:`lay_out`.
    """
    caller = "lay_out_spia"
    root = _check(source, mode, caller)
    from privlab.config import data_dir

    target = Path(target).expanduser() if target is not None else data_dir() / "spia"
    files = sorted({p.name: p for folder in (root / "data" / "spia", root / "data" / "entity",
                                            root)
                    for p in (folder.glob("*.jsonl") if folder.is_dir() else ())
                    if p.name.startswith(("spia_", "entity_"))}.items())
    if not any(name.startswith("spia_") for name, _ in files):
        raise invalid("source", caller, "a checkout of github.com/maisonOP/spia (data/spia/"
                      "spia_*.jsonl)", str(root), "Pass the clone's root folder.")
    _prepare(target, "spia", caller)
    for name, path in files:
        _place(path, target / name, mode)
    names = [n for n, _ in files]
    data = ("spia_panorama_151.jsonl" if "spia_panorama_151.jsonl" in names
            else next(n for n in names if n.startswith("spia_")))
    settings: dict[str, Any] = {"data": str(target / data)}
    if (root / "config" / "prompts").is_dir():
        settings["prompts_from"] = str(root)
    missing = tuple(n.replace("spia_", "entity_", 1) for n in names if n.startswith("spia_")
                    and n.replace("spia_", "entity_", 1) not in names)
    layout = Layout(target, root, mode, {n: 1 for n in names}, missing, {"08": settings},
                    f"SPIA's files, laid out for notebook 08 ({len(names)} files)",
                    {"source": str(root), "mode": mode, "kind": "spia"})
    _write_manifest(layout, "spia")
    return layout


def _write_manifest(layout: Layout, kind: str) -> None:
    record = {"kind": kind, "source": str(layout.source), "mode": layout.mode,
              "counts": layout.counts, "missing": list(layout.missing),
              "settings": layout.settings}
    (layout.root / MANIFEST).write_text(json.dumps(record, indent=1) + "\n")


def paper_settings(notebook: str, root: str | Path | None = None) -> dict[str, Any]:
    """The ``Config`` settings that run ``notebook`` on the laid-out data.

    Args:
        notebook: ``"01"``, ``"02"``, ``"03"``, ``"09"`` (the paper's data) or ``"08"``
            (SPIA's).
        root: the laid-out folder (default ``<home>/data/paper``, or ``/spia`` for 08).

    Returns:
        Keyword arguments for the study's ``Config`` (pairs as tuples).

    Raises:
        PrivlabValueError: nothing laid out there for that notebook; the message gives
            the command that lays it out.
    """
    from privlab.config import data_dir

    kind = "spia" if notebook == "08" else "paper"
    folder = Path(root).expanduser() if root is not None else data_dir() / kind
    manifest = folder / MANIFEST
    settings = (json.loads(manifest.read_text()).get("settings", {}).get(notebook)
                if manifest.is_file() else None)
    if settings is None:
        raise invalid("notebook", "paper_settings", f"a notebook laid out in {folder}",
                      notebook, f"Run: privlab data {kind} <your checkout of the "
                      f"{'SPIA' if kind == 'spia' else 'contrastive-privacy'} repository>")
    return {k: tuple(tuple(p) for p in v) if k.endswith("pairs") else v
            for k, v in settings.items()}


__all__ = ["Layout", "MODES", "NOTEBOOK_SETS", "PAPER_CONCEPTS", "PAPER_IMAGE_PAIRS",
           "PAPER_SETS", "PAPER_TEXT_PAIRS", "lay_out", "lay_out_spia", "paper_settings"]
