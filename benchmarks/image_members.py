"""Seconds per image of every image member and sanitizer, cold and warm, and OCR sharing.

Images: study 01's smoke corpus (4 generated scenes, 480 x 360) and four real photos
that installed packages ship (scikit-image's astronaut and coffee, matplotlib's Grace
Hopper, scikit-learn's China), at their own sizes (at most 640 pixels a side).

* **Members and sanitizers.** Each is first run once on a photo outside the set (the
  mirrored astronaut), which loads its models: that time is printed as *load*. Then,
  for each in turn, the cache folder is emptied and the in-process OCR memo cleared
  (*cold*: nothing read or embedded before), the whole set is encoded or sanitized, and
  the same call is repeated (*warm*: embeddings, OCR readings and text embeddings
  cached). Printed: seconds per image, cold / warm, and each cold time over SFace's
  (members) or the YuNet face blackout's (sanitizers).
* **OCR sharing.** From an empty cache, the faces-and-text blackout, its placebo twin
  and the two members that read text (describe-then-embed, ocr-text) run one after the
  other on the set, the way an audit runs them. Every entry into
  :func:`privlab.vision.ocr.read_text` and every run of the rapidocr engine is counted,
  with the distinct images (by pixels) read. Printed per stage, then the engine's runs
  per distinct image (1.00: each image is read once, whoever asks) and the
  ``read_text`` calls per engine run (how many consumers share one reading). Without
  ``--quick`` the same count is taken over a whole cold ladder run
  (:func:`privlab.studies.dicaprio.run_ladder` on the smoke corpus: five members, four
  rungs, each with its placebo).

Nothing is asserted: this is a measurement to read.

    python benchmarks/image_members.py            # about 5 minutes on 2 cores
    python benchmarks/image_members.py --quick    # without the end-to-end ladder count
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

MEMBERS = ("sface", "dlib-face", "describe-then-embed", "ocr-text", "efficientnet-lite0")
SANITIZERS = ("face-blackout-yunet", "face-blackout-haar", "face-blur-yunet",
              "text-blackout-ocr", "faces-and-text-blackout", "people-and-text-blackout",
              "full-blackout")


def images() -> tuple[list[np.ndarray], list[str], np.ndarray]:
    """``(the set, a label per image, the warm-up photo)``."""
    import matplotlib
    from PIL import Image
    from skimage import data
    from sklearn.datasets import load_sample_images

    from privlab.datasets.scenes import celebrity_scenes
    from privlab.studies import dicaprio

    config = dicaprio.Config.smoke()
    scenes = celebrity_scenes(config.n_images, config.seed)
    hopper = Path(matplotlib.get_data_path()) / "sample_data" / "grace_hopper.jpg"
    photos = {"astronaut": data.astronaut(), "coffee": data.coffee(),
              "grace_hopper": np.asarray(Image.open(hopper).convert("RGB")),
              "china": load_sample_images().images[0]}
    out = [s.image for s in scenes.scenes] + [np.ascontiguousarray(p) for p in photos.values()]
    labels = [f"scene {s.index}" for s in scenes.scenes] + list(photos)
    return out, labels, np.ascontiguousarray(data.astronaut()[:, ::-1])


def fresh_cache(root: Path, name: str) -> None:
    """Point privlab at an empty cache folder and forget this process's OCR readings."""
    from privlab.vision import ocr

    folder = root / name
    folder.mkdir(parents=True, exist_ok=False)
    os.environ["PRIVLAB_CACHE"] = str(folder)
    ocr._OCR_MEMO.clear()


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def build(kind: str, name: str, gallery: dict):
    if kind == "member":
        from privlab.studies._images import build_encoders

        return build_encoders([name], gallery)[0]
    from privlab.sanitizers import registry

    return registry.create(name)


def speed_table(kind: str, names, batch, warmup, root: Path, gallery: dict) -> list[dict]:
    from privlab.encoders import registry as encoders
    from privlab.sanitizers import registry as sanitizers

    rows = []
    for name in names:
        reg = encoders if kind == "member" else sanitizers
        if not reg.available(name):
            print(f"  {name}: not installed here, skipped")
            continue
        obj = build(kind, name, gallery)
        call = (lambda items, o=obj: o.encode(items)) if kind == "member" else \
            (lambda items, o=obj: o.sanitize(items))
        fresh_cache(root, f"{kind}-{name}-load")
        load = timed(lambda: call([warmup]))
        fresh_cache(root, f"{kind}-{name}")
        cold = timed(lambda: call(batch)) / len(batch)
        warm = timed(lambda: call(batch)) / len(batch)
        rows.append({"name": name, "load": load, "cold": cold, "warm": warm})
    return rows


def print_speed(title: str, rows: list[dict], reference: str) -> None:
    base = next((r["cold"] for r in rows if r["name"] == reference), None)
    print(f"\n{title}")
    print(f"{'':26s} {'load s':>8s} {'cold s/img':>11s} {'warm s/img':>11s} "
          f"{'cold/warm':>10s} {'cold / ' + reference:>28s}")
    for r in rows:
        ratio = r["cold"] / r["warm"] if r["warm"] > 0 else float("inf")
        rel = f"{r['cold'] / base:.2f}" if base else "—"
        print(f"{r['name']:26s} {r['load']:8.2f} {r['cold']:11.3f} {r['warm']:11.4f} "
              f"{ratio:10.1f} {rel:>28s}")


class OCRCounter:
    """Counts entries into ``read_text`` (by the key it hashes) and runs of the engine."""

    def __init__(self):
        from privlab.hashing import content_hash
        from privlab.vision import ocr

        self.ocr, self.hash = ocr, content_hash
        self.engine = ocr._rapidocr()
        self.requests: Counter = Counter()  # read_text calls per image key
        self.runs: Counter = Counter()  # engine runs per image key
        self._saved = (ocr.content_hash, ocr._rapidocr)

    def __enter__(self):
        counter = self

        def counted_hash(rgb):
            key = counter.hash(rgb)
            counter.requests[key] += 1
            counter._last = key
            return key

        def engine():
            def run(bgr, **kw):
                counter.runs[counter._last] += 1
                return counter.engine(bgr, **kw)
            return run

        self.ocr.content_hash, self.ocr._rapidocr = counted_hash, engine
        return self

    def __exit__(self, *exc):
        self.ocr.content_hash, self.ocr._rapidocr = self._saved

    def totals(self) -> tuple[int, int, int]:
        return sum(self.requests.values()), sum(self.runs.values()), len(self.requests)


def ocr_sharing(batch, root: Path, gallery: dict) -> None:
    from privlab.contrastive.placebo import ImagePlacebo
    from privlab.sanitizers import registry

    fresh_cache(root, "sharing")
    sanitizer = registry.create("faces-and-text-blackout")
    twin = ImagePlacebo(sanitizer, seed=0)
    describer, reader = (build("member", m, gallery) for m in ("describe-then-embed", "ocr-text"))
    print("\nOCR sharing: faces-and-text blackout, its placebo, describe-then-embed, ocr-text "
          f"({len(batch)} originals, empty cache)")
    print(f"{'stage':34s} {'read_text calls':>16s} {'engine runs':>12s} {'distinct images':>16s}")
    state: dict = {}
    with OCRCounter() as counter:
        def stage(label, fn):
            before = counter.totals()
            state[label] = fn()
            after = counter.totals()
            print(f"{label:34s} {after[0] - before[0]:16d} {after[1] - before[1]:12d} "
                  f"{after[2]:16d}")

        stage("sanitizer (reads the originals)", lambda: sanitizer.sanitize(batch))
        sanitized = state["sanitizer (reads the originals)"]
        stage("placebo twin (avoids their text)", lambda: twin.apply(batch, sanitized))
        placebo = state["placebo twin (avoids their text)"]
        everything = list(batch) + list(sanitized) + list(placebo)
        stage("describe-then-embed (3 renderings)", lambda: describer.encode(everything))
        stage("ocr-text (3 renderings)", lambda: reader.encode(everything))
        requests, runs, distinct = counter.totals()
        repeated = sum(1 for n in counter.runs.values() if n > 1)
    print(f"engine runs per distinct image: {runs / distinct:.2f} ({runs} runs, {distinct} images, "
          f"{repeated} read more than once); read_text calls per engine run: "
          f"{requests / runs:.2f}")


def ladder_sharing(root: Path) -> None:
    from privlab.studies import dicaprio

    fresh_cache(root, "ladder")
    with OCRCounter() as counter:
        seconds = timed(lambda: dicaprio.run_ladder(
            dicaprio.LadderConfig.like(dicaprio.Config.smoke())))
        requests, runs, distinct = counter.totals()
    print(f"\nA cold ladder run (smoke corpus, 5 members, 4 rungs with placebos): {seconds:.1f} s; "
          f"engine runs per distinct image {runs / distinct:.2f} ({runs} runs, {distinct} "
          f"images); read_text calls per engine run {requests / runs:.2f}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="skip the end-to-end count over a cold ladder run")
    args = parser.parse_args(argv)
    from privlab.datasets.scenes import shipped_faces

    batch, labels, warmup = images()
    gallery = {name: [face] for name, face in shipped_faces().items()}
    print(f"{len(batch)} images: {', '.join(labels)}")
    saved = os.environ.get("PRIVLAB_CACHE")
    with tempfile.TemporaryDirectory(prefix="privlab-bench-") as tmp:
        root = Path(tmp)
        try:
            print_speed("Members (seconds per image)",
                        speed_table("member", MEMBERS, batch, warmup, root, gallery), "sface")
            print_speed("Sanitizers (seconds per image)",
                        speed_table("sanitizer", SANITIZERS, batch, warmup, root, gallery),
                        "face-blackout-yunet")
            ocr_sharing(batch, root, gallery)
            if not args.quick:
                ladder_sharing(root)
        finally:
            if saved is None:
                os.environ.pop("PRIVLAB_CACHE", None)
            else:
                os.environ["PRIVLAB_CACHE"] = saved


if __name__ == "__main__":
    main()
