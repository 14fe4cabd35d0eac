"""Studies' smoke runs shared by the tests of one worker.

The contract test and a study's own tests check different things about the same smoke
run; results are frozen, so one run serves both. :data:`GROUPS` names the xdist group
that keeps a study's tests and its contract test on one worker.
"""

from __future__ import annotations

import os
from functools import lru_cache

#: Study slug -> the xdist group of the test module that shares its smoke run.
GROUPS = {"finetune": "studies.test_finetune", "spia": "studies.redaction",
          "redacbench": "studies.redaction", "dicaprio.ladder": "studies.test_ladder_study",
          "dicaprio.detector_miss": "studies.test_ladder_study"}


@lru_cache(maxsize=None)
def smoke_result(slug: str):
    """The result of study (or sub-study) ``slug`` on ``Config.smoke()``, run once per process
    under ``PRIVLAB_SMOKE=1`` as the notebooks' smoke runs are."""
    from privlab.studies import registry, sub_studies

    before = os.environ.get("PRIVLAB_SMOKE")
    os.environ["PRIVLAB_SMOKE"] = "1"
    try:
        subs = sub_studies()
        if slug in subs:
            return subs[slug].run(subs[slug].Config.smoke())
        module = registry.entry(slug).factory.__module__
        import importlib

        return registry.create(slug, config=importlib.import_module(module).Config.smoke())
    finally:
        if before is None:
            os.environ.pop("PRIVLAB_SMOKE", None)
        else:
            os.environ["PRIVLAB_SMOKE"] = before
