"""privlab: measure how private AI-based sanitization really is.

The public verbs are re-exported here::

    import privlab
    T = privlab.reference_directions(E_ref, E_ref_sanitized)
    res = privlab.resolution(S, T, top_k=5)
    a = privlab.audit(texts, lambda t: t.replace("Marie Curie", "[NAME]"))  # your sanitizer

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

#: Verbs of higher layers, imported on first use (``privlab.audit``), so that importing
#: privlab stays cheap: name -> the module that defines it.
_LAZY = {
    "audit": "privlab.contrastive.byo",
    "epsilon": "privlab.epsilon",  # privlab.epsilon.audit(A, B, delta=...)
    "spia": "privlab.spia",  # privlab.spia.score(gold, anonymized)
    "redacbench": "privlab.redacbench",  # privlab.redacbench.score(redact)
}


def __getattr__(name: str):
    """A verb (or a family's module) of :data:`_LAZY`, imported the first time it is asked
    for."""
    if name in _LAZY:
        import importlib

        module = importlib.import_module(_LAZY[name])
        value = module if module.__name__ == f"privlab.{name}" else getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'privlab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Resolution",
    "audit",
    "brute_force_resolution",
    "reference_directions",
    "resolution",
    "symmetric_resolution",
]
