"""Algorithm 1 of contrastive privacy: the exact resolution and its decisive witness.

For audited items ``x_i`` and references ``y_j`` the trial ``(i, j)`` has the signed
difference ``a_ij = E(X_c(x_i)) . (E(y_j) - E(X_c(y_j))) = S_i . T_j`` (cosine to the
original reference minus cosine to the sanitized one). The resolution is
``delta* = max(0, max_ij a_ij)``; the trial attaining it is the decisive witness. How the
kernel stays exact without the ``m x n`` matrix: ``docs/methods/kernel.md``.

Modules
-------
One idea each; every name below is re-exported here:

* :mod:`~privlab.resolution.measure`: :func:`resolution`, :func:`reference_directions`,
  :func:`symmetric_resolution` and :func:`brute_force_resolution` (the public API);
* :mod:`~privlab.resolution.result`: :class:`Resolution`, the value, witness and top trials;
* :mod:`~privlab.resolution.inputs`: reading the inputs (arrays, unit length, ``top_k``,
  ``block_size``, ``device``);
* :mod:`~privlab.resolution.magnitudes`: exponents, exact rescaling, row norms;
* :mod:`~privlab.resolution.screening`: the blocked products (NumPy, torch) and
  :class:`ScreeningPass` for other precisions; which library screens on the CPU is
  ``privlab.resolution.screening.CPU_SCREENING`` (the kernel reads it there, not here);
* :mod:`~privlab.resolution.kernel`: the exact kernel (screen, then rescore in float64).

Internal API for :mod:`privlab.scale`
-------------------------------------
:mod:`privlab.scale` reaches the same answer with less work by calling the kernel's own
steps, so both agree bit for bit. These are public names (no leading underscore) for that
reason, but not part of ``privlab``'s facade; :mod:`privlab.scale` imports them from the
module that defines them:

* input checks (:mod:`~privlab.resolution.inputs`): :func:`to_array` (an array and its
  unit-length tolerance), :func:`check_unit`, :func:`normalize_rows`,
  :func:`parse_block`, :func:`check_top_k`, :func:`check_device`, and the constants
  ``UNIT_TOLERANCE``, ``HALF_UNIT_EPS``, ``DEFAULT_BLOCK_SIZE``;
* magnitudes (:mod:`~privlab.resolution.magnitudes`): :func:`row_stats` (per-row largest
  entry, power-of-two exponent, rescaled rows), :func:`row_norms` (float64),
  :func:`times_pow2` (exact rescaling);
* scoring (:mod:`~privlab.resolution.kernel`, :mod:`~privlab.resolution.screening`):
  :func:`canonical_dots` (the float64 values the kernel reports, independent of blocks),
  :func:`exact_kernel` (the blocked screen and rescore on given rows),
  :class:`TorchBlocks` (the torch screening pass, which the other precisions extend),
  :class:`ScreeningPass` and :class:`ScreeningTooCoarse`.

Nothing outside :mod:`privlab.resolution` imports one of its underscored names
(``tests/test_layers.py`` checks it).
"""

from privlab.resolution.inputs import (DEFAULT_BLOCK_SIZE, HALF_UNIT_EPS, UNIT_TOLERANCE,
                                       check_device, check_top_k, check_unit, normalize_rows,
                                       parse_block, to_array)
from privlab.resolution.kernel import UNIT_ROUNDOFF, canonical_dots, exact_kernel
from privlab.resolution.magnitudes import row_norms, row_stats, times_pow2
from privlab.resolution.measure import (brute_force_resolution, reference_directions, resolution,
                                        symmetric_resolution)
from privlab.resolution.result import Resolution
from privlab.resolution.screening import (CPU_SCREENING, ScreeningPass, ScreeningTooCoarse,
                                          TorchBlocks, default_blocks)

__all__ = ["Resolution", "resolution", "reference_directions", "symmetric_resolution",
           "brute_force_resolution"]
