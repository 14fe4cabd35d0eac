"""The ``privlab`` command line (also ``python -m privlab``).

Each subcommand lives beside the code it runs and registers itself through a
``register(subparsers)`` function listed in ``_COMMAND_MODULES``.

A user error ends the command with exit status 2 and one line on stderr,
``privlab <verb>: error: ...``: a bad option (argparse), a refusal from
:mod:`privlab.errors`, or an operating-system error on a path given on the command line.
Any other exception is a fault in privlab and keeps its traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from privlab.errors import PrivlabTypeError, PrivlabValueError

# Modules that each define register(subparsers) -> None.
_COMMAND_MODULES = [
    "privlab.cli.resolution",
    "privlab.cli.demo",
    "privlab.cli.epsilon",
    "privlab.cli.quote",
]


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors in one line (the usage itself is under ``--help``)."""

    def error(self, message: str):
        _usage_error(self.prog, message)


def _usage_error(prog: str, message: str):
    sys.stderr.write(f"{prog}: error: {message} (see '{prog} --help')\n")
    sys.exit(2)


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every registered subcommand."""
    parser = _Parser(
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
    args, extra = parser.parse_known_args(argv)
    if extra:  # named under the verb they were given to, not the top-level parser
        _usage_error(f"privlab {args.command}", f"unrecognized arguments: {' '.join(extra)}")
    try:
        return int(args.handler(args) or 0)
    except (PrivlabValueError, PrivlabTypeError) as exc:
        return _refuse(args.command, exc)
    except OSError as exc:
        if _on_a_given_path(exc, args):
            return _refuse(args.command, exc)
        raise


def _refuse(command: str, exc: Exception) -> int:
    message = " ".join(str(exc).split())  # one line, whatever the message holds
    print(f"privlab {command}: error: {message}", file=sys.stderr)
    return 2


def _on_a_given_path(exc: OSError, args: argparse.Namespace) -> bool:
    """Whether ``exc`` concerns a path the user gave (it, a folder above or a file in it)."""
    given = [v.absolute() for v in vars(args).values() if isinstance(v, Path)]
    for name in (exc.filename, exc.filename2):
        if not isinstance(name, (str, Path)):
            continue
        failed = Path(name).absolute()
        if any(failed == p or failed in p.parents or p in failed.parents for p in given):
            return True
    return False
