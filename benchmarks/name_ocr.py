"""The name check's two OCR readers on real photos: does a second reader find copies of
the name that the text sanitizers' own reader (rapidocr) misses, or any they leave?

Data (not in the repository): the contrastive-privacy paper's photos under
``../shared/data/paper/images``: the restaurant photos (``mcdonalds_large``, the name
"McDonald's" on signs, cups and menus) and the DiCaprio photos (``dicaprio``, the name
"Leonardo DiCaprio"). For each folder this prints, per engine
(:func:`privlab.vision.concepts.compare_name_readers`): the photos where it spells the
name, those where only it does, those where it still does after the OCR text blackout
(``text-blackout-ocr``, which removes what rapidocr reads), and seconds per photo.
Nothing is asserted; tests/vision/test_second_ocr.py holds the pass/fail lines.

    python benchmarks/name_ocr.py                    # about 10 minutes on two cores (EasyOCR)
    python benchmarks/name_ocr.py --folder dicaprio
"""

from __future__ import annotations

import argparse
import sys

from privlab.config import shared_data_dir
from privlab.datasets.images import load_folder
from privlab.sanitizers import registry
from privlab.vision.concepts import compare_name_readers

FOLDERS = {"mcdonalds_large": ["McDonald's"], "dicaprio": ["Leonardo DiCaprio"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", choices=sorted(FOLDERS), action="append",
                        help="a folder of the paper's photos (default: both)")
    parser.add_argument("--max-side", type=int, default=1024,
                        help="longest side in pixels (the photos' own: 1024)")
    args = parser.parse_args(argv)
    shared = shared_data_dir()
    if shared is None:
        print("../shared/data is absent: nothing to measure", file=sys.stderr)
        return 1
    sanitizer = registry.create("text-blackout-ocr")
    for folder in args.folder or list(FOLDERS):
        photos = load_folder(shared / "paper" / "images" / folder, max_side=args.max_side)
        readers = compare_name_readers(photos.images, FOLDERS[folder], sanitizer)
        print(f"\n{folder}: {readers.images} photos, names {list(readers.names)}, "
              f"after {readers.sanitizer}")
        print(readers.table().to_string())
        for engine in readers.before:
            only = [photos.names[i] for i in readers.only(engine)]
            left = [photos.names[i] for i in readers.after.get(engine, ())]
            if only or left:
                print(f"  {engine}: only it reads the name in {only}; still after: {left}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
