"""The SPIA reference files, loaded once per test module (skipped when absent)."""

from __future__ import annotations

import pytest

from privlab.redaction.spia.records import load_spia

FILES = {  # file -> (counted subjects, counted PIIs, all subjects), from data/README.md
    "spia_tab_144.jsonl": (580, 3064, 586),
    "spia_panorama_151.jsonl": (319, 943, 360),
    "spia_panorama_531.jsonl": (992, 2969, 1126),
}


@pytest.fixture(scope="session")
def loaded():
    """``{file name: records}`` for every file of :data:`FILES`."""
    from privlab.config import shared_data_dir

    folder = shared_data_dir()
    if folder is None or not (folder / "spia").is_dir():
        pytest.skip("reference data folder ../shared/data/spia is absent")
    return {name: load_spia(folder / "spia" / name) for name in FILES}
