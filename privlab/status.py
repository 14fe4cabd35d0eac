"""What kind of claim a reported number is: one :class:`Status` for headlines and auditors.

Every study's headline and every ε auditor's result carries one of four formal statuses
(README, "Every headline carries its status"). The members are strings, so a status is
written to JSON records and compared with text as its value (``"descriptive"``); what
the status means in general is :attr:`Status.description`, and what it means for one
headline is that headline's own note beside it.
"""

from __future__ import annotations

import enum


class Status(str, enum.Enum):
    """What a reported number formally is (Table 1 of the specification).

    Example:
        >>> Status.CERTIFICATE.value, Status("descriptive") is Status.DESCRIPTIVE
        ('finite-sample certificate', True)
        >>> Status.split("diagnostic (model- and corpus-relative)")
        (<Status.DIAGNOSTIC: 'diagnostic'>, 'model- and corpus-relative')
    """

    DIAGNOSTIC = "diagnostic"
    POPULATION_BOUND = "uncertified population bound"
    DESCRIPTIVE = "descriptive"
    CERTIFICATE = "finite-sample certificate"
    #: Only for a printed headline read back without a status line (:meth:`Headline.parse`).
    UNSTATED = "unstated"

    def __str__(self) -> str:
        return self.value

    @property
    def description(self) -> str:
        """What this status means, in a sentence a student can read."""
        return _DESCRIPTIONS[self]

    @property
    def is_evidence_about_dp(self) -> bool:
        """True only for a finite-sample certificate (a confidence bound on ε)."""
        return self is Status.CERTIFICATE

    @classmethod
    def formal(cls) -> tuple["Status", ...]:
        """The four statuses a result may carry (all but :attr:`UNSTATED`)."""
        return tuple(s for s in cls if s is not cls.UNSTATED)

    @classmethod
    def split(cls, text: str) -> tuple["Status", str] | None:
        """``text`` read as a status followed by an optional note, or None.

        The note may follow after ``" — "``, ``": "``, ``"; "`` or in parentheses, the
        forms privlab has printed; the longest status that ``text`` starts with wins.
        """
        text = text.strip()
        for status in sorted(cls, key=lambda s: -len(s.value)):
            if text == status.value:
                return status, ""
            if not text.startswith(status.value):
                continue
            rest = text[len(status.value):]
            for sep in (" — ", ": ", "; ", " ("):
                if rest.startswith(sep):
                    note = rest[len(sep):].strip()
                    if sep == " (" and note.endswith(")"):
                        note = note[:-1].strip()
                    return status, note
        return None


_DESCRIPTIONS = {
    Status.DIAGNOSTIC: "a diagnostic: relative to the model (or judge) and the data it was "
                       "measured with; it finds problems, it does not bound them",
    Status.POPULATION_BOUND: "an uncertified population bound: true of the distributions, "
                             "but estimated from samples without a confidence level",
    Status.DESCRIPTIVE: "descriptive: exactly what happened on this data under these "
                        "settings; not a guarantee beyond them",
    Status.CERTIFICATE: "a finite-sample certificate: a bound that holds with a stated "
                        "confidence on the rows it was tested on",
    Status.UNSTATED: "no status was printed with this headline",
}

__all__ = ["Status"]
