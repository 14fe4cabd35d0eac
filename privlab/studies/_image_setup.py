"""Building an image study's parts: galleries, members and sanitizers from a config.

Face and logo galleries are folders (one sub-folder or file stem per name) or mappings;
members get the galleries they read (describe-then-embed the faces and the logos), and
sanitizers are ground-truth cue blackouts (``"cues:<preset>"``, generated corpora only)
or registry names, the logo sanitizers with the logo gallery.
"""

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
        return load_gallery(logos, parameter="logos", what="logo crops")
    out = {}
    for brand, images in dict(logos).items():
        if (not isinstance(brand, str) or not brand.strip() or isinstance(images, np.ndarray)
                or not hasattr(images, "__len__") or not len(images)):
            raise invalid("logos", "resolve_logos", LOGO_GALLERY_HOWTO,
                          f"{brand!r}: {type(images).__name__}", given_is_text=True)
        out[brand] = [as_rgb(im, "logos", "resolve_logos") for im in images]
    return out


def build_encoders(names: Sequence[str], gallery: Mapping[str, Sequence[Any]] | None,
                   logos: Mapping[str, Sequence[Any]] | None = None) -> list:
    """Registry members by name; describe-then-embed gets the study's face and logo galleries."""
    from privlab.encoders import registry

    if isinstance(names, str) or not names:
        raise invalid("encoders", "build_encoders", "a non-empty list of registered names", names)
    out = []
    for name in names:
        if name == "describe-then-embed":
            out.append(registry.create(name, gallery=dict(gallery or {}),
                                       logos=dict(logos or {}) or None))
        else:
            out.append(registry.create(name))
    return out


def build_sanitizers(specs: Sequence[str], presets: Mapping[str, Sequence[str]],
                     corpus: Any | None, logos: Mapping[str, Sequence[Any]] | None = None) -> list:
    """Sanitizers from preset cue blackouts (``"cues:<preset>"``) and registry names; the
    logo sanitizers get ``logos``.

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
            # Real photos (no generated corpus): the learned finder, which finds logos on
            # signs; generated scenes print the artwork itself, which keypoints match.
            out.append(registry.create(spec, logos=dict(logos),
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


__all__ = ["CUE_PREFIX", "GROUND_TRUTH_REASON", "LOGO_GALLERY_HOWTO", "LOGO_SANITIZERS",
           "build_encoders", "build_sanitizers", "folder_reason", "load_gallery",
           "members_param", "resolve_gallery", "resolve_logos", "sanitizers_param"]
