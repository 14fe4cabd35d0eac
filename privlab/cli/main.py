"""The ``privlab`` command line (also ``python -m privlab``).

Each subcommand lives beside the code it runs and registers itself through a
``register(subparsers)`` function listed in ``_COMMAND_MODULES``.

A user error ends the command with exit status 2 and one line on stderr,
``privlab <verb>: error: ...``: a bad option (argparse), a refusal from
:mod:`privlab.errors`, an operating-system error on a path given on the command line,
or one of the machine's (a full disk, a read-only file system, permissions in the cache
or home folder, a standard output closed by ``| head``). Any other exception is a fault
in privlab and keeps its traceback.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
from pathlib import Path

from privlab.errors import PrivlabTypeError, PrivlabValueError

# Modules that each define register(subparsers) -> None.
_COMMAND_MODULES = [
    "privlab.cli.resolution",
    "privlab.cli.demo",
    "privlab.cli.epsilon",
    "privlab.cli.quote",
    "privlab.cli.audit",
    "privlab.cli.byo",
    "privlab.cli.data",
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
        code = int(args.handler(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        return code
    except (PrivlabValueError, PrivlabTypeError) as exc:
        return _refuse(args.command, exc)
    except BrokenPipeError:
        return _closed_pipe(args.command)
    except OSError as exc:
        if _on_a_given_path(exc, args):
            return _refuse(args.command, exc)
        if exc.errno in _ENVIRONMENT or (exc.errno in _PERMISSION and _in_privlab_folders(exc)):
            return _refuse(args.command, _environment(exc))
        raise


# Errors of the machine, never of privlab: a full disk or quota, a read-only file system,
# too many open files. Permissions are the user's to fix in the folders they chose
# (PRIVLAB_CACHE, PRIVLAB_HOME); elsewhere a denied path is a fault of privlab's.
_ENVIRONMENT = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EMFILE}
_PERMISSION = {errno.EACCES, errno.EPERM}


def _in_privlab_folders(exc: OSError) -> bool:
    """Whether ``exc`` concerns a path under the cache or home folder."""
    from privlab.config import home

    env = os.environ.get("PRIVLAB_CACHE")
    roots = [home().absolute(), Path(env).expanduser().absolute() if env else None]
    for name in (exc.filename, exc.filename2):
        if isinstance(name, (str, Path)):
            failed = Path(name).absolute()
            if any(r is not None and (failed == r or r in failed.parents) for r in roots):
                return True
    return False


def _environment(exc: OSError) -> str:
    """One sentence for an operating-system error: the file, what happened, what to do."""
    where = f" on {exc.filename}" if exc.filename else ""
    fix = {errno.ENOSPC: "Free disk space there, or point PRIVLAB_CACHE / PRIVLAB_HOME / "
                         "--out at a disk with room.",
           errno.EDQUOT: "Free space within your quota, or write elsewhere.",
           errno.EROFS: "Write somewhere writable (PRIVLAB_CACHE, PRIVLAB_HOME or --out).",
           errno.EMFILE: "Raise the open-file limit (ulimit -n) and run again."}.get(
        exc.errno, "Fix its permissions, or write somewhere else (PRIVLAB_CACHE, "
                   "PRIVLAB_HOME or --out).")
    return f"{exc.strerror or exc}{where}. {fix}"


def _closed_pipe(command: str) -> int:
    """Standard output was closed by its reader (``| head``): no traceback, one line."""
    try:  # later writes, and the flush at exit, go nowhere instead of failing again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    print(f"privlab {command}: error: standard output was closed before all of the result "
          "was written (by '| head' or similar); what was shown is incomplete.",
          file=sys.stderr)
    return 2


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
