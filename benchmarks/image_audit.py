"""Seconds of the default folder audit on real photos, cold, and where they go.

Runs study 01's default folder audit (four detector-based sanitizers, each with its
placebo, four members, the operational-condition checks) on a folder of photos, from an
empty cache in a fresh process (models are loaded inside the time: this is what a user
waits for the first time). It prints the wall time, the seconds per photo, the number of
OCR calls (full readings of the originals and readings near the marks of the sanitized
and placebo images) and the slowest functions, and the headline.

    python benchmarks/image_audit.py ../shared/data/paper/images/dicaprio
    taskset -c 0,1 python benchmarks/image_audit.py PHOTOS --gallery FACES   # two cores

The default folder is the paper's DiCaprio photos (27) when present. Report the load of
the machine with the time: on a shared machine the same run takes several times longer.
Nothing is asserted: this is a measurement to read.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import tempfile
import time
from pathlib import Path

DEFAULT_FOLDER = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "paper" / \
    "images" / "dicaprio"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(DEFAULT_FOLDER))
    parser.add_argument("--gallery", default=None, help="a face gallery folder (optional)")
    parser.add_argument("--study", default="dicaprio", choices=["dicaprio", "mcdonalds"])
    parser.add_argument("--logos", default=None, help="a logo gallery folder (optional)")
    parser.add_argument("--profile", type=int, default=25, help="functions listed (0: none)")
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    if not folder.is_dir():
        raise SystemExit(f"no folder {folder}: give a folder of photos as the first argument")

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["PRIVLAB_CACHE"] = tmp  # cold: no OCR reading or embedding cached
        load = os.getloadavg()
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        start = time.perf_counter()
        cpu0 = time.process_time()
        from privlab.studies import dicaprio, mcdonalds
        from privlab.vision import ocr

        calls = {"whole": 0, "crops": 0}
        pixels = ocr._read_pixels

        def counted_pixels(rgb, scale=None):
            calls["whole" if scale is None else "crops"] += 1
            return pixels(rgb, scale)

        ocr._read_pixels = counted_pixels
        study = dicaprio if args.study == "dicaprio" else mcdonalds
        config = study.Config(data=str(folder), gallery=args.gallery, logos=args.logos)
        profiler = cProfile.Profile()
        result = profiler.runcall(study.run, config)
        wall = time.perf_counter() - start
        cpu = time.process_time() - cpu0
    n = len(result.images)
    print(f"{n} photos from {folder}, study {args.study}, sanitizers {list(config.sanitizers)}, "
          f"members {list(config.encoders)}")
    print(f"cores available: {cores}; load average before the run: "
          f"{load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f}; after: "
          + ", ".join(f"{v:.1f}" for v in os.getloadavg()))
    print(f"wall {wall:.1f} s cold (imports and model loading included), {wall / n:.2f} s per "
          f"photo; CPU time of this process {cpu:.1f} s")
    print(f"rapidocr runs: {calls['whole']} on whole images, {calls['crops']} on crops near "
          "the marks of sanitized and placebo images")
    print("headline:", result.summary())
    if args.profile:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(args.profile)
        print(out.getvalue())


if __name__ == "__main__":
    main()
