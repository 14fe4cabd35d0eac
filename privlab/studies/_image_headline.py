"""The first line of an image study's headline, and the details beneath it."""

from __future__ import annotations

from typing import Any, Callable

from privlab.studies._image_setup import CUE_PREFIX
from privlab.studies.contract import Headline, Status


def image_headline(result: Any, per_member: Callable[[Any], str]) -> Headline:
    """``result``'s headline: a first line a student can read (how many sanitizers leave
    the concept in some image; the worst excess over placebo, with its member, beside the
    placebo floor), the summary's parts beneath it, its status and what it rests on.

    Args:
        result: an :class:`~privlab.studies._images.ImageStudyResult`.
        per_member: writes ``"member value (sanitizer); ..."`` from a sanitizer x member table.
    """
    rows, scope = result.headline_sanitizers()
    fails, unverified = result.condition_failures(), result.condition_unverified()
    failed = [r for r in rows if r in fails]
    unsure = [r for r in rows if r in unverified]
    not_met = failed + unsure
    over = [r for r in rows if r not in not_met] or rows
    noun = "photo" if result.folder_mode else "image"
    kind = "'cues:' control" if all(r.startswith(CUE_PREFIX) for r in rows) else "sanitizer"
    kinds = kind + ("s" if len(rows) != 1 else "")
    leave = "leaves" if len(failed) == 1 else "leave"
    parts = []
    if failed:
        parts.append(f"{len(failed)} of {len(rows)} {kinds} {leave} the concept in some {noun}")
    if unsure:
        # Its check shares its detector: silence there is not a removal.
        who = (f"{len(unsure)} more" if failed else f"the one {kind}" if len(rows) == 1
               else f"{len(unsure)} of {len(rows)} {kinds}")
        parts.append(f"{who} cannot be verified to remove {'it' if failed else 'the concept'} "
                     "(a check looks with the detector that placed the marks)")
    if result.conditions is None or not result.conditions.checks:
        lead = ""
    elif not_met and len(not_met) == len(rows):
        lead = "; ".join(parts) + " (none passes); conditional "
    elif not_met:
        lead = "; ".join(parts) + "; among the others, "
    else:
        # On photos the checks are detectors: what they miss is nobody's find.
        seen = " (as far as the checks see)" if result.folder_mode else ""
        lead = (f"all {len(rows)} {kinds} remove" if len(rows) > 1 else f"the one {kind} "
                "removes") + f" the concept from every {noun}{seen}; "
    if not_met:
        scope = "; ".join(p for p in (
            f"over {len(over)} that met the condition" if over != rows else
            "CONDITIONAL: no sanitizer here met the condition, so none of these is a pass",
            scope) if p)
    scope = scope or f"over {kinds}"
    raw = result.members().loc[over]
    details = [result.condition_summary(rows)]
    if result.has_placebo:
        excess, floors = result.excess().loc[over], result.placebo_floors()
        worst, member = float(excess.max().max()), str(excess.max().idxmax())
        first = lead + f"worst excess over placebo {worst:.3f} " + (
            f"({member}, placebo floor {floors[member]:.3f})" if worst > 0 else
            f"(placebo floors up to {floors.max():.3f})")
        details += [f"worst excess over placebo per member ({scope}): "
                    f"{per_member(excess)}",
                    "raw worst resolution: " + ", ".join(
                        f"{m} {v:.3f}" for m, v in raw.max().items()),
                    "placebo floor: " + ", ".join(f"{m} {v:.3f}" for m, v in floors.items())]
    else:
        first = lead + f"worst resolution {float(raw.max().max()):.3f} (no placebo run)"
        details.append(f"worst resolution per member ({scope}): "
                       f"{per_member(raw)}")
    details.append(result._what())
    status, note = Status.split(result.status) or (Status.DESCRIPTIVE, result.status)
    return Headline(result.study, first, status, result.caveats(), details=tuple(details),
                    status_note=note)


__all__ = ["image_headline"]
