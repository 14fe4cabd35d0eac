"""Logo detection on real photos: recall, false finds and seconds per photo.

Data (not in the repository): the contrastive-privacy paper's photos under
``../shared/data/paper/images`` -- restaurant photos with the Golden Arches
(``mcdonalds_large``) and photos without them (``dicaprio`` and the concept folders).
Which photos show the arches, which are the development and which the held-out
photos, and the boxes the gallery crops are cut from, are this project's own hand-made
labels in ``benchmarks/data/mcdonalds_arches.json``. The gallery is cut at run time from
photos that are never evaluated (the ones also in ``mcdonalds_small``).

The finder the brand study uses (:func:`privlab.vision.logo_finder.fit_logo_finder`) is
fitted as a user with these photos would fit it: on the gallery crops, the gallery
photos' hand-drawn boxes, and concept photos outside both splits as backgrounds (photos
without the logo); its threshold is chosen by cross-validation on those backgrounds.
Dev photos were used only to choose the method (what to fit on, the threshold rule;
see privlab/vision/logo_finder.py), so the dev row is not fitted on; test photos play
no part. ``--gallery-only`` adds the finder a user with nothing but the crops gets
(package backgrounds).

For each split (``dev``: where the method was chosen; ``test``: held out; ``unseen``:
242 more concept photos without a logo, scored only after the method was chosen, for
the false-find rate alone; ``--split all`` runs the three) this prints

  - recall: the share of photos with visible arches where the detector finds a box;
  - false finds: the share of photos without a logo where the detector finds one (the
    target's unit: a photo wrongly said to show the logo), and the boxes it marks there
    per photo (the study finder marks several boxes around one decision, see
    :func:`privlab.vision.logos.find_logos`);
  - after blacking out the found boxes, the share of found photos where a second search
    still finds the arches;
  - seconds per photo (features and search; the gallery is described beforehand);
  - the hand-drawn boxes of the arches (dev: ``boxes``; test: ``eval_boxes``, drawn
    after the method was chosen) that a blackout of the found boxes (for the study's
    finder: the output of the study's logo-blackout sanitizer) covers (at least
    80% of the box's area), and the photos where it covers every one. Unlike the second
    search, this does not ask the detector to judge its own blackout; beside it, how
    often the second search (the study's logo check) flags the photos with an arch left
    and the photos with every arch covered;
  - with ``--placebo``, whether the study's placebo marks (of logo-blackout and of the
    OCR text blackout) land on a drawn arch: a real removal in the placebo floor;

for the study's finder, the cosine finder (unless ``--no-cosine``) and the keypoint
matcher (SIFT + RANSAC, the baseline; unless ``--no-baseline``). Nothing is asserted:
tests/vision/test_logos_real.py holds the pass/fail lines.

    python benchmarks/logos.py --split both --no-baseline --no-cosine   # about 90 s on two cores (the fit 35 s)
    python benchmarks/logos.py --split unseen --no-baseline --no-cosine # about 3 minutes
    python benchmarks/logos.py --split all --quantile 0.95 --no-baseline --no-cosine
    python benchmarks/logos.py --split both --no-baseline --no-cosine --placebo  # + placebo on the arches
    python benchmarks/logos.py --split test --threshold 0.9             # cosine finder at another threshold
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "benchmarks" / "data" / "mcdonalds_arches.json"
PHOTOS = ROOT.parent / "shared" / "data" / "paper" / "images"


def load_labels(photos: Path = PHOTOS) -> dict:
    """The label file with the photo folder it refers to; the gallery crops cut from it.

    Returns:
        ``{"gallery": LogoGallery, "positives": {split: [paths]}, "negatives": {split:
        [paths]}, "examples": {"dev" | "gallery": [(path, boxes)]}, "train_negatives":
        [paths], "scoring_boxes": {split: [(path, boxes)]}}`` (the gallery examples and
        the training negatives are the study finder's fitting photos, never dev or test
        ones; the scoring boxes are only ever compared with what a finder marked).
    """
    from privlab.datasets.images import IMAGE_SUFFIXES, read_image
    from privlab.vision.logos import load_logo_gallery

    doc = json.loads(LABELS.read_text(encoding="utf-8"))
    crops = []
    for item in doc["gallery_boxes"]:
        x0, y0, x1, y1 = item["box"]
        crops.append(read_image(photos / item["file"])[y0:y1, x0:x1])
    positives: dict[str, list[Path]] = {"dev": [], "test": []}
    for row in doc["photos"]:
        if row["split"] in positives:
            positives[row["split"]].append(photos / "mcdonalds_large" / row["file"])
    per = doc["negatives_per_concept"]
    start, stop = doc.get("dev_extra_negatives", (0, 0))
    unseen_start, unseen_stop = doc.get("unseen_negatives", (0, 0))
    first, last = doc["train_negatives"]
    negatives: dict[str, list[Path]] = {"dev": [], "test": [], "unseen": []}
    train_negatives: list[Path] = []
    extra_dev: list[Path] = []
    for folder in doc["negative_folders"]:
        files = sorted(p for p in (photos / folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if folder == "dicaprio":
            negatives["dev"] += files[0::2]
            negatives["test"] += files[1::2]
            continue
        negatives["dev"] += files[:per]
        negatives["test"] += files[per:2 * per]
        # Backgrounds the study finder is fitted on (never evaluated).
        train_negatives += files[first:last]
        # More development photos without a logo (after the training negatives; never
        # fitted on, never held out), where the operating point was chosen.
        extra_dev += files[start:stop]
        # Photos without a logo that no choice was made on (false finds only).
        negatives["unseen"] += files[unseen_start:unseen_stop]
    negatives["dev"] += extra_dev
    positives["unseen"] = []
    # Labelled photos: dev (method choice only) and gallery photos with their boxes, and
    # concept photos that are in neither split (never test photos).
    examples: dict[str, list] = {"dev": [], "gallery": []}
    for row in doc["photos"]:
        if row["split"] in examples and row.get("boxes"):
            examples[row["split"]].append((photos / "mcdonalds_large" / row["file"], row["boxes"]))
    # Boxes to score coverage on: dev's own boxes, and the held-out photos' eval_boxes
    # (drawn after the method was chosen; never fitted on).
    scoring: dict[str, list] = {"dev": list(examples["dev"]), "test": [], "unseen": []}
    for row in doc["photos"]:
        if row["split"] == "test" and row.get("eval_boxes"):
            scoring["test"].append((photos / "mcdonalds_large" / row["file"], row["eval_boxes"]))
    return {"gallery": load_logo_gallery({"mcdonalds": crops}), "positives": positives,
            "negatives": negatives, "examples": examples, "train_negatives": train_negatives,
            "scoring_boxes": scoring}


def fit_finder(data: dict, *, gallery_only: bool = False, quantile: float | None = None):
    """The finder the brand study uses (:func:`privlab.vision.logo_finder.fit_logo_finder`),
    fitted as a user with these photos would: on the gallery crops, the gallery photos'
    boxes and the training negatives as backgrounds (photos without the logo, never
    evaluated). ``gallery_only``: the crops alone on the package backgrounds (a user with
    nothing but crops). Neither dev nor test photos are used: dev only chose the method.
    ``quantile``: the threshold rule's quantile (``fit_logo_finder(quantile=)``; None:
    its default).

    Returns:
        A :class:`~privlab.vision.logo_finder.LogoFinder`.
    """
    from privlab.datasets.images import read_image
    from privlab.vision.logo_finder import fit_logo_finder

    options = {} if quantile is None else {"quantile": quantile}
    if gallery_only:
        return fit_logo_finder(data["gallery"], **options)
    photos = {"mcdonalds": [(read_image(p), boxes) for p, boxes in data["examples"]["gallery"]]}
    return fit_logo_finder(data["gallery"], photos,
                           [read_image(p) for p in data["train_negatives"]], **options)


def evaluate(detect, positives, negatives) -> dict[str, float]:
    """Recall, false finds and re-detection after blackout for one detector.

    Args:
        detect: ``rgb -> list of LogoMatch``.
        positives, negatives: photo paths.
    """
    from privlab.datasets.images import read_image

    found, left, finds, with_find, seconds = 0, 0, 0, 0, 0.0
    named: list[str] = []  # the photos without a logo that have a find, to look at
    for path in positives:
        rgb = read_image(path)
        start = time.perf_counter()
        matches = detect(rgb)
        seconds += time.perf_counter() - start
        if matches:
            found += 1
            black = rgb.copy()
            for m in matches:
                x0, y0, x1, y1 = m.box
                black[y0:y1, x0:x1] = 0
            left += bool(detect(black))
    for path in negatives:
        rgb = read_image(path)
        start = time.perf_counter()
        matches = detect(rgb)
        seconds += time.perf_counter() - start
        finds += len(matches)
        with_find += bool(matches)
        if matches:
            named.append(f"{path.parent.name}/{path.name}")
    return {"positives": len(positives), "recall": found / max(1, len(positives)),
            "negatives_found": named,
            "negatives": len(negatives), "false_finds_per_photo": finds / max(1, len(negatives)),
            "negatives_with_a_find": with_find,
            "photos_with_a_false_find": with_find / max(1, len(negatives)),
            "found_again_after_blackout": left / max(1, found),
            "seconds_per_photo": seconds / max(1, len(positives) + len(negatives))}


def coverage(detect, examples, *, share: float = 0.8, paint=None) -> dict[str, int]:
    """How much of the hand-labelled arches a blackout of the found boxes covers, and
    whether a second search (what the study's logo check does) tells the photos where
    some arch is left from those where every one is covered.

    Args:
        detect: ``rgb -> list of LogoMatch``.
        examples: ``[(path, boxes)]`` with the arches' boxes (the dev photos).
        share: the part of a labelled box that must be black for it to count as covered.
        paint: ``rgb -> boolean (H, W) mask`` of what is blacked out (the study's
            sanitizer: ``RegionSanitizer.mask``); None: the found boxes.

    Returns:
        ``{"boxes", "covered", "photos", "photos_covered", "photos_any", "left",
        "left_flagged", "cleared", "cleared_flagged"}``: labelled boxes, those covered,
        photos, photos with every labelled box covered and photos with at least one
        covered; among the photos with a find, those with an arch left and how many of
        them a second search on the blacked-out photo flags, and those with every arch
        covered and how many of them it flags all the same.
    """
    from privlab.datasets.images import read_image

    out = dict.fromkeys(("boxes", "covered", "photos_covered", "photos_any", "left",
                         "left_flagged", "cleared", "cleared_flagged"), 0)
    for path, labelled in examples:
        rgb = read_image(path)
        found = detect(rgb)
        marks = np.zeros(rgb.shape[:2], bool)
        for m in found:
            x0, y0, x1, y1 = m.box
            marks[y0:y1, x0:x1] = True
        if paint is not None:
            marks = paint(rgb)
        black = rgb.copy()
        black[marks] = 0
        hits = [marks[int(y0):int(y1), int(x0):int(x1)].mean() >= share for x0, y0, x1, y1 in labelled]
        out["boxes"] += len(hits)
        out["covered"] += sum(hits)
        out["photos_covered"] += all(hits)
        out["photos_any"] += any(hits)
        if found:
            kind = "cleared" if all(hits) else "left"
            out[kind] += 1
            out[f"{kind}_flagged"] += bool(detect(black))
    return {**out, "photos": len(examples)}


def placebo_on_arches(finder, gallery, examples, sanitizers=("logo-blackout",
                                                              "text-blackout-ocr"),
                      *, seed: int = 0) -> dict[str, dict[str, int]]:
    """Whether the placebo's marks land on a hand-drawn arch: the study's placebo of each
    sanitizer (its marks moved off faces, OCR text, the finder's possible logos and the
    sanitizer's own regions), on the photos with drawn arches. A placebo mark on an arch
    is a real removal in the placebo floor.

    Args:
        finder: the study's :class:`~privlab.vision.logo_finder.LogoFinder`.
        gallery: the logo gallery it was fitted on.
        examples: ``[(path, boxes)]`` with the arches' boxes.
        sanitizers: registry names (``logo-blackout`` gets the finder).

    Returns:
        ``{sanitizer: {"photos", "boxes", "touched", "photos_touched", "marked"}}``: the
        photos, drawn arches, arches with any placebo pixel on them, photos with such an
        arch, and photos where the placebo marked anything.
    """
    from privlab.contrastive.placebo import ImagePlacebo
    from privlab.datasets.images import read_image
    from privlab.sanitizers import registry
    from privlab.studies._image_conditions import _LogoBoxes

    photos = [(read_image(p), boxes) for p, boxes in examples]
    avoid = [_LogoBoxes(dict(gallery), finder)]
    out = {}
    for spec in sanitizers:
        sanitizer = (registry.create(spec, logos=dict(gallery), finder=finder)
                     if spec == "logo-blackout" else registry.create(spec))
        images = [rgb for rgb, _ in photos]
        placebo = ImagePlacebo(sanitizer, avoid=avoid, seed=seed)
        placebo.apply(images, sanitizer.sanitize(images))
        row = dict.fromkeys(("boxes", "touched", "photos_touched", "marked"), 0)
        for (rgb, boxes), plan in zip(photos, placebo.placements):
            hits = [bool(plan.placebo[int(y0):int(y1), int(x0):int(x1)].any())
                    for x0, y0, x1, y1 in boxes]
            row["boxes"] += len(hits)
            row["touched"] += sum(hits)
            row["photos_touched"] += any(hits)
            row["marked"] += bool(plan.placebo.any())
        out[sanitizer.name] = {**row, "photos": len(photos)}
    return out


def main() -> None:
    from privlab.sanitizers import registry
    from privlab.vision.logos import DEFAULT_THRESHOLD, find_logos, match_logos

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "test", "both", "unseen", "all"), default="both",
                        help="unseen: false finds on the concept photos no choice was made on")
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD,
                        help="for the cosine finder (the study finder's is chosen on its backgrounds)")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--no-cosine", action="store_true", help="no cosine finder row")
    parser.add_argument("--quantile", type=float, default=None,
                        help="the study finder's threshold quantile (default: the finder's own)")
    parser.add_argument("--placebo", action="store_true",
                        help="also: do the study's placebo marks land on a drawn arch?")
    parser.add_argument("--gallery-only", action="store_true",
                        help="also the finder fitted on the crops alone (package backgrounds)")
    args = parser.parse_args()
    if not PHOTOS.is_dir():
        raise SystemExit(f"The paper's photos are not at {PHOTOS} (see ../shared/data/README.md).")
    data = load_labels()
    gallery = data["gallery"]
    start = time.perf_counter()
    find_logos(np.zeros((64, 64, 3), np.uint8), gallery)  # describes the gallery crops
    print(f"gallery: {gallery!r}; crops described (and the model loaded) in {time.perf_counter() - start:.1f} s")
    detectors, finders = {}, {}
    for label, only in (("study finder", False), ("study finder, gallery crops only", True)):
        if only and not args.gallery_only:
            continue
        start = time.perf_counter()
        finder = fit_finder(data, gallery_only=only, quantile=args.quantile)
        p = finder.provenance
        print(f"{label}: head fitted on {p['fitted_on']} ({p['windows']['positive']} positive, "
              f"{p['windows']['negative']} negative windows) in {time.perf_counter() - start:.0f} s"
              f"{' (cached)' if p.get('cached') else ''}; threshold {p['thresholds']}: "
              f"{p['threshold_rule']}", flush=True)
        detectors[label] = finder.find
        finders[label] = finder
    if not args.no_cosine:
        detectors[f"cosine to gallery crops (threshold {args.threshold:g})"] = \
            lambda rgb: find_logos(rgb, gallery, threshold=args.threshold)
    if not args.no_baseline:
        detectors["SIFT + RANSAC (baseline)"] = lambda rgb: match_logos(rgb, gallery, method="sift")
    splits = {"both": ("dev", "test"), "all": ("dev", "test", "unseen")}.get(args.split,
                                                                           (args.split,))
    if "unseen" in splits:
        print("[unseen] concept photos (objects, animals, rooms) after the development ones; "
              "no choice was made on them, and no event photos are among them", flush=True)
    for split in splits:
        for name, detect in detectors.items():
            r = evaluate(detect, data["positives"][split], data["negatives"][split])
            recall = (f"recall {r['recall']:.2f} of {r['positives']} photos with the arches; "
                      if r["positives"] else "")
            again = (f"found again after blackout {r['found_again_after_blackout']:.2f}; "
                     if r["positives"] else "")
            print(f"[{split}] {name}: {recall}a false find in {r['negatives_with_a_find']} of "
                  f"{r['negatives']} photos without a logo ({r['photos_with_a_false_find']:.3f}; "
                  f"{r['false_finds_per_photo']:.3f} boxes per photo); {again}"
                  f"{r['seconds_per_photo']:.2f} s per photo", flush=True)
            if r["negatives_found"]:
                print(f"[{split}] {name}: photos without a logo with a find: "
                      + "; ".join(r["negatives_found"]), flush=True)
            if data["scoring_boxes"][split]:
                # The study finder's boxes are blacked out by the study's sanitizer itself
                # (what a user gets), the other detectors' by painting their boxes.
                paint = (registry.create("logo-blackout", logos=dict(gallery),
                                         finder=finders[name]).mask if name in finders else None)
                c = coverage(detect, data["scoring_boxes"][split], paint=paint)
                what = "logo-blackout's output" if paint else "a blackout of the found boxes"
                print(f"[{split}] {name}: {what} covers {c['covered']} of the "
                      f"{c['boxes']} hand-labelled arches (>= 80% of the box), at least one in "
                      f"{c['photos_any']} and every one in {c['photos_covered']} of "
                      f"{c['photos']} photos; a second search flags {c['left_flagged']} of the "
                      f"{c['left']} found photos with an arch left and {c['cleared_flagged']} of the "
                      f"{c['cleared']} with every arch covered", flush=True)
                if args.placebo and name in finders:
                    for sanitizer, r in placebo_on_arches(
                            finders[name], gallery, data["scoring_boxes"][split]).items():
                        print(f"[{split}] placebo of {sanitizer}: marks on {r['touched']} of the "
                              f"{r['boxes']} hand-labelled arches, in {r['photos_touched']} of "
                              f"{r['photos']} photos (it marked something in {r['marked']})",
                              flush=True)


if __name__ == "__main__":
    main()
