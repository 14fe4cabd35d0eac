"""One exercise module per notebook: ``nn00`` for notebook 00, ``nn01a`` for appendix 01a.

Each module defines, and nothing else is required:

* ``EXERCISES``: a tuple of :class:`privlab.ui.exercises.Exercise`, at least one of each
  kind (``"predict"``, ``"change-setting"``, ``"code-edit"``), ids ``"NN.1"``, ``"NN.2"``...;
* ``fixture() -> dict``: the names the solutions and checks read, built the way the
  notebook builds them (the same study panel, the same by-hand names) on tiny, fast
  settings. The tests run every solution in a copy of it, check the answer it binds, and
  drive every check with the exercise's ``wrong`` answer.

A solution is the code a student would write in the notebook (so it may call
``panel.run()`` or change a control); a check reads what the notebook passes it
(``exercises.check("NN.k", answer, result=panel.result)``) and says why in a sentence
that prints this run's numbers, never the paper's as if they were this run's.
The tests run a notebook's solutions in order on one fixture, as a student works through
them (the panel is shared: a solution that changes its settings changes them for the next
exercise), so put the exercise that changes a setting after those that read the first run,
or make each check read what it needs from the panel's last result.
The module's owner is the notebook's owner; :mod:`privlab.ui.exercises` finds it by name.
"""
