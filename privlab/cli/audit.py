"""``privlab audit``: the contrastive audit of your sanitizer, from the command line.

    privlab audit originals.txt sanitized.txt --encoder minilm --report audit.html
    privlab audit photos/ --sanitizer my_anon.py:blur_faces --encoder sface --fail-above 0.05

ORIGINALS and SANITIZED are two folders of images (paired by file name) or two files of
texts (``.txt``: one text per line; ``.jsonl``: one ``{"text": ...}`` per line); instead
of SANITIZED, ``--sanitizer MODULE:FUNCTION`` names your function (a module on the path,
or a ``.py`` file), called on each original. The placebo control runs unless
``--no-placebo``. It prints the headline (the resolution, its placebo floor and the excess,
the status, what it rests on, the caveats), the table and the decisive witness; ``--report
FILE`` writes a standalone HTML (or Markdown) report and FILE.json; ``--fail-above X``
exits with status 1 when the resolution is above X, so a CI job can gate a sanitizer.
On a terminal, a progress bar on standard error follows the audit's phases.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from pathlib import Path

from privlab.errors import PrivlabTypeError, PrivlabValueError, invalid
from privlab.progress import bar

_CALLER = "privlab audit"

#: ``privlab.audit``'s parameters, by the option or argument that sets them.
_OPTIONS = {"originals": "ORIGINALS", "sanitized": "SANITIZED", "sanitize": "--sanitizer",
            "encoders": "--encoder", "names": "--names", "top_k": "--top-k"}


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number; got {text!r}") from None


def register(subparsers) -> None:
    """Add the ``audit`` subcommand."""
    parser = subparsers.add_parser(
        "audit", help="audit your sanitizer or its outputs (contrastive resolution)",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ORIGINALS", type=Path,
                        help="folder of images, or .txt / .jsonl file of texts")
    parser.add_argument("SANITIZED", type=Path, nargs="?", default=None,
                        help="the sanitizer's outputs, in the same form as ORIGINALS")
    parser.add_argument("--sanitizer", "--sanitize", dest="sanitizer", metavar="MODULE:FUNCTION",
                        help="your function item -> sanitized item, instead of SANITIZED")
    parser.add_argument("--encoder", action="append", metavar="NAME",
                        help="a registry name (minilm, sface, ocr-text ...) or a local "
                             "sentence-transformers folder; repeat for several (default: "
                             "minilm for texts, efficientnet-lite0 for images)")
    parser.add_argument("--names", nargs="+", metavar="NAME",
                        help="the target's names (texts): adds the exact-name baseline")
    parser.add_argument("--no-placebo", action="store_true", help="skip the placebo control")
    parser.add_argument("--top-k", type=int, default=5, help="witnesses kept (default 5)")
    parser.add_argument("--report", type=Path, metavar="FILE",
                        help="write a standalone report (.html or .md) and FILE.json beside it")
    parser.add_argument("--fail-above", type=_number, metavar="X",
                        help="exit with status 1 when the resolution is above X")
    parser.set_defaults(handler=run)


def load_function(spec: str, option: str = "--sanitizer", caller: str = _CALLER):
    """The function ``MODULE:FUNCTION`` names: a module on the path or a ``.py`` file.

    Example:
        >>> load_function("os.path:basename")("a/b.txt")
        'b.txt'
    """
    module_name, _, function_name = spec.rpartition(":")
    if not module_name or not function_name:
        raise invalid(option, caller, "MODULE:FUNCTION", spec, "e.g. --sanitizer "
                      "my_anonymizer.py:redact or --sanitizer mypackage.anon:redact.")
    if module_name.endswith(".py"):
        path = Path(module_name).expanduser()
        if not path.is_file():
            raise invalid(option, caller, "MODULE:FUNCTION with an existing .py file",
                          spec, "Check the file's path.")
        loader_spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules.setdefault(path.stem, module)
        loader_spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise invalid(option, caller, "MODULE:FUNCTION naming an importable module",
                          spec, f"Python could not import it ({exc}); give the path of the "
                          ".py file instead.") from None
    function = getattr(module, function_name, None)
    if not callable(function):
        raise invalid(option, caller, "MODULE:FUNCTION naming a function of that module",
                      spec, f"{module_name} has no function {function_name!r}.")
    return function


def run(args) -> int:
    """Run the audit, print its face, write the report, apply the gate."""
    from privlab.cli.options import in_options
    from privlab.contrastive.byo import audit
    from privlab.report import REPORT_SUFFIXES

    if args.report is not None and args.report.suffix.lower() not in REPORT_SUFFIXES:
        raise invalid("--report", _CALLER, "a file name ending in " + ", ".join(REPORT_SUFFIXES),
                      str(args.report), "Name it e.g. --report audit.html.", given_is_text=True)
    if (args.SANITIZED is None) == (args.sanitizer is None):
        raise invalid("SANITIZED", _CALLER, "given, or --sanitizer MODULE:FUNCTION instead "
                      "(one of the two)", "both" if args.sanitizer else "neither",
                      "e.g. privlab audit originals.txt sanitized.txt, or privlab audit "
                      "originals.txt --sanitizer anon.py:redact.", given_is_text=True)
    function = None if args.sanitizer is None else load_function(args.sanitizer)
    try:
        with bar("privlab audit", disable=None):  # drawn on a terminal only
            result = audit(args.ORIGINALS, function, sanitized=args.SANITIZED,
                           encoders=args.encoder, names=args.names,
                           placebo=not args.no_placebo, top_k=args.top_k)
    except (PrivlabValueError, PrivlabTypeError) as exc:
        raise in_options(exc, _OPTIONS, "audit") from None
    print(result.face_text())
    if args.report is not None:
        path = result.report(args.report)
        print(f"report written: {path} (record: {path.with_suffix('.json')})")
    if args.fail_above is not None and result.value > args.fail_above:
        print(f"privlab audit: resolution {result.value:.4g} is above --fail-above "
              f"{args.fail_above:g}")
        return 1
    return 0
