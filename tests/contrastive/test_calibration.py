"""Table 3 boundaries against a plain double loop, and the calibration study."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.contrastive.calibration import boundaries, calibrate_pair
from privlab.datasets.concepts import DEFAULT_SETS, load_concept_folder, parse_concept_text
from privlab.sanitizers import ConceptListSanitizer
from privlab.studies import calibration


def _unit_rows(rng, n, d):
    x = rng.normal(size=(n, d))
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_boundaries_match_the_definition_pair_by_pair():
    rng = np.random.default_rng(0)
    U, Us, V, Vs = (_unit_rows(rng, n, 5) for n in (3, 3, 4, 4))
    D = lambda a, b: 1.0 - float(a @ b)  # noqa: E731
    expected = np.array([[min(D(Us[i], V[j]), D(U[i], Vs[j])) - D(U[i], V[j]) for j in range(4)]
                         for i in range(3)])
    np.testing.assert_allclose(boundaries(U, Us, V, Vs), expected, atol=1e-12)
    with pytest.raises(ValueError, match="'U_sanitized' parameter of boundaries"):
        boundaries(U, Us[:2], V, Vs)


def test_calibrate_pair_drops_unchanged_renderings_and_refuses_no_change():
    cal = calibrate_pair(["a dog runs", "the sky is blue"], ["a cat naps"],
                         ConceptListSanitizer(["dog"]), ConceptListSanitizer(["cat"]), "lexical")
    assert cal.kept == (1, 1) and cal.total == (2, 1)
    with pytest.raises(ValueError, match="changes at least one rendering"):
        calibrate_pair(["sky"], ["cat"], ConceptListSanitizer(["dog"]),
                       ConceptListSanitizer(["cat"]), "lexical")


def test_related_pairs_have_larger_boundaries_than_unrelated_ones():
    table = calibration.run_text(calibration.Config(pairs=(("dogs", "cats"), ("dogs", "oranges")),
                                                    data="default"))
    frame = table.to_frame().set_index("pair")
    assert frame.loc["dogs/cats", "pairs"] == 144
    assert frame.loc["dogs/cats", "p95"] > frame.loc["dogs/oranges", "p95"] + 0.03
    assert table.interpret(1.0)["share below delta"].tolist() == [1.0, 1.0]


def test_concept_files_layout(tmp_path):
    assert parse_concept_text("One dog.\n\nTwo\ndogs.\n") == ("One dog.", "Two dogs.")
    (tmp_path / "dogs.txt").write_text("\n\n".join(DEFAULT_SETS["dogs"]))
    assert load_concept_folder(tmp_path)["dogs"] == DEFAULT_SETS["dogs"]
    with pytest.raises(ValueError, match="'folder' parameter"):
        load_concept_folder(tmp_path / "none")


def test_shared_concept_files(shared_data):
    if not (shared_data / "concepts").is_dir():
        pytest.skip("concepts/ is absent from the shared data folder")
    sets = load_concept_folder(shared_data / "concepts")
    assert {"dogs", "cats", "oranges", "lemons"} <= set(sets)
    assert all(45 <= len(s) <= 55 for s in sets.values())


def test_auto_source_uses_the_paper_files_when_present_and_says_so(shared_data):
    if not (shared_data / "concepts").is_dir():
        pytest.skip("concepts/ is absent from the shared data folder")
    assert calibration.Config().data == "auto"
    assert calibration.resolve_source("auto") == "shared"
    files = load_concept_folder(shared_data / "concepts")
    result = calibration.run(calibration.Config(pairs=(("dogs", "cats"),), images=False))
    row = result.text.to_frame().iloc[0]
    assert row["pairs"] == len(files["dogs"]) * len(files["cats"])  # every paper sentence
    pair = result.text.pairs[0]
    assert pair.percentiles[95.0] == pytest.approx(np.percentile(pair.values, 95))
    assert pair.percentiles[95.0] == pytest.approx(0.0835, abs=5e-4)  # measured, MiniLM
    assert result.text.provenance["source"] == "shared"
    assert "the paper's concept sentence files" in result.headline().caveats[0]
    own = calibration.run(calibration.Config(pairs=(("dogs", "cats"),), images=False,
                                             data="default"))
    assert own.text.pairs[0].values.shape == (12, 12)
    assert own.text.pairs[0].percentiles[95.0] == pytest.approx(0.071, abs=5e-4)
    assert "privlab's own concept sentences (12 per concept)" in own.headline().caveats[0]


def test_auto_source_falls_back_to_privlabs_sets(monkeypatch):
    monkeypatch.setattr(calibration, "shared_concepts_dir", lambda: None)
    assert calibration.resolve_source("auto") == "default"
    assert calibration.load_sets("auto") == DEFAULT_SETS
    with pytest.raises(ValueError, match="'data' parameter of calibration.load_sets"):
        calibration.load_sets("shared")
