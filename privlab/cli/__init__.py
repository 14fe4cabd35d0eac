"""The ``privlab`` command line: ``privlab resolution``, ``privlab demo``, ``privlab epsilon-benchmark``."""

from privlab.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
