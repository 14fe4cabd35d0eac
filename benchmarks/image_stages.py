"""The stages of a real image audit, per image, and what running them on all cores gives.

An image audit reads every image's text (rapidocr), finds its faces (YuNet) and embeds
it (here SFace for faces, EfficientNet-Lite0 for the whole image). This prints, on
real photos that installed packages ship (scikit-image's astronaut, coffee and
chelsea, matplotlib's Grace Hopper, scikit-learn's China and flower) and study 01's
generated scenes:

  1. seconds per image of each stage, serial in this process, from an empty cache
     (models loaded beforehand, so only the work is timed), and each stage's share of
     the total: the slowest stage is the one to spread;
  2. OCR and face detection through :func:`privlab.scale.parallel.parallel_map` with
     1 and with all cores (fresh worker processes, each loading its own model: that
     start-up is inside the time), as a ratio to the serial time;
  3. that the parallel readings equal the serial ones.

Nothing is asserted: this is a measurement to read.

    python benchmarks/image_stages.py            # about 2 minutes on 2 cores
    python benchmarks/image_stages.py --repeat 4 # four shifted copies of the set (more work
                                                 # per worker, nothing served by the cache)
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np


def real_photos() -> dict[str, np.ndarray]:
    """Photos shipped inside installed packages, as RGB arrays."""
    import matplotlib
    from PIL import Image
    from skimage import data
    from sklearn.datasets import load_sample_images

    hopper = Path(matplotlib.get_data_path()) / "sample_data" / "grace_hopper.jpg"
    china, flower = load_sample_images().images
    photos = {"astronaut": data.astronaut(), "coffee": data.coffee(), "chelsea": data.chelsea(),
              "grace_hopper": np.asarray(Image.open(hopper).convert("RGB")),
              "china": china, "flower": flower}
    return {k: np.ascontiguousarray(v) for k, v in photos.items()}


def generated_scenes() -> dict[str, np.ndarray]:
    """Study 01's smoke scenes (faces with captions)."""
    from privlab.datasets.scenes import celebrity_scenes
    from privlab.studies import dicaprio

    config = dicaprio.Config.smoke()
    return {f"scene {s.index}": s.image for s in celebrity_scenes(config.n_images,
                                                                   config.seed).scenes}


def empty_cache(root: Path, name: str) -> None:
    """Point privlab (and worker processes, through the environment) at an empty cache."""
    from privlab.vision import ocr

    folder = root / name
    folder.mkdir(parents=True)
    os.environ["PRIVLAB_CACHE"] = str(folder)
    ocr._OCR_MEMO.clear()


def seconds(fn) -> tuple[object, float]:
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="how many times the set is audited")
    args = parser.parse_args(argv)

    from privlab.encoders import get_encoder
    from privlab.scale.parallel import parallel_map
    from privlab.vision.faces import detect_faces
    from privlab.vision.ocr import read_text

    images = {**real_photos(), **generated_scenes()}
    # Each repeat is shifted by a few pixels: other pixels, so no cache or memo serves it.
    batch = [np.ascontiguousarray(np.roll(image, 7 * copy, axis=1))
             for copy in range(args.repeat) for image in images.values()]
    cores = os.cpu_count() or 1
    print(f"{len(batch)} images ({', '.join(images)}; {args.repeat} shifted copies), "
          f"{cores} cores")

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        warm = np.ascontiguousarray(batch[0][:, ::-1])  # loads every model outside the timing
        empty_cache(root, "warm")
        read_text(warm), detect_faces(warm)
        members = {name: get_encoder(name) for name in ("sface", "efficientnet-lite0")}
        for member in members.values():
            member.encode([warm])

        print("\n1. stages, serial, from an empty cache (seconds per image)")
        stages = {}
        empty_cache(root, "serial")
        serial_text, stages["OCR (rapidocr)"] = seconds(lambda: [read_text(i) for i in batch])
        serial_faces, stages["face detection (YuNet)"] = seconds(
            lambda: [detect_faces(i) for i in batch])
        for name, member in members.items():
            empty_cache(root, f"member-{name}")
            stages[f"embedding ({name})"] = seconds(lambda: member.encode(batch))[1]
        total = sum(stages.values())
        print(f"{'stage':32s} {'s / image':>10s} {'share':>7s}")
        for stage, s in sorted(stages.items(), key=lambda kv: -kv[1]):
            print(f"{stage:32s} {s / len(batch):10.3f} {s / total:7.1%}")

        print(f"\n2. parallel_map over the set (x = serial seconds / these seconds; worker "
              f"start-up and model loading included)")
        print(f"{'stage':32s} {'workers':>7s} {'seconds':>8s} {'x':>6s} {'same':>5s}")
        for label, fn, serial, serial_out in (
                ("OCR (rapidocr)", read_text, stages["OCR (rapidocr)"], serial_text),
                ("face detection (YuNet)", detect_faces, stages["face detection (YuNet)"],
                 serial_faces)):
            for workers in sorted({1, cores}):
                empty_cache(root, f"{fn.__name__}-{workers}")
                out, s = seconds(lambda: parallel_map(fn, batch, workers=workers))
                print(f"{label:32s} {workers:7d} {s:8.2f} {serial / s:6.2f} "
                      f"{'yes' if out == serial_out else 'NO':>5s}")


if __name__ == "__main__":
    main()
