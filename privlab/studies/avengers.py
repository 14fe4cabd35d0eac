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

The shared machinery (:class:`~privlab.studies._text.TextStudyResult`,
:func:`~privlab.studies._text.run_text_study`) lives in :mod:`privlab.studies._text`.
"""

from __future__ import annotations

from dataclasses import dataclass

from privlab.datasets.text_corpora import TextCorpus, franchise_comments
from privlab.errors import invalid
from privlab.studies._text import TextStudyResult, encoder_caveat, run_text_study
from privlab.studies.contract import StudyConfig, registry

STUDY = "03 Avengers"

# Proper nouns and lore a careful human would list for the franchise (the paper's
# "quoted items" list, written for the fictional franchise).
BROAD_CONCEPTS = ("Vanguard Legion", "Vanguard", "Legion", "Ironclad", "Captain Aurora",
                  "Stormcaller", "Kestrel", "Doctor Quill", "Tinker", "Mordant", "Ember Crown",
                  "Theo Marchetti", "Varga sisters", "Halcyon Pictures", "Last Light",
                  "Fault Line")


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
    def smoke_settings(cls) -> dict:
        """Tiny settings: the nine-comment set, model-free sanitizers."""
        return {"sanitizers": ("identity", "concept-list", "concept-list-broad", "regex-pii"),
                "proxy": "9"}


def caveats(config: Config, corpus: TextCorpus) -> tuple[str, ...]:
    """What study 03's numbers rest on: the corpus and the distance mechanisms."""
    if config.corpus is None:
        data = (f"{len(corpus)} comments written by privlab about a fictional franchise "
                "(seeded clues with ground truth), not real Reddit comments")
    else:
        data = f"user corpus '{corpus.name}' ({len(corpus)} texts)"
    return (data, encoder_caveat(config.encoders),
            "resolution is relative to these encoders and this proxy set")


@registry.member("avengers", number="03", title=STUDY, notebook="03_avengers")
def run(config: Config | None = None) -> TextStudyResult:
    """Run study 03.

    Example:
        >>> r = run(Config(encoders=("lexical",), sanitizers=("identity", "concept-list"),
        ...                proxy="9"))
        >>> r.table["identity"].value, len(r.corpus)
        (0.0, 9)
    """
    config = config or Config.for_notebook()
    if config.proxy not in ("9", "49"):
        raise invalid("proxy", "avengers.run", "'9' or '49'", config.proxy)
    corpus = config.corpus if config.corpus is not None else franchise_comments().subset(config.proxy)
    return run_text_study("03 franchise comments", corpus, config.sanitizers, config.encoders,
                          broad=config.broad_concepts, top_k=config.top_k, label=STUDY,
                          caveats=caveats(config, corpus))


__all__ = ["BROAD_CONCEPTS", "Config", "DEFAULT_SANITIZERS", "STUDY", "TextStudyResult", "caveats",
           "run"]
