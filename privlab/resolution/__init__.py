"""Algorithm 1 of contrastive privacy: the exact resolution and its decisive witness.

For audited items ``x_i`` and references ``y_j`` the trial ``(i, j)`` has the signed
difference ``a_ij = E(X_c(x_i)) . (E(y_j) - E(X_c(y_j))) = S_i . T_j`` (cosine to the
original reference minus cosine to the sanitized one). The resolution is
``delta* = max(0, max_ij a_ij)``; the trial attaining it is the decisive witness. How the
kernel stays exact without the ``m x n`` matrix: ``docs/methods/kernel.md``.

The modules (one idea each, all re-exported here) and the steps :mod:`privlab.scale`
calls to agree with the kernel bit for bit: ``docs/methods/kernel-internals.md``.
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
