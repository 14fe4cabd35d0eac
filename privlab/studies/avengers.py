"""Study 03, franchise comments: which sanitizer hides a film franchise, and at what cost?

The paper's Avengers study on an offline stand-in (49 comments about a fictional
franchise, with seeded clues), or on the paper's comments with ``Config(data=<folder>)``;
each sanitizer is audited with the symmetric test (:mod:`privlab.studies._text`). See
``docs/methods/studies-text.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pathlib import Path
from typing import Any

from privlab.datasets.text_corpora import TextCorpus, franchise_comments
from privlab.errors import invalid, wrong_type
from privlab.studies._text import TextStudyResult, encoder_caveat, run_text_study
from privlab.studies.contract import StudyConfig, registry
from privlab.studies.params import Choice, param

STUDY = "03 Avengers"

# The broad list for the offline franchise names no seeded clue (it would be graded
# against itself); why and how it was written: docs/methods/studies-text.md.
BROAD_CONCEPTS = ("Vanguard Legion", "Vanguard", "Legion", "Last Light", "Fault Line",
                  "superhero", "superheroes", "hero", "heroes", "villain", "villains",
                  "crossover", "team-up", "franchise", "sequel", "cinematic universe",
                  "blockbuster", "box office", "post-credits")

# The broad list for the real Avengers comments (a folder of the paper's comments),
# from general knowledge of the Marvel films up to 2019: the team, its members and
# villains, the films, the people behind them, and the genre's vocabulary.
AVENGERS_BROAD = ("Avengers", "Marvel", "MCU", "Iron Man", "Tony Stark", "Captain America",
                  "Cap", "Steve Rogers", "Thor", "Hulk", "Bruce Banner", "Black Widow",
                  "Natasha", "Hawkeye", "Thanos", "Loki", "Ultron", "Nick Fury", "S.H.I.E.L.D.",
                  "Spider-Man", "Doctor Strange", "Black Panther", "Captain Marvel", "Ant-Man",
                  "Guardians of the Galaxy", "Infinity War", "Endgame", "Age of Ultron",
                  "Civil War", "Infinity Stones", "Infinity Gauntlet", "Russo brothers",
                  "Joss Whedon", "Kevin Feige", "Robert Downey Jr.", "Chris Evans", "Disney",
                  "superhero", "superheroes", "crossover", "comic book", "comics", "comic")


DEFAULT_SANITIZERS = ("identity", "concept-list", "concept-list-broad", "regex-pii", "presidio",
                      "entity-types")
#: The study's own sanitizer spec, offered before the registered text sanitizers.
BROAD_CHOICE = Choice("concept-list-broad", "the name plus a longer list written before "
                                            "reading the texts")


@dataclass
class Config(StudyConfig):
    """Settings of study 03.

    Attributes:
        encoders: distance mechanisms (registry names); the first labels the leak table.
        sanitizers: sanitizer specs (see :func:`build_sanitizer`).
        proxy: ``"9"`` (the fixed nine-comment proxy set) or ``"49"`` (all), for the
            offline comments; a folder of comments is used whole.
        broad_concepts: the extra items of ``concept-list-broad`` (None: the list for
            the corpus, see :func:`broad_list`).
        data: a folder of ``.txt`` comments (one per file), a Pushshift JSON-lines file
            or a loaded :class:`~privlab.datasets.text_corpora.TextCorpus`; None: the
            offline comments.
        keyword: the franchise's name, which every comment contains in any case and the
            concept list removes (the baseline also counts the singular, :func:`target_names`).
        top_k: witnesses kept per audit.
    """

    encoders: tuple[str, ...] = param(("minilm",), family="encoder", one=True,
                                      filters={"modality": "text"})
    sanitizers: tuple[str, ...] = param(DEFAULT_SANITIZERS, family="sanitizer",
                                        filters={"modality": "text"}, extra=(BROAD_CHOICE,))
    proxy: str = param("49", label="Comments", buttons=True, strict=True,
                       choices=(("9", "9 (the fixed proxy set)"), ("49", "49 (all)")))
    broad_concepts: tuple[str, ...] | None = None
    data: str | TextCorpus | None = param(None, label="Comment folder", help="a folder of "
                                          ".txt comments (empty: privlab's offline set)")
    keyword: str = param("Avengers", help="the franchise's name in those comments",
                         empty="Avengers")
    top_k: int = 10

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.data is not None and not isinstance(self.data, (str, Path, TextCorpus)):
            raise wrong_type("data", "avengers.Config", "a folder or file of comments, a "
                             "TextCorpus, or None (the offline comments)", self.data)
        if isinstance(self.data, Path):
            self.data = str(self.data)

    @classmethod
    def smoke_settings(cls) -> dict:
        """Tiny settings: the nine-comment set, model-free sanitizers."""
        return {"sanitizers": ("identity", "concept-list", "concept-list-broad", "regex-pii"),
                "proxy": "9"}


def load_corpus(config: Config) -> TextCorpus:
    """The comments ``config.data`` names: a given corpus, a folder or file of comments, or
    the offline franchise comments (9 or 49) when it is None.

    Raises:
        ValueError: a bad ``proxy``, or comments that :func:`privlab.datasets.reddit.load_comments`
            refuses (a missing path, no comment with the keyword).
    """
    if isinstance(config.data, TextCorpus):
        return config.data
    if config.data is not None:
        from privlab.datasets.reddit import load_comments

        return load_comments(config.data, config.keyword,
                             names=target_names(config.keyword), limit=None)
    if config.proxy not in ("9", "49"):
        raise invalid("proxy", "avengers.run", "'9' or '49'", config.proxy)
    return franchise_comments().subset(config.proxy)


def target_names(keyword: str) -> tuple[str, ...]:
    """The forms of the franchise's name the exact-name baseline counts as "name kept":
    the keyword and, for "Avengers", the singular "Avenger" ("an Avenger" names the
    franchise as plainly as "the Avengers"; whole words, any case).

    Example:
        >>> target_names("Avengers"), target_names("Watchmen")
        (('Avengers', 'Avenger'), ('Watchmen',))
    """
    return (keyword, "Avenger") if keyword == "Avengers" else (keyword,)


def is_offline(config: Config) -> bool:
    """Whether ``config`` runs on privlab's fictional franchise comments."""
    return config.data is None


def broad_list(config: Config) -> tuple[str, ...]:
    """The extra concepts of ``concept-list-broad``: the configured list, else
    :data:`BROAD_CONCEPTS` for the offline comments, :data:`AVENGERS_BROAD` for real
    comments selected by "Avengers", and the keyword alone for any other keyword.

    Example:
        >>> broad_list(Config(data="x", keyword="Watchmen"))
        ('Watchmen',)
    """
    if config.broad_concepts is not None:
        return tuple(config.broad_concepts)
    if is_offline(config):
        return BROAD_CONCEPTS
    return AVENGERS_BROAD if config.keyword == "Avengers" else (config.keyword,)


def caveats(config: Config, corpus: TextCorpus) -> tuple[str, ...]:
    """What study 03's numbers rest on: the corpus and the distance mechanisms."""
    if is_offline(config):
        data = (f"stand-in data: {len(corpus)} comments written by privlab about a fictional "
                "franchise, Vanguard Legion (seeded clues with ground truth), not the paper's "
                "Reddit comments about the Avengers")
    elif not isinstance(config.data, TextCorpus):
        data = (f"{len(corpus)} comments from {config.data} containing "
                f"'{config.keyword}' (no clue ground truth)")
    else:
        data = f"user corpus '{corpus.name}' ({len(corpus)} texts)"
    return (data, encoder_caveat(config.encoders),
            f"concept-list-broad: {len(broad_list(config))} concepts written without the "
            "items' ground truth" if is_offline(config) and config.broad_concepts is None else
            f"concept-list-broad: {len(broad_list(config))} concepts",
            "resolution is relative to these encoders and this proxy set")


class FranchiseResult(TextStudyResult):
    """Study 03's result: its summary names the corpus and the encoder."""

    def summary_parts(self) -> tuple[str, list[str]]:
        """The best sanitizer's resolution and utility with the name kept beside them; on
        which comments, under which encoder and the witness beneath."""
        name = self.best()
        a = self.table[name]
        member = a.members[0]
        w = member.witness
        where = (f"privlab's {len(self.corpus)} fictional Vanguard Legion comments (stand-in "
                 "for the Avengers)" if self.corpus.name.startswith("vanguard-legion") else
                 f"{len(self.corpus)} comments of {self.corpus.name}")
        text = (f"best of {len(self.table)} sanitizers, {name}: resolution {member.value:.3f}, "
                f"utility {member.mean_utility:.2f}")
        if a.baseline is not None:
            text += f"; name kept in {a.baseline.count} of {len(self.corpus)} comments"
        return text, [f"on {where}",
                      f"under {member.encoder}: witness {w.audited},{w.reference}"]


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
    corpus = load_corpus(config)
    settings: dict[str, Any] = {"broad_concepts": list(broad_list(config))}
    if isinstance(config.data, str):
        settings["comments"] = str(Path(config.data))
    return run_text_study("03 franchise comments", corpus, config.sanitizers, config.encoders,
                          broad=broad_list(config), top_k=config.top_k, label=STUDY,
                          caveats=caveats(config, corpus), result_type=FranchiseResult,
                          extra_settings=settings)


__all__ = ["AVENGERS_BROAD", "BROAD_CONCEPTS", "Config", "DEFAULT_SANITIZERS", "FranchiseResult",
           "STUDY", "TextStudyResult", "broad_list", "caveats", "is_offline", "load_corpus",
           "run", "target_names"]
