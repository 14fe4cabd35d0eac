"""Study 05: which ε numbers mean something, checked on mechanisms of known ε.

``run(Config())`` computes, on a sub-grid of the known-ε benchmark:

* ``explore`` — every chosen auditor on one chosen setting (the notebook's widgets);
* ``null_table`` — the paper's Table 4 (true ε = 0) beside the paper's numbers;
* ``curves`` — Figure 2 data (method output against exact median pairwise ε at one n),
  with the population-optimal AUC as ``reference``: closed form for the Gaussian family,
  Monte Carlo with the exact likelihood ratio for Laplace
  (:func:`privlab.epsilon.reference.laplace_reference_auc`);
* ``power`` — Figure 3 data (how often the certificate is positive);
* ``validity`` — whether any certified bound exceeds its exact ε.

``Config.default()`` gives tiny settings when ``PRIVLAB_SMOKE=1``; ``full_grid=True``
runs the paper's complete 468-setting grid (hours on two cores; resumable).
"""

from __future__ import annotations

import html
import math
from dataclasses import asdict, dataclass, field
from typing import Any

import pandas as pd

from privlab.epsilon import benchmark as B
from privlab.epsilon import mechanisms as M
from privlab.epsilon.auditors import gaussmech_null_floor
from privlab.epsilon.reference import laplace_reference_auc
from privlab.errors import invalid
from privlab.studies.contract import Headline, StudyConfig, registry

STUDY = "05 known-ε"


@dataclass
class Config(StudyConfig):
    """Settings of study 05 (defaults: a sub-grid that runs in a few minutes on 2 cores).

    Attributes:
        mechanism, geometry, n, epsilon, auditors: the single setting explored in detail.
        mechanisms, geometries: families and prototype sets of the null table.
        null_sizes, null_repetitions: n values and repetitions of the null table.
        curve_n, curve_epsilons, curve_geometries, curve_repetitions: Figure 2 sub-grid.
        power_epsilons, power_sizes, power_geometries: Figure 3 sub-grid (reserved tests).
        n_pairs: predeclared pairs per setting (the paper: 40).
        reference_draws, reference_seed: Monte Carlo draws per class and seed of the
            Laplace optimal-AUC reference (the paper: 20,000 draws).
        n_jobs: worker processes.
        full_grid: run the paper's full grid instead of the sub-grids.
        cache: reuse stored settings.
        progress: show progress bars.
    """

    mechanism: str = "laplace"
    geometry: str = "dispersed"
    n: int = 100
    epsilon: float = 0.0
    auditors: tuple[str, ...] = B.DEFAULT_METHODS
    mechanisms: tuple[str, ...] = ("laplace", "gaussian")
    geometries: tuple[str, ...] = ("dispersed", "clustered")
    null_sizes: tuple[int, ...] = (30, 100, 300)
    null_repetitions: tuple[int, ...] = (0,)
    curve_n: int = 100
    curve_epsilons: tuple[float, ...] = (0.0, 0.5, 2.0, 8.0, 32.0, 128.0)
    curve_geometries: tuple[str, ...] = ("dispersed",)
    curve_repetitions: tuple[int, ...] = (0,)
    power_epsilons: tuple[float, ...] = (0.0, 4.0, 16.0, 64.0, 256.0)
    power_sizes: tuple[int, ...] = (30, 100, 300)
    power_geometries: tuple[str, ...] = ("dispersed",)
    n_pairs: int = B.N_PAIRS
    reference_draws: int = 20_000
    reference_seed: int = 0
    n_jobs: int = 2
    full_grid: bool = False
    cache: bool = True
    progress: bool = True

    @classmethod
    def smoke_settings(cls) -> dict:
        """Tiny settings for tests and ``PRIVLAB_SMOKE=1`` (well under a minute)."""
        return dict(n=30, null_sizes=(30, 100), geometries=("dispersed",),
                    curve_n=30, curve_epsilons=(0.0, 8.0, 64.0),
                    power_epsilons=(0.0, 16.0, 256.0), power_sizes=(30, 100), n_pairs=6,
                    reference_draws=500)


@dataclass
class KnownEpsilonResult:
    """What study 05 computed; every table keeps each method's status.

    Attributes:
        config: the settings used.
        explore: per-method summary of the explored setting (status, median, +∞ count,
            exact median ε).
        explore_rows: its tidy per-pair table.
        null_table: Table 4 recomputed (index n).
        paper_null_table: Table 4 as published.
        null_floor: Eq. 22 per n (the GaussMech value expected at ε = 0).
        curves: Figure 2 data; power: Figure 3 data; validity: bound-above-truth check.
        frame: every row of every setting run.
        provenance: seeds are derived from setting keys; prototype hashes; option values.
        laplace_reference: per-pair Monte Carlo optimal AUC of the Laplace mechanism
            behind the Laplace ``reference`` of ``curves``.
    """

    config: Config
    explore: pd.DataFrame
    explore_rows: pd.DataFrame
    null_table: pd.DataFrame
    paper_null_table: pd.DataFrame
    null_floor: pd.Series
    curves: pd.DataFrame
    power: pd.DataFrame
    validity: pd.DataFrame
    frame: pd.DataFrame = field(repr=False)
    provenance: dict[str, Any] = field(default_factory=dict)
    laplace_reference: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)

    def null_certificates(self) -> tuple[int, int]:
        """(positive certified bounds, rows) among reserved tests at true ε = 0."""
        f = self.frame[(self.frame["epsilon"] == 0)
                       & self.frame["method"].isin(["reserved", "reserved-exact"])]
        return int((f["value"] > 0).sum()), len(f)

    def null_infinite_share(self) -> float:
        """Share of out-of-fold ROC conversions equal to +∞ at true ε = 0."""
        f = self.frame[(self.frame["epsilon"] == 0) & (self.frame["method"] == "roc-ht")]
        return float((f["value"] == math.inf).mean()) if len(f) else math.nan

    def summary(self) -> str:
        """The one line that matters: at true ε = 0, what each kind of number says."""
        pos, rows = self.null_certificates()
        gm = self.null_table["GaussMech"].dropna()
        gm_text = f"GaussMech {gm.iloc[-1]:.1f} at n={gm.index[-1]}" if len(gm) else "GaussMech n/a"
        return (f"true ε=0: certified bound >0 on {pos}/{rows} tests; "
                f"ROC-HT +∞ on {100 * self.null_infinite_share():.0f}% of pairs; {gm_text}")

    def headline(self) -> Headline:
        """:meth:`summary` with its status and what it rests on."""
        return Headline(STUDY, self.summary(),
                        "known-ε benchmark: each auditor keeps its own status (reserved test: "
                        "finite-sample certificate; GaussMech: diagnostic; KDE-LR, MMD-TV: "
                        "uncertified population bounds; ROC-HT: descriptive)",
                        ("synthetic mechanisms with exactly known ε over prototype embeddings "
                         "generated by privlab",
                         "settings: " + ("the paper's full grid" if self.config.full_grid
                                         else "a reduced grid (see the config)")))

    def to_frame(self) -> pd.DataFrame:
        """The recomputed null table beside the paper's (suffix ``paper``)."""
        return self.null_table.join(self.paper_null_table, rsuffix=" paper", how="left")

    def _repr_html_(self) -> str:
        return (f"<b>{html.escape(self.summary())}</b>"
                + self.explore.to_html(index=False) + self.to_frame().to_html())


def _settings(cfg: Config) -> dict[str, list[B.Setting]]:
    if cfg.full_grid:
        main = B.grid()
        return {"null": [s for s in main if s.epsilon == 0], "curves": main,
                "power": B.grid(epsilons=B.VALIDITY_GRID)}
    return {
        "null": B.grid(cfg.mechanisms, cfg.geometries, [0.0], cfg.null_sizes,
                       cfg.null_repetitions),
        "curves": B.grid(cfg.mechanisms, cfg.curve_geometries, cfg.curve_epsilons,
                         [cfg.curve_n], cfg.curve_repetitions),
        "power": B.grid(cfg.mechanisms, cfg.power_geometries, cfg.power_epsilons,
                        cfg.power_sizes, [0]),
    }


def _with_laplace_reference(curves: pd.DataFrame, cfg: Config) -> tuple[pd.DataFrame,
                                                                       pd.DataFrame]:
    """Fill the Laplace rows of ``curves['reference']`` with the Monte Carlo optimal AUC.

    Per geometry the median over pairs is taken, then the mean over geometries, as
    :func:`privlab.epsilon.benchmark.method_curves` does for the Gaussian family.
    """
    curves = curves.copy()
    laplace = curves["mechanism"] == "laplace"
    if not laplace.any():
        return curves, pd.DataFrame()
    geometries = M.GEOMETRIES if cfg.full_grid else tuple(cfg.curve_geometries)
    epsilons = sorted(set(curves.loc[laplace, "epsilon"].astype(float)))
    tables, medians = [], []
    for g in dict.fromkeys(geometries):
        table, median = laplace_reference_auc(
            g, epsilons, n_pairs=cfg.n_pairs, draws=cfg.reference_draws,
            seed=cfg.reference_seed, n_jobs=cfg.n_jobs, cache=cfg.cache)
        tables.append(table)
        medians.append(median)
    reference = pd.concat(medians, axis=1).mean(axis=1)
    curves.loc[laplace, "reference"] = curves.loc[laplace, "epsilon"].astype(float).map(reference)
    return curves, pd.concat(tables, ignore_index=True)


@registry.member("known_epsilon", number="05", title=STUDY, notebook="05_known_epsilon")
def run(config: Config | None = None) -> KnownEpsilonResult:
    """Run study 05.

    Args:
        config: settings; default :meth:`Config.for_notebook`.

    Returns:
        A :class:`KnownEpsilonResult`.

    Raises:
        PrivlabValueError: on an invalid explored setting or auditor name.
    """
    cfg = Config.for_notebook() if config is None else config
    if not isinstance(cfg, Config):
        raise invalid("config", "known_epsilon.run", "a Config", cfg)
    auditors = tuple(cfg.auditors)
    for a in auditors:
        if a not in B.BENCHMARK_METHODS:
            raise invalid("auditors", "known_epsilon.run", f"names from {B.BENCHMARK_METHODS}", a)
    explore_setting = B.Setting(cfg.mechanism, cfg.geometry, float(cfg.epsilon), int(cfg.n))
    common = dict(n_pairs=cfg.n_pairs, n_jobs=cfg.n_jobs, cache=cfg.cache,
                  progress=cfg.progress)
    explore_rows = B.run_sweep([explore_setting], methods=auditors or B.DEFAULT_METHODS, **common)
    sets = _settings(cfg)
    full = B.run_sweep(list(dict.fromkeys(sets["null"] + sets["curves"])), **common)
    power_frame = B.run_sweep(sets["power"], methods=("reserved", "reserved-exact"), **common)
    curve_keys = {s.key() for s in sets["curves"]}
    curve_frame = full[[B.Setting(m, g, e, n, r).key() in curve_keys for m, g, e, n, r in
                        full[["mechanism", "geometry", "epsilon", "n", "repetition"]]
                        .itertuples(index=False)]]
    curves, laplace_reference = _with_laplace_reference(
        B.method_curves(curve_frame, n=100 if cfg.full_grid else cfg.curve_n), cfg)
    null = B.null_table(full)
    floor = pd.Series({n: gaussmech_null_floor(512, n) for n in null.index}, name="Eq. 22")
    everything = pd.concat([full, power_frame], ignore_index=True)
    prov = {"config": asdict(cfg),
            "prototype_sha256": {g: B.prototypes(g).sha256 for g in cfg.geometries},
            "seeds": "derived from each setting's key (crc32)",
            "laplace_reference": {"draws": cfg.reference_draws, "seed": cfg.reference_seed,
                                  "n_pairs": cfg.n_pairs},
            "n_settings":
                int(everything.groupby(["mechanism", "geometry", "epsilon", "n",
                                        "repetition"]).ngroups)}
    return KnownEpsilonResult(
        config=cfg, explore=B.per_setting(explore_rows), explore_rows=explore_rows,
        null_table=null, paper_null_table=B.PAPER_TABLE4.copy(), null_floor=floor,
        curves=curves,
        power=B.power_curves(everything), validity=B.validity_summary(everything),
        frame=everything, provenance=prov, laplace_reference=laplace_reference)
