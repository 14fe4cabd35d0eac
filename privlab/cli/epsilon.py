"""``privlab epsilon-benchmark``: one (or a few) known-ε benchmark settings to CSV.

    privlab epsilon-benchmark --mechanism laplace --geometry dispersed --epsilon 0 \\
        --n 100 --repetition 0 --out table.csv

Each setting yields one row per identity pair and method, with the exact pairwise ε, the
method's value and its status (diagnostic, uncertified population bound, descriptive or
finite-sample certificate). The printed summary gives, per setting and method, the median
over pairs with +∞ values counted (+∞ as soon as more than half the pairs are +∞, as the
out-of-fold ROC conversion often is) and how many values are +∞. MMD-TV runs its
permutation test (10^4 permutations unless --mmd-permutations says otherwise; 0 skips
it) and the CSV carries each p-value. Finished settings are stored in the cache, so repeating a
command, or a sweep over several values, only computes what is missing; a damaged stored
setting is recomputed with a warning naming its file. Every argument and the --out path
are checked before anything is computed.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

_CALLER = "privlab epsilon-benchmark"

#: The library's parameters, by the option that sets them (for refusals).
_OPTIONS = {"n_pairs": "--pairs", "pairs": "--pairs", "n": "--n", "methods": "--methods",
            "method": "--methods", "mechanism": "--mechanism", "mechanisms": "--mechanism",
            "geometry": "--geometry", "geometries": "--geometry", "epsilon": "--epsilon",
            "target_epsilon": "--epsilon", "repetition": "--repetition",
            "mmd_permutations": "--mmd-permutations", "n_jobs": "--jobs"}


def register(subparsers) -> None:
    """Add the ``epsilon-benchmark`` subcommand."""
    from privlab.epsilon.benchmark import BENCHMARK_METHODS, DEFAULT_METHODS, \
        MMD_PERMUTATIONS, N_PAIRS
    from privlab.epsilon.mechanisms import GEOMETRIES, MECHANISMS

    # Names are checked by the benchmark itself (one error line naming the parameter),
    # so the choices are listed in the help rather than enforced by argparse.
    parser = subparsers.add_parser(
        "epsilon-benchmark", help="run known-ε benchmark settings and write a tidy CSV",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mechanism", nargs="+", default=["laplace"], metavar="NAME",
                        help=f"one or more of: {', '.join(MECHANISMS)}")
    parser.add_argument("--geometry", nargs="+", default=["dispersed"], metavar="NAME",
                        help=f"one or more of: {', '.join(GEOMETRIES)}")
    parser.add_argument("--epsilon", nargs="+", type=float, default=[0.0],
                        help="target global ε values (0 is the exact null)")
    parser.add_argument("--n", nargs="+", type=int, default=[100],
                        help="outputs per identity (at least 10)")
    parser.add_argument("--repetition", nargs="+", type=int, default=[0])
    parser.add_argument("--methods", nargs="+", default=list(DEFAULT_METHODS), metavar="NAME",
                        help=f"auditors, from: {', '.join(BENCHMARK_METHODS)}")
    parser.add_argument("--pairs", type=int, default=N_PAIRS,
                        help="identity pairs per setting (at least 2)")
    parser.add_argument("--mmd-permutations", type=int, default=MMD_PERMUTATIONS,
                        help="permutations of MMD-TV's equal-distribution test (0 skips it)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the store")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--out", type=_csv_path, required=True, help="CSV file to write")
    parser.set_defaults(handler=run)


def _csv_path(text: str) -> Path:
    """An argparse type: the --out path, refusing one written as a folder (``newdir/``),
    which ``Path`` would silently turn into a file named ``newdir``."""
    if text.endswith(("/", os.sep)) or (os.altsep and text.endswith(os.altsep)):
        raise argparse.ArgumentTypeError(
            f"{text!r} names a folder (it ends with a separator); name the CSV file inside "
            f"it, e.g. --out {text.rstrip('/' + os.sep)}/table.csv")
    return Path(text)


#: The options that take several values, and how to print one of their values.
_LISTS = (("--mechanism", "mechanism", str), ("--geometry", "geometry", str),
          ("--epsilon", "epsilon", lambda v: f"{v:g}"), ("--n", "n", str),
          ("--repetition", "repetition", str), ("--methods", "methods", str))


def check_distinct(args: argparse.Namespace) -> None:
    """Refuse a value given twice to one option (``--epsilon 1 1``): every setting would
    run, and be written, once per copy.

    Raises:
        PrivlabValueError: naming the option and the repeated value.
    """
    from privlab.errors import invalid

    for option, name, show in _LISTS:
        values = list(getattr(args, name))
        repeated = [v for v in dict.fromkeys(values) if values.count(v) > 1]
        if repeated:
            raise invalid(option, _CALLER, "a list of distinct values",
                          " ".join(show(v) for v in values),
                          f"{show(repeated[0])} is given {values.count(repeated[0])} times; "
                          "give each value once.", given_is_text=True)


def check_out(path: Path) -> Path:
    """Refuse an output path the CSV could not be written to, before anything is computed.

    The path must not be a folder or an existing non-file, and its nearest existing folder
    must accept a new file (missing folders below it are created when the CSV is written).

    Raises:
        PrivlabValueError: naming ``--out`` and the fix.

    Example:
        >>> import tempfile
        >>> folder = Path(tempfile.mkdtemp())
        >>> check_out(folder / "new" / "table.csv") == folder / "new" / "table.csv"
        True
        >>> try:
        ...     check_out(folder)
        ... except ValueError as exc:
        ...     print(str(exc)[:50], "(a folder)" in str(exc))
        The '--out' parameter of privlab epsilon-benchmark True
    """
    from privlab.errors import invalid

    def refuse(problem: str, fix: str):
        return invalid("--out", _CALLER, "the path of a CSV file in a writable folder",
                       f"{str(path)!r} ({problem})", fix=fix, given_is_text=True)

    path = Path(path)
    if path.is_dir():
        raise refuse("a folder", f"Name a file inside it, e.g. --out {path / 'table.csv'}.")
    if path.exists() and not path.is_file():
        raise refuse("an existing entry that is not a regular file",
                     "Choose another file name.")
    if path.is_file() and not os.access(path, os.W_OK):
        raise refuse("a file you may not write", "Choose another file name or folder.")
    folder = path.absolute().parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise refuse(f"{folder} is a file, not a folder", "Choose a path inside a folder.")
    try:  # a real probe: permission bits do not tell about root or read-only mounts
        handle, probe = tempfile.mkstemp(prefix=".privlab-probe-", dir=folder)
        os.close(handle)
        os.unlink(probe)
    except OSError as exc:
        raise refuse(f"the folder {folder} is not writable: {exc.strerror}",
                     "Choose a folder you can write to.") from None
    return path


def run(args) -> int:
    """Run the requested grid and write the CSV; prints a per-method summary."""
    from privlab.epsilon.benchmark import format_epsilon, grid, per_setting, run_sweep

    check_distinct(args)
    check_out(args.out)
    from privlab.cli.options import in_options
    from privlab.errors import PrivlabTypeError, PrivlabValueError

    try:
        settings = grid(args.mechanism, args.geometry, args.epsilon, args.n, args.repetition)
        frame = run_sweep(settings, methods=args.methods, n_pairs=args.pairs,
                          mmd_permutations=args.mmd_permutations, n_jobs=args.jobs,
                          cache=not args.no_cache, progress=not args.quiet)
    except (PrivlabValueError, PrivlabTypeError) as exc:  # named as the options typed
        raise in_options(exc, _OPTIONS, "epsilon-benchmark") from None
    args.out.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(args.out, index=False)
    summary = per_setting(frame)[["mechanism", "geometry", "epsilon", "n", "repetition",
                                  "method", "status", "median", "infinite", "pairs",
                                  "exact_median"]]
    summary["epsilon"] = summary["epsilon"].map(format_epsilon)  # every digit that matters
    summary["+inf"] = [f"{k}/{n}" for k, n in zip(summary.pop("infinite"), summary.pop("pairs"))]
    summary = summary.rename(columns={"median": "median (+inf counted)"})
    print(summary[["mechanism", "geometry", "epsilon", "n", "repetition", "method", "status",
                   "median (+inf counted)", "+inf", "exact_median"]].to_string(index=False))
    print(f"wrote {len(frame)} rows to {args.out}")
    return 0
