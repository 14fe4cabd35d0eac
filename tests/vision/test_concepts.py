"""Which concept checks look with a sanitizer's own detector (the fidelity table's
``independent`` column) and which of them say nothing when silent (unverified)."""

from __future__ import annotations

import numpy as np
import skimage.data

from privlab.sanitizers import registry
from privlab.vision.concepts import LogoCheck, NameCheck


def _detectors(name: str, **kw) -> list[dict]:
    return registry.create(name, **kw).describe()["detectors"]


def test_the_name_check_shares_the_ocr_of_a_text_blackout_and_nothing_else():
    check = NameCheck(["Eileen Collins"])
    [ocr] = _detectors("text-blackout-ocr")
    [yunet] = _detectors("face-blackout-yunet")
    assert check.shares_detector(ocr) and not check.shares_detector(yunet)
    # Shared, but measured nowhere to hide what it leaves: shown, not counted against it.
    assert not check.blind_to(ocr)


def test_the_logo_check_is_blind_only_to_the_finder_it_looks_with():
    logos = {"scikit-image": [skimage.data.logo()[..., :3]]}
    check = LogoCheck(logos)
    [sift] = _detectors("logo-blackout", logos=logos)
    assert sift["method"] == "sift"
    # Keypoint matching is half of the check: shared, and the check also looks another way.
    assert check.shares_detector(sift) and not check.blind_to(sift)

    class Finder:  # stands for a fitted LogoFinder: only its content key matters here
        def __init__(self, key):
            self.key = key

        def describe(self):
            return {"key": self.key}

        def find(self, rgb):
            return []

    looking = LogoCheck(logos, finder=Finder("a"))
    assert looking.blind_to({"detector": "logos", "method": "finder", "finder": {"key": "a"}})
    assert not looking.blind_to({"detector": "logos", "method": "finder",
                                 "finder": {"key": "b"}})  # another gallery's finder
    assert not looking.blind_to({"detector": "yunet"})
    assert not looking.shares_detector({"detector": "ocr-text"})
    assert looking.find(np.zeros((32, 32, 3), np.uint8)) == ()
