"""Logo galleries: brand name -> crops of its mark, read once from a folder or a mapping.

:func:`load_logo_gallery` reads and checks a gallery; :class:`LogoGallery` holds it with
a fingerprint of its pixels (what caches of the logo finders are keyed by). The finders
are in :mod:`privlab.vision.logos`, which also exports these names.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from privlab.errors import invalid, wrong_type
from privlab.hashing import content_hash
from privlab.vision.images import as_rgb


class LogoGallery(Mapping):
    """Brand name -> logo crops (uint8 RGB arrays), as :func:`load_logo_gallery` reads them.

    A read-only mapping, so it goes wherever a ``{brand: [images]}`` dict goes (the
    sanitizer, the describe-then-embed member, :func:`match_logos`).

    Attributes:
        source: where the crops came from (a folder path, or ``"mapping"``).
        fingerprint: a 16-hex-digit hash of the brand names and the crops' pixels (the
            same crops give the same fingerprint wherever they are loaded from).

    Example:
        >>> g = load_logo_gallery({"acme": [np.zeros((20, 30, 3), np.uint8)]})
        >>> list(g), g["acme"][0].shape, len(g.fingerprint)
        (['acme'], (20, 30, 3), 16)
    """

    def __init__(self, crops: Mapping[str, Sequence[np.ndarray]], source: str = "mapping"):
        self._crops = {name: tuple(images) for name, images in crops.items()}
        self.source = source
        from privlab.hashing import bytes_hash

        self.fingerprint = bytes_hash(b"".join(
            name.encode() + b"".join(content_hash(img).encode() for img in self._crops[name])
            for name in sorted(self._crops)), 16)

    def __getitem__(self, name: str) -> tuple[np.ndarray, ...]:
        return self._crops[name]

    def __iter__(self):
        return iter(self._crops)

    def __len__(self) -> int:
        return len(self._crops)

    def __repr__(self) -> str:
        counts = ", ".join(f"{name}: {len(v)}" for name, v in self._crops.items())
        return f"LogoGallery({{{counts}}}, source={self.source!r})"

    def describe(self) -> dict[str, Any]:
        """Brands, crop counts, source and fingerprint (for a result's settings)."""
        return {"brands": {name: len(v) for name, v in self._crops.items()},
                "source": self.source, "fingerprint": self.fingerprint}


def _image_files(folder: Path) -> list[Path]:
    from privlab.vision.images import IMAGE_SUFFIXES

    return sorted(p for p in folder.iterdir()
                  if p.is_file() and not p.name.startswith(".") and p.suffix.lower() in IMAGE_SUFFIXES)


def load_logo_gallery(source: Any) -> LogoGallery:
    """A logo gallery from a folder of crops or a ``{brand: [images or paths]}`` mapping.

    Make the crops from photos that are not audited (a crop of the mark from another
    photo of the brand, or its artwork): a crop from an audited photo finds that photo's
    logo by construction.

    Args:
        source: one of
            - a folder: each sub-folder is a brand (its name) holding that brand's crops,
              and each image file directly in the folder is a brand of its own (its file
              stem), e.g. ``logos/mcdonalds/a.png, logos/mcdonalds/b.jpg, logos/acme.png``;
            - a mapping ``{brand: [PIL images, uint8 arrays or image paths]}``;
            - a :class:`LogoGallery` (returned as it is).

    Returns:
        A :class:`LogoGallery`.

    Raises:
        ValueError: a missing folder, a folder without images, an empty brand, an
            unreadable image file (named) or a bad array.
        TypeError: ``source`` is none of the above.

    Example:
        >>> g = load_logo_gallery({"acme": [np.full((40, 40, 3), 200, np.uint8)]})
        >>> g["acme"][0].shape
        (40, 40, 3)
    """
    from pathlib import Path

    caller = "load_logo_gallery"
    if isinstance(source, LogoGallery):
        return source
    if isinstance(source, (str, Path)):
        from privlab.vision.images import read_image

        folder = Path(source).expanduser()
        if not folder.is_dir():
            raise invalid("source", caller, "a folder of logo crops (one sub-folder or file "
                          "stem per brand) or a mapping {brand: [images]}", str(source),
                          "Check the path.")
        crops: dict[str, list[np.ndarray]] = {}
        for sub in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
            files = _image_files(sub)
            if files:
                crops[sub.name] = [read_image(f) for f in files]
        for f in _image_files(folder):
            crops.setdefault(f.stem, []).append(read_image(f))
        if not crops:
            raise invalid("source", caller, "a folder holding logo crops (image files, or "
                          "sub-folders of them, one per brand)",
                          f"no image in {folder}", given_is_text=True,
                          fix="Put a crop of each brand's mark in the folder, e.g. "
                              "logos/acme/1.png.")
        return LogoGallery(crops, source=str(folder))
    if isinstance(source, Mapping):
        out: dict[str, list[np.ndarray]] = {}
        for name, items in source.items():
            if not isinstance(name, str) or not name.strip():
                raise invalid("source", caller, "keyed by non-empty brand names", name)
            if isinstance(items, (np.ndarray, str, Path)) or hasattr(items, "convert") \
                    or not hasattr(items, "__len__") or len(items) == 0:
                raise invalid("source", caller, "a mapping of brand -> non-empty list of "
                              "images or image paths", f"{type(items).__name__} for {name!r}",
                              given_is_text=True,
                              fix=f"Wrap a single crop in a list: {{{name!r}: [crop]}}.")
            images = []
            for item in items:
                if isinstance(item, (str, Path)):
                    from privlab.vision.images import read_image

                    images.append(read_image(item))
                else:
                    images.append(as_rgb(item, "source", caller))
            out[name] = images
        if not out:
            raise invalid("source", caller, "a non-empty mapping {brand: [images]}", source)
        return LogoGallery(out)
    raise wrong_type("source", caller, "a folder path, a mapping {brand: [images or paths]} "
                     "or a LogoGallery", source)


__all__ = ["LogoGallery", "load_logo_gallery"]
