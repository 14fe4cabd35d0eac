"""What study 06 shows beside its audits, computed in its run: the certificates' ceiling
and the images the toy generators and the cascade make (so a panel only draws them)."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd

from privlab.datasets.toy_cascade import ToyDonorSwap


#: Test rows per class at which :func:`certificate_ceiling` is stated.
CEILING_ROWS = (10, 15, 30, 100)


def certificate_ceiling(alpha_per_rate: float, rows: Sequence[int] = CEILING_ROWS
                        ) -> pd.DataFrame:
    """The largest lower bound a certificate can give: zero test errors on ``m`` rows per
    class, at the Clopper–Pearson level ``alpha_per_rate``, for each ``m`` in ``rows``.

    Example:
        >>> t = certificate_ceiling(0.025, (10, 100))
        >>> list(t.columns), bool(t.iloc[1, 1] > t.iloc[0, 1])
        (['rows per class', 'ε_LB with no test error'], True)
    """
    from privlab.epsilon import certified_epsilon

    return pd.DataFrame([{"rows per class": m, "ε_LB with no test error": certified_epsilon(
        0, m, 0, m, alpha=alpha_per_rate)} for m in rows])


def toy_previews(cfg: Any, per_source: int = 4) -> list[tuple[float, dict, np.ndarray]]:
    """What each toy generator of ``cfg`` (``strength``, then ``compare_strength``) makes
    of the shipped source photos: ``(strength, knobs, strip)``, one strip of
    ``per_source`` outputs per source photo, side by side. Empty with a table file in ``data``."""
    from privlab.datasets.toy_faces import ToyFaceGenerator, toy_sources

    if cfg.data is not None:
        return []
    strengths = [cfg.strength] + ([cfg.compare_strength]
                                  if cfg.compare_strength is not None else [])
    out = []
    for strength in strengths:
        generator = ToyFaceGenerator(strength=strength)
        strip = np.hstack([np.hstack(generator.outputs(photo, per_source, cfg.seed, k))
                           for k, photo in enumerate(toy_sources().values())])
        out.append((float(strength), dict(generator.knobs()), strip))
    return out


def cascade_preview(cfg: Any, shown: int = 3) -> np.ndarray:
    """Sequence 0 of the first ``shown`` cascade targets, start then every pass, one row
    per target (the images the cascade audit embeds)."""
    from privlab.datasets.toy_cascade import cascade_images

    swap = ToyDonorSwap(swap=cfg.cascade_swap)
    shown = min(shown, cfg.cascade_identities)
    return np.vstack([np.hstack(cascade_images(k, 0, cfg.cascade_passes, cfg.cascade_donors,
                                               cfg.cascade_pool, cfg.seed, swap))
                      for k in range(shown)])


__all__ = ["CEILING_ROWS", "cascade_preview", "certificate_ceiling", "toy_previews"]
