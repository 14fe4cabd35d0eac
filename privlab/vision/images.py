"""Image inputs: every detector, reader and image member takes PIL images or uint8 arrays.

:func:`as_rgb` turns either into the one form the detectors work on, an ``(H, W, 3)``
uint8 RGB array. :func:`open_image_file` decodes a file whole and refuses what Pillow
would let through: an image over ``max_pixels`` (named with its size, before any pixel
is decoded), a PNG whose checksums fail, and a JPEG whose decoder reports corrupt data
(Pillow's JPEG decoder drops libjpeg's warnings, so the file is decoded once more by
OpenCV's libjpeg, whose warnings are read).
"""

from __future__ import annotations

import re
import threading
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from privlab.errors import PrivlabValueError, invalid, wrong_type

# Pillow's own refusal point (twice Image.MAX_IMAGE_PIXELS): about 179 megapixels.
DEFAULT_MAX_PIXELS = 178_956_970

# libjpeg's warnings that mean the pixels are damaged (JWRN_* messages); stray bytes
# between segments ("extraneous bytes before marker") leave the pixels intact.
_JPEG_DAMAGE = re.compile(rb"premature end of data segment|bad Huffman code|"
                          rb"Premature end of JPEG file|Invalid SOS parameters|"
                          rb"Inconsistent progression sequence|Corrupt JPEG data: found marker")
_PIL_LIMIT_LOCK = threading.Lock()


class UnreadableImageError(PrivlabValueError):
    """An image file that cannot be decoded whole.

    Attributes:
        path: the file.
        reason: what is wrong, in a few words (for listing several files at once).
    """

    def __init__(self, message: str, path: str, reason: str):
        super().__init__(message)
        self.path = path
        self.reason = reason


def unreadable(path: str | Path, reason: str, caller: str, fix: str | None = None
               ) -> UnreadableImageError:
    """Build (not raise) the error for an image file that cannot be decoded whole."""
    explanation = f"{reason[:1].upper()}{reason[1:]}. "
    message = str(invalid("path", caller, "a readable, undamaged image file", str(path),
                          explanation + (fix or "Re-copy or re-download the file, or remove it."),
                          given_is_text=True))
    return UnreadableImageError(message, str(path), reason)


def check_max_pixels(max_pixels: Any, caller: str) -> None:
    """Refuse a ``max_pixels`` that is neither None nor a positive int."""
    if max_pixels is not None and (not isinstance(max_pixels, (int, np.integer))
                                   or isinstance(max_pixels, bool) or max_pixels < 1):
        raise invalid("max_pixels", caller, "a positive int or None (no limit)", max_pixels)


def _open_header(handle):
    """``Image.open`` (reads the header only), with Pillow's own pixel limit lifted."""
    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # max_pixels rules
        try:
            return Image.open(handle)
        except Image.DecompressionBombError:
            handle.seek(0)
        # Pillow's limit is a module global: lift it for this one header read only.
        with _PIL_LIMIT_LOCK:
            saved, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None
            try:
                return Image.open(handle)
            finally:
                Image.MAX_IMAGE_PIXELS = saved


def jpeg_warnings(data: bytes) -> list[str]:
    """libjpeg's damage warnings for a JPEG stream, e.g. ``premature end of data segment``.

    libjpeg only warns about damaged entropy-coded data and Pillow's decoder discards the
    warning, so the stream is decoded again in libjpeg-turbo's strict mode, which turns
    every warning into an error.

    Returns:
        The warnings (empty for an undamaged stream).

    Example:
        >>> import io
        >>> from PIL import Image
        >>> buffer = io.BytesIO()
        >>> Image.new("RGB", (16, 16), "red").save(buffer, "JPEG")
        >>> jpeg_warnings(buffer.getvalue())
        []
    """
    import simplejpeg

    try:
        simplejpeg.decode_jpeg(data, strict=True, colorspace="GRAY", min_factor=8)
    except ValueError as exc:
        message = str(exc).strip()
        return [message] if _JPEG_DAMAGE.search(message.encode()) else []
    return []


def open_image_file(path: str | Path, *, max_pixels: int | None = DEFAULT_MAX_PIXELS,
                    caller: str = "open_image_file"):
    """A file decoded whole as a PIL image, refusing oversized and damaged files.

    Args:
        path: the image file.
        max_pixels: refuse images with more pixels than this, before decoding them
            (None: no limit). Raise it for a trusted huge scan or panorama.
        caller: the public function named in errors.

    Returns:
        The loaded PIL image (its file already closed; a multi-frame file's first frame,
        with the number of frames or pages in ``image.info["n_frames"]``).

    Raises:
        UnreadableImageError: a ValueError naming the file and why: too many pixels
            (with the size and the ``max_pixels`` to pass), not an image, truncated,
            or damaged.
        PrivlabValueError: ``max_pixels`` is not a positive int or None.
    """
    from PIL import Image

    check_max_pixels(max_pixels, caller)
    path = Path(path)
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise unreadable(path, f"it cannot be opened ({type(exc).__name__}: {exc})", caller,
                         "Check the path.") from exc
    with handle:
        try:
            image = _open_header(handle)
        except (OSError, SyntaxError, ValueError) as exc:  # UnidentifiedImageError: an OSError
            raise unreadable(path, f"it is not an image Pillow can open ({type(exc).__name__}: "
                             f"{exc})", caller, "Convert it to PNG or JPEG, or remove it.") from exc
        width, height = image.size
        if max_pixels is not None and width * height > max_pixels:
            raise unreadable(
                path, f"it is {width} x {height} = {width * height:,} pixels, over "
                f"max_pixels={max_pixels:,}", caller,
                f"If you trust the file, pass max_pixels={width * height} or more (None lifts "
                "the limit); the limit guards against decompression bombs.")
        try:
            # Counted while the file is open (frames of a GIF/APNG/WebP, pages of a TIFF),
            # so that a reader of the first one can say how many it left out.
            image.info["n_frames"] = int(getattr(image, "n_frames", 1) or 1)
            if image.info["n_frames"] > 1:
                image.seek(0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                image.load()
            if image.format == "PNG":
                handle.seek(0)
                _open_header(handle).verify()  # every chunk's checksum
        except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
            raise unreadable(path, f"it is truncated or damaged ({type(exc).__name__}: {exc})",
                             caller) from exc
        if image.format in ("JPEG", "MPO"):
            handle.seek(0)
            damage = jpeg_warnings(handle.read())
            if damage:
                raise unreadable(path, "the JPEG decoder reports damage "
                                 f"({'; '.join(damage[:3])})", caller)
    return image


def as_rgb(item: Any, parameter: str = "image", caller: str = "as_rgb") -> np.ndarray:
    """An ``(H, W, 3)`` uint8 RGB array from a PIL image or a uint8 array.

    Greyscale (``HxW`` or ``HxWx1``) is repeated to three channels; RGBA is composited
    on white (a transparent background reads as paper, not as black).

    Args:
        item: PIL image (any mode) or uint8 array ``HxW``, ``HxWx1``, ``HxWx3``, ``HxWx4``.
        parameter: name used in error messages.
        caller: function named in error messages.

    Returns:
        C-contiguous uint8 array ``(H, W, 3)``.

    Raises:
        TypeError: not an image or array.
        ValueError: wrong dtype or shape.

    Example:
        >>> as_rgb(np.zeros((4, 5), dtype=np.uint8)).shape
        (4, 5, 3)
    """
    if hasattr(item, "mode") and hasattr(item, "convert"):
        # a tRNS colour key (RGB, L or P with "transparency", as pngcrush and optipng write
        # binary alpha) is transparency too: composited on white like an alpha channel
        if item.mode in ("RGBA", "LA", "PA") or (
                item.mode in ("P", "RGB", "L", "I", "I;16") and "transparency" in item.info):
            from PIL import Image

            rgba = item.convert("RGBA")
            white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
            item = Image.alpha_composite(white, rgba)
        return np.ascontiguousarray(np.asarray(item.convert("RGB")))
    if not isinstance(item, np.ndarray):
        raise wrong_type(parameter, caller, "a PIL image or a uint8 array (H, W[, C])", item)
    if item.dtype != np.uint8:
        raise invalid(parameter, caller, "of dtype uint8", f"dtype {item.dtype}",
                      "Convert with (array * 255).clip(0, 255).astype('uint8') if it is in [0, 1].",
                      given_is_text=True)
    if item.ndim == 2:
        return np.ascontiguousarray(np.repeat(item[:, :, None], 3, axis=2))
    if item.ndim != 3 or item.shape[2] not in (1, 3, 4) or min(item.shape[:2]) < 1:
        raise invalid(parameter, caller, "shaped (H, W), (H, W, 1), (H, W, 3) or (H, W, 4)",
                      f"shape {item.shape}", given_is_text=True)
    if item.shape[2] == 1:
        return np.ascontiguousarray(np.repeat(item, 3, axis=2))
    if item.shape[2] == 4:
        alpha = item[:, :, 3:4].astype(np.float64) / 255.0
        rgb = item[:, :, :3] * alpha + 255.0 * (1 - alpha)
        return np.ascontiguousarray(np.round(rgb).astype(np.uint8))
    return np.ascontiguousarray(item)


__all__ = ["DEFAULT_MAX_PIXELS", "IMAGE_SUFFIXES", "UnreadableImageError", "read_image", "as_rgb", "check_max_pixels",
           "jpeg_warnings", "open_image_file", "unreadable"]


#: File suffixes read as images (any case).
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".gif", ".tif", ".tiff", ".webp")


def _frames(image) -> int:
    """How many frames (GIF, APNG, WebP) or pages (TIFF, MPO) a decoded file holds."""
    count = image.info.get("n_frames", 1)  # counted by open_image_file while the file was open
    return count if isinstance(count, int) and count > 1 else 1


def _to_8bit(image, path: str | Path):
    """A 16-bit, 32-bit or float greyscale image as 8-bit, on the format's own range.

    16-bit values are divided by 65535 (an all-white 16-bit image stays white, whatever
    its neighbours); 32-bit integers are read as 16-bit when they fit, and refused
    otherwise; float images must lie in [0, 1] with no NaN or inf. Nothing is stretched
    per image.
    """
    from PIL import Image

    arr = np.asarray(image)
    if image.mode == "F" or arr.dtype.kind == "f":
        values = arr.astype(np.float64)
        bad = int((~np.isfinite(values)).sum())
        if bad:
            raise unreadable(path, f"its float pixels hold {bad} NaN or inf value(s)",
                             "read_image", "Fix or mask those pixels and save it again "
                             "(an 8- or 16-bit PNG or TIFF reads without conversion).")
        low, high = float(values.min()), float(values.max())
        if low < 0 or high > 1:
            raise unreadable(path, f"its float pixels run from {low:.6g} to {high:.6g}, "
                             "outside [0, 1], so their brightness is unknown", "read_image",
                             "Scale it to [0, 1] or save it as an 8- or 16-bit image.")
        scaled = values * 255.0
    else:
        values = arr.astype(np.float64)
        low, high = float(values.min()), float(values.max())
        if low < 0 or high > 65535:
            raise unreadable(path, f"its {image.mode} pixels run from {low:.0f} to {high:.0f}, "
                             "outside the 16-bit range 0-65535 read as greyscale",
                             "read_image", "Save it as an 8- or 16-bit image.")
        scaled = values * (255.0 / 65535.0)
    return Image.fromarray(np.round(scaled).clip(0, 255).astype(np.uint8), "L")


def check_path_and_side(path, max_side, caller: str) -> None:
    """Refuse a path that is not a path and a ``max_side`` that is not a positive int."""
    import os

    if not isinstance(path, (str, os.PathLike)):
        raise wrong_type("path", caller, "a file path (str or pathlib.Path)", path)
    if max_side is not None and (isinstance(max_side, bool) or not isinstance(
            max_side, (int, np.integer)) or max_side < 1):
        raise invalid("max_side", caller, "a positive int or None", max_side,
                      "It is the longest side in pixels after downscaling, e.g. 1024; None "
                      "keeps the size.")


def read_image(path: str | Path, max_side: int | None = None, *,
               max_pixels: int | None = DEFAULT_MAX_PIXELS,
               notes: list | None = None) -> np.ndarray:
    """One image file as ``(H, W, 3)`` uint8 RGB, upright per its EXIF orientation.

    16-bit greyscale (``I;16``, ``I;16B``, ``I``) is converted by its own range
    (value / 65535), float greyscale (``F``) from [0, 1]; a float image with NaN, inf or
    values outside [0, 1] is refused with the reason. Only the first frame of an
    animation (GIF, APNG, WebP) or the first page of a multi-page file (TIFF, MPO) is
    read; the frames left out are said: appended to ``notes`` when given, else in a
    warning.

    Args:
        path: the file.
        max_side: downscale so the longer side is at most this (None keeps the size).
        max_pixels: refuse an image with more pixels than this before decoding it
            (None: no limit); raise it for a trusted huge scan.
        notes: a list that receives ``{"file", "reason"}`` for frames or pages not read.

    Returns:
        The RGB array.

    Raises:
        UnreadableImageError: a ValueError naming the file: not an image, truncated,
            damaged, over ``max_pixels`` (its size is given), or float pixels that are
            NaN or outside [0, 1].
    """
    from PIL import Image, ImageOps

    check_path_and_side(path, max_side, "read_image")
    im = open_image_file(path, max_pixels=max_pixels, caller="read_image")
    frames, fmt = _frames(im), im.format
    try:
        im = ImageOps.exif_transpose(im)
        if im.mode == "CMYK":
            im = im.convert("RGB")
        elif im.mode.startswith(("I", "F")):
            im = _to_8bit(im, path)
        if max_side and max(im.size) > max_side:
            im = im.copy()
            im.thumbnail((max_side, max_side), Image.LANCZOS)
        rgb = as_rgb(im, "path", "read_image")
    except UnreadableImageError:
        raise
    except (OSError, SyntaxError, ValueError) as exc:
        raise unreadable(path, f"it could not be converted ({type(exc).__name__}: {exc})",
                         "read_image") from exc
    if frames > 1:
        kind = "pages" if fmt in ("TIFF", "MPO") else "frames"
        reason = (f"only the first of its {frames} {kind} is read; {frames - 1} "
                  f"{kind} dropped")
        if notes is None:
            warnings.warn(f"read_image: {path}: {reason}.", UserWarning, stacklevel=2)
        else:
            notes.append({"file": str(path), "reason": reason})
    return rgb
