"""The JupyterLab fixture of ``tests/test_browser.py``, shared by the notebook walk-throughs."""

from tests.test_browser import lab  # noqa: F401  (a fixture, used by name)
