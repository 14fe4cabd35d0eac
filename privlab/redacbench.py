"""``privlab.redacbench``: RedacBench at the top level, the same names as
:mod:`privlab.redaction.redacbench`.

    import privlab.redacbench
    r = privlab.redacbench.score(my_redact)  # a function, or a file of outputs
    print(r.headline())

Every public name of :mod:`privlab.redaction.redacbench` is here; :func:`score` is
documented in :mod:`privlab.redaction.redacbench.byo`.
"""

from privlab.redaction.redacbench import *  # noqa: F401,F403  (this module is an alias)
from privlab.redaction.redacbench import __all__  # noqa: F401
