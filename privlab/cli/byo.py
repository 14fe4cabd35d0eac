"""``privlab epsilon audit``, ``privlab spia score``, ``privlab redacbench score``: your own
samples or outputs, scored from the command line.

    privlab epsilon audit A.npy B.npy --delta 1e-5 --report eps.html --fail-above 1.0
    privlab spia score GOLD.jsonl ANONYMIZED.jsonl --report spia.html --fail-above 0.3
    privlab redacbench score OUTPUTS.jsonl --report redac.html --fail-above 0.2

Each prints the headline (the number, its control and the excess, its status, what it
rests on, its caveats) and the table; ``--report FILE`` writes a standalone HTML (or
Markdown) report with a JSON record beside it; ``--fail-above X`` exits with status 1
when the gated number is above X, so a CI job can gate a mechanism or an anonymizer:
the certified ε bound, the share of PIIs recovered (1 − CPR), the share of sensitive
facts still inferable (1 − Security).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np

from privlab.cli.options import in_options
from privlab.cli.resolution import _check_npy_file as check_npy_file
from privlab.cli.resolution import _check_npy_header as check_npy_header
from privlab.cli.resolution import _count as at_least  # an integer >= minimum, one line
from privlab.errors import PrivlabTypeError, PrivlabValueError, invalid


def _in_range(low: float, high: float, closed_low: bool = True):
    """An argparse type: a float in [low, high) (or (low, high)), refused in one line."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        ok = (low <= value if closed_low else low < value) and value < high
        if not ok:
            left = "[" if closed_low else "("
            raise argparse.ArgumentTypeError(f"must be a number in {left}{low:g}, {high:g}); "
                                             f"got {text!r}")
        return value

    return parse


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number; got {text!r}") from None


def _common(parser: argparse.ArgumentParser, gated: str) -> None:
    parser.add_argument("--report", type=Path, metavar="FILE",
                        help="write a standalone report (.html or .md) and FILE.json beside it")
    parser.add_argument("--fail-above", type=_number, metavar="X",
                        help=f"exit with status 1 when {gated} is above X")


def register(subparsers) -> None:
    """Add the ``epsilon``, ``spia`` and ``redacbench`` subcommands."""
    from privlab.epsilon.byo import CERTIFICATES, ESTIMATORS

    def group(name: str, help_text: str):
        parser = subparsers.add_parser(name, help=help_text, description=__doc__,
                                       formatter_class=argparse.RawDescriptionHelpFormatter)
        verbs = parser.add_subparsers(dest="verb", metavar="VERB")
        verbs.required = True
        return verbs

    eps = group("epsilon", "audit ε from your outputs on two neighbouring inputs").add_parser(
        "audit", help="certificate with its confidence, the four estimators, a control",
        description="Audit ε from a mechanism's outputs on two neighbouring inputs.")
    eps.add_argument("A", type=Path, help=".npy file: outputs on the first input, (n,) or (n, d)")
    eps.add_argument("B", type=Path, help=".npy file: outputs on the second input")
    eps.add_argument("--delta", type=_in_range(0.0, 1.0), default=1e-5,
                     help="the δ of the (ε, δ) claim (default 1e-5; 0 for pure DP)")
    eps.add_argument("--pairs", type=at_least(1), default=1,
                     help="pairs of inputs you audit in all; the confidence covers them all")
    eps.add_argument("--family-alpha", type=_in_range(0.0, 1.0, closed_low=False), default=0.05,
                     help="1 - the confidence of all bounds together (default 0.05)")
    eps.add_argument("--certificates", nargs="*", default=list(CERTIFICATES), metavar="NAME",
                     help="certificates to run (default: reserved)")
    eps.add_argument("--estimators", nargs="*", default=list(ESTIMATORS), metavar="NAME",
                     help="other auditors (default: the paper's four)")
    eps.add_argument("--no-control", action="store_true", help="skip the label-shuffled control")
    eps.add_argument("--seed", type=at_least(0), default=0)
    _common(eps, "the certified lower bound on ε")
    eps.set_defaults(handler=run_epsilon, command="epsilon audit")

    spia = group("spia", "score your anonymizer's outputs on SPIA").add_parser(
        "score", help="CPR with the text-blind baseline and the excess over it",
        description="Score anonymized documents on SPIA gold profiles.")
    spia.add_argument("GOLD", type=Path, help="SPIA JSON-lines gold file")
    spia.add_argument("ANONYMIZED", type=Path, help="JSON-lines file of your outputs, one per "
                      "gold document, keyed by its metadata.data_id (or data_id / id)")
    spia.add_argument("--adversary", default="contextual", help="registered adversary")
    spia.add_argument("--baseline", default="base-rate",
                      help="the text-blind control's adversary ('none' to skip)")
    spia.add_argument("--matcher", default="offline", help="subject matcher")
    _common(spia, "the share of PIIs recovered (1 - CPR)")
    spia.set_defaults(handler=run_spia, command="spia score")

    redac = group("redacbench", "score your redactions on RedacBench").add_parser(
        "score", help="Security and Utility with the unredacted control and the judge's errors",
        description="Score redacted outputs on RedacBench.")
    redac.add_argument("OUTPUTS", type=Path, help="JSON-lines file: one {document, policy, "
                       "redacted} per line (without policy: for every policy of the document)")
    redac.add_argument("--data", type=Path, default=None,
                       help="RedacBench JSON-lines file (default: the embedded sample)")
    redac.add_argument("--judge", default="heuristic", help="registered non-oracle judge")
    redac.add_argument("--no-errors", action="store_true",
                       help="skip measuring the judge's errors on the hand labels")
    _common(redac, "the share of sensitive facts still inferable (1 - Security)")
    redac.set_defaults(handler=run_redacbench, command="redacbench score")


def load_samples(path: Path, option: str, caller: str) -> np.ndarray:
    """The real array (1-D or 2-D) in the .npy file ``path``, or a refusal naming ``option``.

    The file is checked as ``privlab resolution`` checks its own (missing, a folder, a
    pipe, empty, not .npy, truncated, a second array appended) before it is read.

    Example:
        >>> import tempfile
        >>> p = Path(tempfile.mkdtemp()) / "a.npy"; np.save(p, np.arange(3.0))
        >>> load_samples(p, "A", "privlab epsilon audit").shape
        (3,)
    """
    hint = "Save the outputs with numpy.save(path, array)."
    try:
        check_npy_file(path, option)
        check_npy_header(path, option)
    except PrivlabValueError as exc:  # worded for privlab resolution: name this command
        raise PrivlabValueError(str(exc).replace("privlab resolution", caller)) from None
    try:
        array = np.load(path, allow_pickle=False)
    except (OSError, EOFError, ValueError) as exc:
        raise invalid(option, caller, "a readable NumPy .npy array", f"{path} ({exc})", hint,
                      given_is_text=True) from None
    if array.dtype.kind not in "fiub" or array.ndim not in (1, 2):
        raise invalid(option, caller, "a .npy array of real numbers, shape (n,) or (n, d)",
                      f"{path} holding {array.dtype} of shape {array.shape}", hint,
                      given_is_text=True)
    return array


def _existing_file(path: Path, option: str, caller: str, what: str) -> Path:
    if not path.is_file():
        raise invalid(option, caller, f"an existing {what}",
                      f"{path} ({'a folder' if path.is_dir() else 'it does not exist'})",
                      given_is_text=True)
    return path


def _finish(result, args, gated: float) -> int:
    """Print the face, write the report, apply the gate."""
    result.show()  # the plain-text face outside a notebook
    if args.report is not None:
        path = result.report(args.report)
        print(f"report written: {path} (record: {path.with_suffix('.json')})")
    if args.fail_above is not None and gated > args.fail_above:
        print(f"privlab {args.command}: {gated:.4g} is above --fail-above {args.fail_above:g}")
        return 1
    return 0


def _check_report(args, caller: str) -> None:
    from privlab.report import REPORT_SUFFIXES

    if args.report is not None and args.report.suffix.lower() not in REPORT_SUFFIXES:
        raise invalid("--report", caller, "a file name ending in " + ", ".join(REPORT_SUFFIXES),
                      str(args.report), "Name it e.g. --report audit.html.", given_is_text=True)


def run_epsilon(args) -> int:
    """``privlab epsilon audit``."""
    from privlab.epsilon.byo import audit

    caller = "privlab epsilon audit"
    _check_report(args, caller)
    a = load_samples(args.A, "A", caller)
    b = load_samples(args.B, "B", caller)
    try:
        result = audit(a, b, delta=args.delta, certificates=args.certificates,
                       estimators=args.estimators, family_alpha=args.family_alpha,
                       pairs=args.pairs, control=not args.no_control, seed=args.seed,
                       names=(args.A.stem, args.B.stem) if args.A.stem != args.B.stem
                       else ("A", "B"))
    except (PrivlabValueError, PrivlabTypeError) as exc:
        raise in_options(exc, {"certificates": "--certificates", "estimators": "--estimators",
                               "A": "A", "B": "B"}, "epsilon audit") from None
    gated = result.certificate if result.certificates else math.nan
    return _finish(result, args, gated)


def run_spia(args) -> int:
    """``privlab spia score``."""
    from privlab.redaction.spia.byo import score

    caller = "privlab spia score"
    _check_report(args, caller)
    gold = _existing_file(args.GOLD, "GOLD", caller, "SPIA JSON-lines file")
    anonymized = _existing_file(args.ANONYMIZED, "ANONYMIZED", caller, "JSON-lines file")
    try:
        result = score(gold, anonymized, args.adversary,
                       baseline=None if args.baseline == "none" else args.baseline,
                       matcher=args.matcher)
    except (PrivlabValueError, PrivlabTypeError) as exc:
        raise in_options(exc, {"gold": "GOLD", "anonymized": "ANONYMIZED",
                               "adversary": "--adversary", "baseline": "--baseline",
                               "matcher": "--matcher"}, "spia score") from None
    return _finish(result, args, result.recovered)


def run_redacbench(args) -> int:
    """``privlab redacbench score``."""
    from privlab.redaction.redacbench.byo import score

    caller = "privlab redacbench score"
    _check_report(args, caller)
    outputs = _existing_file(args.OUTPUTS, "OUTPUTS", caller, "JSON-lines file")
    data = None if args.data is None else _existing_file(args.data, "--data", caller,
                                                         "RedacBench JSON-lines file")
    try:
        result = score(outputs, data, judge=args.judge, errors=not args.no_errors)
    except (PrivlabValueError, PrivlabTypeError) as exc:
        raise in_options(exc, {"redact_or_outputs": "OUTPUTS", "data": "--data",
                               "judge": "--judge"}, "redacbench score") from None
    return _finish(result, args, 1.0 - result.security)
