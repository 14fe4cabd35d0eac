"""Real photos: a folder loader and a Wikimedia Commons downloader (for users online).

:func:`load_folder` reads a folder's images upright and as RGB, names every damaged file in
its error and lists what it passes over; :func:`download_commons` saves files with their
licences. Details: ``docs/methods/data-loaders.md``.
"""

from __future__ import annotations

import csv
import json
import re
import urllib.parse
import urllib.request
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from privlab.errors import invalid, item_list
from privlab.hashing import bytes_hash
from privlab.io import describe_skipped, walk_folder
from privlab.vision.images import (DEFAULT_MAX_PIXELS, IMAGE_SUFFIXES,  # noqa: F401
                                   check_max_pixels, check_path_and_side, read_image)

COMMONS_API = "https://commons.wikimedia.org/w/api.php"


@dataclass
class ImageFolder:
    """Images read from a folder.

    Attributes:
        images: ``(H, W, 3)`` uint8 RGB arrays, in file-name order.
        names: the file names.
        root: the folder.
        provenance: folder, count, ``max_side``, a hash of the pixels and what was
            passed over.
        skipped: one ``{"file", "reason"}`` per entry passed over (a hidden file, a
            dangling link, a FIFO, an unlistable sub-folder, frames after the first ...).
    """

    images: list[np.ndarray] = field(repr=False)
    names: list[str]
    root: str
    provenance: dict = field(default_factory=dict)
    skipped: list[dict] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.images)


def _folder_entry(path: Path) -> str | None:
    """Why :func:`load_folder` passes over a file (None: it is read)."""
    if path.name.startswith("."):
        return _HIDDEN
    if path.name == "image_licenses.csv":
        return _LICENCES
    return None


_HIDDEN = "a hidden file"
_LICENCES = "the licence list written by download_commons"


def load_folder(folder: str | Path, *, max_side: int | None = 1024, recursive: bool = False,
                max_pixels: int | None = DEFAULT_MAX_PIXELS) -> ImageFolder:
    """Every image in a folder, in name order (EXIF orientation, RGBA, CMYK, greyscale handled).

    A damaged photo stops the load (every bad file named at once) rather than being
    skipped. Entries that are not images to read (hidden files, ``image_licenses.csv``,
    dangling links, special files, sub-folders when not ``recursive``, frames after the
    first) are listed in ``skipped`` and ``provenance["skipped"]`` and, but for hidden
    files and the licence list, named in a warning.

    Args:
        folder: the folder.
        max_side: downscale longer sides to this many pixels (None keeps the size).
        recursive: include sub-folders.
        max_pixels: refuse images with more pixels than this (None: no limit).

    Returns:
        An :class:`ImageFolder`.

    Raises:
        ValueError: the folder does not exist or holds no image, or some files are not
            readable, undamaged images of at most ``max_pixels`` (every such file is
            named with its reason).
    """
    check_max_pixels(max_pixels, "load_folder")
    if max_side is not None:
        check_path_and_side(folder, max_side, "load_folder")
    root = Path(folder)
    paths, skipped = walk_folder(root, recursive=recursive, accept=_folder_entry,
                                 caller="load_folder")
    images, names, bad, notes = [], [], [], []
    for p in paths:
        try:
            images.append(read_image(p, max_side, max_pixels=max_pixels, notes=notes))
            names.append(str(p.relative_to(root)))
        except ValueError as exc:
            reason = getattr(exc, "reason", None) or str(exc.__cause__ or exc)
            bad.append(f"{p.relative_to(root)} ({reason[:160]})")
    if bad:
        raise invalid("folder", "load_folder", "a folder of readable, undamaged images",
                      f"{len(bad)} unreadable file(s): {'; '.join(bad)}",
                      "Remove, re-copy or convert these files (or raise max_pixels for a "
                      "trusted large image); the other images were read fine.",
                      given_is_text=True)
    if not images:
        raise invalid("folder", "load_folder", "a folder with at least one image", str(root),
                      given_is_text=True)
    for note in notes:
        note["file"] = Path(note["file"]).relative_to(root).as_posix()
    skipped = sorted(skipped + notes, key=lambda s: s["file"])
    shown = [s for s in skipped if s["reason"] not in (_HIDDEN, _LICENCES)]
    if shown:
        warnings.warn(f"load_folder: {len(shown)} entr{'y' if len(shown) == 1 else 'ies'} of "
                      f"{root} passed over ({describe_skipped(shown)}); all are listed in "
                      "ImageFolder.skipped.", UserWarning, stacklevel=2)
    pixels = bytes_hash(b"".join(arr.tobytes() for arr in images), 16)
    return ImageFolder(images, names, str(root), {"folder": str(root), "n": len(images),
                                                  "max_side": max_side, "pixels_sha256": pixels,
                                                  "skipped": [dict(s) for s in skipped]},
                       skipped)


def _get_json(url: str, params: dict, timeout: float) -> dict:
    query = urllib.parse.urlencode({**params, "format": "json", "formatversion": "2"})
    request = urllib.request.Request(f"{url}?{query}", headers={"User-Agent": "privlab/0.1"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read().decode("utf-8"))


def _strip_html(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text or "")).strip()


def _safe_name(title: str) -> str:
    name = title.split(":", 1)[-1]
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)[:150]


def download_commons(out_dir: str | Path, *, titles: Sequence[str] | None = None,
                     category: str | None = None, limit: int = 50, width: int | None = 1024,
                     api_url: str = COMMONS_API, timeout: float = 30.0) -> Path:
    """Download Wikimedia Commons files with their licences (needs the network).

    Args:
        out_dir: where to save the files and ``image_licenses.csv``.
        titles: file titles, e.g. ``["File:Example.jpg"]``.
        category: a category name (``"Category:..."``; the prefix is added if missing).
        limit: at most this many files from the category.
        width: ask for a scaled rendition this wide (None for the original).
        api_url: the MediaWiki API endpoint.
        timeout: seconds per request.

    Returns:
        The path of ``image_licenses.csv`` (columns title, file, author, licence, source_url).

    Raises:
        ValueError: neither or both of ``titles`` and ``category``, or nothing found.
    """
    if (titles is None) == (category is None):
        raise invalid("titles", "download_commons", "given, or category given (exactly one)",
                      "both or neither", given_is_text=True)
    if titles is not None:
        titles = item_list(titles, "titles", "download_commons")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if category is not None:
        cat = category if category.startswith("Category:") else f"Category:{category}"
        answer = _get_json(api_url, {"action": "query", "list": "categorymembers",
                                     "cmtitle": cat, "cmtype": "file", "cmlimit": int(limit)},
                           timeout)
        titles = [m["title"] for m in answer.get("query", {}).get("categorymembers", [])]
    titles = [t if t.startswith("File:") else f"File:{t}" for t in titles or []]
    if not titles:
        raise invalid("category", "download_commons", "a category with files", category)
    rows = []
    for start in range(0, len(titles), 50):
        params = {"action": "query", "titles": "|".join(titles[start:start + 50]),
                  "prop": "imageinfo", "iiprop": "url|extmetadata"}
        if width:
            params["iiurlwidth"] = int(width)
        pages = _get_json(api_url, params, timeout).get("query", {}).get("pages", [])
        for page in pages:
            info = (page.get("imageinfo") or [None])[0]
            if not info:
                continue
            meta = info.get("extmetadata", {})
            url = info.get("thumburl") or info["url"]
            name = _safe_name(page["title"])
            request = urllib.request.Request(url, headers={"User-Agent": "privlab/0.1"})
            with urllib.request.urlopen(request, timeout=timeout) as response:
                (out / name).write_bytes(response.read())
            rows.append({"title": page["title"], "file": name,
                         "author": _strip_html(meta.get("Artist", {}).get("value", "")),
                         "licence": _strip_html(meta.get("LicenseShortName", {}).get("value", "")),
                         "source_url": info.get("descriptionurl", info["url"])})
    path = out / "image_licenses.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=["title", "file", "author", "licence", "source_url"])
        writer.writeheader()
        writer.writerows(rows)
    return path


__all__ = ["ImageFolder", "download_commons", "load_folder", "read_image"]
