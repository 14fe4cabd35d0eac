"""One module per notebook: a Config dataclass and run(config) -> result."""

from __future__ import annotations


class StudyConfig:
    """Mixin for study configs: ``default()`` picks the smoke settings when asked.

    A study's Config overrides :meth:`smoke` with its tiny settings; notebooks and
    ``run(None)`` call :meth:`default`, which returns them when ``PRIVLAB_SMOKE=1``.

    Example:
        >>> from dataclasses import dataclass
        >>> @dataclass
        ... class Demo(StudyConfig):
        ...     n: int = 100
        ...     @classmethod
        ...     def smoke(cls, **overrides):
        ...         return cls(**{"n": 3, **overrides})
        >>> Demo.default().n in (3, 100)
        True
    """

    @classmethod
    def smoke(cls, **overrides):
        """Tiny settings for tests and ``PRIVLAB_SMOKE=1`` (the full ones unless overridden)."""
        return cls(**overrides)

    @classmethod
    def default(cls, **overrides):
        """:meth:`smoke` when ``privlab.config.smoke()`` is true, else the full settings."""
        from privlab.config import smoke

        return cls.smoke(**overrides) if smoke() else cls(**overrides)
