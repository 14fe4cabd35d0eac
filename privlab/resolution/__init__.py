"""Algorithm 1 of contrastive privacy: the exact resolution and its decisive witness.

For audited items ``x_i`` and references ``y_j`` the trial ``(i, j)`` has the signed
difference

    a_ij = E(X_c(x_i)) . (E(y_j) - E(X_c(y_j)))  =  S_i . T_j

(cosine to the original reference minus cosine to the sanitized reference). The test
passes at resolution ``delta`` when every ``a_ij < delta``; the resolution reported is
``delta* = max(0, max_ij a_ij)`` and the trial attaining it is the decisive witness.

How the kernel stays exact without the ``m x n`` matrix
-------------------------------------------------------
The matrix is walked in blocks (``block_size`` rows of S by ``block_size`` rows of T) in
the working precision (float32 by default) on the chosen device. A matrix product's
rounding depends on the shapes it is called with, so a float32 value alone could make
the winner depend on the block size. Each block therefore only *screens*: it keeps every
trial whose float32 value is within a rigorous rounding bound of the best value seen
for its row or of the running k-th best overall, and those few candidates are rescored
at the end in float64, one pair at a time, by a routine that does not depend on blocks.
The reported values, witness, top-k and per-item maxima are the float64 values of
the winners, ties broken by the smallest audited index, then the smallest reference
index. Reference rows equal to zero (the sanitizer left that reference unchanged for
this encoder) give exactly 0 for every audited item and are handled analytically; only
exact zeros are: a row of tiny entries is scored like any other.

Magnitudes: when T's largest entry lies beyond ``2**±60``, the screening pass sees T
times a power of two that brings it near 1 (float32 would otherwise overflow or flush it
to zero), and the rescoring scales each such row by its own power of two and undoes it
exactly. The rounding bound also allows for underflow, so the answer stays exact for
rows of any finite magnitude. Half-precision inputs (float16, bfloat16) are widened
exactly to float32 for computing.

Memory is the inputs, one block and the candidate lists: ``O((m + n) d + block)``.
Inputs where very many trials tie within rounding (for example thousands of identical
reference rows) are still exact but rescore every tied trial.

Symmetric test
--------------
When the audited set is the reference set, ``S = E(X_c(x))`` and
``T = E(x) - E(X_c(x))``, the diagonal trial is ``cos(X_c(x), x) - 1 <= 0``. It is never
positive, so it cannot change the resolution (it may only be the maximum when every
trial is non-positive, and then the resolution is 0 either way).
:func:`symmetric_resolution` builds S and T for that case.

Modules
-------
One idea each; every name below is re-exported here, so ``from privlab.resolution import
X`` works for all of them:

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
