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
from privlab.studies._text import TextStudyResult, encoder_caveat, run_text_study
from privlab.studies.contract import StudyConfig, registry

STUDY = "04 Enron"

DEFAULT_SANITIZERS = ("presidio", "entity-types", "regex-pii", "concept-list")
SMOKE_LIMIT = 16


@dataclass
class Config(StudyConfig):
    """Settings of study 04.

    Attributes:
        corpus: ``"auto"`` (the real mailbox when present, else offline), ``"real"``,
            ``"offline"``, or a path to a mailbox in any layout
            :func:`privlab.datasets.enron.read_emails` reads.
        sanitizers: sanitizer specs (see :func:`privlab.studies._text.build_sanitizer`).
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
    def smoke_settings(cls) -> dict:
        """Tiny settings: the first 16 selected emails (or the nine offline ones)."""
        return {"limit": SMOKE_LIMIT, "proxy": "9"}


class EnronResult(TextStudyResult):
    """Study 04's result: Table 2 rows, headlined by Presidio (the paper's focus)."""

    def summary(self) -> str:
        """Presidio's resolution and witness beside its exact-name baseline.

        Falls back to the best sanitizer when Presidio was not run.
        """
        name = "presidio" if "presidio" in self.table else self.best()
        a = self.table[name]
        member = a.members[0]
        w = member.witness
        text = (f"{name} on {len(self.corpus)} emails: resolution {member.value:.3f} "
                f"(witness {w.audited},{w.reference})")
        if a.baseline is not None:
            text += f", name kept in {a.baseline.count} ({a.baseline.share:.2%})"
        return text


def caveats(config: Config, corpus: TextCorpus) -> tuple[str, ...]:
    """What study 04's numbers rest on: which mailbox, selected how, under which encoders."""
    if corpus.name.startswith("enron:"):
        data = (f"real emails: {len(corpus)} selected from {Path(corpus.source).name} "
                f"(mentioning {corpus.names[0]}, at most 500 words, repeated bodies dropped)")
        skipped = corpus.provenance.get("skipped", ())
        if skipped:
            data += (f"; {len(skipped)} undecodable messages skipped "
                     "(listed in corpus.provenance['skipped'])")
    else:
        data = (f"{len(corpus)} emails written by privlab about a fictional executive "
                "(seeded leaks with ground truth), not the Enron corpus")
    return (data, encoder_caveat(config.encoders),
            "sanitizers run with their packaged offline models")


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


@registry.member("enron", number="04", title=STUDY, notebook="04_enron")
def run(config: Config | None = None) -> EnronResult:
    """Run study 04 (Table 2: resolution, witness and exact-name baseline per sanitizer).

    Example:
        >>> r = run(Config(corpus="offline", sanitizers=("concept-list",), encoders=("lexical",),
        ...                proxy="9"))
        >>> r.table["concept-list"].baseline.count
        0
    """
    config = config or Config.for_notebook()
    corpus = load_corpus(config)
    return run_text_study("04 Enron", corpus, config.sanitizers, config.encoders,
                          top_k=config.top_k, progress=config.progress, label=STUDY,
                          caveats=caveats(config, corpus), result_type=EnronResult)


def context_witnesses(result: TextStudyResult, sanitizer: str):
    """Top witnesses whose released text no longer holds the name: context, not identifiers.

    Returns:
        A DataFrame (audited, reference, difference, sanitized x, original y).
    """
    import pandas as pd

    from privlab.names import name_pattern

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


__all__ = ["Config", "DEFAULT_SANITIZERS", "EnronResult", "STUDY", "caveats", "context_witnesses",
           "load_corpus", "run", "table2"]
