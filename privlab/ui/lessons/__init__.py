"""One exercise module per notebook: ``nn00`` for notebook 00, ``nn01a`` for appendix 01a.

Each module defines ``EXERCISES`` (a tuple of :class:`privlab.ui.exercises.Exercise`, at
least one of each kind) and ``fixture() -> dict`` (the names the solutions and checks
read, built as the notebook builds them on tiny settings). See docs/methods/ui-exercises.md.
"""
