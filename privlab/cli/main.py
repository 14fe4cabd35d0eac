"""The ``privlab`` command line (also ``python -m privlab``).

Each subcommand lives beside the code it runs and registers itself through a
``register(subparsers)`` function listed in ``_COMMAND_MODULES``.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# Modules that each define register(subparsers) -> None.
_COMMAND_MODULES = [
    "privlab.cli.resolution",
    "privlab.cli.demo",
    "privlab.cli.epsilon",
]


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="privlab",
        description="Measure how private AI-based sanitization really is.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in _COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; errors in the input exit with status 2 and one clear line."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except (ValueError, TypeError, FileNotFoundError) as exc:
        print(f"privlab {args.command}: error: {exc}", file=sys.stderr)
        return 2
