"""Study 11, scale: exact audits of 10^5 items, faster when the data allow.

Generated embeddings audited by the plain kernel, the certified path, an approximate
screen and a dask LocalCluster, with a cost curve. See ``docs/methods/studies-epsilon.md``.
"""

from __future__ import annotations

import importlib.util
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from privlab.errors import invalid
from privlab.progress import step, substep
from privlab.resolution import resolution
from privlab.scale import certified_resolution
from privlab.scale.screen import INDEXES, screen_resolution
from privlab.scale.synthetic import SCENARIOS, synthetic_audit
from privlab.studies.contract import Headline, Status, StudyConfig, StudyResult, registry
from privlab.studies.params import param

STUDY = "11 scale"
STATUS = ("exact: certified and LocalCluster results compared with the plain kernel; "
          "screen: uncertified lower bound; timings descriptive")


#: The line above the study's panel controls.
PANEL_HINT = ("Change any setting, then press <b>Run</b>. Larger m·n take longer: the plain "
              "kernel scores every trial, for comparison.")
#: What each generated scenario and each screen index is, in a few words (for a panel).
SCENARIO_NOTES = {"planted": "a planted leak", "none": "no leak",
                  "realistic": "realistic references (most barely moved)"}
INDEX_NOTES = {"hnsw": "HNSW graph", "ivf": "IVF lists"}


@dataclass
class Config(StudyConfig):
    """Settings of the scale study.

    Attributes:
        m: audited items (rows of S).
        n: references (rows of T).
        d: embedding dimension.
        scenarios: generated audits to run, from ``"planted"``, ``"none"``, ``"realistic"``
            (see :mod:`privlab.scale.synthetic`).
        top_k: trials listed, and compared, per audit (above 1 the bounds skip less).
        block_size: audited rows per tile and references per group.
        screen_index: ``"hnsw"`` or ``"ivf"``.
        screen_k: screen candidates per audited item.
        cluster_workers: workers of the dask LocalCluster run (0 skips it).
        cost_sizes: ``m = n`` sizes of the cost curve (``"none"`` and ``"planted"``).
        seed: generator seed.
    """

    m: int = param(100_000, label="Audited items m", slider=(1, 10_000_000))
    n: int = param(10_000, label="References n", slider=(1, 10_000_000))
    d: int = param(128, label="Dimension d", slider=(2, 4096))
    scenarios: tuple[str, ...] = param(("planted", "none"), choices=lambda: [
        (s, SCENARIO_NOTES.get(s, "")) for s in SCENARIOS])
    top_k: int = param(1, label="Top list k", slider=(0, 100))
    block_size: int = 2048
    screen_index: str = param("hnsw", label="Screen", choices=lambda: [
        (s, INDEX_NOTES.get(s, "")) for s in INDEXES])
    screen_k: int = 8
    cluster_workers: int = param(2, slider=(0, 16))
    cost_sizes: tuple[int, ...] = (2_000, 5_000, 10_000, 20_000)
    seed: int = 0

    @classmethod
    def smoke_settings(cls):
        return {"m": 3_000, "n": 1_500, "d": 32, "block_size": 512,
                "cost_sizes": (300, 600, 1_200)}


def _check(config: Config) -> None:
    caller = "scale.run"
    for name in ("m", "n", "d", "top_k", "block_size", "screen_k"):
        value = getattr(config, name)
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < (
                0 if name == "top_k" else 2 if name == "d" else 1):
            raise invalid(name, caller, "a positive int" if name != "top_k" else "an int >= 0",
                          value)
    if not config.scenarios or any(s not in SCENARIOS for s in config.scenarios):
        raise invalid("scenarios", caller, f"a non-empty tuple from {list(SCENARIOS)}",
                      config.scenarios)
    if config.screen_index not in INDEXES:
        raise invalid("screen_index", caller, f"one of {list(INDEXES)}", config.screen_index)
    if not isinstance(config.cluster_workers, int) or config.cluster_workers < 0:
        raise invalid("cluster_workers", caller, "an int >= 0 (0 skips the cluster run)",
                      config.cluster_workers)
    if any(not isinstance(s, int) or s < 1 for s in config.cost_sizes):
        raise invalid("cost_sizes", caller, "a tuple of positive ints", config.cost_sizes)


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


@dataclass(frozen=True)
class ScaleResult(StudyResult):
    """Plain vs certified vs screen vs cluster, per scenario, and the cost curve (settings
    and library versions in :attr:`provenance`)."""

    config: Config
    audits: list = field(default_factory=list)
    cluster: dict = field(default_factory=dict)
    cost: list = field(default_factory=list)

    def to_frame(self):
        """One row per scenario: answers, whether they agree, work skipped, seconds."""
        import pandas as pd

        return pd.DataFrame(self.audits)

    def cost_frame(self):
        """One row per size of the cost curve: trials and seconds of each path."""
        import pandas as pd

        return pd.DataFrame(self.cost)

    @property
    def identical(self) -> bool:
        """Certified (and cluster) answers equal the plain kernel's in every audit."""
        return all(a["certified = plain"] for a in self.audits) and \
            self.cluster.get("cluster = plain", True)

    def derive_provenance(self) -> dict:
        """Settings, seed and library versions."""
        import dask
        import faiss
        import torch

        return {**asdict(self.config), "data": "synthetic (privlab.scale.synthetic)",
                "dask": dask.__version__, "faiss": faiss.__version__, "torch": torch.__version__}

    def headline(self) -> Headline:
        """Whether the fast paths gave the exact answer, and how much work they skipped."""
        c = self.config
        skipped = ", ".join(f"{a['scenario']} {100 * a['skipped fraction']:.1f}%"
                            for a in self.audits)
        found = sum(a["screen found witness"] for a in self.audits)
        agree = sum(a["certified = plain"] for a in self.audits)
        text = (f"certified = plain kernel in {agree}/{len(self.audits)} audits of "
                f"{c.m:,} x {c.n:,}")
        details = [f"trials skipped: {skipped}"]
        if self.cluster:
            same = "identical" if self.cluster["cluster = plain"] else "DIFFERENT"
            text += f"; LocalCluster {same}"
            details.append(f"LocalCluster ({c.cluster_workers} workers) {same} to the plain kernel")
        text += f"; {c.screen_index} screen found the witness in {found}/{len(self.audits)}"
        return Headline(STUDY, text, Status.DESCRIPTIVE, (
            "synthetic embeddings: random unit rows, leak planted by construction (no real data)",
            f"d={c.d}, seed {c.seed}; timings from one run on this machine",
            "a screen value is a lower bound; skipped work depends on the data"),
            details=tuple(details), status_note=STATUS)

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(index=False)


def _agree(a, b) -> bool:
    return (a.value, a.max_difference, a.witness, list(a.top)) == \
        (b.value, b.max_difference, b.witness, list(b.top))


def _audit(config: Config, scenario: str) -> tuple[dict, object, object]:
    substep("generating the embeddings", 0, 4)  # each way is timed apart from its report
    audit = synthetic_audit(config.m, config.n, config.d, scenario=scenario, seed=config.seed)
    substep("the plain kernel", 1, 4)
    plain, plain_s = _timed(lambda: resolution(audit.S, audit.T, top_k=config.top_k,
                                               block_size=config.block_size, device="cpu"))
    substep("certified pruning", 2, 4)
    fast, fast_s = _timed(lambda: certified_resolution(
        audit.S, audit.T, top_k=config.top_k, block_size=config.block_size, device="cpu"))
    substep("the screen", 3, 4)
    screen, screen_s = _timed(lambda: screen_resolution(
        audit.S, audit.T, index=config.screen_index, k=config.screen_k, top_k=config.top_k))
    row = {"scenario": scenario, "planted": audit.planted, "resolution": plain.value,
           "witness": plain.witness, "plain s": plain_s, "certified s": fast_s,
           "certified = plain": _agree(fast, plain),
           "skipped fraction": fast.work.skipped_fraction,
           "plain-block share": fast.work.plain_remainder / config.n,
           "screen lower bound": screen.lower_bound, "screen witness": screen.witness,
           "screen found witness": screen.recall(plain), "screen s": screen_s,
           "speed-up certified": plain_s / fast_s, "speed-up screen": plain_s / screen_s}
    return row, audit, plain


def _cluster_run(config: Config, audit, plain) -> dict:
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=config.cluster_workers, threads_per_worker=1,
                      processes=False, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        link = client.dashboard_link
        res, seconds = _timed(lambda: certified_resolution(
            audit.S, audit.T, top_k=config.top_k, block_size=config.block_size, device="cpu",
            client=client))
    note = "" if importlib.util.find_spec("bokeh") else (
        " (the dashboard's pages need the optional bokeh package)")
    return {"workers": config.cluster_workers, "dashboard": link + note, "seconds": seconds,
            "scenario": audit.scenario, "cluster = plain": _agree(res, plain),
            "skipped fraction": res.work.skipped_fraction, "scheduler": res.work.scheduler}


def _cost_curve(config: Config) -> list:
    rows = []
    for size in config.cost_sizes:
        row = {"m = n": size, "trials": size * size}
        for scenario in ("none", "planted"):
            audit = synthetic_audit(size, size, config.d, scenario=scenario, seed=config.seed)
            if scenario == "none":
                row["plain s"] = _timed(lambda: resolution(
                    audit.S, audit.T, top_k=config.top_k, block_size=config.block_size,
                    device="cpu"))[1]
            row[f"certified s ({scenario})"] = _timed(lambda: certified_resolution(
                audit.S, audit.T, top_k=config.top_k, block_size=config.block_size,
                device="cpu"))[1]
        rows.append(row)
    return rows


@registry.member("scale", number="11", title=STUDY, notebook="11_scale")
def run(config: Config | None = None) -> ScaleResult:
    """Audit generated embeddings with the plain kernel, the certified path, a screen and
    a dask LocalCluster; measure the cost curve.

    Args:
        config: settings (default :meth:`Config.for_notebook`).

    Returns:
        A :class:`ScaleResult`.

    Example:
        >>> r = run(Config.smoke(m=300, n=200, scenarios=("planted",), cluster_workers=0,
        ...                      cost_sizes=(100,)))
        >>> r.identical, r.audits[0]["witness"] == r.audits[0]["planted"]
        (True, True)
    """
    config = config or Config.for_notebook()
    _check(config)
    audits: list = []
    cluster: dict = {}
    warm = synthetic_audit(64, 64, config.d, seed=config.seed)  # load libraries before timing
    resolution(warm.S, warm.T, device="cpu")
    first = None
    stages = len(config.scenarios) + bool(config.cluster_workers) + 1
    for index, scenario in enumerate(config.scenarios):
        step(f"auditing the {scenario} scenario four ways", index, stages)
        row, audit, plain = _audit(config, scenario)
        audits.append(row)
        first = first or (audit, plain)
    if config.cluster_workers:
        step("the same call on a dask LocalCluster", stages - 2, stages)
        cluster = _cluster_run(config, *first)
    step("the cost curve", stages - 1, stages)
    cost = _cost_curve(config)
    step("done", stages, stages)
    return ScaleResult(config, audits, cluster, cost)


__all__ = ["Config", "ScaleResult", "STUDY", "run"]
