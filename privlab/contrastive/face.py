"""The face of a contrastive audit: its headline, control, caveats, witnesses and report.

:class:`AuditFace` fills the hooks of :class:`privlab.report.ResultFace` for
:class:`privlab.contrastive.auditing.ContrastiveAudit` (which derives from it), so every
audit, from ``privlab.audit`` or ``privlab.contrastive.audit``, prints the same headline::

    'redact': resolution 0.262 under minilm (placebo 0.031, excess +0.231) — diagnostic ...

The number is the member with the largest resolution (the cautious reading of an
ensemble); its control is that member's placebo floor, when a placebo ran.
"""

from __future__ import annotations

from typing import Any

from privlab.hashing import content_hash
from privlab.report import Finding, ResultFace, Witness, jsonable
from privlab.status import Status

#: Below this share of the sanitizer's marked area, an image placebo's floor is flagged.
LOW_COVERAGE = 0.5

#: How to read a resolution, printed under the headline.
RULER = ("a_ij = cos(X(x_i), y_j) - cos(X(x_i), X(y_j)): how much closer a released item "
         "sits to another original than to that original's release; the resolution is the "
         "largest a_ij (0 when none is positive, at most 2). 0 means no violation was found "
         "for these items and this encoder, not that they are private")

#: Definition of the resolution, as MathML (rendered by browsers without any script).
FORMULA = (
    "<math display='block'><msub><mi>a</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub><mo>=</mo>"
    "<mi>E</mi><mo>(</mo><mi>X</mi><mo>(</mo><msub><mi>x</mi><mi>i</mi></msub><mo>)</mo>"
    "<mo>)</mo><mo>&#x22C5;</mo><mo>(</mo><mi>E</mi><mo>(</mo><msub><mi>y</mi><mi>j</mi>"
    "</msub><mo>)</mo><mo>&#x2212;</mo><mi>E</mi><mo>(</mo><mi>X</mi><mo>(</mo><msub><mi>y"
    "</mi><mi>j</mi></msub><mo>)</mo><mo>)</mo><mo>)</mo><mo>,</mo><mspace width='1em'/>"
    "<msup><mi>&#x3B4;</mi><mo>*</mo></msup><mo>=</mo><mo>max</mo><mo>(</mo><mn>0</mn>"
    "<mo>,</mo><munder><mo>max</mo><mrow><mi>i</mi><mo>,</mo><mi>j</mi></mrow></munder>"
    "<msub><mi>a</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub><mo>)</mo></math>")


def _kind(items: list) -> str:
    return "texts" if items and isinstance(items[0], str) else "images"


def same_item(a: Any, b: Any) -> bool:
    """Whether two items (texts, images, arrays) hold the same content."""
    try:
        return content_hash(a) == content_hash(b)
    except TypeError:
        return a is b


class AuditFace(ResultFace):
    """The :class:`~privlab.report.ResultFace` hooks of a contrastive audit (a mixin of
    ``ContrastiveAudit``: it reads ``members``, ``originals``, ``sanitized``,
    ``placebo_sanitized``, ``placebo_coverage``, ``unchanged``, ``name`` and ``rows()``)."""

    face_title = "Contrastive audit"

    def top_member(self) -> Any:
        """The member with the largest resolution (the first of equals)."""
        return max(self.members, key=lambda m: m.value)

    def caveats(self) -> tuple[str, ...]:
        """What should make a reader doubt the headline, one phrase each."""
        n, kind = len(self.originals), _kind(self.originals)
        out = []
        unchanged = self.unchanged
        if unchanged == n:
            out.append(f"the sanitizer changed none of the {n} {kind}: 0 by construction, "
                       "not privacy")
        elif unchanged:
            out.append(f"the sanitizer left {unchanged} of {n} {kind} unchanged (they cannot "
                       "witness)")
        if self.placebo_sanitized is None:
            out.append("no placebo control: the number mixes what the sanitizer left with "
                       "what its marks alone do to the encoder")
        else:
            coverage = self.placebo_coverage
            if coverage is not None and coverage < LOW_COVERAGE:
                out.append(f"the placebo found room for only {coverage:.2%} of the sanitizer's "
                           f"marked area (coverage {coverage:.2g}), so its floor is a lower "
                           "estimate")
            changed = [i for i in range(n)
                       if not same_item(self.originals[i], self.sanitized[i])]
            idle = sum(same_item(self.originals[i], self.placebo_sanitized[i]) for i in changed)
            if changed and idle * 2 > len(changed):
                out.append(f"the placebo marked nothing in {idle} of the {len(changed)} "
                           f"changed {kind}, so its floor is a lower estimate")
        if n == 1 and self.symmetric:
            out.append("one item audited against itself: only the self-trial exists, so the "
                       "number says nothing")
        elif n < 5:
            out.append(f"only {n} {kind}: one pair decides the number")
        blank = sum(isinstance(item, str) and not item.strip() for item in self.originals)
        if blank:
            out.append(f"{blank} of the {n} {kind} are blank: they carry nothing to find")
        return tuple(out)

    def face_finding(self) -> Finding:
        top = self.top_member()
        n, kind = len(self.originals), _kind(self.originals)
        labels = [m.label or m.encoder for m in self.members]
        refs = "each audited item against the others" if self.symmetric else "given references"
        return Finding(
            "resolution", top.value, Status.DIAGNOSTIC,
            rests_on=(f"{n} {kind}", f"encoder {', '.join(labels)}", refs),
            subject=f"'{self.name}' under {top.label or top.encoder}",
            control="placebo" if top.placebo is not None else "",
            control_value=top.placebo, caveats=self.caveats(), ruler=RULER,
            status_note="model- and corpus-relative")

    def face_rows(self) -> list[dict]:
        return self.rows()

    def face_witnesses(self) -> list[Witness]:
        top = self.top_member()
        w = top.witness
        items = (("audited original x_i", w.audited_original),
                 ("its release X(x_i)", w.audited_sanitized),
                 ("reference original y_j", w.reference_original),
                 ("reference release X(y_j)", w.reference_sanitized))
        terms = w.retained_terms()
        note = (f"item {w.audited} against reference {w.reference}, a = {w.difference:.3f}"
                + (f"; the release still shares: {', '.join(terms)}" if terms else ""))
        return [Witness(f"decisive trial under {top.label or top.encoder}", items, note)]

    def face_formula(self) -> str:
        return FORMULA

    def face_record(self) -> dict:
        record = super().face_record()
        record["provenance"] = jsonable({"sanitizer": self.sanitizer, "corpus": self.corpus,
                                "encoders": {m.label or m.encoder: m.encoder
                                             for m in self.members},
                                "placebo": self.placebo_sanitizer})
        return record


__all__ = ["AuditFace", "FORMULA", "LOW_COVERAGE", "RULER"]
