"""Study 05: which ε numbers mean something, checked on mechanisms of known ε.

``run(Config())`` recomputes, on sub-grids of the known-ε benchmark, the paper's null
table, Figures 2 and 3, the certificates side by side, claim tests, validity and the
appendix tables, each method with its status (``full_grid=True``: the paper's grids).
See ``docs/methods/studies-epsilon.md``.
"""

from __future__ import annotations

import html
import math
from dataclasses import asdict, dataclass, field
from typing import Any

import pandas as pd

from privlab.epsilon import benchmark as B
from privlab.epsilon import mechanisms as M
from privlab.epsilon import claims as C
from privlab.epsilon import summaries as S
from privlab.epsilon.auditors import Status, gaussmech_null_floor, registry as auditors_registry
from privlab.epsilon.reference import laplace_reference_auc
from privlab.errors import invalid
from privlab.progress import step
from privlab.studies.contract import Headline, StudyConfig, StudyResult, registry
from privlab.studies.params import param

STUDY = "05 known-ε"
#: The mechanisms of the paper's appendix tables (Appendix B and Table 6).
APPENDIX_MECHANISMS = ("randomized_response", "anisotropic_gaussian")


#: Certificates of the default sub-grids, where registered: the reserved test, its
#: exact-score oracle, DP-Sniper, the finite-sample MMD bound and the anytime-valid
#: reserved test (each well under a second per pair on one thread). The neural-network
#: variants take seconds per pair; name them in ``certificates`` (or pass
#: ``certificates=None`` for every registered certificate) to run them.
DEFAULT_CERTIFICATES = ("reserved", "reserved-exact", "dp-sniper", "mmd-finite",
                        "reserved-sequential")


def certificate_methods() -> tuple[str, ...]:
    """Registered benchmark auditors whose number is a finite-sample certificate.

    Example:
        >>> certificate_methods()[:2]
        ('reserved', 'reserved-exact')
    """
    return tuple(e.name for e in auditors_registry.entries(benchmark=True)
                 if e.meta.get("status") is Status.CERTIFICATE)


def default_certificates() -> tuple[str, ...]:
    """:data:`DEFAULT_CERTIFICATES` that are registered, in that order.

    Example:
        >>> default_certificates()[:2]
        ('reserved', 'reserved-exact')
    """
    known = certificate_methods()
    return tuple(c for c in DEFAULT_CERTIFICATES if c in known)


def default_auditors() -> tuple[str, ...]:
    """The explored setting's auditors: the paper's routes and the default certificates.

    Example:
        >>> default_auditors()[:5]
        ('gaussmech', 'kde-lr', 'kde-lr-0.01', 'mmd-tv', 'roc-ht')
    """
    return tuple(dict.fromkeys(B.DEFAULT_METHODS + default_certificates()))


def members() -> pd.DataFrame:
    """Every registered benchmark auditor with its status and description."""
    return pd.DataFrame([{"auditor": e.name, "status": e.meta["status"].value,
                          "oracle": bool(e.meta.get("oracle", False)),
                          "description": e.description}
                         for e in auditors_registry.entries(benchmark=True)])


@dataclass
class Config(StudyConfig):
    """Settings of study 05 (defaults: sub-grids of the paper's).

    Attributes:
        mechanism, geometry, n, epsilon: the single setting explored in detail.
        auditors: auditors run on it (None: :func:`default_auditors`, the paper's routes
            and the default certificates).
        mechanisms, geometries: families and prototype sets of the null table.
        null_sizes, null_repetitions: n values and repetitions of the null table.
        curve_n, curve_epsilons, curve_geometries, curve_repetitions: Figure 2 sub-grid.
        power_epsilons, power_sizes, power_geometries: Figure 3 sub-grid (certificates).
        certificates: certificate auditors of the power and appendix sub-grids; by
            default :func:`default_certificates`; None runs every registered benchmark
            auditor with the finite-sample-certificate status.
        appendix_mechanisms, appendix_epsilons, appendix_sizes, appendix_geometries,
            appendix_repetitions: sub-grid of the appendix tables (randomized response
            and the anisotropic Gaussian; ε = 0 also runs MMD-TV and ROC-HT).
        appendix_certificates: certificates of the appendix sub-grid (the paper's Table 6
            compares the learned and the exact reserved test).
        claim_epsilon: the claim the hockey-stick tester tests on the power sub-grid
            (None skips it).
        distinguisher_grid, distinguisher_sizes, distinguisher_pairs, distinguishers: the
            sub-grid (mechanism, ε) × n comparing the distinguishers (an empty grid skips it).
        mmd_permutations: permutations of MMD-TV's equal-distribution test (the paper:
            10^4; the smoke settings use 200).
        n_pairs: predeclared pairs per setting (the paper: 40).
        reference_draws, reference_seed: Monte Carlo draws per class and seed of the
            Laplace optimal-AUC reference (the paper: 20,000 draws).
        n_jobs: worker processes.
        full_grid: run the paper's full grid instead of the sub-grids.
        cache: reuse stored settings.
        progress: show progress bars.
    """

    mechanism: str = param("laplace", choices=("laplace", "gaussian", "randomized_response",
                                               "anisotropic_gaussian"))
    geometry: str = param("dispersed", buttons=True, choices=lambda: M.GEOMETRIES)
    n: int = param(100, label="n per identity", buttons=True,
                   choices=((30, "30"), (100, "100"), (300, "300")))
    epsilon: float = param(0.0, label="True ε", buttons=True, choices=lambda: [
        (float(e), f"{e:g}") for e in B.EPSILON_GRID])
    auditors: tuple[str, ...] | None = param(None, choices=lambda: B.benchmark_methods(),
                                             none_is=lambda: default_auditors())
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
    certificates: tuple[str, ...] | None = field(default_factory=default_certificates)
    appendix_mechanisms: tuple[str, ...] = APPENDIX_MECHANISMS
    appendix_epsilons: tuple[float, ...] = B.ANISOTROPIC_GRID
    appendix_sizes: tuple[int, ...] = (30, 100, 300)
    appendix_geometries: tuple[str, ...] = ("dispersed",)
    appendix_repetitions: tuple[int, ...] = (0,)
    appendix_certificates: tuple[str, ...] = ("reserved", "reserved-exact")
    claim_epsilon: float | None = C.CLAIM_EPSILON
    distinguisher_grid: tuple[tuple[str, float], ...] = (
        ("laplace", 32.0), ("laplace", 64.0), ("laplace", 128.0),
        ("anisotropic_gaussian", 8.0), ("anisotropic_gaussian", 16.0),
        ("anisotropic_gaussian", 32.0))
    distinguisher_sizes: tuple[int, ...] = (100,)
    distinguisher_pairs: int = 10
    distinguishers: tuple[str, ...] = ("reserved", "reserved-mlp", "dp-sniper",
                                       "dp-sniper-mlp")
    mmd_permutations: int = B.MMD_PERMUTATIONS
    n_pairs: int = B.N_PAIRS
    reference_draws: int = 20_000
    reference_seed: int = 0
    n_jobs: int = 2
    full_grid: bool = param(False, label="The paper's full grids (hours)")
    cache: bool = True
    progress: bool = True

    @classmethod
    def demo_settings(cls) -> dict:
        """Demo settings: the smoke grid with Table 4's three sizes, 10 pairs per setting,
        500 MMD permutations and 2,000 reference draws (under a minute on two cores where
        the full grid's first run takes about 14 minutes), on two worker processes."""
        return {**cls.smoke_settings(), "null_sizes": (30, 100, 300), "n_pairs": 10,
                "mmd_permutations": 500, "reference_draws": 2000, "n_jobs": 2}

    @classmethod
    def smoke_settings(cls) -> dict:
        """Tiny settings for tests and ``PRIVLAB_SMOKE=1`` (about half a minute of CPU; MMD-TV's
        permutation test with 200 permutations instead of 10^4), in this process: worker
        processes gave the same tables for 37% more CPU (their start-up), and the test suite
        already keeps both cores busy."""
        return dict(n=30, n_jobs=1, null_sizes=(30, 100), geometries=("dispersed",),
                    curve_n=30, curve_epsilons=(0.0, 8.0, 64.0),
                    power_epsilons=(0.0, 16.0, 256.0), power_sizes=(30, 100), n_pairs=6,
                    appendix_epsilons=(0.0, 32.0), appendix_sizes=(30, 100),
                    mmd_permutations=200, reference_draws=500,
                    distinguisher_grid=(("laplace", 64.0), ("anisotropic_gaussian", 16.0)),
                    distinguisher_pairs=4)


@dataclass(frozen=True)
class KnownEpsilonResult(StudyResult):
    """What study 05 computed; every table keeps each method's status.

    Attributes:
        config: the settings used.
        explore: per-method summary of the explored setting (status, median with +∞
            counted, +∞ count, exact median ε).
        explore_rows: its tidy per-pair table.
        null_table: Table 4 recomputed (index n).
        paper_null_table: Table 4 as published.
        null_floor: Eq. 22 per n (the GaussMech value expected at ε = 0).
        curves: Figure 2 data; power: Figure 3 data; validity: bound-above-truth check
            (per mechanism and certificate).
        frame: every row of every setting run, each (setting, pair, method) once.
        provenance: seeds are derived from setting keys; prototype hashes; option values.
        laplace_reference: per-pair Monte Carlo optimal AUC of the Laplace mechanism
            behind the Laplace ``reference`` of ``curves``.
        null_counts, paper_null_counts: counts at true ε = 0 per mechanism family.
        side_by_side: every certificate auditor per mechanism, ε and n.
        table6, paper_table6: the anisotropic Gaussian's fraction of pairs certified > 0.
        rr_table, paper_rr_table: the same for randomized response (Appendix B).
        members: the registered benchmark auditors with their statuses.
        claims: one row per pair of the power sub-grid: the claim, whether it is true,
            whether the hockey-stick tester refuted it; claim_table: its summary.
        distinguisher_power: Figure 3's layout for the distinguisher sub-grid (logistic
            regression against the neural network, in the reserved test and DP-Sniper);
            distinguisher_table: its fraction of pairs certified > 0 per method;
            distinguisher_validity: its bounds above the exact ε.
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
    laplace_reference: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    null_counts: pd.DataFrame = field(default_factory=pd.DataFrame)
    paper_null_counts: pd.DataFrame = field(default_factory=pd.DataFrame)
    side_by_side: pd.DataFrame = field(default_factory=pd.DataFrame)
    table6: pd.DataFrame = field(default_factory=pd.DataFrame)
    paper_table6: pd.DataFrame = field(default_factory=pd.DataFrame)
    rr_table: pd.DataFrame = field(default_factory=pd.DataFrame)
    paper_rr_table: pd.DataFrame = field(default_factory=pd.DataFrame)
    members: pd.DataFrame = field(default_factory=pd.DataFrame)
    claims: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    claim_table: pd.DataFrame = field(default_factory=pd.DataFrame)
    distinguisher_power: pd.DataFrame = field(default_factory=pd.DataFrame)
    distinguisher_table: pd.DataFrame = field(default_factory=pd.DataFrame)
    distinguisher_validity: pd.DataFrame = field(default_factory=pd.DataFrame)

    def _null(self) -> pd.DataFrame:
        return self.frame[self.frame["epsilon"] == 0]

    def null_certificates(self) -> tuple[int, int]:
        """(positive certified bounds, evaluations) among certificates at true ε = 0.

        Every certificate-status row of every mechanism, each (setting, pair, method)
        once."""
        f = self._null()
        f = f[f["status"] == Status.CERTIFICATE.value]
        return int((f["value"] > 0).sum()), len(f)

    def null_infinite_share(self) -> float:
        """Share of out-of-fold ROC conversions equal to +∞ at true ε = 0."""
        f = self._null()
        f = f[f["method"] == "roc-ht"]
        return float((f["value"] == math.inf).mean()) if len(f) else math.nan

    def null_mmd_rejections(self, level: float = S.MMD_REJECT_LEVEL) -> tuple[int, int]:
        """(MMD permutation p-values ≤ ``level``, tests run) at true ε = 0, per pair."""
        f = self._null()
        f = f[(f["method"] == "mmd-tv") & f["p_value"].notna()]
        return int((f["p_value"] <= level).sum()), len(f)

    def summary(self) -> str:
        """The one line that matters: at true ε = 0, what each kind of number says."""
        first, details = self.summary_parts()
        return "; ".join([first, *details])

    def summary_parts(self) -> tuple[str, tuple[str, ...]]:
        """The headline's first line (at true ε = 0, what each kind of number says) and
        what the certificate count covers, beneath it."""
        pos, rows = self.null_certificates()
        gm = self.null_table["GaussMech"].dropna()
        gm_text = f"GaussMech {gm.iloc[-1]:.1f} at n={gm.index[-1]}" if len(gm) else "GaussMech n/a"
        rejected, tested = self.null_mmd_rejections()
        mmd_text = (f"MMD test rejects {rejected}/{tested} at p≤{S.MMD_REJECT_LEVEL:g}"
                    if tested else "MMD test not run")
        mechanisms = self._null()["mechanism"].nunique()
        return (f"true ε=0: certified bound >0 on {pos}/{rows} tests; "
                f"ROC-HT +∞ on {100 * self.null_infinite_share():.0f}% of pairs; "
                f"{mmd_text}; {gm_text}"), (
                    f"the {rows} certificate tests at true ε=0: {mechanisms} mechanisms, each "
                    "test counted once",)

    def auditor_statuses(self) -> str:
        """The auditors this run used, grouped by the status each is registered with.

        Example:
            >>> r = KnownEpsilonResult.__new__(KnownEpsilonResult)
            >>> object.__setattr__(r, "provenance", {"auditors": ["gaussmech", "roc-ht"],
            ...                                      "certificates": ["reserved"]})
            >>> r.auditor_statuses()
            'diagnostic: gaussmech; descriptive: roc-ht; finite-sample certificate: reserved'
        """
        used = dict.fromkeys(list(self.provenance.get("auditors", ()))
                             + list(self.provenance.get("certificates", ())))
        groups: dict[Status, list[str]] = {}
        for name in used:
            entry = auditors_registry.entry(name) if name in auditors_registry.names() else None
            status = entry.meta.get("status") if entry is not None else None
            if isinstance(status, Status):
                groups.setdefault(status, []).append(name)
        return "; ".join(f"{s.value}: {', '.join(groups[s])}" for s in Status if s in groups)

    def headline(self) -> Headline:
        """:meth:`summary_parts` with its status and what it rests on.

        The headline's own claim is descriptive (what each auditor said on mechanisms of
        known ε); each auditor keeps the status it is registered with, named beside it.
        """
        first, details = self.summary_parts()
        return Headline(STUDY, first, Status.DESCRIPTIVE,
                        ("synthetic mechanisms with exactly known ε over prototype embeddings "
                         "generated by privlab",
                         "settings: " + ("the paper's full grids" if self.config.full_grid
                                         else "reduced grids (see the config)"),
                         f"MMD permutation test with {self.config.mmd_permutations} "
                         "permutations" + ("" if self.config.mmd_permutations
                                           >= B.MMD_PERMUTATIONS else
                                           f" (the paper: {B.MMD_PERMUTATIONS})")),
                        details=details,
                        status_note="known-ε benchmark: what each auditor said on mechanisms "
                        "of known ε; each keeps its own status (" + self.auditor_statuses()
                        + ")")

    def null_mmd_positive_share(self) -> float:
        """Share of MMD-TV sample values above 0 at true ε = 0 on the Laplace mechanism
        (the pure-DP mechanism Table 4 takes MMD-TV from)."""
        f = self._null()
        f = f[(f["method"] == "mmd-tv") & (f["mechanism"] == "laplace")]
        return float((f["value"] > 0).mean()) if len(f) else math.nan

    def quoted_figures(self) -> dict[str, str]:
        """The figures the notebook's prose quotes (see ``privlab quote``).

        At true ε = 0: ``null.certified_positive`` of ``null.certified_tests`` certified
        bounds above 0 (:meth:`null_certificates`), ``null.roc_infinite`` (share of +∞ ROC
        conversions), ``null.mmd_rejects`` of ``null.mmd_tests`` permutation tests at
        p ≤ 0.05, ``null.mmd_positive`` (share of Laplace MMD-TV values above 0); and
        Table 4's row at its largest n (``null.n``): ``null.auc``, ``null.mmd_tv``,
        ``null.gaussmech``, its Eq. 22 floor ``null.gaussmech_floor`` and ``null.kde_lr``.
        """
        pos, rows = self.null_certificates()
        rejected, tested = self.null_mmd_rejections()
        out = {"null.certified_positive": f"{pos:,}", "null.certified_tests": f"{rows:,}",
               "null.mmd_rejects": f"{rejected:,}", "null.mmd_tests": f"{tested:,}"}
        for key, share in (("null.roc_infinite", self.null_infinite_share()),
                           ("null.mmd_positive", self.null_mmd_positive_share())):
            if not math.isnan(share):
                out[key] = f"{share:.0%}"
        if len(self.null_table):
            n = self.null_table.index.max()
            row = self.null_table.loc[n]
            out["null.n"] = f"{n:,}"
            for key, column, digits in (("auc", "AUC", 2), ("mmd_tv", "MMD-TV", 3),
                                        ("gaussmech", "GaussMech", 2), ("kde_lr", "KDE-LR α=0", 0)):
                if not math.isnan(row[column]):
                    out[f"null.{key}"] = f"{row[column]:,.{digits}f}"
            if n in self.null_floor.index:
                out["null.gaussmech_floor"] = f"{self.null_floor[n]:.2f}"
        return out

    def to_frame(self) -> pd.DataFrame:
        """The recomputed null table beside the paper's (suffix ``paper``)."""
        return self.null_table.join(self.paper_null_table, rsuffix=" paper", how="left")

    def null_counts_with_paper(self) -> pd.DataFrame:
        """:attr:`null_counts` with the paper's counts below each family."""
        both = pd.concat({"privlab": self.null_counts, "paper": self.paper_null_counts})
        both = both.swaplevel().sort_index(level=0, sort_remaining=False)
        return both.reindex(self.null_counts.index, level=0)

    def _repr_html_(self) -> str:
        return (f"<b>{html.escape(self.summary())}</b>"
                + self.explore.to_html(index=False) + self.to_frame().to_html()
                + self.null_counts.to_html())


def _settings(cfg: Config) -> dict[str, list[B.Setting]]:
    if cfg.full_grid:
        main = B.grid()
        appendix = [s for m, eps in (("randomized_response", B.RR_GRID_EPSILONS),
                                     ("anisotropic_gaussian", B.ANISOTROPIC_GRID))
                    if m in cfg.appendix_mechanisms for s in B.grid([m], epsilons=eps)]
        return {"null": [s for s in main if s.epsilon == 0], "curves": main,
                "power": B.grid(epsilons=B.VALIDITY_GRID), "appendix": appendix,
                "distinguishers": _distinguisher_settings(cfg)}
    return {
        "null": B.grid(cfg.mechanisms, cfg.geometries, [0.0], cfg.null_sizes,
                       cfg.null_repetitions),
        "curves": B.grid(cfg.mechanisms, cfg.curve_geometries, cfg.curve_epsilons,
                         [cfg.curve_n], cfg.curve_repetitions),
        "power": B.grid(cfg.mechanisms, cfg.power_geometries, cfg.power_epsilons,
                        cfg.power_sizes, [0]),
        "appendix": B.grid(cfg.appendix_mechanisms, cfg.appendix_geometries,
                           cfg.appendix_epsilons, cfg.appendix_sizes,
                           cfg.appendix_repetitions),
        "distinguishers": _distinguisher_settings(cfg),
    }


def _distinguisher_settings(cfg: Config) -> list[B.Setting]:
    return [B.Setting(mechanism, "dispersed", float(epsilon), int(n))
            for mechanism, epsilon in cfg.distinguisher_grid for n in cfg.distinguisher_sizes]


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


def _check(cfg: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The explored auditors and the certificates, checked against the registry."""
    caller = "known_epsilon.run"
    if not isinstance(cfg, Config):
        raise invalid("config", caller, "a Config", cfg)
    known = B.benchmark_methods()
    auditors = default_auditors() if cfg.auditors is None else tuple(cfg.auditors)
    for a in auditors:
        if a not in known:
            raise invalid("auditors", caller, f"names from {known}", a)
    allowed = certificate_methods()
    certificates = allowed if cfg.certificates is None else tuple(cfg.certificates)
    for name, chosen in (("certificates", certificates),
                         ("appendix_certificates", tuple(cfg.appendix_certificates)),
                         ("distinguishers", tuple(cfg.distinguishers))):
        if not chosen:
            raise invalid(name, caller, f"a nonempty list from {allowed}", chosen)
        for c in chosen:
            if c not in allowed:
                raise invalid(name, caller, f"certificate auditors from {allowed}", c)
    return auditors or B.DEFAULT_METHODS, certificates


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
    auditors, certificates = _check(cfg)
    explore_setting = B.Setting(cfg.mechanism, cfg.geometry, float(cfg.epsilon), int(cfg.n))
    common = dict(n_pairs=cfg.n_pairs, n_jobs=cfg.n_jobs, cache=cfg.cache,
                  progress=cfg.progress, mmd_permutations=cfg.mmd_permutations)
    stages = 7
    step("the explored setting", 0, stages)
    explore_rows = B.run_sweep([explore_setting], methods=auditors, **common)
    sets = _settings(cfg)
    step("the null table and Figure 2's grid", 1, stages)
    full = B.run_sweep(list(dict.fromkeys(sets["null"] + sets["curves"])), **common)
    step("Figure 3's certificates", 2, stages)
    power_frame = B.run_sweep(sets["power"], methods=certificates, **common)
    appendix_frames = []
    step("the appendix tables", 3, stages)
    if sets["appendix"]:
        appendix_frames.append(B.run_sweep(sets["appendix"],
                                           methods=tuple(cfg.appendix_certificates), **common))
        appendix_null = [s for s in sets["appendix"] if s.epsilon == 0]
        if appendix_null:
            appendix_frames.append(B.run_sweep(appendix_null, methods=("mmd-tv", "roc-ht"),
                                               **common))
    claims = pd.DataFrame(columns=list(C.CLAIM_COLUMNS))
    step("the stated claim", 4, stages)
    if cfg.claim_epsilon is not None and "hockey-stick" in auditors_registry:
        claims = C.run_claims(sets["power"], cfg.claim_epsilon, cfg.n_pairs, n_jobs=cfg.n_jobs,
                              cache=cfg.cache)
    # Its own pair count, so its rows are kept apart from the other sub-grids' (pair k of
    # a 10-pair list is not pair k of a 40-pair list).
    step("the distinguishers", 5, stages)
    distinguisher_frame = B.run_sweep(
        sets["distinguishers"], methods=tuple(cfg.distinguishers),
        **dict(common, n_pairs=cfg.distinguisher_pairs)) if sets["distinguishers"] else \
        power_frame.iloc[0:0]
    curve_keys = {s.key() for s in sets["curves"]}
    curve_frame = full[[B.Setting(m, g, e, n, r).key() in curve_keys for m, g, e, n, r in
                        full[["mechanism", "geometry", "epsilon", "n", "repetition"]]
                        .itertuples(index=False)]]
    step("the Laplace reference and the summaries", 6, stages)
    curves, laplace_reference = _with_laplace_reference(
        B.method_curves(curve_frame, n=100 if cfg.full_grid else cfg.curve_n), cfg)
    null = B.null_table(full)
    floor = pd.Series({n: gaussmech_null_floor(512, n) for n in null.index}, name="Eq. 22")
    # shared settings (e.g. ε = 0 of the null table and of the power sub-grid) give the
    # same rows from the same seeds: each evaluation is kept once
    everything = S.unique_rows([full, power_frame, *appendix_frames])
    certified = everything[everything["status"] == Status.CERTIFICATE.value]
    geometries = tuple(dict.fromkeys(cfg.geometries + cfg.curve_geometries
                                     + cfg.power_geometries + cfg.appendix_geometries))
    prov = {"config": asdict(cfg), "auditors": list(auditors),
            "certificates": list(certificates),
            "prototype_sha256": {g: B.prototypes(g).sha256 for g in geometries},
            "seeds": "derived from each setting's key (crc32)",
            "mmd_permutations": cfg.mmd_permutations,
            "claim": None if cfg.claim_epsilon is None else
            {"epsilon": cfg.claim_epsilon, "delta": "the family's (0 or 1e-5)",
             "settings": "the power sub-grid"},
            "laplace_reference": {"draws": cfg.reference_draws, "seed": cfg.reference_seed,
                                  "n_pairs": cfg.n_pairs},
            "n_settings":
                int(everything.groupby(["mechanism", "geometry", "epsilon", "n",
                                        "repetition"]).ngroups),
            "n_rows": len(everything)}
    step("done", stages, stages)
    return KnownEpsilonResult(
        config=cfg, explore=B.per_setting(explore_rows), explore_rows=explore_rows,
        null_table=null, paper_null_table=S.PAPER_TABLE4.copy(), null_floor=floor,
        curves=curves, power=B.power_curves(certified),
        validity=S.validity_summary(certified, by=("mechanism", "method")),
        frame=everything, provenance=prov, laplace_reference=laplace_reference,
        null_counts=S.null_counts(everything), paper_null_counts=S.PAPER_NULL_COUNTS.copy(),
        side_by_side=S.certificates_side_by_side(S.unique_rows([power_frame, claims])),
        table6=S.appendix_table(certified, "anisotropic_gaussian"),
        paper_table6=S.PAPER_TABLE6.copy(),
        rr_table=S.appendix_table(certified, "randomized_response"),
        paper_rr_table=S.PAPER_RR_TABLE.copy(), members=members(), claims=claims,
        claim_table=C.claim_summary(claims),
        distinguisher_power=B.power_curves(distinguisher_frame),
        distinguisher_table=S.certificates_side_by_side(distinguisher_frame),
        distinguisher_validity=S.validity_summary(distinguisher_frame,
                                                  by=("mechanism", "method")))
