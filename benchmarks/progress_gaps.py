"""How long a class looks at a progress bar that does not move, per study.

Runs each study at its notebook's demo settings (``Config.demo()``, what JupyterLab and
``make demo`` run) with a :class:`privlab.progress.Recorder` listening, each in a fresh
process (as each notebook has its own kernel: models are loaded again) and, by default,
with a fresh cache (a first run: nothing is read back). Prints per study its wall time,
the number of progress reports, and the longest waits between two reports with the
reports around them, so a wait longer than ``--limit`` seconds can be traced to its stage.

Nothing is asserted: this is a measurement to read. On a busy 2-core machine::

    nice -n 10 python benchmarks/progress_gaps.py                  # every study, ~15 minutes
    nice -n 10 python benchmarks/progress_gaps.py --only 01 04 05  # the slowest ones
    nice -n 10 python benchmarks/progress_gaps.py --cache ~/.cache/privlab  # a warm cache
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def measure(number: str, top: int) -> dict:
    """Run the study numbered ``number`` at its demo settings and record its reports."""
    import importlib

    from privlab import progress
    from privlab.studies import registry

    entry = next(e for e in registry.entries() if e.meta.get("number") == number)
    module = importlib.import_module(entry.factory.__module__)
    config = module.Config.demo()
    with progress.recording() as rec:
        error = None
        try:
            entry.factory(config)
        except Exception as exc:  # reported, and the other studies still run
            error = f"{type(exc).__name__}: {exc}"
    gaps = sorted(rec.gaps(), key=lambda g: -g.seconds)[:top]
    return {"study": f"{number} {entry.name}", "seconds": round(rec.end - rec.start, 1),
            "reports": len(rec.ticks), "error": error,
            "gaps": [{"seconds": round(g.seconds, 1), "after": g.after, "before": g.before}
                     for g in gaps]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="NN", help="study numbers, e.g. 01 04")
    parser.add_argument("--cache", type=Path, default=None,
                        help="PRIVLAB_CACHE to use (default: a fresh temporary folder)")
    parser.add_argument("--top", type=int, default=3, help="waits to print per study")
    parser.add_argument("--limit", type=float, default=10.0,
                        help="seconds above which a wait is flagged")
    parser.add_argument("--json", type=Path, default=None, help="also write the records here")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a child process: one study
    args = parser.parse_args(argv)
    if args.one:
        print("RECORD " + json.dumps(measure(args.one, args.top)), flush=True)
        return 0

    from privlab.studies import registry

    numbers = [str(e.meta.get("number")) for e in registry.entries()]
    if args.only:
        unknown = sorted(set(args.only) - set(numbers))
        if unknown:
            parser.error(f"--only: no study numbered {', '.join(unknown)} (there are "
                         f"{', '.join(numbers)})")
        numbers = [n for n in numbers if n in set(args.only)]
    cache = args.cache or Path(tempfile.mkdtemp(prefix="privlab-gaps-cache-"))
    env = {**os.environ, "PRIVLAB_CACHE": str(cache),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    for key in ("PRIVLAB_SMOKE", "PRIVLAB_PROFILE"):
        env.pop(key, None)
    print(f"cache: {cache} ({'given' if args.cache else 'fresh'}); cores: {os.cpu_count()}; "
          f"flagged: waits over {args.limit:.0f} s", flush=True)
    records, worst = [], 0.0
    for number in numbers:
        start = time.time()
        out = subprocess.run([sys.executable, __file__, "--one", number, "--top", str(args.top)],
                             env=env, capture_output=True, text=True)
        lines = [ln for ln in out.stdout.splitlines() if ln.startswith("RECORD ")]
        if not lines:
            tail = (out.stderr or out.stdout).strip().splitlines()[-3:]
            print(f"{number}: the run failed after {time.time() - start:.0f} s: {' | '.join(tail)}",
                  flush=True)
            continue
        record = json.loads(lines[-1][len("RECORD "):])
        records.append(record)
        longest = record["gaps"][0]["seconds"] if record["gaps"] else 0.0
        worst = max(worst, longest)
        flag = "  OVER" if longest > args.limit else ""
        print(f"{record['study']:<22} {record['seconds']:>6.1f} s, {record['reports']:>5} reports, "
              f"longest wait {longest:.1f} s{flag}"
              + (f"  (failed: {record['error']})" if record["error"] else ""), flush=True)
        for gap in record["gaps"]:
            print(f"{'':<24}{gap['seconds']:>6.1f} s after '{gap['after']}'\n"
                  f"{'':<32}before '{gap['before']}'", flush=True)
    print(f"longest wait of all: {worst:.1f} s", flush=True)
    if args.json:
        args.json.write_text(json.dumps(records, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
