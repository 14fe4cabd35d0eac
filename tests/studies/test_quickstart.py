"""Study 00: the weak list leaks, the strong list does not, under the packaged MiniLM."""

from __future__ import annotations

import pytest

from privlab.datasets import quickstart as corpus
from privlab.errors import PrivlabValueError
from privlab.studies import quickstart

# The module's shared fixtures are built once: its tests stay on one xdist worker.
pytestmark = pytest.mark.xdist_group("studies.test_quickstart")


@pytest.fixture(scope="session")
def result():
    return quickstart.run(quickstart.Config.default())


def test_weak_list_leaks_and_strong_list_passes(result):
    weak, strong = result.audits["weak"].members[0], result.audits["strong"].members[0]
    # Measured with all-MiniLM-L6-v2 (the README's demo line): 0.217 at x6/y5 and 0.
    assert weak.value == pytest.approx(0.217, abs=0.002)
    assert (weak.witness.audited, weak.witness.reference) == (6, 5)
    assert strong.value == 0.0
    # Removing more costs utility.
    assert strong.mean_utility < weak.mean_utility


def test_the_name_is_gone_after_both_lists(result):
    assert result.audits["weak"].baseline.count == 0
    assert result.audits["strong"].baseline.count == 0
    assert corpus.TARGET in " ".join(corpus.TEXTS)


def test_frames_headline_and_provenance(result):
    frame = result.to_frame()
    assert frame["concept list"].tolist() == ["weak", "strong"]
    assert frame["concepts"].tolist() == [len(corpus.WEAK_CONCEPTS), len(corpus.STRONG_CONCEPTS)]
    witness = result.witness_frame("weak")
    assert list(witness.columns)[:3] == ["sanitized x (item 6)", "original y (item 5)",
                                         "sanitized y (item 5)"]
    headline = result.headline()
    assert headline.text == "minilm: weak list: resolution 0.217; strong list: resolution 0.000"
    assert headline.details == ("weak list: witness x6/y5", "strong list: witness x2/y11")
    assert any("written by privlab" in c for c in headline.caveats)
    assert result.provenance["data"] == 12 and len(result.provenance["corpus_hash"]) == 16
    with pytest.raises(PrivlabValueError, match="'label' parameter of QuickstartResult"):
        result.witness_frame("medium")


def test_empty_corpus_is_refused():
    with pytest.raises(PrivlabValueError, match="'data' parameter of quickstart.run"):
        quickstart.run(quickstart.Config(data=()))
