"""The figures prose quotes are what the code prints now: two studies whose notebook
settings are cheap are run again and compared with the committed record of a demo run."""

from __future__ import annotations

from pathlib import Path

import pytest

from privlab.cli.quote import read_record, record_figures

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "benchmarks" / "records" / "headlines-demo.json"


@pytest.mark.parametrize("slug, notebook", [("redacbench", "07_redacbench"),
                                            ("avengers", "03_avengers")])
def test_a_fresh_run_prints_the_recorded_figures(slug, notebook, monkeypatch):
    import importlib

    monkeypatch.setenv("PRIVLAB_PROFILE", "demo")
    study = importlib.import_module(f"privlab.studies.{slug}")
    recorded = record_figures(read_record(RECORD))[notebook]
    assert recorded, f"the record holds no figure of {notebook}"
    printed = study.run(study.Config.for_notebook()).quoted_figures()
    assert {k: printed.get(k) for k in recorded} == recorded


def test_redacbench_figures_are_its_counts_and_print_whole():
    """A figure's name and value pass the headline's checks (no '<', one line); every
    study's are checked the same way by the contract test."""
    from privlab.studies import redacbench
    from privlab.studies.contract import Headline

    result = redacbench.run(redacbench.Config.smoke())
    figures = result.quoted_figures()
    assert figures["documents"] == f"{len(result.documents):,}"
    h = Headline("07 RedacBench", "x", "diagnostic", figures=figures)
    assert Headline.parse(h.lines())[0].figures == figures


def test_the_enron_figures_are_the_table_s_and_the_surname_count():
    from privlab.studies import enron

    result = enron.run(enron.Config.smoke(data="offline", sanitizers=("presidio",)))
    figures = result.quoted_figures()
    audit = result.table["presidio"]
    assert figures["texts"] == f"{len(result.corpus):,}"
    assert figures["presidio.resolution"] == f"{audit.members[0].value:.3f}"
    assert figures["presidio.name_kept"] == f"{audit.baseline.count:,}"
    assert figures["presidio.surname_kept"] == f"{result.surname_leaks('presidio').count:,}"
    texts = result.corpus.texts
    assert figures["repeats"] == f"{len(texts) - len(set(texts)):,}"
