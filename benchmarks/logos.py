"""Logo detection on real photos: recall, false finds and seconds per photo.

Data (not in the repository): the contrastive-privacy paper's photos under
``../shared/data/paper/images`` -- restaurant photos with the Golden Arches
(``mcdonalds_large``) and photos without them (``dicaprio`` and the concept folders).
Which photos show the arches, which are the development and which the held-out
photos, and the boxes the gallery crops are cut from, are this project's own hand-made
labels in ``benchmarks/data/mcdonalds_arches.json``. The gallery is cut at run time from
photos that are never evaluated (the ones also in ``mcdonalds_small``).

The learned head (:func:`privlab.vision.logo_head.fit_logo_head`) is fitted on the dev and
gallery photos' hand-drawn boxes and on concept photos outside both splits; its
threshold is chosen by 5-fold cross-validation on the dev photos (just above the best
window of any dev photo without a logo) and printed with the cross-validated dev recall.
Test photos play no part in fitting or choosing.

For each split (``dev``: where everything was chosen, and the head's training photos,
so its dev row is optimistic; ``test``: held out) this prints

  - recall: the share of photos with visible arches where the detector finds a box;
  - false finds per photo without a logo (and the number of negatives with a find);
  - after blacking out the found boxes, the share of found photos where a second search
    still finds the arches;
  - seconds per photo (features and search; the gallery is described beforehand);

for the learned head, the cosine finder (unless ``--no-cosine``) and the keypoint
matcher (SIFT + RANSAC, the baseline; unless ``--no-baseline``). Nothing is asserted:
tests/vision/test_logos_real.py holds the pass/fail lines.

    python benchmarks/logos.py --split both --no-baseline --no-cosine   # 2 min on 2 free cores, 20 busy
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
        [paths]}`` (the last two: the learned head's fitting photos, never test ones).
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
    negatives: dict[str, list[Path]] = {"dev": [], "test": []}
    per = doc["negatives_per_concept"]
    for folder in doc["negative_folders"]:
        files = sorted(p for p in (photos / folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if folder == "dicaprio":
            negatives["dev"] += files[0::2]
            negatives["test"] += files[1::2]
        else:
            negatives["dev"] += files[:per]
            negatives["test"] += files[per:2 * per]
    # The learned head's training photos: dev and gallery photos with their boxes, and
    # concept photos that are in neither split (never test photos).
    examples: dict[str, list] = {"dev": [], "gallery": []}
    for row in doc["photos"]:
        if row["split"] in examples and row.get("boxes"):
            examples[row["split"]].append((photos / "mcdonalds_large" / row["file"], row["boxes"]))
    first, stop = doc["train_negatives"]
    train_negatives = []
    for folder in doc["negative_folders"]:
        if folder != "dicaprio":
            files = sorted(p for p in (photos / folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            train_negatives += files[first:stop]
    return {"gallery": load_logo_gallery({"mcdonalds": crops}), "positives": positives,
            "negatives": negatives, "examples": examples, "train_negatives": train_negatives}


def fit_head(data: dict, folds: int = 5) -> tuple:
    """The learned head, its threshold chosen by cross-validation on the dev photos only.

    The dev photos are split into ``folds`` (positives and negatives dealt in turn); each
    fold's photos are scored by a head fitted without them (on the other dev photos, the
    gallery photos' boxes and the training negatives). The threshold is set just above
    the best-scoring window of any dev photo without a logo; the final head is fitted on
    all of them. Test photos play no part.

    Returns:
        ``(LogoHead, {"threshold", "dev_recall", "dev_negatives_with_a_find"})``, the
        last two being the cross-validated dev numbers at that threshold.
    """
    from privlab.datasets.images import read_image
    from privlab.vision.logo_head import fit_logo_head, labelled_windows

    gallery = data["gallery"]
    fixed = [labelled_windows(read_image(p), boxes) for p, boxes in data["examples"]["gallery"]]
    fixed += [labelled_windows(read_image(p), []) for p in data["train_negatives"]]
    dev = [labelled_windows(read_image(p), boxes) for p, boxes in data["examples"]["dev"]]
    n_pos = len(dev)
    dev += [labelled_windows(read_image(p), []) for p in data["negatives"]["dev"]]
    fold = [i % folds for i in range(n_pos)] + [i % folds for i in range(len(dev) - n_pos)]
    best = [0.0] * len(dev)
    for k in range(folds):
        head = fit_logo_head(gallery, {"mcdonalds": fixed + [d for d, f in zip(dev, fold) if f != k]},
                             threshold=0.0)
        w, b = head.weights["mcdonalds"]
        for i, (feats, _) in enumerate(dev):
            if fold[i] == k:
                best[i] = float((feats @ w + b).max())
    threshold = max(best[n_pos:]) + 0.01
    head = fit_logo_head(gallery, {"mcdonalds": fixed + dev}, threshold=threshold)
    return head, {"threshold": threshold,
                  "dev_recall": sum(x >= threshold for x in best[:n_pos]) / n_pos,
                  "dev_negatives_with_a_find": sum(x >= threshold for x in best[n_pos:])}


def evaluate(detect, positives, negatives) -> dict[str, float]:
    """Recall, false finds and re-detection after blackout for one detector.

    Args:
        detect: ``rgb -> list of LogoMatch``.
        positives, negatives: photo paths.
    """
    from privlab.datasets.images import read_image

    found, left, finds, with_find, seconds = 0, 0, 0, 0, 0.0
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
    return {"positives": len(positives), "recall": found / max(1, len(positives)),
            "negatives": len(negatives), "false_finds_per_photo": finds / max(1, len(negatives)),
            "negatives_with_a_find": with_find,
            "found_again_after_blackout": left / max(1, found),
            "seconds_per_photo": seconds / max(1, len(positives) + len(negatives))}


def main() -> None:
    from privlab.vision.logos import DEFAULT_THRESHOLD, find_logos, match_logos

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "test", "both"), default="both")
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD,
                        help="for the cosine finder (the head's is chosen by cross-validation on dev)")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--no-cosine", action="store_true", help="only the learned head")
    args = parser.parse_args()
    if not PHOTOS.is_dir():
        raise SystemExit(f"The paper's photos are not at {PHOTOS} (see ../shared/data/README.md).")
    data = load_labels()
    gallery = data["gallery"]
    start = time.perf_counter()
    find_logos(np.zeros((64, 64, 3), np.uint8), gallery)  # describes the gallery crops
    print(f"gallery: {gallery!r}; crops described (and the model loaded) in {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    head, chosen = fit_head(data)
    print(f"learned head fitted on {len(data['examples']['dev'])} dev and "
          f"{len(data['examples']['gallery'])} gallery photos with boxes, "
          f"{len(data['negatives']['dev'])} dev and {len(data['train_negatives'])} other photos "
          f"without a logo ({head.examples[0]} positive, {head.examples[1]} negative windows) in "
          f"{time.perf_counter() - start:.0f} s; threshold {chosen['threshold']:.2f} chosen by "
          f"5-fold cross-validation on dev only: there dev recall {chosen['dev_recall']:.2f}, "
          f"{chosen['dev_negatives_with_a_find']} dev negatives with a find (no test photo used)")
    detectors = {f"learned head (threshold {head.threshold:.2f}, chosen on dev)":
                 lambda rgb: find_logos(rgb, gallery, head=head)}
    if not args.no_cosine:
        detectors[f"cosine to gallery crops (threshold {args.threshold:g})"] = \
            lambda rgb: find_logos(rgb, gallery, threshold=args.threshold)
    if not args.no_baseline:
        detectors["SIFT + RANSAC (baseline)"] = lambda rgb: match_logos(rgb, gallery, method="sift")
    splits = ("dev", "test") if args.split == "both" else (args.split,)
    for split in splits:
        for name, detect in detectors.items():
            r = evaluate(detect, data["positives"][split], data["negatives"][split])
            note = " (the head was fitted on these photos: optimistic)" if split == "dev" and "head" in name else ""
            print(f"[{split}] {name}: recall {r['recall']:.2f} of {r['positives']} photos with the "
                  f"arches; false finds {r['false_finds_per_photo']:.3f} per photo without a logo "
                  f"({r['negatives_with_a_find']} of {r['negatives']} with a find); found again "
                  f"after blackout {r['found_again_after_blackout']:.2f}; "
                  f"{r['seconds_per_photo']:.2f} s per photo{note}", flush=True)


if __name__ == "__main__":
    main()
