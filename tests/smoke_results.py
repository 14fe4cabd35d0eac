"""Studies' smoke runs shared by the tests of one worker.

The contract test and a study's own tests check different things about the same smoke
run; results are frozen, so one run serves both. :data:`GROUPS` names the xdist group
that keeps a study's tests and its contract test on one worker (in turn, where they share
only settings in the session's on-disk cache).
"""

from __future__ import annotations

import importlib
from functools import lru_cache

#: Study slug -> the xdist group of the test module that shares its smoke run.
GROUPS = {"finetune": "studies.test_finetune", "spia": "studies.redaction",
          "redacbench": "studies.redaction", "dicaprio.ladder": "studies.dicaprio",
          "dicaprio.detector_miss": "studies.dicaprio",
          # not the same run, but the same corpus: the process's memos (face names, concept
          # checks, OCR crops) serve the ladder and the exercises' panels
          "dicaprio": "studies.dicaprio", "mcdonalds": "exercises.02",
          "known_epsilon": "studies.test_known_epsilon"}

#: Notebook -> the xdist group of its exercises, where not their own ``exercises.<nb>``:
#: notebook 01's panels audit the corpus of study 01's group.
EXERCISE_GROUPS = {"01": "studies.dicaprio"}


@lru_cache(maxsize=None)
def smoke_result(slug: str):
    """The result of study (or sub-study) ``slug`` on ``Config.smoke()``, run once per process
    under ``PRIVLAB_SMOKE=1`` as the notebooks' smoke runs are."""
    import pytest

    from privlab.studies import registry, sub_studies

    subs = sub_studies()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PRIVLAB_SMOKE", "1")
        if slug in subs:
            return subs[slug].run(subs[slug].Config.smoke())
        module = importlib.import_module(registry.entry(slug).factory.__module__)
        return registry.create(slug, config=module.Config.smoke())
