"""Study 04, Enron: do off-the-shelf PII tools hide Ken Lay? (Table 2 of the paper)

Emails that mention the target are sanitized by each tool and audited with the symmetric
test, beside the exact-name baseline; Ken Lay's mailbox when present, else an offline
mailbox with seeded leaks. :func:`paper_comparison` and :func:`selection_counts` set the
selection beside the paper's. See ``docs/methods/studies-text.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from privlab.datasets.enron import default_mailbox_path, load_mailbox
from privlab.datasets.text_corpora import TextCorpus, executive_mailbox
from privlab.errors import invalid
from privlab.studies._text import TextStudyResult, encoder_caveat, run_text_study
from privlab.studies.contract import StudyConfig, registry
from privlab.studies.params import Choice, param

STUDY = "04 Enron"

DEFAULT_SANITIZERS = ("presidio", "entity-types", "regex-pii", "concept-list")
SMOKE_LIMIT = 16
DEMO_LIMIT = 300
# Table 2 of the paper: emails still holding the name after each tool, of 1,841 selected
# from the whole Enron corpus (the tools the paper reports a count for).
PAPER_EMAILS = 1841
PAPER_NAME_KEPT = {"presidio": 17, "comprehend": 9, "cloud-dlp": 0}


def corpus_choices() -> tuple[Choice, ...]:
    """The mailboxes a notebook offers: ``"auto"``, the real one (when its file is
    present) and the offline one."""
    return (Choice("auto", "the real mailbox when present, else the offline one"),
            Choice("real", "Ken Lay's mailbox (kenneth_json.zip)", "data", default_mailbox_path(),
                   "Put kenneth_json.zip under ../shared/data/enron/ (see data/README.md)."),
            Choice("offline", "privlab's mailbox about a fictional executive"))


@dataclass
class Config(StudyConfig):
    """Settings of study 04.

    Attributes:
        data: what is audited: ``"auto"`` (the real mailbox when present, else
            offline), ``"real"``, ``"offline"``, or a path to a mailbox in any layout
            :func:`privlab.datasets.enron.read_emails` reads.
        sanitizers: sanitizer specs (see :func:`privlab.studies._text.build_sanitizer`).
        encoders: distance mechanisms (registry names).
        limit: use only the first ``limit`` selected emails (None: all).
        match: how "Ken Lay" is found (selection and baseline): ``"substring"`` (the
            paper's rule) or ``"word"`` (whole words; drops ``=09Ken Lay@ENRON``).
        dedupe: keep one copy of a body filed in several folders (off, as the paper).
        proxy: for the offline mailbox, ``"9"`` or ``"49"``.
        top_k: witnesses kept per audit.
        progress: progress bars while encoding.
    """

    data: str = param("auto", label="Mailbox", choices=lambda: corpus_choices())
    sanitizers: tuple[str, ...] = param(DEFAULT_SANITIZERS, family="sanitizer",
                                        filters={"modality": "text"})
    encoders: tuple[str, ...] = param(("minilm",), family="encoder", one=True,
                                      filters={"modality": "text"})
    limit: int | None = param(None, label="Emails (0 = all)", minimum=0, zero_is_none=True)
    match: str = param("substring", label="Name match", buttons=True, strict=True,
                       choices=(("substring", "anywhere (the paper's rule)"),
                                ("word", "whole words only")))
    dedupe: bool = param(False, label="Drop repeated bodies")
    proxy: str = "49"
    top_k: int = 10
    progress: bool = False

    @classmethod
    def smoke_settings(cls) -> dict:
        """Tiny settings: the first 16 selected emails (or the nine offline ones)."""
        return {"limit": SMOKE_LIMIT, "proxy": "9"}

    @classmethod
    def demo_settings(cls) -> dict:
        """Demo settings: at most the first 300 selected emails (Presidio takes about 0.3 s
        an email on two cores; the offline mailbox is smaller than this anyway)."""
        return {"limit": DEMO_LIMIT}


def _ran(result: TextStudyResult) -> list[str]:
    """The sanitizers a result holds, by name."""
    return [a.name for a in result.table]


def _lay_mailbox(corpus: TextCorpus) -> bool:
    """Whether ``corpus`` was selected from Ken Lay's mailbox (``kenneth_json.zip``)."""
    return corpus.name.startswith("enron:") and Path(corpus.source).name == "kenneth_json.zip"


class EnronResult(TextStudyResult):
    """Study 04's result: Table 2 rows, headlined by Presidio (the paper's focus)."""

    def summary_parts(self) -> tuple[str, list[str]]:
        """Presidio's resolution beside its exact-name baseline and the paper's count; the
        mailbox, the encoder and the witness beneath.

        Falls back to the best sanitizer when Presidio was not run.
        """
        name = "presidio" if "presidio" in _ran(self) else self.best()
        a = self.table[name]
        member = a.members[0]
        w = member.witness
        where = ("emails of Ken Lay's mailbox" if _lay_mailbox(self.corpus) else
                 f"emails of {Path(self.corpus.source).name}"
                 if self.corpus.name.startswith("enron:") else "emails")
        text = f"{name} on {len(self.corpus)} emails: resolution {member.value:.3f}"
        details = [f"{len(self.corpus)} {where}",
                   f"under {member.encoder}: witness {w.audited},{w.reference}"]
        if a.baseline is not None:
            text += f", name kept in {a.baseline.count} ({a.baseline.share:.2%})"
            more = self.surname_leaks(name)
            text += (f", surname or address kept in {more.count} more "
                     f"({more.share:.2%})")
            if self.corpus.name.startswith("enron:") and name in PAPER_NAME_KEPT:
                kept = PAPER_NAME_KEPT[name]
                text += f"; paper: {kept} of {PAPER_EMAILS:,} ({kept / PAPER_EMAILS:.2%})"
                details.append(f"the paper's {kept} of {PAPER_EMAILS:,} are on its "
                               "whole-corpus selection")
        return text, details

    def quoted_figures(self) -> dict[str, str]:
        """The text study's figures, plus per sanitizer with a name baseline the emails
        that kept the surname or an address (``s.surname_kept``, ``s.surname_share``), and
        how many emails repeat another one's body (``repeats``)."""
        out = super().quoted_figures()
        for name in _ran(self):
            if self.table[name].baseline is not None:
                more = self.surname_leaks(name)
                out[f"{name}.surname_kept"] = f"{more.count:,}"
                out[f"{name}.surname_share"] = f"{more.share:.2%}"
        # the rule of privlab.datasets.enron.drop_repeats: the same body, character for character
        out["repeats"] = f"{len(self.corpus.texts) - len(set(self.corpus.texts)):,}"
        return out

    def surname_leaks(self, sanitizer: str = "presidio"):
        """Sanitized emails that lost the full name but kept the surname or an address
        (``<PERSON> Lay- Chairman``, ``Lay@ENRON``, ``Mr. Lay``, a biography), counted
        beside "name kept" and disjoint from it (:func:`privlab.names.surname_leaks`,
        full names found by the corpus's rule).

        Raises:
            PrivlabValueError: ``sanitizer`` was not run.
        """
        from privlab.names import surname_leaks

        if sanitizer not in _ran(self):
            raise invalid("sanitizer", "EnronResult.surname_leaks", f"one of {_ran(self)}",
                          sanitizer)
        return surname_leaks(self.table[sanitizer].sanitized, self.corpus.names,
                             match=self.corpus.name_match)


def caveats(config: Config, corpus: TextCorpus) -> tuple[str, ...]:
    """What study 04's numbers rest on: which mailbox, selected how, under which encoders."""
    if corpus.name.startswith("enron:"):
        data = (f"real emails: {len(corpus)} selected from {Path(corpus.source).name}, "
                f"{selection_rule(corpus)}")
        skipped = corpus.provenance.get("skipped", ())
        if skipped:
            data += (f"; {len(skipped)} unreadable or undecodable messages skipped "
                     "(listed in corpus.provenance['skipped'])")
    else:
        data = (f"{len(corpus)} emails written by privlab about a fictional executive "
                "(seeded leaks with ground truth), not the Enron corpus")
    out = [data, encoder_caveat(config.encoders),
           "sanitizers run with their packaged offline models"]
    if corpus.name.startswith("enron:"):
        what = ("one mailbox (lay-k)" if _lay_mailbox(corpus)
                else f"emails of {Path(corpus.source).name}")
        out.append(f"{what}, not the paper's {PAPER_EMAILS:,} emails from the whole Enron "
                   "corpus: counts and shares are comparable in kind, not in value")
    return tuple(out)


def selection_rule(corpus: TextCorpus) -> str:
    """The selection a loaded mailbox was made by, in words (with repeats dropped, if any).

    Example:
        >>> from privlab.datasets.text_corpora import TextCorpus
        >>> c = TextCorpus("enron:x", ("Ken Lay",), "t", ("Ken Lay",), (), name_match="substring",
        ...                provenance={"selection": {"match": "substring", "max_words": 500,
        ...                                          "dedupe": False, "selected": 1,
        ...                                          "repeats_dropped": 0}})
        >>> selection_rule(c)
        "the paper's rule: mentions Ken Lay anywhere (case-insensitive), at most 500 words"
    """
    rule = corpus.provenance.get("selection", {})
    where = ("anywhere (case-insensitive)" if rule.get("match", corpus.name_match) == "substring"
             else "as whole words only (case-insensitive; stricter than the paper)")
    text = ("the paper's rule: " if rule.get("match") == "substring" and not rule.get("dedupe")
            else "")
    text += f"mentions {corpus.names[0]} {where}, at most {rule.get('max_words', 500)} words"
    if rule.get("dedupe"):
        text += (f"; repeated bodies dropped ({rule.get('repeats_dropped', 0)} of "
                 f"{rule.get('selected', len(corpus))}; not part of the paper's stated "
                 "selection)")
    return text


def load_corpus(config: Config) -> TextCorpus:
    """The corpus ``config.data`` names.

    Raises:
        ValueError: ``"real"`` requested but the shared mailbox is absent, or an unknown
            setting.
    """
    choice = config.data
    if choice == "auto":
        choice = "real" if default_mailbox_path() is not None else "offline"
    if choice == "offline":
        if config.proxy not in ("9", "49"):
            raise invalid("proxy", "enron.load_corpus", "'9' or '49'", config.proxy)
        corpus = executive_mailbox().subset(config.proxy)
        return corpus.subset(range(min(len(corpus), config.limit))) if config.limit else corpus
    if choice == "real":
        if default_mailbox_path() is None:
            raise invalid("data", "enron.load_corpus", "'offline' or a path when the shared "
                          "Enron mailbox is absent", "real",
                          "Put kenneth_json.zip under ../shared/data/enron/ or pass its path.")
        return load_mailbox(limit=config.limit, match=config.match, dedupe=config.dedupe)
    if Path(choice).exists():
        return load_mailbox(choice, limit=config.limit, match=config.match, dedupe=config.dedupe)
    raise invalid("data", "enron.load_corpus", "'auto', 'real', 'offline' or an existing path",
                  choice)


@registry.member("enron", number="04", title=STUDY, notebook="04_enron")
def run(config: Config | None = None) -> EnronResult:
    """Run study 04 (Table 2: resolution, witness and exact-name baseline per sanitizer).

    Example:
        >>> r = run(Config(data="offline", sanitizers=("concept-list",), encoders=("lexical",),
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

    pattern = name_pattern(result.corpus.names, match=result.corpus.name_match)
    rows = [{"audited": w.audited, "reference": w.reference, "difference": round(w.difference, 4),
             "sanitized x": w.audited_sanitized, "original y": w.reference_original}
            for w in result.table[sanitizer].members[0].witnesses
            if w.difference > 0 and not pattern.search(w.audited_sanitized)]
    return pd.DataFrame(rows, columns=["audited", "reference", "difference", "sanitized x",
                                       "original y"])


def paper_comparison(result: TextStudyResult, sanitizer: str = "presidio"):
    """The paper's Table 2 count for ``sanitizer`` beside privlab's, in one table.

    Rows: the paper (emails selected from the whole Enron corpus) and privlab (this
    run's corpus). Columns: emails, selection, name kept, share, resolution and its
    distance mechanism. The paper's resolution is on its own encoder's scale (QWEN3-4B)
    and is not restated here.

    Raises:
        ValueError: ``sanitizer`` was not run, or it ran without a name baseline.
    """
    import pandas as pd

    if sanitizer not in _ran(result):
        raise invalid("sanitizer", "paper_comparison", f"one of {_ran(result)}", sanitizer)
    a = result.table[sanitizer]
    if a.baseline is None:
        raise invalid("sanitizer", "paper_comparison", "a sanitizer audited with names",
                      sanitizer, given_is_text=True)
    member = a.members[0]
    rows = []
    if sanitizer in PAPER_NAME_KEPT:
        kept = PAPER_NAME_KEPT[sanitizer]
        rows.append({"source": "paper, Table 2", "emails": PAPER_EMAILS,
                     "selection": "whole Enron corpus: mentions Ken Lay (case-insensitive), "
                                  "at most 500 words after stripping headers",
                     "name kept": kept, "share": kept / PAPER_EMAILS,
                     "resolution": float("nan"), "encoder": "QWEN3-4B (not restated)"})
    corpus = result.corpus
    selection = (f"{Path(corpus.source).name}: {selection_rule(corpus)}"
                 if corpus.name.startswith("enron:") else corpus.name)
    rows.append({"source": "privlab", "emails": len(corpus), "selection": selection,
                 "name kept": a.baseline.count, "share": a.baseline.share,
                 "resolution": member.value, "encoder": member.encoder})
    return pd.DataFrame(rows)


def selection_counts(path: str | Path | None = None, *, max_words: int = 500):
    """How many emails each selection rule keeps from a mailbox (read once).

    Rows: the paper's rule (privlab's default), each of privlab's optional departures
    (repeated bodies dropped, whole-word matching, both), and the name with exactly one
    space between its words (what a plain text search for "ken lay" finds; a name
    wrapped across a line break escapes it). Decoding problems are skipped as in
    :func:`privlab.datasets.enron.load_mailbox`.

    Returns:
        A DataFrame: rule, match, dedupe, emails, and the difference from the paper's rule.
    """
    import pandas as pd

    from privlab.datasets.enron import KEN_LAY_NAMES, drop_repeats, read_emails, select_emails

    if path is None:
        path = default_mailbox_path()
        if path is None:
            raise invalid("path", "selection_counts", "given when the shared Enron mailbox is "
                          "absent", None, "Pass the path to kenneth_json.zip, a maildir or "
                          "emails.csv.")
    emails = [e for e in read_emails(path) if not e.problem]
    substring = select_emails(emails, KEN_LAY_NAMES, max_words=max_words, match="substring")
    word = select_emails(emails, KEN_LAY_NAMES, max_words=max_words, match="word")
    one_space = [e for e in substring if "ken lay" in e.text.lower()]
    rows = [("the paper's rule: anywhere, case-insensitive (default)", "substring", False,
             len(substring)),
            ("repeated bodies dropped", "substring", True, len(drop_repeats(substring)[0])),
            ("whole words only", "word", False, len(word)),
            ("whole words only, repeated bodies dropped", "word", True,
             len(drop_repeats(word)[0])),
            ("exactly one space in the name (plain search for 'ken lay')", "substring", False,
             len(one_space))]
    frame = pd.DataFrame(rows, columns=["rule", "match", "dedupe", "emails"])
    frame["difference"] = frame["emails"] - len(substring)
    return frame


def table2(result: TextStudyResult):
    """The paper's Table 2 layout: sanitizer, resolution, name matches, share, witness."""
    frame = result.to_frame()
    cols = ["sanitizer", "encoder", "resolution", "name_matches", "name_share", "witness",
            "utility"]
    return frame[[c for c in cols if c in frame.columns]]


__all__ = ["Config", "DEFAULT_SANITIZERS", "EnronResult", "PAPER_EMAILS", "PAPER_NAME_KEPT",
           "STUDY", "caveats", "context_witnesses", "load_corpus", "paper_comparison", "run",
           "selection_counts", "selection_rule", "table2"]
