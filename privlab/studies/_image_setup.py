"""Building an image study's parts: galleries, members and sanitizers from a config."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from privlab.errors import invalid
from privlab.studies.params import Choice, param

CUE_PREFIX = "cues:"
#: Why a ``cues:`` sanitizer cannot run on a folder (one line, shown by the widgets too).
GROUND_TRUTH_REASON = ("'cues:' sanitizers black out the generated scenes' ground-truth cue "
                       "boxes; a folder of photos has no ground truth")
#: Registry sanitizers that need the logo gallery.
LOGO_SANITIZERS = ("logo-blackout",)
#: How to make a logo gallery (shown where one is missing).
LOGO_GALLERY_HOWTO = ("a folder with one sub-folder or one image per brand (<brand>/*.jpg or "
                      "<brand>.jpg: crops of the logo from photos that are not audited), or "
                      "{brand: [logo images]}")
#: The optional file in a logo gallery folder naming the crops' source photos and
#: background photos (paths relative to the folder; see :func:`logo_training`).
FINDER_FILE = "finder.json"


def folder_reason(spec: str) -> str | None:
    """Why sanitizer ``spec`` cannot run on a folder of photos (None when it can).

    Example:
        >>> folder_reason("face-blackout-yunet") is None, folder_reason("cues:every cue")[:9]
        (True, "'cues:' s")
    """
    return GROUND_TRUTH_REASON if str(spec).startswith(CUE_PREFIX) else None


def load_gallery(folder: str | Path, *, parameter: str = "gallery",
                 what: str = "face crops") -> dict[str, list[np.ndarray]]:
    """Named crops from a folder: ``<name>/*.jpg`` (several each) or ``<name>.jpg``.

    Args:
        folder: the gallery folder.
        parameter: the parameter named in errors (``"gallery"`` or ``"logos"``).
        what: what the crops show, for errors.

    Returns:
        ``{name: [RGB images]}``, names in sorted order.

    Raises:
        ValueError: not a folder, no image in it, or an unreadable file (named).
    """
    from privlab.datasets.images import IMAGE_SUFFIXES, read_image

    root = Path(folder)
    if not root.is_dir():
        raise invalid(parameter, "load_gallery", f"an existing folder of {what}", str(root),
                      given_is_text=True)
    gallery: dict[str, list[np.ndarray]] = {}
    for entry in sorted(p for p in root.iterdir() if not p.name.startswith(".")):
        if entry.is_dir():
            files = sorted(f for f in entry.iterdir() if f.is_file()
                           and f.suffix.lower() in IMAGE_SUFFIXES)
            if files:
                gallery[entry.name] = [read_image(f) for f in files]
        elif entry.suffix.lower() in IMAGE_SUFFIXES:
            gallery.setdefault(entry.stem, []).append(read_image(entry))
    if not gallery:
        raise invalid(parameter, "load_gallery", f"a folder with <name>/*.jpg or <name>.jpg "
                      f"{what}", f"{root} without images", given_is_text=True)
    return gallery


def resolve_logos(logos: Any, corpus: Any | None = None, default: Any = None
                  ) -> dict[str, list[np.ndarray]]:
    """The logo gallery a run uses: a loaded folder, a mapping, or ``default(corpus)``.

    Args:
        logos: a folder (one sub-folder or file stem per brand), ``{brand: [images]}``
            or None.
        corpus: the generated corpus (for ``default``).
        default: ``corpus -> gallery`` used when ``logos`` is None and a corpus is given.

    Returns:
        ``{brand: [RGB images]}`` (empty: no logo gallery).

    Raises:
        ValueError: an empty folder or entry (the message says how to make a gallery).

    Example:
        >>> from skimage import data
        >>> sorted(resolve_logos({"skimage": [data.logo()]})), resolve_logos(None)
        (['skimage'], {})
    """
    from privlab.vision.images import as_rgb

    if logos is None:
        return dict(default(corpus)) if default is not None and corpus is not None else {}
    if isinstance(logos, (str, Path)):
        gallery = load_gallery(logos, parameter="logos", what="logo crops")
        folders = _finder_spec(logos)[2]  # paths only: the photos are read by the fit
        return {k: v for k, v in gallery.items() if k not in folders}
    out = {}
    for brand, images in dict(logos).items():
        if (not isinstance(brand, str) or not brand.strip() or isinstance(images, np.ndarray)
                or not hasattr(images, "__len__") or not len(images)):
            raise invalid("logos", "resolve_logos", LOGO_GALLERY_HOWTO,
                          f"{brand!r}: {type(images).__name__}", given_is_text=True)
        out[brand] = [as_rgb(im, "logos", "resolve_logos") for im in images]
    return out


def logo_training(folder: str | Path) -> tuple[dict, list | None, set[str]]:
    """The crops' source photos and the background photos a logo gallery folder names.

    ``<folder>/finder.json`` (optional) is ``{"photos": [{"file": "photos/a.jpg",
    "brand": "acme", "boxes": [[x0, y0, x1, y1], ...]}], "backgrounds": ["backgrounds"]}``:
    photos the crops were cut from with the box of every mark in them, and photos (or
    folders of photos) without any gallery brand; none of them may be an audited photo.
    Paths are relative to the folder; the sub-folders they name are not brands. An
    optional ``"quantile"`` is the finder's threshold rule (``fit_logo_finder(quantile=)``,
    read by :func:`finder_options`).

    Returns:
        ``({brand: [(photo, boxes)]}, [background photos] or None, {sub-folders used})``.

    Raises:
        ValueError: an unreadable or malformed finder.json, or a missing file (named).
    """
    from privlab.datasets.images import read_image

    rows, background_files, used, _ = _finder_spec(folder)
    photos: dict[str, list] = {}
    for path, brand, boxes in rows:
        photos.setdefault(brand, []).append((read_image(path), boxes))
    backgrounds = None if background_files is None else [read_image(f) for f in background_files]
    return photos, backgrounds, used


def _finder_spec(folder: str | Path) -> tuple[list, list | None, set[str], float | None]:
    """What ``<folder>/finder.json`` names, checked, as paths (nothing read):
    ``([(photo path, brand, boxes)], [background paths] or None, {sub-folders used},
    quantile or None)``."""
    import json

    from privlab.datasets.images import IMAGE_SUFFIXES

    root = Path(folder)
    spec = root / FINDER_FILE
    if not spec.is_file():
        return [], None, set(), None
    where = str(spec)
    try:
        doc = json.loads(spec.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise invalid("logos", "logo_training", f"a readable JSON file {FINDER_FILE}", where,
                      f"Fix it ({exc}) or remove it.") from None
    if not isinstance(doc, dict) or set(doc) - {"photos", "backgrounds", "quantile"}:
        raise invalid("logos", "logo_training", f'{{"photos": [...], "backgrounds": [...], '
                      f'"quantile": q}} (each optional) in {FINDER_FILE}', where,
                      given_is_text=True)
    quantile = doc.get("quantile")
    if quantile is not None and (isinstance(quantile, bool) or not isinstance(
            quantile, (int, float)) or not 0 < quantile <= 1):
        raise invalid("logos", "logo_training", f'a "quantile" in (0, 1] in {where}', quantile,
                      "Remove it for the default (0.9), or raise it for fewer false finds.")
    rows: list = []
    used: set[str] = set()
    for row in doc.get("photos", []):
        if not isinstance(row, dict) or not {"file", "brand", "boxes"} <= set(row):
            raise invalid("logos", "logo_training", f'photos rows {{"file", "brand", "boxes"}} '
                          f"in {where}", row)
        path = root / row["file"]
        if not path.is_file():
            raise invalid("logos", "logo_training", f"existing photo files in {where}",
                          str(path), given_is_text=True, fix="Check the path (relative to "
                          "the gallery folder).")
        used.add(Path(row["file"]).parts[0])
        rows.append((path, row["brand"], row["boxes"]))
    backgrounds = None
    if "backgrounds" in doc:
        backgrounds = []
        for entry in doc["backgrounds"]:
            path = root / entry
            used.add(Path(entry).parts[0])
            files = sorted(f for f in path.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES) \
                if path.is_dir() else [path]
            for f in files:
                if not f.is_file():
                    raise invalid("logos", "logo_training", f"existing background photos in "
                                  f"{where}", str(f), given_is_text=True)
                backgrounds.append(f)
    return rows, backgrounds, used, quantile


def finder_options(folder: str | Path) -> dict[str, Any]:
    """The fit settings ``<folder>/finder.json`` gives (``{"quantile": q}`` or nothing).

    Example:
        >>> finder_options("no such folder")
        {}
    """
    quantile = _finder_spec(folder)[3]  # checked there: a bad one is named with its file
    return {} if quantile is None else {"quantile": float(quantile)}


def resolve_logo_finder(logos_setting: Any, logos: Mapping[str, Sequence[Any]],
                        corpus: Any | None = None):
    """The logo finder a run on photos uses (None on a generated corpus or without logos).

    On photos, a :class:`~privlab.vision.logo_finder.LogoFinder` fitted (and cached by
    content) on the gallery and what its ``finder.json`` names (:func:`logo_training`);
    generated scenes keep keypoint matching of the printed artwork.
    """
    if corpus is not None or not logos:
        return None
    from privlab.vision.logo_finder import fit_logo_finder

    photos, backgrounds, options = {}, None, {}
    if isinstance(logos_setting, (str, Path)):
        photos, backgrounds, _ = logo_training(logos_setting)
        options = finder_options(logos_setting)
    return fit_logo_finder(dict(logos), photos or None, backgrounds, **options)


def build_encoders(names: Sequence[str], gallery: Mapping[str, Sequence[Any]] | None,
                   logos: Mapping[str, Sequence[Any]] | None = None, logo_finder: Any = None
                   ) -> list:
    """Registry members by name; describe-then-embed gets the study's face and logo
    galleries (and the logo finder)."""
    from privlab.encoders import registry

    if isinstance(names, str) or not names:
        raise invalid("encoders", "build_encoders", "a non-empty list of registered names", names)
    out = []
    for name in names:
        if name == "describe-then-embed":
            out.append(registry.create(name, gallery=dict(gallery or {}),
                                       logos=dict(logos or {}) or None, logo_finder=logo_finder))
        else:
            out.append(registry.create(name))
    return out


def build_sanitizers(specs: Sequence[str], presets: Mapping[str, Sequence[str]],
                     corpus: Any | None, logos: Mapping[str, Sequence[Any]] | None = None,
                     logo_finder: Any = None) -> list:
    """Sanitizers from preset cue blackouts (``"cues:<preset>"``) and registry names; the
    logo sanitizers get ``logos`` (and, on photos, ``logo_finder``).

    Raises:
        ValueError: a cue preset without a generated corpus (with the reason), an
            unknown preset, or a logo sanitizer without a logo gallery.
    """
    from privlab.datasets.scene_cues import cue_blackout
    from privlab.sanitizers import registry

    if isinstance(specs, str) or not specs:
        raise invalid("sanitizers", "build_sanitizers", "a non-empty list of names", specs)
    out = []
    for spec in specs:
        if spec.startswith(CUE_PREFIX):
            key = spec[len(CUE_PREFIX):]
            if key not in presets:
                raise invalid("sanitizers", "build_sanitizers",
                              f"cue presets among {[CUE_PREFIX + k for k in presets]}", spec)
            if corpus is None:
                raise invalid("sanitizers", "build_sanitizers", "sanitizers usable on a folder "
                              "(cue presets need a generated corpus)", spec, GROUND_TRUTH_REASON
                              + ".")
            out.append(cue_blackout(corpus, list(presets[key]), name=spec))
        elif spec in LOGO_SANITIZERS:
            if not logos:
                raise invalid("logos", "build_sanitizers", f"a logo gallery for {spec!r}", None,
                              f"Pass logos= {LOGO_GALLERY_HOWTO}.")
            # Real photos (no generated corpus): the fitted finder, which finds logos on
            # signs; generated scenes print the artwork itself, which keypoints match.
            out.append(registry.create(spec, logos=dict(logos), finder=logo_finder,
                                       method="sift" if corpus is not None else "features"))
        else:
            out.append(registry.create(spec))
    return out


def resolve_gallery(gallery: Any, corpus: Any | None) -> dict:
    """The face gallery a run uses: a loaded folder, a dict, or the corpus's own faces."""
    if gallery is None:
        return dict(corpus.gallery) if corpus is not None else {}
    if isinstance(gallery, (str, Path)):
        return load_gallery(gallery)
    return dict(gallery)


def _folder_unavailable(name: str, settings: Mapping[str, Any]) -> str | None:
    """Why a sanitizer cannot run on the corpus ``settings`` name (None: it can)."""
    return folder_reason(name) if settings.get("data") else None


def sanitizers_param(presets: Mapping[str, Any]) -> Any:
    """An image study's ``sanitizers`` field: its ``cues:`` presets (ground truth of the
    generated scenes, greyed out for a folder of photos), then every registered image
    sanitizer; none ticked means the study's defaults for the corpus."""
    def cues() -> list[Choice]:
        return [Choice(CUE_PREFIX + k, "blacks out the generated scenes' seeded cues")
                for k in presets]

    return param(None, family="sanitizer", filters={"modality": "image"}, extra=cues,
                 unavailable=_folder_unavailable)


def members_param(default: tuple[str, ...]) -> Any:
    """An image study's ``encoders`` field: registered image members, several at once."""
    return param(default, label="Members", family="encoder", filters={"modality": "image"})


__all__ = ["CUE_PREFIX", "FINDER_FILE", "GROUND_TRUTH_REASON", "LOGO_GALLERY_HOWTO",
           "LOGO_SANITIZERS", "build_encoders", "build_sanitizers", "finder_options",
           "folder_reason", "load_gallery", "logo_training", "members_param", "resolve_gallery",
           "resolve_logo_finder", "resolve_logos", "sanitizers_param"]
