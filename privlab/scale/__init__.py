"""Audits at scale: the exact resolution with less work, on more machines, and a quick look.

* :func:`certified_resolution` — the plain kernel's exact answer, skipping every block
  of trials that a proven bound shows cannot change it (:mod:`privlab.scale.certified`);
  the same call runs on dask arrays or a ``dask.distributed.Client``
  (:mod:`privlab.scale.distributed`) and can screen tiles in bfloat16 or TF32 with a
  proven rounding bound (:mod:`privlab.scale.precision`).
* :func:`screen_resolution` — an approximate-search screen (faiss HNSW or IVF) whose
  candidates are rescored exactly: a *lower bound* with status "uncertified screen"
  (:mod:`privlab.scale.screen`).
* :func:`synthetic_audit` — generated embeddings with or without a planted leak
  (:mod:`privlab.scale.synthetic`).
"""

from __future__ import annotations

from privlab.scale.certified import certified_resolution
from privlab.scale.result import CertifiedResolution, Work

__all__ = ["CertifiedResolution", "Work", "certified_resolution"]
