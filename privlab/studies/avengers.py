"""Study 03, franchise comments: which sanitizer hides a film franchise, and at what cost?

The paper's Avengers study (49 Reddit comments that each name the franchise) with an
offline stand-in: 49 comments written for privlab about the fictional *Vanguard Legion*
franchise (:func:`privlab.datasets.text_corpora.franchise_comments`), or any comments a
user loads with :mod:`privlab.datasets.reddit`. Several sanitizers run on the same
comments and each is audited with the symmetric test:

    resolution = max(0, max_ij E(X_c(x_i)) . (E(x_j) - E(X_c(x_j))))
    utility    = mean_i cos(E(x_i), E(X_c(x_i)))

Because the offline comments carry seeded clues with ground truth (characters, plot,
studio ...), the study also says which clue types each sanitizer removed, which the test
caught (kept, and named in a top witness) and which it missed.

The shared machinery (:class:`TextStudyResult`, :func:`run_text_study`) is also used by
the Enron study.
"""

from __future__ import annotations

import html
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from privlab.contrastive import AuditTable, audit
from privlab.datasets.text_corpora import LeakStatus, TextCorpus, franchise_comments, leak_status
from privlab.errors import invalid
from privlab.studies import StudyConfig

# Proper nouns and lore a careful human would list for the franchise (the paper's
# "quoted items" list, written for the fictional franchise).
BROAD_CONCEPTS = ("Vanguard Legion", "Vanguard", "Legion", "Ironclad", "Captain Aurora",
                  "Stormcaller", "Kestrel", "Doctor Quill", "Tinker", "Mordant", "Ember Crown",
                  "Theo Marchetti", "Varga sisters", "Halcyon Pictures", "Last Light",
                  "Fault Line")


def build_sanitizer(spec: str, corpus: TextCorpus, broad: Sequence[str] = ()):
    """A sanitizer from a short spec, given the corpus's concept list.

    ``"concept-list"`` removes the corpus's concepts; ``"concept-list-broad"`` also
    removes ``broad``; any other name is created from
    :data:`privlab.sanitizers.registry` with ``concepts=corpus.concepts``.

    Example:
        >>> build_sanitizer("concept-list", franchise_comments()).sanitize(["Vanguard Legion rules"])
        ['████████ ██████ rules']
    """
    from privlab.sanitizers import ConceptListSanitizer, registry

    if spec == "concept-list":
        return ConceptListSanitizer(corpus.concepts, name="concept-list")
    if spec == "concept-list-broad":
        return ConceptListSanitizer(tuple(corpus.concepts) + tuple(broad), name="concept-list-broad")
    if spec not in registry:
        raise invalid("sanitizers", "build_sanitizer",
                      f"'concept-list', 'concept-list-broad' or one of {registry.names()}", spec)
    sanitizer = registry.create(spec, concepts=tuple(corpus.concepts))
    sanitizer.name = spec
    return sanitizer


def highlight(text: str, terms: Sequence[str]) -> str:
    """HTML of ``text`` with each of ``terms`` (case-insensitive, whole words) marked.

    Example:
        >>> highlight("a superhero movie", ["superhero"])
        'a <mark>superhero</mark> movie'
    """
    import re

    escaped = html.escape(text)
    for term in sorted(set(terms), key=len, reverse=True):
        escaped = re.sub(r"(?<![\w>])(" + re.escape(html.escape(term)) + r")(?![\w<])",
                         r"<mark>\1</mark>", escaped, flags=re.IGNORECASE)
    return escaped.replace("\n", "<br>")


@dataclass
class TextStudyResult:
    """Several sanitizers audited on one text corpus.

    Attributes:
        study: the study's name.
        corpus: the corpus audited.
        table: the :class:`privlab.contrastive.AuditTable` (one audit per sanitizer).
        leaks: per sanitizer, the seeded-leak statuses under the first encoder (empty
            for corpora without ground truth).
        settings: the settings that produced it (encoders, sanitizers, top_k ...).
        seconds: wall time of the run.
    """

    study: str
    corpus: TextCorpus
    table: AuditTable
    leaks: dict[str, list[LeakStatus]] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def provenance(self) -> dict[str, Any]:
        """Settings, corpus name, size and hash."""
        first = self.table.audits[0]
        return {**self.settings, "corpus": self.corpus.name, "items": len(self.corpus),
                "corpus_hash": first.corpus, "source": self.corpus.source,
                "status": first.status}

    def to_frame(self):
        """Table 2 style: one row per (sanitizer, encoder) with resolution, witness,
        utility, exact-name matches and share, and the leak counts."""
        frame = self.table.to_frame()
        if self.leaks:
            for status in ("removed", "caught", "missed"):
                frame[f"leaks {status}"] = [
                    sum(s.status == status for s in self.leaks.get(name, []))
                    for name in frame["sanitizer"]]
        return frame.drop(columns=["corpus"])

    def leak_frame(self):
        """One row per (sanitizer, leak type): carriers, kept, caught, status, example."""
        import pandas as pd

        rows = [{"sanitizer": name, "leak type": s.leak_type, "items": s.items, "kept": s.kept,
                 "in a top witness": s.caught, "status": s.status, "example": s.example}
                for name, statuses in self.leaks.items() for s in statuses]
        return pd.DataFrame(rows)

    def missed(self, sanitizer: str) -> list[str]:
        """Leak types kept by ``sanitizer`` that no top witness named."""
        return [s.leak_type for s in self.leaks.get(sanitizer, []) if s.status == "missed"]

    def witness_frame(self, sanitizer: str, encoder: str | None = None, k: int = 1):
        """The top ``k`` witnesses of one sanitizer as text, with the retained terms."""
        import pandas as pd

        a = self.table[sanitizer]
        member = a.member(encoder) if encoder else a.members[0]
        rows = []
        for w in member.witnesses[:k]:
            rows.append({"audited": w.audited, "reference": w.reference,
                         "difference": round(w.difference, 4),
                         "sanitized x": w.audited_sanitized, "original y": w.reference_original,
                         "sanitized y": w.reference_sanitized,
                         "retained terms": ", ".join(w.retained_terms())})
        return pd.DataFrame(rows)

    def witness_html(self, sanitizer: str, encoder: str | None = None) -> str:
        """The decisive witness with the terms it shares with the reference marked."""
        a = self.table[sanitizer]
        member = a.member(encoder) if encoder else a.members[0]
        w = member.witness
        terms = w.retained_terms()
        return (f"<div><b>{html.escape(sanitizer)}</b> under {html.escape(member.encoder)}: "
                f"resolution {member.value:.4f}, witness x={w.audited}, y={w.reference}."
                f"<table><tr><th>sanitized x (released)</th><th>original y</th>"
                f"<th>sanitized y</th></tr><tr><td>{highlight(w.audited_sanitized, terms)}</td>"
                f"<td>{highlight(w.reference_original, terms)}</td>"
                f"<td>{html.escape(w.reference_sanitized)}</td></tr></table></div>")

    def best(self) -> str:
        """The sanitizer with the smallest resolution (ties: higher utility).

        Only sanitizers that changed every text and left no exact name are eligible (one
        that leaves a text unchanged has not sanitized the concept there, and its 0 is
        vacuous); when none qualifies, every sanitizer that changed something is.
        """
        frame = self.table.to_frame()
        eligible = (frame["unchanged"] == 0)
        if "name_matches" in frame:
            eligible &= frame["name_matches"] == 0
        if not eligible.any():
            eligible = frame["unchanged"] < frame["items"]
        if eligible.any():
            frame = frame[eligible]
        frame = frame.groupby("sanitizer", sort=False).agg(
            resolution=("resolution", "max"), utility=("utility", "mean")).reset_index()
        frame = frame.sort_values(["resolution", "utility"], ascending=[True, False])
        return str(frame.iloc[0]["sanitizer"])

    def headline(self) -> str:
        """The number that matters: the best sanitizer's resolution, utility and witness."""
        name = self.best()
        a = self.table[name]
        member = a.members[0]
        w = member.witness
        text = (f"best {name}: resolution {member.value:.3f} (witness {w.audited},{w.reference}), "
                f"utility {member.mean_utility:.2f}; {len(self.table)} sanitizers on "
                f"{len(self.corpus)} texts")
        if a.baseline is not None:
            text += f"; name kept in {a.baseline.count}"
        return text

    def _repr_html_(self) -> str:
        return (f"<div><b>{html.escape(self.study)}</b> on {html.escape(self.corpus.name)} "
                f"({len(self.corpus)} texts, {self.provenance['status']})"
                + self.to_frame().to_html(index=False, float_format=lambda v: f"{v:.4f}")
                + "</div>")


def run_text_study(study: str, corpus: TextCorpus, sanitizers: Sequence[str],
                   encoders: Sequence[str], *, broad: Sequence[str] = (), top_k: int = 10,
                   progress: bool = False) -> TextStudyResult:
    """Audit each sanitizer on ``corpus`` under every encoder (symmetric test).

    Args:
        study: a name for the result.
        corpus: the texts and their ground truth.
        sanitizers: specs for :func:`build_sanitizer`.
        encoders: encoder names.
        broad: the extra concepts of ``"concept-list-broad"``.
        top_k: witnesses kept per audit; leaks are "caught" when named in one of them.
        progress: progress bars while encoding.

    Returns:
        A :class:`TextStudyResult`.
    """
    if not sanitizers:
        raise invalid("sanitizers", study, "a non-empty list of sanitizer names", sanitizers)
    if not encoders:
        raise invalid("encoders", study, "a non-empty list of encoder names", encoders)
    start = time.perf_counter()
    texts = list(corpus.texts)
    audits = []
    leaks: dict[str, list[LeakStatus]] = {}
    for spec in sanitizers:
        sanitizer = build_sanitizer(spec, corpus, broad)
        a = audit(texts, sanitizer, encoders=list(encoders), names=corpus.names, top_k=top_k,
                  progress=progress)
        audits.append(a)
        if any(corpus.leaks):
            leaks[a.name] = leak_status(corpus, a.sanitized, a.members[0].witnesses)
    settings = {"encoders": list(encoders), "sanitizers": [a.sanitizer for a in audits],
                "top_k": top_k, "test": "symmetric"}
    return TextStudyResult(study, corpus, AuditTable(tuple(audits)), leaks, settings,
                           time.perf_counter() - start)


DEFAULT_SANITIZERS = ("identity", "concept-list", "concept-list-broad", "regex-pii", "presidio",
                      "entity-types")


@dataclass
class Config(StudyConfig):
    """Settings of study 03.

    Attributes:
        encoders: distance mechanisms (registry names); the first labels the leak table.
        sanitizers: sanitizer specs (see :func:`build_sanitizer`).
        proxy: ``"9"`` (the fixed nine-comment proxy set) or ``"49"`` (all).
        broad_concepts: the extra items of ``concept-list-broad``.
        corpus: a corpus to use instead of the offline franchise comments.
        top_k: witnesses kept per audit.
    """

    encoders: tuple[str, ...] = ("minilm",)
    sanitizers: tuple[str, ...] = DEFAULT_SANITIZERS
    proxy: str = "49"
    broad_concepts: tuple[str, ...] = BROAD_CONCEPTS
    corpus: TextCorpus | None = None
    top_k: int = 10

    @classmethod
    def smoke(cls) -> "Config":
        """Tiny settings: the nine-comment set, model-free sanitizers."""
        return cls(sanitizers=("identity", "concept-list", "concept-list-broad", "regex-pii"),
                   proxy="9")


def run(config: Config | None = None) -> TextStudyResult:
    """Run study 03.

    Example:
        >>> r = run(Config(encoders=("lexical",), sanitizers=("identity", "concept-list"),
        ...                proxy="9"))
        >>> r.table["identity"].value, len(r.corpus)
        (0.0, 9)
    """
    config = config or Config.default()
    if config.proxy not in ("9", "49"):
        raise invalid("proxy", "avengers.run", "'9' or '49'", config.proxy)
    corpus = config.corpus if config.corpus is not None else franchise_comments().subset(config.proxy)
    return run_text_study("03 franchise comments", corpus, config.sanitizers, config.encoders,
                          broad=config.broad_concepts, top_k=config.top_k)


def sanitizer_options() -> list[str]:
    """Sanitizer specs a widget offers: the broad concept list plus every text sanitizer."""
    from privlab.sanitizers import registry

    return ["concept-list-broad"] + registry.names(modality="text")


def panel(config: Config | None = None):
    """Interactive panel: encoder, proxy size and sanitizers; press Run."""
    import ipywidgets as w
    from IPython.display import display

    from privlab.widgets import StudyPanel, encoder_picker

    config = config or Config.default()
    controls = {
        "encoder": encoder_picker(config.encoders[0], include_online=False),
        "proxy": w.ToggleButtons(options=["9", "49"], value=config.proxy, description="Proxy set"),
        "sanitizers": w.SelectMultiple(options=sanitizer_options(),
                                       value=tuple(s for s in config.sanitizers),
                                       description="Sanitizers", rows=7),
    }

    def build(encoder, proxy, sanitizers):
        return Config(encoders=(encoder,), sanitizers=tuple(sanitizers), proxy=proxy,
                      broad_concepts=config.broad_concepts, top_k=config.top_k)

    return StudyPanel(controls, build, run, lambda result: display(result))


__all__ = ["BROAD_CONCEPTS", "Config", "DEFAULT_SANITIZERS", "TextStudyResult", "build_sanitizer",
           "highlight", "panel", "run", "run_text_study"]
