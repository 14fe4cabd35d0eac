"""privlab: measure how private AI-based sanitization really is.

The public verbs are re-exported here::

    import privlab
    T = privlab.reference_directions(E_ref, E_ref_sanitized)
    res = privlab.resolution(S, T, top_k=5)

Each study is one call, ``privlab.studies.<slug>.run(config)``; the layers of the
package are described in CONTRIBUTING.md.
"""

from privlab.resolution import (
    Resolution,
    brute_force_resolution,
    reference_directions,
    resolution,
    symmetric_resolution,
)

__version__ = "0.1.0"

__all__ = [
    "Resolution",
    "brute_force_resolution",
    "reference_directions",
    "resolution",
    "symmetric_resolution",
]
