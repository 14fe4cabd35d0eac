"""``privlab demo``: run every study notebook on its embedded defaults.

Writes each executed notebook and an HTML copy under ``reports/`` and prints one
headline per notebook: the study, the number that matters, what kind of claim it is
(status) and what it rests on (caveats), then each notebook's wall time and the total.

``--full`` runs the full settings that README's quoted figures come from (``make
reproduce``); the default is the demo profile, whose smaller settings each headline
names; ``--smoke`` the smallest settings.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from privlab.errors import invalid


def register(subparsers) -> None:
    """Add the ``demo`` subcommand."""
    parser = subparsers.add_parser("demo", help="run every notebook headless and print headlines")
    parser.add_argument("--notebooks", type=Path, default=None,
                        help="folder of NN_*.ipynb (default: the repository's notebooks/)")
    parser.add_argument("--out", type=Path, default=None, help="report folder (default reports/)")
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--smoke", action="store_true", help="smallest settings (a quick check)")
    sizes.add_argument("--full", action="store_true",
                       help="the full settings README's quoted figures come from (make reproduce)")
    # At least one value: "--only" alone would otherwise select nothing and run everything.
    # "extend": --only 00 --only 01 runs both, as --only 00 01 does.
    parser.add_argument("--only", nargs="+", action="extend", default=None, metavar="NN",
                        help="notebook numbers to run, e.g. 00 05 (05 includes 05a)")
    parser.add_argument("--fresh-kernels", action="store_true",
                        help="a kernel of its own for each notebook (default: one kernel runs "
                             "them in turn, each from an empty namespace, models loaded once)")
    parser.set_defaults(handler=run)


_CALLER = "privlab demo"


def _check_folders(args) -> None:
    """Refuse a --notebooks that is not a folder and an --out that is a file."""
    if args.notebooks is not None and not args.notebooks.is_dir():
        state = "a file" if args.notebooks.exists() else "it does not exist"
        raise invalid("--notebooks", _CALLER, "an existing folder",
                      f"{args.notebooks} ({state})", given_is_text=True)
    if args.out is not None and args.out.exists() and not args.out.is_dir():
        raise invalid("--out", _CALLER, "a folder (created if missing)",
                      f"{args.out} (a file)", given_is_text=True)


def run(args) -> int:
    """Execute the notebooks in order; exit status 1 if any failed."""
    from privlab.cli.run_notebooks import SharedKernel, notebook_paths, read_notebook, \
        run_notebook

    _check_folders(args)
    paths = notebook_paths(args.notebooks)
    if not paths:
        raise invalid("--notebooks", _CALLER, "a folder holding NN_*.ipynb notebooks",
                      f"{args.notebooks or 'the repository notebooks/ folder'} (it holds none)",
                      "Run make notebooks, or pass the folder that holds them.",
                      given_is_text=True)
    if args.only:
        numbers = {p.name.split("_")[0] for p in paths} | {p.name[:2] for p in paths}
        unknown = [number for number in args.only if number not in numbers]
        if unknown:
            raise invalid("--only", _CALLER, "notebook numbers that exist",
                          " ".join(unknown), f"Pass numbers among {' '.join(sorted(numbers))}; "
                          "nothing was run.", given_is_text=True)
        wanted = set(args.only)
        paths = [p for p in paths if p.name[:2] in wanted or p.name.split("_")[0] in wanted]
    for path in paths:  # every one readable before any runs: nothing half done
        read_notebook(path, "--notebooks", _CALLER)
    failed = 0
    profile = "smoke" if args.smoke else ("full" if getattr(args, "full", False) else "demo")
    wording = {"smoke": "smoke settings", "demo": "demo settings (make reproduce: full)",
               "full": "full settings"}[profile]
    print(f"Running {len(paths)} notebooks headless on {wording}...", flush=True)
    times: list[tuple[str, float, bool]] = []
    runs: list[dict] = []
    with SharedKernel() as shared:
        for path in paths:
            result = run_notebook(path, args.out, profile=profile,
                                  kernel=None if getattr(args, "fresh_kernels", False) else shared)
            _report(path, result, times, runs)
            failed += not result.ok
    print(wall_times(times), flush=True)
    from privlab.cli.quote import write_record
    from privlab.config import reports_dir

    record = write_record(Path(args.out or reports_dir()) / f"headlines-{profile}.json",
                          profile, runs)
    print(f"Headlines and times recorded in {record} (privlab quote writes README's block from it)")
    from privlab.config import reports_dir

    print(f"Executed notebooks and HTML reports are in {args.out or reports_dir()}")
    return 1 if failed else 0


def _report(path: Path, result, times: list, runs: list) -> None:
    """Print one notebook's headlines (or its failure) and record its time."""
    times.append((path.stem, result.seconds, result.ok))
    runs.append({"notebook": path.stem, "seconds": round(result.seconds, 1), "ok": result.ok,
                 "headlines": [dataclasses.asdict(h) for h in result.headlines]})
    if not result.ok:
        last = re.sub(r"\x1b\[[0-9;]*m", "", result.error or "").strip().splitlines()
        print(f"FAILED  {path.name} after {result.seconds:.0f}s: {last[-1] if last else ''} "
              f"(see {result.executed})", flush=True)
        return
    if not result.headlines:
        print(f"{path.stem:<18} ran (no headline printed)   [{result.seconds:.0f}s, "
              f"{result.html}]", flush=True)
    for headline in result.headlines:
        print(f"{headline.study:<18} {headline.text}   [{result.seconds:.0f}s, {result.html}]",
              flush=True)
        if headline.details:
            print(f"{'':<18} details: {'; '.join(headline.details)}", flush=True)
        print(f"{'':<18} status: {headline.status_line}", flush=True)
        if headline.caveats:
            print(f"{'':<18} rests on: {'; '.join(headline.caveats)}", flush=True)


def wall_times(times: list[tuple[str, float, bool]]) -> str:
    """Each notebook's wall time and the total, as printed at the end of a demo.

    Example:
        >>> print(wall_times([("00_quickstart", 12.2, True), ("01_dicaprio", 70.0, False)]))
        Wall time per notebook: 00_quickstart 12 s, 01_dicaprio 70 s (failed); total 82 s (1.4 min)
    """
    parts = [f"{name} {seconds:.0f} s" + ("" if ok else " (failed)") for name, seconds, ok in times]
    total = sum(seconds for _, seconds, _ in times)
    return f"Wall time per notebook: {', '.join(parts)}; total {total:.0f} s ({total / 60:.1f} min)"
