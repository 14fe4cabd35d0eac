"""The figures the image notebooks' prose quotes, named ``<sanitizer>.<member>.<value>``.

See ``docs/methods/studies-image.md``.
"""

from __future__ import annotations

import math
import re
from typing import Any, Iterable


def figure_key(name: str) -> str:
    """``name`` as a part of a figure name: lower case, every run of characters other than
    letters and digits written ``-``.

    Example:
        >>> figure_key("cues:logos and food (name left)"), figure_key("face + text")
        ('cues-logos-and-food-name-left', 'face-text')
    """
    return re.sub(r"[^a-z0-9]+", "-", str(name).lower()).strip("-")


def _value(x: Any) -> str | None:
    """A resolution, placebo or excess as the tables print it (None for no value)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return None
    return f"{float(x):.3f}"


def audit_figures(result: Any, keys: Iterable[str], prefix: str = "") -> dict[str, str]:
    """Per audit and member: ``<key>.<member>.resolution``, ``.placebo`` and ``.excess``
    (the last two when a placebo ran), with ``keys`` naming the audits in table order.

    Args:
        result: an :class:`privlab.studies._images.ImageStudyResult`.
        keys: one figure-name part per audit of ``result.table``.
        prefix: put before every name (e.g. ``"ladder."``).
    """
    out: dict[str, str] = {}
    for key, audit in zip(keys, result.table):
        for m in audit.members:
            name = f"{prefix}{key}.{result._short(m.encoder)}"
            for value, x in (("resolution", m.value), ("placebo", m.placebo),
                             ("excess", m.excess if m.placebo is not None else None)):
                printed = _value(x)
                if printed is not None:
                    out[f"{name}.{value}"] = printed
    return out


def image_study_figures(result: Any) -> dict[str, str]:
    """The figures of an image study's result that notebooks 01 and 02 quote.

    ``images`` (how many were audited); per member ``m``: ``floor.m`` (its placebo floor,
    the largest placebo resolution over the sanitizers) and ``tools.m.excess`` (its worst
    excess over the detector-based sanitizers, whether or not they met the operational
    condition; absent when only ``cues:`` controls ran); per sanitizer ``s`` (registry
    name, :func:`figure_key`) and member: ``s.m.resolution``, ``s.m.placebo`` and
    ``s.m.excess``. Values have three decimals, as in the tables.

    Args:
        result: an :class:`privlab.studies._images.ImageStudyResult`.
    """
    from privlab.studies._image_setup import CUE_PREFIX

    out = {"images": f"{len(result.images):,}"}
    for member, value in result.placebo_floors().items():
        out[f"floor.{member}"] = f"{value:.3f}"
    names = [audit.name for audit in result.table]
    tools = [name for name, registered in zip(names, result.config.sanitizers)
             if not registered.startswith(CUE_PREFIX)]
    if tools and result.has_placebo:
        for member, value in result.excess().loc[tools].max().items():
            out[f"tools.{member}.excess"] = f"{value:.3f}"
    out.update(audit_figures(result, [figure_key(s) for s in result.config.sanitizers]))
    return out


__all__ = ["audit_figures", "figure_key", "image_study_figures"]
