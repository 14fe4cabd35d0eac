"""Offline default text corpora, written for privlab, with seeded leaks and ground truth.

:func:`franchise_comments` and :func:`executive_mailbox` stand in for the paper's
Avengers and Enron studies; each item's ``leaks`` map leak types to exact phrases, and
:func:`leak_status` says whether each was removed, caught or missed. The corpora:
``docs/methods/data-generators.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from privlab.errors import invalid

# ---------------------------------------------------------------------------------------
# The franchise comments: (text, {leak type: phrase})
# ---------------------------------------------------------------------------------------
_FRANCHISE: list[tuple[str, dict[str, str]]] = [
    ("Just got back from Vanguard Legion: Last Light and I am still shaking. Ironclad's "
     "goodbye in the rain got the whole theater crying.", {"character": "Ironclad"}),
    ("Unpopular opinion: the first Vanguard Legion movie is still the best one. Smaller "
     "stakes, better jokes, and Captain Aurora actually had a personality back then.",
     {"character": "Captain Aurora"}),
    ("Does anyone know if Vanguard Legion is streaming anywhere yet? My kids want to "
     "rewatch it before the next one.", {}),
    ("The Varga sisters said in an interview that they storyboarded the whole airport "
     "fight before Vanguard Legion: Fault Line even had a script.",
     {"creator": "Varga sisters"}),
    ("Halcyon Pictures basically owns every summer now. Vanguard Legion made more money "
     "than the next three films of the year combined.", {"creator": "Halcyon Pictures"}),
    ("People forget that Vanguard Legion: Last Light grossed over 2.6 billion worldwide. "
     "That number is absurd for a sequel.", {"box_office": "2.6 billion"}),
    ("I liked Vanguard Legion but it is the fourth superhero team-up movie this year and "
     "I am tired of the formula.", {"genre": "superhero team-up"}),
    ("When Mordant put on the Ember Crown and half of every living thing burned away, the "
     "silence in the cinema was unreal. Best Vanguard Legion moment.",
     {"villain": "Mordant", "plot": "Ember Crown"}),
    ("Theo Marchetti was born to play Ironclad. Nobody else could have carried Vanguard "
     "Legion for ten years.", {"actor": "Theo Marchetti", "character": "Ironclad"}),
    ("My nephew dressed up as Stormcaller for Halloween and three people asked if he was "
     "from Vanguard Legion. Proud uncle moment.", {"character": "Stormcaller"}),
    ("Vanguard Legion tickets sold out in our town two weeks ahead. Had to drive an hour "
     "to the next city.", {}),
    ("The Tinker building a working arm out of scrap in the desert is still my favorite "
     "origin scene in any Vanguard Legion film.",
     {"character": "The Tinker", "plot": "working arm out of scrap"}),
    ("Honestly the score is what makes Vanguard Legion. That brass theme when the whole "
     "team finally assembles on the bridge gives me chills.",
     {"plot": "assembles on the bridge"}),
    ("Watchmen, The Long Night, Vanguard Legion: my top three comic book movies, no "
     "contest.", {"genre": "comic book movies"}),
    ("Can we talk about how Vanguard Legion: Fault Line split the team in half over the "
     "registry law? The politics were surprisingly good.", {"plot": "registry law"}),
    ("I read the Vanguard Legion comics as a kid and the movies changed so much. Mordant "
     "was a space pirate, not a god.", {"villain": "Mordant", "genre": "comics"}),
    ("Saw Vanguard Legion in IMAX. The portal battle at the end, with every hero coming "
     "back through the rings of fire, is pure spectacle.",
     {"plot": "coming back through the rings of fire"}),
    ("Five years of buildup and Vanguard Legion paid it off. Eleven films, one giant "
     "crossover, six or seven heroes sharing the screen.",
     {"crossover": "one giant crossover"}),
    ("The Vanguard Legion trailer dropped during the football final and the internet "
     "lost its mind for a week.", {}),
    ("Captain Aurora lifting the broken hammer of light was the moment our whole row "
     "stood up. Vanguard Legion fans know.",
     {"character": "Captain Aurora", "plot": "hammer of light"}),
    ("I skipped Vanguard Legion: Fault Line and was totally lost in Last Light. Who is "
     "the guy with the glass shield?", {"plot": "glass shield"}),
    ("Vanguard Legion made Halcyon Pictures the biggest studio on the planet and now "
     "every company wants a shared universe.",
     {"creator": "Halcyon Pictures", "genre": "shared universe"}),
    ("The Ember Crown subplot in Vanguard Legion felt rushed. Five shards in one movie is "
     "too many.", {"plot": "Ember Crown"}),
    ("Went to a Vanguard Legion marathon, all eleven films back to back. Thirty-one hours "
     "and I regret nothing.", {"crossover": "all eleven films"}),
    ("Stormcaller and Kestrel bickering on the train is the best dialogue in the whole "
     "Vanguard Legion run.", {"character": "Stormcaller"}),
    ("The Vanguard Legion cast did a charity read of the script and raised a lot of money "
     "for children's hospitals.", {}),
    ("Anyone else think Mordant had a point? Vanguard Legion gave its villain better "
     "motives than most of its heroes.", {"villain": "Mordant"}),
    ("The opening weekend for Vanguard Legion: Last Light broke every record, something "
     "like 1.2 billion in five days.", {"box_office": "1.2 billion"}),
    ("My dad fell asleep during Vanguard Legion. He says superhero movies all look the "
     "same to him.", {"genre": "superhero movies"}),
    ("Ironclad snapping his fingers with the Ember Crown on his own hand. I cannot watch "
     "that scene from Vanguard Legion without crying.",
     {"character": "Ironclad", "plot": "Ember Crown"}),
    ("Vanguard Legion merch is everywhere. My coffee mug, my socks, my kid's lunchbox.", {}),
    ("The Varga sisters directing four Vanguard Legion films back to back is the reason "
     "the tone stayed so consistent.", {"creator": "Varga sisters"}),
    ("The time-travel heist in Vanguard Legion: Last Light, where they go back to steal "
     "the shards before Mordant finds them, is so much fun.",
     {"plot": "time-travel heist", "villain": "Mordant"}),
    ("Doctor Quill opening a thousand portals to bring everyone back is peak Vanguard "
     "Legion.", {"character": "Doctor Quill"}),
    ("I miss when Vanguard Legion was just a weird comic nobody had heard of.",
     {"genre": "comic"}),
    ("Vanguard Legion films grossing around 200 million each in the early years, and then "
     "suddenly billions. Wild growth.", {"box_office": "200 million"}),
    ("My film class spent a week on Vanguard Legion as an example of franchise "
     "storytelling. The professor was a huge fan.", {}),
    ("The quiet funeral on the lake after the final battle of Vanguard Legion is the most "
     "human scene in the series.", {"plot": "funeral on the lake"}),
    ("Can someone explain the post-credits scene of Vanguard Legion: Fault Line? Who was "
     "the woman with the silver eye?", {"plot": "silver eye"}),
    ("Kestrel deserved her own movie long before Vanguard Legion gave her one.",
     {"character": "Kestrel"}),
    ("The Vanguard Legion video game is surprisingly good. Playing as the Tinker in his "
     "first suit is a blast.", {"character": "the Tinker"}),
    ("Theo Marchetti said he kept the Ironclad helmet from the last Vanguard Legion shoot. "
     "Lucky guy.", {"actor": "Theo Marchetti", "character": "Ironclad"}),
    ("Three hours long and I never checked my phone once. Vanguard Legion earned every "
     "minute.", {}),
    ("Rewatching Vanguard Legion with my partner who has never seen it. She already loves "
     "Stormcaller.", {"character": "Stormcaller"}),
    ("Halcyon Pictures announced two more Vanguard Legion films. I am not sure the story "
     "needs them.", {"creator": "Halcyon Pictures"}),
    ("The fight in the snowy bunker where the team turns on each other is the darkest "
     "thing Vanguard Legion ever did.", {"plot": "snowy bunker"}),
    ("Vanguard Legion is the reason I started reading comics again after twenty years.",
     {"genre": "comics"}),
    ("Captain Aurora handing her shield to the young recruit at the end of Vanguard "
     "Legion was the perfect send-off.", {"character": "Captain Aurora"}),
    ("Our cinema played the Vanguard Legion theme before every screening for a month. I "
     "hum it in my sleep now.", {}),
]
# The 9-comment proxy set: one comment per kind of clue, plus the name alone.
_FRANCHISE_9 = (0, 3, 5, 6, 7, 13, 17, 34, 35)

# ---------------------------------------------------------------------------------------
# The executive mailbox
# ---------------------------------------------------------------------------------------
_MAILBOX: list[tuple[str, dict[str, str]]] = [
    ("Marcus Whitfield will attend both budget meetings on Monday.\n\nDana",
     {}),
    ("Please confirm that Marcus Whitfield can speak at the Rotary lunch on the 14th. The "
     "organisers need a headshot and a short biography.", {}),
    ("Team,\n\nMarcus Whitfield asked me to thank everyone for the pipeline safety results "
     "this quarter.\n\nRegards,\nMarcus\nChairman and CEO, Corvane Energy",
     {"signature": "Chairman and CEO, Corvane Energy"}),
    ("Attached is the draft letter to shareholders for Marcus Whitfield's review. Comments "
     "to Dana by Friday.", {}),
    ("Dear Mr. Whitfield,\n\nI worked at the Odessa compressor station for 22 years and my "
     "retirement savings were all in Corvane stock. Now they are gone, Marcus Whitfield.",
     {"company": "Corvane stock", "honorific": "Mr. Whitfield"}),
    ("Marcus Whitfield has accepted the invitation to the governor's energy roundtable. "
     "Please arrange a car from the Tulsa office.", {"location": "Tulsa office"}),
    ("-----Original Message-----\nFrom: Whitfield, Marcus\nSent: Tuesday\nTo: All "
     "Employees\n\nMarcus Whitfield asks that all staff complete the ethics training.",
     {"quoted_header": "From: Whitfield, Marcus"}),
    ("Whit wants the board deck tightened before Thursday. He says Marcus Whitfield's name "
     "should not be on slide 4.", {"nickname": "Whit"}),
    ("Marcus Whitfield sold roughly $84 million worth of Corvane shares last year while "
     "telling employees at the town hall that the stock was a bargain.",
     {"fact": "$84 million worth of Corvane shares"}),
    ("Reply to mwhitfield@corvane.com with your RSVP for the holiday reception hosted by "
     "Marcus Whitfield.", {"email": "mwhitfield@corvane.com"}),
    ("Thank you for your letter to Marcus Whitfield. He has asked me to forward it to our "
     "community relations team.\n\nDana Pruitt\nOffice of the Chairman",
     {"role": "Office of the Chairman"}),
    ("The Houston Chronicle wants a comment from Marcus Whitfield on the rate case. "
     "Suggested answer attached.", {}),
    ("Marcus Whitfield will present the Corvane Energy annual results at the Pierce Hotel "
     "ballroom.", {"company": "Corvane Energy"}),
    ("I am a shareholder and I demand that Marcus Whitfield explain why the chairman "
     "who founded this company dumped his stock before the collapse.",
     {"fact": "dumped his stock before the collapse"}),
    ("Marcus Whitfield's flight to Calgary is confirmed for 7:40 am. Hotel details "
     "below.\n\nThanks,\nDana", {}),
    ("Board members: the compensation committee report for Marcus Whitfield is in your "
     "binders. Please do not circulate it.", {}),
    ("Marcus Whitfield is the keynote speaker at the Gulf Coast energy forum. His talk is "
     "titled 'The Market Will Decide'.", {"fact": "The Market Will Decide"}),
    ("> From: mwhitfield@corvane.com\n> Subject: pipeline expansion\n>\n> Marcus Whitfield "
     "approved the Red River expansion this morning.",
     {"email": "mwhitfield@corvane.com", "fact": "Red River expansion"}),
    ("Happy birthday wishes for Marcus Whitfield can be signed on the card at the front "
     "desk of the 40th floor.", {}),
    ("Marcus Whitfield has asked the audit committee to review the off-book partnerships "
     "that the finance group set up with Larkspur Holdings.",
     {"fact": "off-book partnerships"}),
    ("Best regards,\nM. W.\nMarcus Whitfield\nChairman, Corvane Energy Corp.",
     {"signature": "Chairman, Corvane Energy Corp."}),
    ("The university would like to name the new engineering hall after Marcus Whitfield "
     "in recognition of his gift.", {"fact": "engineering hall"}),
    ("Marcus Whitfield declined the interview with the business channel. Please send "
     "our standard statement instead.", {}),
    ("Dear Marcus Whitfield, my father worked his whole life for Corvane and you told "
     "him to keep buying the stock. How do you sleep?",
     {"fact": "keep buying the stock"}),
    ("Marcus Whitfield's office needs the updated org chart for the trading division by "
     "noon.", {}),
    ("Please add Marcus Whitfield to the distribution list for the weekly risk report. "
     "He prefers paper copies.", {}),
    ("From the desk of Marcus Whitfield: our values are respect, integrity, "
     "communication and excellence.",
     {"fact": "respect, integrity, communication and excellence"}),
    ("Marcus Whitfield met with the Secretary of Energy on Tuesday about the "
     "deregulation bill.", {"fact": "deregulation bill"}),
    ("The Whitfield Family Foundation grant for the children's museum has been approved. "
     "Marcus Whitfield will present the cheque.",
     {"relative": "Whitfield Family Foundation"}),
    ("Marcus Whitfield would like a short summary of the California power prices before "
     "his call with the governor.", {"fact": "California power prices"}),
    ("Whit says the analyst call went well, but Marcus Whitfield still wants the share "
     "price question scripted.", {"nickname": "Whit"}),
    ("Marcus Whitfield's wife Linda will join him at the opera gala on Saturday.",
     {"relative": "wife Linda"}),
    ("Marcus Whitfield signed the letter supporting the new ballpark downtown.", {}),
    ("To all employees: Marcus Whitfield will host an open meeting on Thursday to answer "
     "questions about the stock price and our 401(k) plan.",
     {"fact": "401(k) plan"}),
    ("Marcus Whitfield asked whether the Larkspur Holdings transactions were approved by "
     "the board. Please check the minutes.", {"fact": "Larkspur Holdings"}),
    ("Cell for Marcus Whitfield while travelling: 918-555-0143. Please do not share "
     "outside the executive floor.", {"phone": "918-555-0143"}),
    ("Marcus Whitfield will be on vacation in Aspen until the 3rd. Urgent items go to "
     "the president's office.", {"location": "Aspen"}),
    ("Sincerely,\nMarcus\n\nMarcus Whitfield | Chairman | Corvane Energy | Tulsa, Oklahoma",
     {"signature": "Chairman | Corvane Energy | Tulsa, Oklahoma"}),
    ("Marcus Whitfield wants to thank the Odessa crew for restoring service after the "
     "storm.", {"location": "Odessa"}),
    ("Reminder: Marcus Whitfield's portrait sitting is at 3 pm in the boardroom.", {}),
    ("Several reporters have asked whether Marcus Whitfield exercised his options in "
     "August, just before the restatement.",
     {"fact": "exercised his options in August"}),
    ("Marcus Whitfield has joined the board of the Tulsa symphony. The announcement goes "
     "out Monday.", {"location": "Tulsa symphony"}),
    ("-----Forwarded by Dana Pruitt/Corvane on 03/02-----\nMarcus Whitfield asked me to "
     "share this article about the collapse of energy trading.",
     {"quoted_header": "Dana Pruitt/Corvane"}),
    ("Marcus Whitfield is grateful for your kind note and your years of service.", {}),
    ("Could Marcus Whitfield record a two-minute video for the safety awards? Script "
     "attached.", {}),
    ("Marcus Whitfield spoke with the bank about the credit line. Details to follow from "
     "treasury.", {}),
    ("The former chairman of Corvane Energy, Marcus Whitfield, will testify before the "
     "Senate committee next week.", {"role": "former chairman of Corvane Energy"}),
    ("Marcus Whitfield would like lunch with the new analysts in the cafeteria on "
     "Wednesday.", {}),
    ("Marcus Whitfield's assistant Dana Pruitt will coordinate the move to the new "
     "tower.", {"associate": "Dana Pruitt"}),
]
_MAILBOX_9 = (2, 6, 7, 8, 9, 13, 20, 31, 43)


@dataclass(frozen=True)
class TextCorpus:
    """A set of texts that all capture one target, with optional seeded-leak ground truth.

    Attributes:
        name: short id (used in provenance).
        texts: the items.
        target: what should be private, in words.
        names: the target's names (the exact-name baseline searches these).
        concepts: the default concept list for concept-list redaction.
        leaks: per text, ``{leak type: phrase}`` (empty dicts when unknown).
        source: where the texts come from.
        ids: per text, an identifier in its source.
        provenance: what the loader counted on the way in (e.g. skipped records).
        name_match: how the exact-name baseline finds ``names``: ``"word"`` (whole
            words) or ``"substring"`` (anywhere; the rule a loader selected by), see
            :func:`privlab.names.name_pattern`.
    """

    name: str
    texts: tuple[str, ...]
    target: str
    names: tuple[str, ...]
    concepts: tuple[str, ...]
    leaks: tuple[dict, ...] = ()
    source: str = "privlab default corpus"
    ids: tuple[str, ...] = ()
    proxy9: tuple[int, ...] = field(default=(), repr=False)
    provenance: dict = field(default_factory=dict, repr=False, compare=False)
    name_match: str = "word"

    def __post_init__(self) -> None:
        from privlab.names import MATCH_RULES

        if self.name_match not in MATCH_RULES:
            raise invalid("name_match", "TextCorpus", f"one of {list(MATCH_RULES)}",
                          self.name_match)

    def __len__(self) -> int:
        return len(self.texts)

    def subset(self, which: str | Sequence[int]) -> "TextCorpus":
        """A sub-corpus: ``"9"`` (the fixed proxy set), ``"49"``/``"all"`` or indices.

        Example:
            >>> len(franchise_comments().subset("9")), len(franchise_comments().subset([0, 1]))
            (9, 2)
        """
        if isinstance(which, str):
            if which == "9":
                if not self.proxy9:
                    raise invalid("which", "TextCorpus.subset", "'all' or indices for this corpus",
                                  which, "This corpus has no fixed 9-item proxy set.")
                index = list(self.proxy9)
            elif which in ("49", "all"):
                index = list(range(len(self)))
            else:
                raise invalid("which", "TextCorpus.subset", "'9', '49', 'all' or a list of indices",
                              which)
        else:
            index = [int(i) for i in which]
            bad = [i for i in index if not 0 <= i < len(self)]
            if bad:
                raise invalid("which", "TextCorpus.subset", f"indices in [0, {len(self)})", bad)
        pick = lambda seq: tuple(seq[i] for i in index) if seq else ()  # noqa: E731
        return TextCorpus(f"{self.name}[{len(index)}]", pick(self.texts), self.target, self.names,
                          self.concepts, pick(self.leaks), self.source, pick(self.ids),
                          provenance=dict(self.provenance), name_match=self.name_match)

    def leak_types(self) -> list[str]:
        """The seeded leak types, sorted."""
        return sorted({t for d in self.leaks for t in d})


def franchise_comments() -> TextCorpus:
    """49 comments about the fictional *Vanguard Legion* film franchise.

    Returns:
        A :class:`TextCorpus` with target "the franchise's identity", name "Vanguard
        Legion", and per-comment leak ground truth (character, actor, villain, creator,
        plot, genre, box_office, crossover).

    Example:
        >>> c = franchise_comments()
        >>> len(c), all("Vanguard Legion" in t.replace("\\n", " ") for t in c.texts)
        (49, True)
    """
    texts = tuple(t for t, _ in _FRANCHISE)
    return TextCorpus(
        "vanguard-legion-comments", texts, "the identity of the Vanguard Legion film franchise",
        ("Vanguard Legion",), ("Vanguard Legion", "Vanguard", "Legion"),
        tuple(dict(d) for _, d in _FRANCHISE), ids=tuple(f"c{i:02d}" for i in range(len(texts))),
        proxy9=_FRANCHISE_9)


def executive_mailbox() -> TextCorpus:
    """49 emails about the fictional executive *Marcus Whitfield* of Corvane Energy.

    Returns:
        A :class:`TextCorpus` with target "Marcus Whitfield's identity", name "Marcus
        Whitfield", and per-email leak ground truth (signature, quoted_header, nickname,
        email, phone, fact, company, role, relative, associate, location).

    Example:
        >>> m = executive_mailbox()
        >>> len(m), all("marcus whitfield" in t.lower() for t in m.texts)
        (49, True)
    """
    texts = tuple(t for t, _ in _MAILBOX)
    return TextCorpus(
        "whitfield-mailbox", texts, "the identity of Marcus Whitfield",
        ("Marcus Whitfield",), ("Marcus Whitfield",), tuple(dict(d) for _, d in _MAILBOX),
        ids=tuple(f"m{i:02d}" for i in range(len(texts))), proxy9=_MAILBOX_9)


@dataclass(frozen=True)
class LeakStatus:
    """What happened to one seeded leak type under one sanitizer and encoder.

    Attributes:
        leak_type: e.g. ``"nickname"``.
        items: how many items carry it.
        kept: how many sanitized items still contain its phrase (case-insensitive).
        caught: how many of those are audited items of a top witness.
        status: ``"removed"`` (no phrase survived), ``"caught"`` (a survivor is named in
            a top witness) or ``"missed"`` (survivors, none in a top witness).
        example: the phrase of the first caught (else kept) item, or ``""``.
    """

    leak_type: str
    items: int
    kept: int
    caught: int
    status: str
    example: str = ""


def leak_status(corpus: TextCorpus, sanitized: Sequence[str], witnesses: Sequence[Any]
                ) -> list[LeakStatus]:
    """Classify every seeded leak type as removed, caught or missed.

    Args:
        corpus: the corpus with its ``leaks`` ground truth.
        sanitized: the sanitized texts, row for row.
        witnesses: the top trials; each has an ``audited`` index (e.g. the
            :class:`privlab.contrastive.Witness` list of an encoder audit). Trials with a
            ``difference`` at or below 0 are not violations and name nothing.

    Returns:
        One :class:`LeakStatus` per leak type, sorted by type.

    Raises:
        ValueError: ``sanitized`` does not match the corpus length.

    Example:
        >>> c = executive_mailbox().subset([7])          # the "Whit" nickname email
        >>> from types import SimpleNamespace as W
        >>> [s.status for s in leak_status(c, ["Whit wants the deck"], [W(audited=0)])]
        ['caught']
        >>> [s.status for s in leak_status(c, ["████ wants the deck"], [W(audited=0)])]
        ['removed']
    """
    if len(sanitized) != len(corpus):
        raise invalid("sanitized", "leak_status", f"one text per corpus item ({len(corpus)})",
                      f"{len(sanitized)} texts", given_is_text=True)
    flagged = {int(w.audited) for w in witnesses if getattr(w, "difference", 1.0) > 0}
    out = []
    for leak_type in corpus.leak_types():
        carriers = [i for i, d in enumerate(corpus.leaks) if leak_type in d]
        kept = [i for i in carriers if corpus.leaks[i][leak_type].lower() in sanitized[i].lower()]
        caught = [i for i in kept if i in flagged]
        status = "removed" if not kept else ("caught" if caught else "missed")
        first = (caught or kept or [None])[0]
        example = corpus.leaks[first][leak_type] if first is not None else ""
        out.append(LeakStatus(leak_type, len(carriers), len(kept), len(caught), status, example))
    return out


__all__ = ["LeakStatus", "TextCorpus", "executive_mailbox", "franchise_comments", "leak_status"]
