"""``privlab.spia``: SPIA at the top level, the same module as :mod:`privlab.redaction.spia`.

    import privlab.spia
    r = privlab.spia.score("gold.jsonl", "anonymized.jsonl")  # or a list, or a function
    print(r.headline())

Every public name of :mod:`privlab.redaction.spia` is here; :func:`score` is documented
in :mod:`privlab.redaction.spia.byo`.
"""

from privlab.redaction.spia import *  # noqa: F401,F403  (this module is an alias)
from privlab.redaction.spia import __all__  # noqa: F401
