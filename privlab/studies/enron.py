"""Study 04, Enron: do off-the-shelf PII tools hide Ken Lay? (Table 2 of the paper)

Emails that mention the target are sanitized by each tool and audited with the
symmetric test. Next to each resolution the study reports the exact-name baseline: how
many sanitized emails still contain the name (case-insensitive), and their share. The
baseline sees explicit identifiers only; the decisive witness can also show identifying
context that survived without the name.

Corpora: Ken Lay's mailbox when ``../shared/data/enron/kenneth_json.zip`` (or a user
path) is present, selected as in the paper (mentions "Ken Lay", at most 500 words,
repeated bodies dropped); otherwise the offline mailbox about the fictional Marcus
Whitfield, which carries seeded leaks with ground truth.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from privlab.datasets.enron import default_mailbox_path, load_mailbox
from privlab.datasets.text_corpora import TextCorpus, executive_mailbox
from privlab.errors import invalid
from privlab.studies.avengers import TextStudyResult, run_text_study
from privlab.studies import StudyConfig

DEFAULT_SANITIZERS = ("presidio", "entity-types", "regex-pii", "concept-list")
SMOKE_LIMIT = 16


@dataclass
class Config(StudyConfig):
    """Settings of study 04.

    Attributes:
        corpus: ``"auto"`` (the real mailbox when present, else offline), ``"real"``,
            ``"offline"``, or a path to a mailbox in any layout
            :func:`privlab.datasets.enron.read_emails` reads.
        sanitizers: sanitizer specs (see :func:`privlab.studies.avengers.build_sanitizer`).
        encoders: distance mechanisms (registry names).
        limit: use only the first ``limit`` selected emails (None: all).
        proxy: for the offline mailbox, ``"9"`` or ``"49"``.
        top_k: witnesses kept per audit.
        progress: progress bars while encoding.
    """

    corpus: str = "auto"
    sanitizers: tuple[str, ...] = DEFAULT_SANITIZERS
    encoders: tuple[str, ...] = ("minilm",)
    limit: int | None = None
    proxy: str = "49"
    top_k: int = 10
    progress: bool = False

    @classmethod
    def smoke(cls) -> "Config":
        """Tiny settings: the first 16 selected emails (or the nine offline ones)."""
        return cls(limit=SMOKE_LIMIT, proxy="9")


def load_corpus(config: Config) -> TextCorpus:
    """The corpus ``config`` asks for.

    Raises:
        ValueError: ``"real"`` requested but the shared mailbox is absent, or an unknown
            setting.
    """
    choice = config.corpus
    if choice == "auto":
        choice = "real" if default_mailbox_path() is not None else "offline"
    if choice == "offline":
        if config.proxy not in ("9", "49"):
            raise invalid("proxy", "enron.load_corpus", "'9' or '49'", config.proxy)
        corpus = executive_mailbox().subset(config.proxy)
        return corpus.subset(range(min(len(corpus), config.limit))) if config.limit else corpus
    if choice == "real":
        if default_mailbox_path() is None:
            raise invalid("corpus", "enron.load_corpus", "'offline' or a path when the shared "
                          "Enron mailbox is absent", "real",
                          "Put kenneth_json.zip under ../shared/data/enron/ or pass its path.")
        return load_mailbox(limit=config.limit)
    if Path(choice).exists():
        return load_mailbox(choice, limit=config.limit)
    raise invalid("corpus", "enron.load_corpus", "'auto', 'real', 'offline' or an existing path",
                  choice)


def run(config: Config | None = None) -> TextStudyResult:
    """Run study 04 (Table 2: resolution, witness and exact-name baseline per sanitizer).

    Example:
        >>> r = run(Config(corpus="offline", sanitizers=("concept-list",), encoders=("lexical",),
        ...                proxy="9"))
        >>> r.table["concept-list"].baseline.count
        0
    """
    config = config or Config.default()
    corpus = load_corpus(config)
    return run_text_study("04 Enron", corpus, config.sanitizers, config.encoders,
                          top_k=config.top_k, progress=config.progress)


def context_witnesses(result: TextStudyResult, sanitizer: str):
    """Top witnesses whose released text no longer holds the name: context, not identifiers.

    Returns:
        A DataFrame (audited, reference, difference, sanitized x, original y).
    """
    import pandas as pd

    from privlab.contrastive import name_pattern

    pattern = name_pattern(result.corpus.names)
    rows = [{"audited": w.audited, "reference": w.reference, "difference": round(w.difference, 4),
             "sanitized x": w.audited_sanitized, "original y": w.reference_original}
            for w in result.table[sanitizer].members[0].witnesses
            if w.difference > 0 and not pattern.search(w.audited_sanitized)]
    return pd.DataFrame(rows, columns=["audited", "reference", "difference", "sanitized x",
                                       "original y"])


def table2(result: TextStudyResult):
    """The paper's Table 2 layout: sanitizer, resolution, name matches, share, witness."""
    frame = result.to_frame()
    cols = ["sanitizer", "encoder", "resolution", "name_matches", "name_share", "witness",
            "utility"]
    return frame[[c for c in cols if c in frame.columns]]


def panel(config: Config | None = None):
    """Interactive panel: encoder, corpus, sanitizers, email limit; press Run."""
    import ipywidgets as w
    from IPython.display import display

    from privlab.studies.avengers import sanitizer_options
    from privlab.widgets import StudyPanel, encoder_picker

    config = config or Config.default()
    controls = {
        "encoder": encoder_picker(config.encoders[0], include_online=False),
        "corpus": w.Dropdown(options=["auto", "real", "offline"], value=config.corpus,
                             description="Corpus"),
        "sanitizers": w.SelectMultiple(options=sanitizer_options(), value=config.sanitizers,
                                       description="Sanitizers", rows=6),
        "limit": w.IntText(value=config.limit or 0, description="Emails (0 = all)"),
    }

    def build(encoder, corpus, sanitizers, limit):
        return Config(corpus=corpus, sanitizers=tuple(sanitizers), encoders=(encoder,),
                      limit=limit or None, proxy=config.proxy, top_k=config.top_k)

    return StudyPanel(controls, build, run, lambda result: display(table2(result)))


__all__ = ["Config", "DEFAULT_SANITIZERS", "context_witnesses", "load_corpus", "panel", "run",
           "table2"]
