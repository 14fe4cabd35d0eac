"""Study 06: what the four ε routes say about a face generator's identity embeddings.

``run(Config())`` audits a table of output embeddings labelled by identity (by default
made by a toy face generator at two strengths): every route on seeded identity pairs, a
reserved-test certificate, the faces-only rerun, the Appendix A record and the Appendix E
cascade. The results describe the data; they calibrate nothing. See
``docs/methods/studies-epsilon.md`` and ``docs/methods/epsilon.md``.
"""

from __future__ import annotations

import html
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from privlab.datasets.face_embeddings import EmbeddingTable, load_embedding_table
from privlab.datasets.toy_cascade import CascadeTable, ToyDonorSwap, toy_cascade
from privlab.datasets.toy_faces import environment_versions, toy_face_table
from privlab.epsilon import AUDITORS, MMDTV, EpsilonAuditTable, Status, audit_pairs
from privlab.epsilon.cascade import CascadeAudit, audit_cascade
from privlab.epsilon.pairs import PAPER_TABLE7, certify_pairs, identity_pairs, \
    select_on_development, split_rows
from privlab.epsilon.runtime import auditor_threads
from privlab.epsilon.summaries import MMD_REJECT_LEVEL, median_with_inf
from privlab.errors import invalid, wrong_type
from privlab.progress import step
from privlab.studies._face_figures import figures as _figures, no_face_line as _no_face_line
from privlab.studies._face_previews import (CEILING_ROWS, cascade_preview, certificate_ceiling,
                                            toy_previews)
from privlab.studies.contract import Headline, StudyConfig, StudyResult, registry
from privlab.studies.params import param

STUDY = "06 face generators"

DEFAULT_METHODS = ("gaussmech", "kde-lr", "kde-lr-0.01", "mmd-tv", "roc-ht")
ROUTE_NAMES = {"gaussmech": "GaussMech", "kde-lr": "KDE-LR α=0", "kde-lr-0.01": "KDE-LR α=0.01",
               "mmd-tv": "MMD-TV", "roc-ht": "ROC-HT (out of fold)",
               "reserved": "reserved test (per pair, half split)"}
CERTIFICATE_ROUTE = "reserved test (selected pairs, unused rows)"
#: Permutations of MMD-TV's equal-distribution test (the paper: 10^4).
MMD_PERMUTATIONS = 10_000


@dataclass
class Config(StudyConfig):
    """Settings of study 06.

    Attributes:
        data: a ``.csv`` or ``.npz`` table (read by
            :func:`privlab.datasets.face_embeddings.load_embedding_table`); None: the toy
            face generator's offline default.
        strength: toy generator strength of the default table (ignored with ``data``).
        compare_strength: a second ("strong") toy generator on the same pairs; None skips it.
        n_per_identity: toy outputs per identity.
        encoders: the registered image encoder that embeds the toy outputs (one, in a tuple).
        n_pairs: the first ``n_pairs`` of the seeded shuffled list of all identity pairs.
        pairs: explicit identity pairs instead (labels as strings).
        methods: routes from :data:`privlab.epsilon.AUDITORS` run on every pair.
        alpha: simultaneous level of all reserved-test bounds together (e.g. 0.05).
        mmd_permutations: permutations of MMD-TV's test of equal distributions (0 skips
            it; the paper: 10^4).
        delta: δ of the conversions (the paper uses 0 for ROC-HT and the certificate;
            GaussMech keeps its own formula δ).
        dev_fraction: share of each identity's rows used for development.
        n_select: pairs selected on development rows for the certificate.
        distinct_identities: select pairs that share no identity.
        min_rows: fewest rows an identity needs to be audited.
        seed: seed of the pair shuffle, the split, the folds and the toy generator.
        label_column, vector_column: CSV options passed to the loader.
        cascade_passes: passes of the toy random-donor cascade (the paper: 5; 0 or a
            table in ``data`` skips it).
        cascade_identities: its target identities (the paper: 100).
        cascade_sequences: sequences per target, development and test (the paper: 200).
        cascade_donors: identities in its donor pool, disjoint from the targets (the paper: 600).
        cascade_pool: images in each identity's pool (the paper: 100 per target).
        cascade_swap: the toy swap's donor weight in the inner face region.
        cascade_dev_fraction: share of each target's sequences used for development.
        cascade_select: pairs selected on development sequences (None: one per two
            identities, no identity reused).
        cascade_delta: δ of the cascade's bounds (the paper: 1e-5).
    """

    data: str | None = param(None, label="Embedding table", help="a .csv or .npz of "
                             "generated-face embeddings (empty: the offline toy generator)")
    strength: float = param(0.1)
    compare_strength: float | None = param(0.4, label="Compare with")
    n_per_identity: int = 60
    encoders: tuple[str, ...] = param(("sface",), family="encoder", single=True,
                                      names=("sface", "dlib-face"), label="Encoder")
    n_pairs: int = param(100, label="Pairs", slider=(1, 10_000))
    pairs: tuple[tuple[str, str], ...] | None = None
    methods: tuple[str, ...] = param(DEFAULT_METHODS, label="Routes", choices=lambda: AUDITORS)
    alpha: float = param(0.05, label="α (all bounds)", slider=(0.01, 0.2))
    mmd_permutations: int = MMD_PERMUTATIONS
    delta: float = 0.0
    dev_fraction: float = 0.7
    n_select: int = 5
    distinct_identities: bool = True
    min_rows: int = 10
    seed: int = 0
    label_column: str | None = None
    vector_column: str | None = None
    cascade_passes: int = param(5, label="Cascade passes (0 skips)", slider=(0, 20))
    cascade_identities: int = 8
    cascade_sequences: int = 60
    cascade_donors: int = 24
    cascade_pool: int = 10
    cascade_swap: float = 0.5
    cascade_dev_fraction: float = 0.5
    cascade_select: int | None = None
    cascade_delta: float = 1e-5

    @classmethod
    def demo_settings(cls) -> dict:
        """Demo settings: the cascade in 2 passes of 30 sequences per target (the full run's
        5 passes of 60 take most of its two minutes); the toy audits stay full."""
        return {"cascade_passes": 2, "cascade_sequences": 30}

    @classmethod
    def smoke_settings(cls) -> dict:
        """Tiny settings for tests and ``PRIVLAB_SMOKE=1`` (about a minute)."""
        return dict(n_per_identity=30, methods=("gaussmech", "kde-lr-0.01", "mmd-tv", "roc-ht"),
                    cascade_passes=2, cascade_identities=4, cascade_sequences=20,
                    cascade_donors=8)


@dataclass
class Condition:
    """One audited table.

    Attributes:
        name: e.g. ``"toy weak (strength 0.1)"`` or the file name.
        table: the loaded or generated :class:`EmbeddingTable`.
        audit: every route on every pair (:class:`privlab.epsilon.EpsilonAuditTable`).
        certificate: one row per selected pair: development AUC, test counts, errors,
            Clopper–Pearson upper bounds, ``epsilon_lb`` and the ``attainable`` ceiling.
        split: per identity, development and test row counts.
        no_face: per identity, outputs with no detectable face (:func:`no_face_rows`).
        faces: the same audit on the rows with a face only (None when every output has
            one, or for a faces-only condition itself).
    """

    name: str
    table: EmbeddingTable = field(repr=False)
    audit: EpsilonAuditTable = field(repr=False)
    certificate: pd.DataFrame
    split: pd.DataFrame = field(repr=False)
    no_face: pd.Series = field(default_factory=lambda: pd.Series(dtype=int))
    faces: "Condition | None" = None

    #: The no-face count in words (:func:`privlab.studies._face_figures.no_face_line`).
    no_face_line = _no_face_line


@dataclass(frozen=True)
class FaceGeneratorResult(StudyResult):
    """What study 06 computed.

    Attributes:
        config: the settings used.
        conditions: the audited tables (one, or the weak and strong toy generators).
        pairs: the identity pairs every route used, in order.
        alpha_per_rate: the Bonferroni level of each Clopper–Pearson bound.
        record: the Appendix A record of the first condition (field, value, recorded).
        provenance: settings, pair seed, software versions.
        cascade: the Appendix E audit of the toy cascade (None when skipped).
        cascade_data: the cascade's sequences and per-pass vectors (None when skipped).
        ceiling, previews, cascade_preview: the certificates' ceiling and the toy
            generators' and cascade's images (:mod:`privlab.studies._face_previews`).
    """

    config: Config
    conditions: list[Condition]
    pairs: list[tuple[str, str]]
    alpha_per_rate: float
    record: pd.DataFrame
    cascade: CascadeAudit | None = None
    cascade_data: CascadeTable | None = field(default=None, repr=False)
    ceiling: pd.DataFrame | None = None
    previews: list = field(default_factory=list, repr=False)
    cascade_preview: np.ndarray | None = field(default=None, repr=False)

    def cascade_table7(self) -> pd.DataFrame:
        """Table 7 of the cascade: per pass, the certified lower bounds (median, range,
        positive, > 1, censored) and the ``cap`` a censored pair reaches."""
        return self.cascade.table7() if self.cascade is not None else pd.DataFrame()

    def cascade_table8(self) -> pd.DataFrame:
        """Table 8 of the cascade: per pass, the routes on development rows with a face,
        each under its status (descriptive numbers, none a bound on ε)."""
        return self.cascade.table8(ROUTE_NAMES) if self.cascade is not None else pd.DataFrame()

    def cascade_comparison(self) -> pd.DataFrame:
        """Our Table 7 above the paper's (FaceFusion, 50 pairs, 100 test sequences per
        identity): a reference for the shape of the table, not a target — the generator,
        the identities and the sizes differ."""
        frames = {"privlab toy cascade": self.cascade_table7(),
                  "paper, FaceFusion (Table 7)": PAPER_TABLE7.assign(cap=2.338)}
        return pd.concat({k: v for k, v in frames.items() if len(v)}, names=["source"])

    def summary(self) -> pd.DataFrame:
        """Per condition and route: status, median (+∞ counted), median of the finite
        values, +∞ count, AUC and, for MMD-TV, how many permutation tests reject equal
        distributions at p ≤ 0.05 per pair and after a Bonferroni correction over the
        pairs tested."""
        rows = []
        for c in self._all_conditions():
            frame = c.audit.to_frame()
            if "method" not in frame:  # no pair had enough rows (faces only)
                frame = pd.DataFrame(columns=["method", "value", "status"])
            for method, g in frame.groupby("method", sort=False):
                values = g["value"].astype(float)
                finite = values[np.isfinite(values)]
                row = {"condition": c.name, "route": ROUTE_NAMES.get(method, method),
                       "method": method, "status": g["status"].iloc[0], "pairs": len(g),
                       "median": median_with_inf(values),
                       "median (finite)": float(finite.median()) if len(finite) else math.nan,
                       "max (finite)": float(finite.max()) if len(finite) else math.nan,
                       "+inf": int(np.isinf(values).sum())}
                if method == "roc-ht":
                    row["median AUC"] = float(g["auc"].median())
                    row["(0,1) corner"] = int(g["corner"].astype(bool).sum())
                if "p_value" in g and g["p_value"].notna().any():
                    p = g["p_value"].dropna()
                    row[f"MMD reject p≤{MMD_REJECT_LEVEL:g}"] = \
                        f"{int((p <= MMD_REJECT_LEVEL).sum())}/{len(p)}"
                    row["MMD reject (Bonferroni)"] = \
                        f"{int((p <= MMD_REJECT_LEVEL / len(p)).sum())}/{len(p)}"
                    row["min p"] = float(p.min())
                rows.append(row)
            cert = c.certificate
            median = float(cert["epsilon_lb"].median()) if len(cert) else math.nan
            rows.append({"condition": c.name, "route": CERTIFICATE_ROUTE, "method": "certificate",
                         "status": Status.CERTIFICATE.value, "pairs": len(cert),
                         "median": median, "median (finite)": median,
                         "max (finite)": float(cert["epsilon_lb"].max()) if len(cert)
                         else math.nan, "+inf": 0,
                         "median AUC": float(cert["dev_auc"].median()) if len(cert)
                         else math.nan})
        return pd.DataFrame(rows)

    def _all_conditions(self) -> list[Condition]:
        """Each condition, followed by its faces-only twin where there is one."""
        return [x for c in self.conditions for x in ([c] + ([c.faces] if c.faces else []))]

    def no_face_counts(self) -> pd.DataFrame:
        """Outputs with no detectable face, per identity (rows) and condition (columns),
        with the outputs per identity."""
        frame = pd.DataFrame({c.name: c.no_face for c in self.conditions}).fillna(0)
        frame = frame.astype(int)
        frame["outputs"] = pd.Series(self.conditions[0].table.labels).value_counts()
        return frame

    def quoted_figures(self) -> dict[str, str]:
        """The figures the prose quotes (:func:`privlab.studies._face_figures.figures`)."""
        return _figures(self.conditions)

    def certificates(self) -> pd.DataFrame:
        """Every condition's reserved-test rows (faces-only twins included), with the
        condition's name."""
        frames = [c.certificate.assign(condition=c.name) for c in self._all_conditions()]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    def to_frame(self) -> pd.DataFrame:
        """Same as :meth:`summary` (the table to read by its ``status`` column)."""
        return self.summary()

    def headline(self) -> Headline:
        """:meth:`summary_line` with its status and what it rests on."""
        if self.config.data is None:
            data = (f"embeddings of privlab's toy face generator ({self.config.n_per_identity} "
                    f"outputs per identity) under {self.config.encoders[0]}, not a real generator")
        else:
            data = f"embedding table {self.config.data}"
        caveats = [data, "rows assumed iid; pairs selected on development rows only",
                   "outputs with no detectable face: " + "; ".join(
                       f"{c.name}: {c.no_face_line()}" for c in self.conditions)
                   + " (they share one vector and are left out of the faces-only figures)"]
        if self.cascade is not None:
            c = self.config
            caveats.append(self.cascade.summary_line().replace(
                "cascade, ", f"toy random-donor cascade on warped shipped faces "
                f"({c.cascade_identities} targets × {c.cascade_sequences} sequences), ", 1))
        first, details = self.summary_parts()
        return Headline(STUDY, first, Status.CERTIFICATE, tuple(caveats), details=details,
                        status_note="reserved test, Clopper–Pearson, beside diagnostic and "
                        "uncertified routes; none is a known ε")

    def summary_line(self) -> str:
        """The certified bounds, per condition, with their assumption; where some outputs
        have no detectable face, their count first, then the bound with them (as
        released) and without them (faces only)."""
        *parts, tail = self.summary_parts()[1]
        return "; ".join(parts) + f" — {tail}"

    def summary_parts(self) -> tuple[str, tuple[str, ...]]:
        """The headline's first line (each condition's best certified bound, the faces-only
        one beside it) and, beneath it, :meth:`summary_line`'s parts."""

        def bound(cert: pd.DataFrame) -> str:
            if not len(cert):
                return "no pair selected"
            lb = cert["epsilon_lb"]
            best = cert.loc[lb.idxmax()]
            ceiling = (f", no test errors: the ceiling of {int(best['n_test_a'])}+"
                       f"{int(best['n_test_b'])} test rows" if best["epsilon_lb"] > 0 and
                       best["epsilon_lb"] == best["attainable"] else "")
            return (f"certified ε ≥ {lb.max():.3f} (best of {len(lb)} selected, "
                    f"{int((lb > 0).sum())} positive{ceiling})")

        def best(cert: pd.DataFrame) -> str:
            return f"{cert['epsilon_lb'].max():.3f}" if len(cert) else "none selected"
        parts, short_parts = [], []
        for c in self.conditions:
            if c.faces is None:
                parts.append(f"{c.name}: {bound(c.certificate)}")
                short_parts.append(f"{c.name}: certified ε ≥ {best(c.certificate)}")
            else:
                parts.append(f"{c.name}: {c.no_face_line()}, all on one shared vector: "
                             f"{bound(c.certificate)} with them, {bound(c.faces.certificate)} "
                             "on the outputs with a face")
                short_parts.append(f"{c.name}: certified ε ≥ {best(c.certificate)} "
                                   f"(faces only {best(c.faces.certificate)})")
        conf = 100 * (1 - self.config.alpha)
        return "; ".join(short_parts) + f" ({conf:g}% confidence)", (
            *parts, f"{conf:g}% simultaneous, iid rows assumed, no known ε")

    def _repr_html_(self) -> str:
        out = (f"<b>{html.escape(self.summary_line())}</b>"
               + "<p>Outputs with no detectable face, per identity:</p>"
               + self.no_face_counts().to_html()
               + self.summary().round(3).to_html(index=False)
               + self.certificates().round(4).to_html(index=False))
        if self.cascade is not None:
            out += (f"<b>{html.escape(self.cascade.summary_line())}</b>"
                    + self.cascade_table7().round(3).to_html())
        return out


# ----------------------------------------------------------------------------------
# Building blocks (the pair list, split, selection and certificate: privlab.epsilon.pairs)
# ----------------------------------------------------------------------------------

def _load(cfg: Config) -> list[tuple[str, EmbeddingTable]]:
    if cfg.data is not None:
        path = Path(cfg.data)
        table = load_embedding_table(path, label_column=cfg.label_column,
                                     vector_column=cfg.vector_column)
        return [(path.name, table)]
    out = [(f"toy weak (strength {cfg.strength:g})",
            toy_face_table(cfg.strength, cfg.n_per_identity, cfg.seed, cfg.encoders[0]))]
    if cfg.compare_strength is not None:
        out.append((f"toy strong (strength {cfg.compare_strength:g})",
                    toy_face_table(cfg.compare_strength, cfg.n_per_identity, cfg.seed,
                                   cfg.encoders[0])))
    return out


def _check(cfg: Config) -> None:
    caller = "face_generators.run"
    if not isinstance(cfg, Config):
        raise wrong_type("config", caller, "a face_generators.Config", cfg)
    if not 0 < cfg.alpha < 1:
        raise invalid("alpha", caller, "in (0, 1)", cfg.alpha)
    if not 0 < cfg.dev_fraction < 1:
        raise invalid("dev_fraction", caller, "in (0, 1)", cfg.dev_fraction)
    if isinstance(cfg.n_select, bool) or not isinstance(cfg.n_select, int) or cfg.n_select < 1:
        raise invalid("n_select", caller, "a positive integer", cfg.n_select)
    if isinstance(cfg.mmd_permutations, bool) or not isinstance(cfg.mmd_permutations, int) \
            or cfg.mmd_permutations < 0:
        raise invalid("mmd_permutations", caller, "an integer >= 0", cfg.mmd_permutations)
    for m in cfg.methods:
        if m not in AUDITORS:
            raise invalid("methods", caller, f"names from {sorted(AUDITORS)}", m)
    for name in ("cascade_passes", "cascade_identities", "cascade_sequences", "cascade_donors",
                 "cascade_pool"):
        value, low = getattr(cfg, name), 0 if name == "cascade_passes" else 1
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise invalid(name, caller, f"an integer of at least {low}", value)
    if cfg.cascade_passes:
        if not 0 < cfg.cascade_dev_fraction < 1:
            raise invalid("cascade_dev_fraction", caller, "in (0, 1)", cfg.cascade_dev_fraction)
        if cfg.cascade_identities < 2:
            raise invalid("cascade_identities", caller, "at least 2 (a pair needs two targets)",
                          cfg.cascade_identities, "Raise it, or set cascade_passes=0 to skip "
                          "the cascade.")
        n_dev = round(cfg.cascade_dev_fraction * cfg.cascade_sequences)
        if n_dev < 5 or cfg.cascade_sequences - n_dev < 1:
            raise invalid("cascade_sequences", caller,
                          "enough for 5 development sequences (the ranking's five folds) and "
                          f"a test sequence per target at cascade_dev_fraction "
                          f"{cfg.cascade_dev_fraction:g}", cfg.cascade_sequences,
                          "Raise it, or set cascade_passes=0 to skip the cascade.")
        if cfg.cascade_donors < cfg.cascade_passes:
            raise invalid("cascade_donors", caller,
                          f"at least cascade_passes ({cfg.cascade_passes})", cfg.cascade_donors,
                          "Every pass of a sequence needs a different donor.")
        if isinstance(cfg.cascade_swap, bool) or not isinstance(cfg.cascade_swap, (int, float)) \
                or not 0 <= cfg.cascade_swap <= 1:
            raise invalid("cascade_swap", caller, "a number in [0, 1]", cfg.cascade_swap)
        if not 0 <= cfg.cascade_delta < 1:
            raise invalid("cascade_delta", caller, "in [0, 1)", cfg.cascade_delta)
        if cfg.cascade_select is not None and (isinstance(cfg.cascade_select, bool) or not
                                               isinstance(cfg.cascade_select, int)
                                               or cfg.cascade_select < 1):
            raise invalid("cascade_select", caller, "a positive integer or None",
                          cfg.cascade_select)
    if cfg.data is None:
        for name in ("strength", "compare_strength"):
            value = getattr(cfg, name)
            if value is not None and not 0 <= value <= 1:
                raise invalid(name, caller, "in [0, 1]", value)


def appendix_a_record(table: EmbeddingTable, pairs: Sequence[tuple[str, str]] | None = None,
                      pair_seed: int | None = None) -> pd.DataFrame:
    """What a documented rerun of a face-generator audit must state, and what is known.

    Fields with nothing recorded say ``"not recorded"`` (``recorded`` False); pass what
    is known as the loader's ``generation`` mapping.

    Args:
        table: the audited table.
        pairs: the identity pairs used.
        pair_seed: the seed of the pair list.

    Returns:
        DataFrame with columns ``field``, ``value``, ``recorded``.

    Example:
        >>> from privlab.datasets.face_embeddings import table_from_arrays
        >>> t = table_from_arrays(np.eye(2), ["a", "b"])
        >>> r = appendix_a_record(t)
        >>> bool(r.set_index("field").loc["generator and revision", "recorded"])
        False
    """
    gen = table.provenance.get("generation", {}) or {}
    rep = table.report
    counts = table.counts()

    def get(key, render=str):
        value = gen.get(key)
        return (render(value), True) if value not in (None, "", {}, []) else ("not recorded",
                                                                             False)

    sources = gen.get("sources")
    enc = gen.get("encoder")
    rows = [
        ("table source", table.source, True),
        ("table sha256", table.provenance.get("sha256", ""), True),
        ("rows read / kept", f"{rep.rows_read} / {rep.kept}", True),
        ("dropped: missing vectors", len(rep.dropped_missing), True),
        (f"dropped: norm <= {rep.min_norm:g}", len(rep.dropped_zero_norm), True),
        ("duplicate vectors within an identity (groups)",
         rep.duplicate_groups("within identity"), True),
        ("duplicate vectors across identities (groups)",
         rep.duplicate_groups("across identities"), True),
        ("identities; rows per identity",
         f"{len(counts)}; {counts.min()}–{counts.max()}" if len(counts) else "0", True),
        ("what a label denotes", *get("label_denotes")),
        ("generator and revision", *get("generator")),
        ("generator settings (knobs, prompts)", *get("knobs", lambda v: ", ".join(
            f"{k}={v[k]:g}" if isinstance(v[k], float) else f"{k}={v[k]}" for k in v)
            if isinstance(v, dict) else str(v))),
        ("generator seeds", *(get("seed_scheme") if gen.get("seed_scheme") else get("seed"))),
        ("generator checkpoint hashes", *get("checkpoint")),
        ("fixed donor / reference identifier", *get("donor")),
        ("source images per identity", *(
            ("; ".join(f"{k}: {v['photo']} (sha256 {v['sha256'][:12]}…)"
                       for k, v in sources.items()), True)
            if isinstance(sources, dict) and sources else get("sources"))),
        ("encoder and checkpoint", *(
            (f"{enc.get('encoder')} " + ", ".join(f"{n} sha256 {h[:12]}…" for n, h in
                                                  enc.get("checkpoints", {}).items()), True)
            if isinstance(enc, dict) else get("encoder"))),
        ("software environment", *get("environment", lambda v: ", ".join(
            f"{k} {x}" for k, x in v.items()) if isinstance(v, dict) else str(v))),
        ("identity pairs and seed", (f"{len(pairs)} pairs, seed {pair_seed}, first "
                                     f"{list(pairs[:3])}" if pairs else "not recorded"),
         bool(pairs)),
        ("row model", "iid rows per identity assumed by the certificate; " + (
            "true by construction here (independent seeds, one source photo per identity)"
            if gen.get("generator", "").startswith("toy") else "not verifiable from the file"),
         bool(gen.get("generator", "").startswith("toy"))),
    ]
    return pd.DataFrame(rows, columns=["field", "value", "recorded"])


# ----------------------------------------------------------------------------------
# The study
# ----------------------------------------------------------------------------------

def no_face_rows(embeddings) -> np.ndarray:
    """Rows that are the shared no-face vector ``e_d`` (last coordinate 1, the rest 0).

    They mark outputs with no detectable face; distances to them measure detector failures.

    Args:
        embeddings: ``(N, d)`` array, ``d >= 2``.

    Returns:
        Boolean array of length N.

    Raises:
        PrivlabValueError: not a 2-D array with at least two columns.

    Example:
        >>> x = np.array([[0.0, 0.0, 1.0], [0.6, 0.8, 0.0], [0.0, 0.0, 1.0]])
        >>> no_face_rows(x).tolist()
        [True, False, True]
    """
    x = np.asarray(embeddings, dtype=np.float64)
    if x.ndim != 2 or x.shape[1] < 2:
        raise invalid("embeddings", "no_face_rows", "a 2-D array with at least two columns",
                      f"shape {x.shape}", given_is_text=True)
    return (np.abs(x[:, -1] - 1.0) < 1e-9) & (np.abs(x[:, :-1]).max(axis=1) < 1e-9)


def _certificate_selection(table: EmbeddingTable, pairs, cfg: Config):
    dev = split_rows(table.labels, cfg.dev_fraction, cfg.seed)
    chosen, auc = select_on_development(table.embeddings, table.labels, dev, pairs,
                                        cfg.n_select, cfg.distinct_identities, cfg.delta,
                                        cfg.seed)
    return dev, chosen, auc


def _faces_selection(table: EmbeddingTable, dev: np.ndarray, pairs, cfg: Config):
    """The rows with a face, the same split restricted to them, and pairs selected again
    on their development rows (None when every output has a face)."""
    face = ~no_face_rows(table.embeddings)
    if face.all():
        return None
    x, y, d = table.embeddings[face], table.labels[face], dev[face]
    chosen, auc = select_on_development(x, y, d, pairs, cfg.n_select, cfg.distinct_identities,
                                        cfg.delta, cfg.seed)
    return x, y, d, chosen, auc


@registry.member("face_generators", number="06", title=STUDY, notebook="06_face_generators")
def run(config: Config | None = None) -> FaceGeneratorResult:
    """Run study 06.

    Args:
        config: settings; default :meth:`Config.for_notebook`.

    Returns:
        A :class:`FaceGeneratorResult`.

    Raises:
        PrivlabValueError / PrivlabTypeError: invalid settings, an unreadable or
            malformed table, pairs with unknown labels or too few rows.
    """
    cfg = Config.for_notebook() if config is None else config
    _check(cfg)
    loaded = _load(cfg)
    first = loaded[0][1]
    if cfg.pairs is not None:
        pairs = [tuple(map(str, p)) for p in cfg.pairs]
        known = set(first.labels.tolist())
        for p in pairs:
            if len(p) != 2 or not set(p) <= known:
                raise invalid("pairs", "face_generators.run",
                              "pairs of labels present in the table", p)
    else:
        counts = first.counts()
        eligible = counts[counts >= cfg.min_rows].index.tolist()
        if len(eligible) < 2:
            raise invalid("table", "face_generators.run",
                          f"at least two identities with {cfg.min_rows} or more rows",
                          f"{len(eligible)} such identities", given_is_text=True,
                          fix="Lower min_rows or supply more rows per identity.")
        pairs = identity_pairs(eligible, cfg.n_pairs, cfg.seed)
    with auditor_threads():
        return _run(cfg, loaded, pairs)


def _routes(cfg: Config) -> list:
    """The routes by name, MMD-TV with its permutation test."""
    return [MMDTV(permutations=cfg.mmd_permutations) if m == "mmd-tv" else m
            for m in cfg.methods]


def _run(cfg: Config, loaded, pairs) -> FaceGeneratorResult:
    first = loaded[0][1]
    selections = []
    for name, table in loaded:
        dev, chosen, auc = _certificate_selection(table, pairs, cfg)
        selections.append((name, table, dev, chosen, auc,
                           _faces_selection(table, dev, pairs, cfg)))
    # one Bonferroni family over every bound reported, faces-only ones included
    total_selected = sum(len(s[3]) + (len(s[5][3]) if s[5] else 0) for s in selections)
    alpha_rate = cfg.alpha / (2 * max(total_selected, 1))
    conditions = []
    stages = len(selections) + int(bool(cfg.cascade_passes and cfg.data is None))

    def condition(name, table, x, y, dev, chosen, auc, audited_pairs):
        audit = audit_pairs(x, y, audited_pairs, methods=_routes(cfg), delta=cfg.delta,
                            seed=cfg.seed, family_alpha=cfg.alpha, min_rows=cfg.min_rows) \
            if cfg.methods and audited_pairs else EpsilonAuditTable([], {})
        cert = certify_pairs(x, y, dev, chosen, alpha_rate, cfg.delta, auc)
        split = pd.DataFrame({"development": pd.Series(y[dev]).value_counts(),
                              "test": pd.Series(y[~dev]).value_counts()}
                             ).fillna(0).astype(int).sort_index()
        return Condition(name, table, audit, cert, split)

    for i, (name, table, dev, chosen, auc, faces) in enumerate(selections):
        step(f"auditing and certifying {name}", i, stages)
        c = condition(name, table, table.embeddings, table.labels, dev, chosen, auc, pairs)
        missing = no_face_rows(table.embeddings)
        c.no_face = pd.Series(table.labels[missing]).value_counts().reindex(
            sorted(set(table.labels.tolist())), fill_value=0).astype(int)
        if faces is not None:
            x, y, d, chosen_f, auc_f = faces
            counts = pd.Series(y).value_counts()
            kept = [p for p in pairs if min(counts.get(a, 0) for a in p) >= cfg.min_rows]
            c.faces = condition(f"{name}, faces only", table, x, y, d, chosen_f, auc_f, kept)
        conditions.append(c)
    record = appendix_a_record(first, pairs, cfg.seed)
    prov = {"config": asdict(cfg), "pair_seed": cfg.seed, "n_pairs": len(pairs),
            "mmd_permutations": cfg.mmd_permutations,
            "selected_pairs_total": total_selected, "alpha_per_rate": alpha_rate,
            "no_face_outputs": {c.name: int(c.no_face.sum()) for c in conditions},
            "table_sha256": {c.name: c.table.provenance.get("sha256") for c in conditions},
            "environment": environment_versions()}
    step("the random-donor cascade", len(selections), stages)
    data, cascade = _cascade(cfg) if cfg.cascade_passes and cfg.data is None else (None, None)
    if cascade is not None:
        prov["cascade"] = {**cascade.provenance, "generation": data.provenance}
    ceiling = certificate_ceiling(alpha_rate)
    prov["ceiling"] = ceiling.to_dict(orient="records")
    step("done", stages, stages)
    return FaceGeneratorResult(cfg, conditions, pairs, alpha_rate, record, cascade, data,
                               ceiling, toy_previews(cfg), cascade_preview(cfg) if cascade
                               is not None else None, provenance=prov)


def _cascade(cfg: Config) -> tuple[CascadeTable, CascadeAudit]:
    """The toy random-donor cascade, split by sequence, certified after every pass."""
    data = toy_cascade(cfg.cascade_identities, cfg.cascade_sequences, cfg.cascade_passes,
                       cfg.cascade_donors, cfg.cascade_pool, cfg.seed, cfg.encoders[0],
                       swap=ToyDonorSwap(swap=cfg.cascade_swap))
    # sequences, not outputs, are split: every pass of a sequence is on the same side
    dev = split_rows(data.labels, cfg.cascade_dev_fraction, cfg.seed)
    pairs = identity_pairs(data.labels, cfg.n_pairs, cfg.seed)
    audit = audit_cascade(data.vectors, data.labels, dev, pairs, n_select=cfg.cascade_select,
                          alpha=cfg.alpha, delta=cfg.cascade_delta, methods=_routes(cfg),
                          distinct_identities=cfg.distinct_identities, seed=cfg.seed,
                          min_rows=5)
    return data, audit
