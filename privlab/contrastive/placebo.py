"""Placebo controls: the same marks as a sanitizer, put where no cue is.

A placebo twin's resolution under a member is that member's artefact floor (what the marks do
by themselves); ``max(0, real - placebo)`` is the excess. :class:`ImagePlacebo` moves an image
sanitizer's regions, :class:`TextPlacebo` marks other words of a text, :func:`placebo_of` picks
the twin by modality. See ``docs/methods/contrastive-placebo.md`` and
``docs/methods/image-audits.md``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from privlab.errors import invalid, item_list, wrong_type
from privlab.hashing import content_hash
from privlab.progress import track
from privlab.sanitizers.base import Sanitizer
from privlab.sanitizers.image import Detector, ImageSanitizer, RegionSanitizer, UserRegions
from privlab.vision.images import as_rgb

#: A blackout is recognised when the changed pixels average below this level (0-255).
DARK_LEVEL = 24.0
#: Gaussian radius used to blur a placebo region when the sanitizer's own is unknown.
DEFAULT_BLUR = 12.0


# ---------------------------------------------------------------------------------------
# Images
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Placement:
    """Where an image placebo put its marks in one image.

    Attributes:
        real: the boolean ``(H, W)`` region the real sanitizer marked.
        placebo: the boolean region the placebo marks (same pieces, moved).
        avoided: the region the placebo had to avoid (faces, text, cues, the real region).
        pieces: how many connected pieces were moved.
        avoided_parts: what was avoided, counted: ``{"faces": n, "text lines": n,
            "sanitizer regions": n, <each avoid entry's name>: n}``.
    """

    real: np.ndarray = field(repr=False)
    placebo: np.ndarray = field(repr=False)
    avoided: np.ndarray = field(repr=False)
    pieces: int
    avoided_parts: dict = field(default_factory=dict)

    @property
    def avoided_text(self) -> str:
        """What the placebo kept clear of, in words (``"2 faces, 3 text lines, ..."``)."""
        parts = [f"{n} {what}" for what, n in self.avoided_parts.items() if n]
        return ", ".join(parts) if parts else "nothing detected"

    @property
    def area(self) -> int:
        """Pixels the real sanitizer marked."""
        return int(self.real.sum())

    @property
    def placebo_area(self) -> int:
        """Pixels the placebo marks (equal to :attr:`area` unless pieces overlapped)."""
        return int(self.placebo.sum())

    @property
    def overlap(self) -> float:
        """Share of placebo pixels on avoided regions (0 when it found cue-free room)."""
        total = self.placebo_area
        return float((self.placebo & self.avoided).sum() / total) if total else 0.0


def _paired(originals: Any, sanitized: Any, caller: str) -> tuple[list, list]:
    """The originals and the real sanitizer's outputs as lists, one output per original."""
    originals = item_list(originals, "originals", caller)
    sanitized = item_list(sanitized, "sanitized", caller)
    if len(originals) != len(sanitized):
        raise invalid("sanitized", caller, f"one output per original ({len(originals)})",
                      f"{len(sanitized)} outputs", given_is_text=True)
    return originals, sanitized


def _box_or_mask(value: Any, shape: tuple[int, int], caller: str) -> np.ndarray:
    from privlab.sanitizers.image import box_mask

    arr = np.asarray(value)
    if arr.dtype == bool and arr.shape == shape:
        return arr
    if arr.shape == (4,):
        return box_mask(shape, arr)
    raise invalid("avoid", caller, f"detectors or callables returning boxes (x0, y0, x1, y1) or "
                  f"boolean masks of shape {shape}", f"an entry of shape {arr.shape}",
                  given_is_text=True)


def _free_positions(forbidden: np.ndarray, h: int, w: int) -> np.ndarray:
    """``(H - h + 1, W - w + 1)`` counts of forbidden pixels under an ``h x w`` box at (y, x)."""
    H, W = forbidden.shape
    integral = np.zeros((H + 1, W + 1), dtype=np.int64)
    integral[1:, 1:] = np.cumsum(np.cumsum(forbidden, axis=0, dtype=np.int64), axis=1)
    return (integral[h:, w:] - integral[:H - h + 1, w:] - integral[h:, :W - w + 1]
            + integral[:H - h + 1, :W - w + 1])


class ImagePlacebo(ImageSanitizer):
    """The placebo twin of an image sanitizer: its marks, moved where no cue is.

    Args:
        sanitizer: the real image sanitizer (None: only :meth:`apply` works, reading the
            marks from the outputs given).
        avoid: more places to keep clear: :class:`privlab.sanitizers.image.Detector`
            objects, or callables ``rgb -> boxes or boolean masks`` (e.g. a generated
            corpus's ground-truth cues).
        avoid_faces: keep clear of faces YuNet finds (score >= 0.5, box grown by a quarter).
        avoid_text: keep clear of every line OCR reads.
        margin: pixels kept between a placebo mark and an avoided region.
        room: ``"skip"`` leaves out a piece that fits nowhere cue-free; ``"overlap"``
            puts it where it covers the fewest avoided pixels.
        seed: placement seed (combined with each image's pixels).
        name: display name (default ``"placebo of <sanitizer>"``).
        read_renderings: read each placebo output's text near its marks once
            (:func:`privlab.vision.ocr.read_rendering`), so text members share that
            reading instead of reading the whole output again.

    Raises:
        TypeError: ``sanitizer`` is not an image sanitizer, or ``avoid`` holds something
            that is neither a Detector nor callable.
        ValueError: a negative margin or an unknown ``room``.

    Example:
        >>> image = np.full((40, 60, 3), 200, np.uint8)
        >>> twin = ImagePlacebo(None, avoid_faces=False, avoid_text=False)
        >>> sanitized = image.copy(); sanitized[0:10, 0:10] = 0
        >>> out = twin.apply([image], [sanitized])[0]
        >>> int((out == 0).all(axis=2).sum()), bool((out[0:10, 0:10] == 200).all())
        (100, True)
    """

    def __init__(self, sanitizer: Any = None, *, avoid: Sequence[Any] = (),
                 avoid_faces: bool = True, avoid_text: bool = True, margin: int = 4,
                 room: str = "skip", seed: int = 0, name: str | None = None,
                 read_renderings: bool = False):
        caller = "ImagePlacebo"
        if sanitizer is not None and (not isinstance(sanitizer, Sanitizer)
                                      or sanitizer.modality != "image"):
            raise wrong_type("sanitizer", caller, "an image Sanitizer or None", sanitizer)
        if isinstance(avoid, (Detector, str)) or callable(avoid):
            avoid = [avoid]
        avoid = list(avoid)
        for index, entry in enumerate(avoid):
            if not (isinstance(entry, Detector) or callable(entry)):
                raise wrong_type(f"avoid[{index}]", caller, "a Detector or a callable", entry)
        if not isinstance(margin, (int, np.integer)) or margin < 0:
            raise invalid("margin", caller, "a non-negative int", margin)
        if room not in ("skip", "overlap"):
            raise invalid("room", caller, "'skip' or 'overlap'", room)
        self.room = room
        self.sanitizer = sanitizer
        self.avoid = avoid
        self.avoid_faces, self.avoid_text = bool(avoid_faces), bool(avoid_text)
        self.margin, self.seed = int(margin), int(seed)
        self.read_renderings = bool(read_renderings)
        base = sanitizer.name if sanitizer is not None else "given outputs"
        self.name = name or f"placebo of {base}"
        self.placements: list[Placement] = []

    # -- what the real sanitizer marked ---------------------------------------------
    def _region_sanitizer(self) -> RegionSanitizer | None:
        s = self.sanitizer
        if isinstance(s, RegionSanitizer) and not any(isinstance(d, UserRegions)
                                                      for d in s.detectors):
            return s
        return None

    def real_region(self, original: np.ndarray, sanitized: np.ndarray) -> np.ndarray:
        """The boolean region the real sanitizer marked in ``original``.

        A region sanitizer says it itself (its mask); otherwise the pixels that changed,
        closed over small gaps (a blur changes flat areas only slightly).
        """
        import cv2

        region_sanitizer = self._region_sanitizer()
        if region_sanitizer is not None:
            return region_sanitizer.mask(original)
        if original.shape != sanitized.shape:
            raise invalid("sanitized", "ImagePlacebo.apply", f"images of the originals' shape "
                          f"{original.shape}", f"shape {sanitized.shape}", given_is_text=True)
        changed = np.any(original != sanitized, axis=2)
        if changed.any() and self._mode(original, sanitized, changed)[0] == "blur":
            kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (7, 7))
            closed = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_CLOSE, kernel)
            changed = closed.astype(bool)
        return changed

    def _mode(self, original: np.ndarray, sanitized: np.ndarray, region: np.ndarray
              ) -> tuple[str, float, int]:
        """``(mode, blur, inpaint radius)`` of the real marks: the sanitizer's own, else
        read off the pixels (dark: blackout; otherwise a blur)."""
        s = self.sanitizer
        if isinstance(s, RegionSanitizer):
            return s.mode, s.blur, int(getattr(s, "inpaint_radius", 3))
        if region.any() and float(sanitized[region].mean()) < DARK_LEVEL:
            return "blackout", 0.0, 3
        return "blur", DEFAULT_BLUR, 3

    def avoided_region(self, original: np.ndarray, real: np.ndarray) -> np.ndarray:
        """Faces, text, ``avoid`` and the real region, grown by ``margin`` pixels."""
        return self._avoided(original, real)[0]

    @staticmethod
    def _entry_name(entry: Any) -> str:
        return str(getattr(entry, "name", getattr(entry, "__name__", type(entry).__name__)))

    def _avoided(self, original: np.ndarray, real: np.ndarray) -> tuple[np.ndarray, dict]:
        """:meth:`avoided_region` and what it holds, counted."""
        import cv2

        h, w = original.shape[:2]
        out = real.copy()
        parts: dict[str, int] = {}
        if real.any():
            parts["sanitizer regions"] = int(cv2.connectedComponents(real.astype(np.uint8))[0] - 1)
        if self.avoid_faces:
            from privlab.vision.faces import detect_faces

            faces = detect_faces(original, 0.5)
            parts["faces"] = len(faces)
            for face in faces:
                x0, y0, x1, y1 = face.box
                gx, gy = (x1 - x0) // 4, (y1 - y0) // 4
                out[max(0, y0 - gy):min(h, y1 + gy), max(0, x0 - gx):min(w, x1 + gx)] = True
        if self.avoid_text:
            from privlab.vision.ocr import read_text

            words = read_text(original)
            parts["text lines"] = len(words)
            for word in words:
                x0, y0, x1, y1 = word.box
                out[max(0, y0):min(h, y1), max(0, x0):min(w, x1)] = True
        for entry in self.avoid:
            found = ([r.mask for r in entry.regions(original)] if isinstance(entry, Detector)
                     else list(entry(original) or []))
            label = self._entry_name(entry)
            parts[label] = parts.get(label, 0) + len(found)
            for value in found:
                out |= _box_or_mask(value, (h, w), "ImagePlacebo")
        if self.margin and out.any():
            kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * self.margin + 1,) * 2)
            out = cv2.dilate(out.astype(np.uint8), kernel).astype(bool)
        return out, parts

    # -- placement --------------------------------------------------------------------
    def plan(self, original: Any, sanitized: Any | None = None) -> Placement:
        """Where the placebo marks ``original`` (``sanitized``: the real output, if known).

        Each connected piece of the real region keeps its shape and size and goes, largest
        first, to a position drawn at random among those where it covers nothing avoided
        (nor a piece placed before it); when there is none it is left out
        (``room="skip"``) or goes where it covers the fewest avoided pixels.
        """
        import cv2

        rgb = as_rgb(original, "original", "ImagePlacebo.plan")
        if sanitized is None:
            if self.sanitizer is None:
                raise invalid("sanitized", "ImagePlacebo.plan", "given when the placebo has no "
                              "sanitizer", None, given_is_text=True)
            sanitized = self.sanitizer.sanitize([rgb])[0]
        san = as_rgb(sanitized, "sanitized", "ImagePlacebo.plan")
        real = self.real_region(rgb, san)
        avoided, parts = self._avoided(rgb, real)
        placebo = np.zeros_like(real)
        if not real.any():
            return Placement(real, placebo, avoided, 0, parts)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(real.astype(np.uint8), 8)
        order = sorted(range(1, count), key=lambda k: -int(stats[k, cv2.CC_STAT_AREA]))
        rng = np.random.default_rng([self.seed, int(content_hash(rgb)[:12], 16)])
        for k in order:
            x, y, w, h = (int(stats[k, c]) for c in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP,
                                                      cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
            shape = labels[y:y + h, x:x + w] == k
            cost = _free_positions(avoided | placebo, h, w)
            free = np.flatnonzero(cost == 0)
            if free.size:
                flat = int(rng.choice(free))
            elif self.room == "skip":
                continue
            else:
                flat = int(rng.choice(np.flatnonzero(cost == cost.min())))
            py, px = divmod(flat, cost.shape[1])
            placebo[py:py + h, px:px + w] |= shape
        return Placement(real, placebo, avoided, len(order), parts)

    @staticmethod
    def _paint(rgb: np.ndarray, region: np.ndarray, mode: str, blur: float,
               inpaint_radius: int) -> np.ndarray:
        from privlab.sanitizers.fill import fill_region

        if not region.any():
            return rgb.copy()
        return np.asarray(fill_region(rgb, region, mode, blur, inpaint_radius))

    def apply(self, originals: Sequence[Any], sanitized: Sequence[Any]) -> list[np.ndarray]:
        """The placebo outputs for ``originals``, reading the marks from the real ``sanitized``.

        Also stores one :class:`Placement` per image in :attr:`placements`.

        Raises:
            ValueError: the two lists differ in length.
        """
        caller = "ImagePlacebo.apply"
        originals, sanitized = _paired(originals, sanitized, caller)
        out, placements = [], []
        for index, (x, s) in enumerate(track(list(zip(originals, sanitized)), "placebo marks",
                                             detail=True)):
            rgb = as_rgb(x, f"originals[{index}]", caller)
            san = as_rgb(s, f"sanitized[{index}]", caller)
            plan = self.plan(rgb, san)
            painted = self._paint(rgb, plan.placebo, *self._mode(rgb, san, plan.real))
            if self.read_renderings:
                from privlab.vision.ocr import read_rendering

                read_rendering(rgb, painted)
            out.append(painted)
            placements.append(plan)
        self.placements = placements
        return out

    def _sanitize(self, items):
        if self.sanitizer is None:
            raise invalid("sanitizer", "ImagePlacebo.sanitize", "an image sanitizer (without "
                          "one, call apply(originals, sanitized))", None, given_is_text=True)
        return self.apply(items, self.sanitizer.sanitize(items))

    @property
    def coverage(self) -> float:
        """Placebo area over real area in the last call (1: every piece found room)."""
        real = sum(p.area for p in self.placements)
        return float(sum(p.placebo_area for p in self.placements) / real) if real else 1.0

    @property
    def mean_overlap(self) -> float:
        """Mean share of placebo pixels on avoided regions in the last call (0 if none)."""
        marked = [p.overlap for p in self.placements if p.placebo_area]
        return float(np.mean(marked)) if marked else 0.0

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "placebo_of": (self.sanitizer.describe() if self.sanitizer
                                                     is not None else "given outputs"),
                "avoid_faces": self.avoid_faces, "avoid_text": self.avoid_text,
                "avoid": [self._entry_name(a) for a in self.avoid],
                "margin": self.margin, "room": self.room, "seed": self.seed}


# ---------------------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------------------
_TOKENS = re.compile(r"\s+|\w+|[^\w\s]")
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class _Hunk:
    words: tuple[str, ...]   # the original words the sanitizer changed
    inserted: str            # what it put instead
    mask: str | None         # the box character, when it replaced letters one for one


def _hunks(original: str, sanitized: str) -> list[tuple[int, int, _Hunk]]:
    """Changed spans of ``original`` (character offsets) and what replaced them."""
    a = [m for m in _TOKENS.finditer(original)]
    b = [m.group(0) for m in _TOKENS.finditer(sanitized)]
    matcher = difflib.SequenceMatcher(None, [m.group(0) for m in a], b, autojunk=False)
    out = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        start = a[i1].start() if i1 < len(a) else len(original)
        end = a[i2 - 1].end() if i2 > i1 else start
        removed = original[start:end]
        inserted = "".join(b[j1:j2])
        words = tuple(_WORD.findall(removed))
        extra = {c for c in inserted if not c.isspace()} - set(removed)
        mask = next(iter(extra)) if len(extra) == 1 and not next(iter(extra)).isalnum() else None
        out.append((start, end, _Hunk(words, inserted.strip(), mask)))
    return out


class TextPlacebo(Sanitizer):
    """The placebo twin of a text sanitizer: as many other words, marked the same way.

    For each changed word, another word of the closest length is marked the same way;
    concept words, names, words the sanitizer changes, capitalised words and words with
    digits are never chosen. :attr:`shortfall` counts the words it could not match in the
    last call. See ``docs/methods/contrastive-placebo.md``.

    Args:
        sanitizer: the real text sanitizer (None: only :meth:`apply` works).
        concepts: words and phrases never to mark (default: the sanitizer's ``concepts``
            attribute when it has one).
        names: the target's names, never to mark.
        seed: the choice among words of equal length.
        name: display name.

    Example:
        >>> from privlab.sanitizers import ConceptListSanitizer
        >>> twin = TextPlacebo(ConceptListSanitizer(["Enron"]))
        >>> twin.sanitize(["Enron sold the stock at noon"])
        ['Enron sold the █████ at noon']
    """

    modality = "text"

    def __init__(self, sanitizer: Any = None, *, concepts: Iterable[str] | None = None,
                 names: Iterable[str] | None = None, seed: int = 0, name: str | None = None):
        caller = "TextPlacebo"
        if sanitizer is not None and (not isinstance(sanitizer, Sanitizer)
                                      or sanitizer.modality != "text"):
            raise wrong_type("sanitizer", caller, "a text Sanitizer or None", sanitizer)
        for label, value in (("concepts", concepts), ("names", names)):
            if isinstance(value, str):
                raise wrong_type(label, caller, "a list of words or phrases", value,
                                 f'Wrap it in a list: ["{value}"].')
        if concepts is None:
            concepts = getattr(sanitizer, "concepts", None) or ()
        self.sanitizer = sanitizer
        self.concepts = [c for c in concepts if isinstance(c, str)]
        self.names = [n for n in (names or ()) if isinstance(n, str)]
        self.seed = int(seed)
        base = sanitizer.name if sanitizer is not None else "given outputs"
        self.name = name or f"placebo of {base}"
        self.shortfall = 0
        self.marked = 0

    def _blocked(self) -> set[str]:
        return {w.lower() for phrase in self.concepts + self.names for w in _WORD.findall(phrase)}

    def apply(self, originals: Sequence[str], sanitized: Sequence[str]) -> list[str]:
        """The placebo texts, reading the changes from the real ``sanitized`` texts.

        Raises:
            TypeError: a text is not a string.
            ValueError: the lists differ in length.
        """
        caller = "TextPlacebo.apply"
        originals, sanitized = _paired(originals, sanitized, caller)
        for label, texts in (("originals", originals), ("sanitized", sanitized)):
            for index, text in enumerate(texts):
                if not isinstance(text, str):
                    raise wrong_type(f"{label}[{index}]", caller, "a str", text)
        diffs = [_hunks(x, s) for x, s in zip(originals, sanitized)]
        blocked = self._blocked() | {w.lower() for d in diffs for _, _, h in d for w in h.words}
        out, self.shortfall, self.marked = [], 0, 0
        for text, diff in zip(originals, diffs):
            out.append(self._one(text, diff, blocked))
        return out

    def _one(self, text: str, diff: list, blocked: set[str]) -> str:
        if not diff:
            return text
        rng = np.random.default_rng([self.seed, int(content_hash(text)[:12], 16)])
        spans = [(s, e) for s, e, _ in diff]
        candidates = [m for m in _WORD.finditer(text)
                      if m.group(0).lower() not in blocked and not m.group(0)[0].isupper()
                      and not any(c.isdigit() for c in m.group(0))
                      and not any(s < m.end() and m.start() < e for s, e in spans)]
        used: set[int] = set()
        edits: list[tuple[int, int, str]] = []
        for _, _, hunk in sorted(diff, key=lambda d: -sum(map(len, d[2].words))):
            if not hunk.words:
                continue
            if hunk.mask is None and len(hunk.words) > 1:
                run = self._run(text, candidates, used, hunk.words, rng)
                if run is not None:
                    used.update(run)
                    edits.append((candidates[run[0]].start(), candidates[run[-1]].end(),
                                  hunk.inserted))
                    self.marked += len(run)
                    continue
            for word in hunk.words:
                pick = self._closest(candidates, used, len(word), rng)
                if pick is None:
                    self.shortfall += 1
                    continue
                used.add(pick)
                m = candidates[pick]
                edits.append((m.start(), m.end(), hunk.mask * len(m.group(0)) if hunk.mask
                              else hunk.inserted))
                self.marked += 1
        for start, end, value in sorted(edits, reverse=True):
            text = text[:start] + value + text[end:]
        return text

    @staticmethod
    def _closest(candidates: list, used: set[int], length: int, rng) -> int | None:
        free = [k for k in range(len(candidates)) if k not in used]
        if not free:
            return None
        gaps = np.array([abs(len(candidates[k].group(0)) - length) for k in free])
        best = [free[k] for k in np.flatnonzero(gaps == gaps.min())]
        return int(rng.choice(best))

    @staticmethod
    def _run(text: str, candidates: list, used: set[int], words: tuple[str, ...], rng
             ) -> list[int] | None:
        """Consecutive candidate words (whitespace between them), as many as ``words``."""
        k = len(words)
        target = sum(map(len, words))
        runs = []
        for first in range(len(candidates) - k + 1):
            idx = list(range(first, first + k))
            if any(i in used for i in idx):
                continue
            if all(text[candidates[i].end():candidates[i + 1].start()].isspace()
                   for i in idx[:-1]):
                runs.append((abs(sum(len(candidates[i].group(0)) for i in idx) - target), idx))
        if not runs:
            return None
        gap = min(r[0] for r in runs)
        best = [r[1] for r in runs if r[0] == gap]
        return best[int(rng.integers(len(best)))]

    def _sanitize(self, items):
        if self.sanitizer is None:
            raise invalid("sanitizer", "TextPlacebo.sanitize", "a text sanitizer (without one, "
                          "call apply(originals, sanitized))", None, given_is_text=True)
        return self.apply(items, self.sanitizer.sanitize(items))

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "placebo_of": (self.sanitizer.describe() if self.sanitizer
                                                     is not None else "given outputs"),
                "concepts": list(self.concepts), "names": list(self.names), "seed": self.seed}


# ---------------------------------------------------------------------------------------
# One entry point
# ---------------------------------------------------------------------------------------
def placebo_of(sanitizer: Any, *, modality: str | None = None, **options: Any) -> Sanitizer:
    """The placebo twin of ``sanitizer``: :class:`ImagePlacebo` or :class:`TextPlacebo`.

    Args:
        sanitizer: the real sanitizer (None when only its outputs are known; then give
            ``modality``).
        modality: ``"image"`` or ``"text"`` (default the sanitizer's).
        **options: passed to the twin (``avoid``, ``seed``, ``concepts``, ``names`` ...).

    Returns:
        The twin, a :class:`privlab.sanitizers.Sanitizer` with ``apply(originals, sanitized)``.

    Raises:
        ValueError: no sanitizer and no modality, or an unknown modality.

    Example:
        >>> from privlab.sanitizers import ConceptListSanitizer
        >>> type(placebo_of(ConceptListSanitizer(["Lay"]))).__name__
        'TextPlacebo'
    """
    if sanitizer is not None and not isinstance(sanitizer, Sanitizer):
        raise wrong_type("sanitizer", "placebo_of", "a Sanitizer or None", sanitizer)
    modality = modality or (sanitizer.modality if sanitizer is not None else None)
    if modality == "image":
        return ImagePlacebo(sanitizer, **options)
    if modality == "text":
        return TextPlacebo(sanitizer, **options)
    raise invalid("modality", "placebo_of", "'image' or 'text' (or a sanitizer that has one)",
                  modality)


PlaceboFactory = Callable[[Any], Sanitizer]

__all__ = ["DARK_LEVEL", "DEFAULT_BLUR", "ImagePlacebo", "Placement", "PlaceboFactory",
           "TextPlacebo", "placebo_of"]
