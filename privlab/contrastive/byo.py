"""Bring your own: ``privlab.audit`` on your texts or images, your sanitizer or its
outputs, and your encoders, in three lines::

    import privlab
    a = privlab.audit(texts, lambda t: t.replace("Marie Curie", "[NAME]"), encoders=["minilm"])
    print(a.headline()); a.report("audit.html")

Originals and sanitized outputs may be lists, a folder of images, a ``.txt`` file (one
text per line) or a ``.jsonl`` file (a string, or an object with a ``"text"`` field, per
line). The sanitizer may be any callable or a privlab Sanitizer; the encoders registry
names, Encoder objects, models or callables (:func:`privlab.encoders.wrap.as_encoders`).
The audit is the engine's, :func:`privlab.contrastive.auditing.audit`, with its placebo
control on by default; the result is its :class:`~privlab.contrastive.auditing.ContrastiveAudit`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from privlab.contrastive.auditing import ContrastiveAudit
from privlab.contrastive.auditing import audit as engine_audit
from privlab.errors import invalid, wrong_type
from privlab.io import read_jsonl, walk_folder

#: The verb's name in error messages.
CALLER = "privlab.audit"

#: Image files a folder is read for.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".gif", ".tif", ".tiff")

#: Encoders used when none is named, by the items' kind (both run offline).
DEFAULT_ENCODERS = {"text": ("minilm",), "image": ("efficientnet-lite0",)}


def _text_lines(path: Path, parameter: str, caller: str) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise invalid(parameter, caller, "a UTF-8 text file", f"{path}: {exc.reason} at byte "
                      f"{exc.start}", "Save the file as UTF-8.", given_is_text=True) from exc
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip("\r") for line in lines]


def _jsonl_texts(path: Path, parameter: str, caller: str) -> list[str]:
    out = []
    for number, record in read_jsonl(path, caller, parameter):
        if isinstance(record, dict) and isinstance(record.get("text"), str):
            out.append(record["text"])
        elif isinstance(record, str):
            out.append(record)
        else:
            shown = sorted(record) if isinstance(record, dict) else type(record).__name__
            raise invalid(parameter, caller, "JSON lines holding a string or an object with "
                          "a 'text' string", f"{path.name} line {number}: {shown}",
                          "Write one {\"text\": ...} object per line.", given_is_text=True)
    return out


def _folder_images(path: Path, parameter: str, caller: str) -> tuple[list, list[str]]:
    from PIL import Image

    from privlab.vision.images import read_image

    files, _ = walk_folder(path, recursive=False, caller=caller, parameter=parameter,
                           accept=lambda p: None if p.suffix.lower() in IMAGE_SUFFIXES
                           and not p.name.startswith(".") else "not an image file")
    if not files:
        raise invalid(parameter, caller, "a folder holding image files (" + ", ".join(
            IMAGE_SUFFIXES) + ")", f"{path} (no image file)", "Point it at the folder "
            "of images, or pass a .txt or .jsonl file of texts.", given_is_text=True)
    return [Image.fromarray(read_image(f)) for f in files], [f.name for f in files]


def read_items(value: Any, parameter: str = "originals", caller: str = CALLER
               ) -> tuple[list, list[str] | None]:
    """Items from a list, a folder of images, a ``.txt`` or a ``.jsonl`` file.

    Args:
        value: a list (or tuple) of texts or images, or a path.
        parameter: how errors name ``value``.
        caller: the public function errors name.

    Returns:
        ``(items, file names)``: the names of a folder's images in the order read (by
        name), else None. Folder images are PIL RGB images.

    Raises:
        PrivlabValueError: a missing path, an unknown file kind, an empty list or file.
        PrivlabTypeError: something else than a list or a path.

    Example:
        >>> read_items(["a", "b"])
        (['a', 'b'], None)
    """
    names = None
    if isinstance(value, (str, Path)):
        path = Path(value).expanduser()
        if path.is_dir():
            items, names = _folder_images(path, parameter, caller)
        elif not path.is_file():
            raise invalid(parameter, caller, "a list, a folder of images or a .txt/.jsonl "
                          "file", str(value), "No such file or folder; check the path (a "
                          "single text goes in a list: [text]).", given_is_text=True)
        elif path.suffix.lower() == ".jsonl":
            items = _jsonl_texts(path, parameter, caller)
        elif path.suffix.lower() in (".txt", ".text"):
            items = _text_lines(path, parameter, caller)
        else:
            raise invalid(parameter, caller, "a folder of images, a .txt file (one text per "
                          "line) or a .jsonl file", path.name, given_is_text=True)
    elif isinstance(value, (list, tuple)):
        items = list(value)
    elif hasattr(value, "__len__") and hasattr(value, "__getitem__") and not isinstance(
            value, (bytes, dict)):
        items = list(value)
    else:
        raise wrong_type(parameter, caller, "a list, a folder of images or a .txt/.jsonl file",
                         value)
    if not items:
        raise invalid(parameter, caller, "at least one item", f"an empty {type(value).__name__}"
                      if not isinstance(value, (str, Path)) else f"{value} (empty)",
                      given_is_text=True)
    return items, names


def _check_paired(names: list[str] | None, sanitized_names: list[str] | None) -> None:
    if names is None or sanitized_names is None:
        return
    stems = [Path(n).stem for n in names]
    others = [Path(n).stem for n in sanitized_names]
    if stems != others:
        missing = sorted(set(stems) - set(others))[:3]
        extra = sorted(set(others) - set(stems))[:3]
        raise invalid("sanitized", CALLER, "a folder with one image per original, of the same "
                      "name", f"{len(others)} images (missing {missing}, not in the originals "
                      f"{extra})", "Each sanitized image is paired with the original of the "
                      "same file name (any image suffix).", given_is_text=True)


def audit(originals: Any, sanitize: Any = None, *, sanitized: Any = None,
          encoders: Any = None, name: str | None = None, names: Sequence[str] | None = None,
          placebo: Any = True, references: Any = None, top_k: int = 5,
          progress: bool = False) -> ContrastiveAudit:
    """Audit your sanitizer (or its outputs) on your items under your encoders.

    Args:
        originals: texts or images: a list, a folder of images, a ``.txt`` file (one text
            per line) or a ``.jsonl`` file.
        sanitize: the sanitizer: any callable (str -> str, image -> image) or a privlab
            Sanitizer. Leave it out when you pass ``sanitized``.
        sanitized: the sanitizer's outputs, row for row (same forms as ``originals``; a
            folder is paired with the originals' folder by file name).
        encoders: registry names (``"minilm"``, ``"sface"`` ...), Encoder objects, a
            sentence-transformers model, an open_clip ``(model, preprocess)`` pair, any
            callable items -> ``(n, d)`` array, a list of these, or a dict
            ``{name: encoder}``; default ``minilm`` for texts, ``efficientnet-lite0``
            for images. Members are named by the names given.
        name: the sanitizer's name in the result (default the function's ``__name__``).
        names: the target's names (texts), for the exact-name baseline.
        placebo: the control: True (the same marks where no cue is), a placebo
            Sanitizer, or False for none.
        references: other items to test against (default: each original against the
            others).
        top_k: how many top trials to keep as witnesses.
        progress: show progress bars.

    Returns:
        A :class:`~privlab.contrastive.auditing.ContrastiveAudit`: ``headline()``,
        ``to_frame()``, ``member(name)``, ``face_witnesses()``, ``report(path)``.

    Raises:
        PrivlabValueError, PrivlabTypeError: one message naming the parameter and the fix.

    Example:
        >>> a = audit(["Ken Lay met the board", "the board met Ken Lay", "lunch at noon"],
        ...           lambda t: t.replace("Ken Lay", "[NAME]"), encoders=["lexical"])
        >>> a.member("lexical").label, a.name
        ('lexical', 'lambda')
    """
    items, item_names = read_items(originals, "originals")
    if sanitize is None and sanitized is None:
        raise invalid("sanitize", CALLER, "a function (or Sanitizer) when sanitized= is not "
                      "given", None, "Pass sanitize=my_function, or the outputs as "
                      "sanitized=[...].")
    if sanitize is not None and sanitized is not None:
        raise invalid("sanitized", CALLER, "left out when sanitize is given", "both",
                      "Pass either the function or its outputs.", given_is_text=True)
    modality = "text" if isinstance(items[0], str) else "image"
    outputs = None
    if sanitized is not None:
        outputs, output_names = read_items(sanitized, "sanitized")
        _check_paired(item_names, output_names)
        if len(outputs) != len(items):
            raise invalid("sanitized", CALLER, f"one item per original ({len(items)})",
                          f"{len(outputs)} items", "Pass the outputs row for row, in the "
                          "originals' order.", given_is_text=True)
    sanitizer = None
    if sanitize is not None:
        from privlab.sanitizers.function import as_sanitizer

        sanitizer = as_sanitizer(sanitize, modality=modality, name=name, parameter="sanitize",
                                 caller=CALLER)
    refs = None if references is None else read_items(references, "references")[0]
    from privlab.encoders.wrap import as_encoders

    members = dict(as_encoders(DEFAULT_ENCODERS[modality] if encoders is None else encoders,
                               modality=modality, parameter="encoders", caller=CALLER))
    result = engine_audit(items, sanitizer, sanitized=outputs, encoders=members,
                          references=refs, names=names, top_k=top_k, progress=progress,
                          placebo=placebo)
    label = name or (Path(sanitized).name if isinstance(sanitized, (str, Path)) else None)
    if sanitizer is None and label:
        import dataclasses

        result = dataclasses.replace(result, sanitizer={**result.sanitizer, "sanitizer": label})
    return result


__all__ = ["CALLER", "DEFAULT_ENCODERS", "IMAGE_SUFFIXES", "audit", "read_items"]
