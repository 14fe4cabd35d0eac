"""How long a new user waits: ``make demo`` and ``make test`` on a fresh clone.

Clones this repository's committed HEAD into a temporary folder, then runs there, with
a fresh cache (``PRIVLAB_CACHE`` in the temporary folder) and fresh reports:

  1. ``make demo`` (the demo settings): its wall time, and each notebook's from the
     record ``privlab demo`` leaves (``reports/headlines-demo.json``);
  2. ``make test``: its wall time and pytest's summary line.

The environment's set-up (``make venv``: a few minutes the first time) is timed apart
and excluded from both figures. ``--reuse-venv`` links this checkout's ``.venv`` into the
clone instead of building one (the clone's ``pyproject.toml`` must equal this one's).
``--shared`` puts ``../shared`` beside the clone (the real mailbox and SPIA files, as on
the development machine); without it the clone is what a user gets. ``--reproduce``
times ``make reproduce`` (the full settings the docs' quoted figures come from) in place
of ``make demo``, with each notebook's time from ``reports/headlines-full.json``.

    python benchmarks/first_run.py --reuse-venv --shared     # about 20 minutes on 2 cores
    python benchmarks/first_run.py --skip-test                # the demo only
    python benchmarks/first_run.py --reuse-venv --shared --reproduce --skip-test

Nothing is asserted: this is a measurement to read (the docs quote what it printed).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _timed(command: list[str], cwd: Path, env: dict, log: Path) -> tuple[float, int, str]:
    start = time.time()
    with open(log, "w") as out:
        code = subprocess.call(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    return time.time() - start, code, log.read_text(errors="replace")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reuse-venv", action="store_true", help="link this checkout's .venv")
    parser.add_argument("--shared", action="store_true", help="put ../shared beside the clone")
    parser.add_argument("--skip-demo", action="store_true")
    parser.add_argument("--skip-test", action="store_true")
    parser.add_argument("--reproduce", action="store_true",
                        help="time make reproduce (the full settings) instead of make demo")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args(argv)

    base = Path(tempfile.mkdtemp(prefix="privlab-first-run-"))
    clone = base / "main"
    subprocess.check_call(["git", "clone", "--quiet", str(ROOT), str(clone)])
    if args.shared:
        shared = ROOT.parent / "shared"
        if not shared.is_dir():
            parser.error(f"--shared: {shared} does not exist")
        (base / "shared").symlink_to(shared)
    env = {**os.environ, "PRIVLAB_CACHE": str(base / "cache")}
    for key in ("PRIVLAB_HOME", "PRIVLAB_SMOKE", "PRIVLAB_PROFILE", "PRIVLAB_SHARED_DATA"):
        env.pop(key, None)
    print(f"clone: {clone} (HEAD {subprocess.check_output(['git', 'rev-parse', '--short', 'HEAD'], cwd=clone, text=True).strip()}); "
          f"cores: {os.cpu_count()}; ../shared beside it: {args.shared}", flush=True)

    if args.reuse_venv:
        (clone / ".venv").symlink_to(ROOT / ".venv")
        # The clone's files are newer than the stamp; the dependencies are the same ones.
        os.utime(ROOT / ".venv" / ".privlab-installed")
        # The linked environment's editable install points at this checkout: the clone's
        # own package goes first, in kernels and subprocesses too.
        env["PYTHONPATH"] = str(clone)
    seconds, code, _ = _timed(["make", "venv"], clone, env, base / "venv.log")
    print(f"set-up (make venv{', linked' if args.reuse_venv else ''}): {seconds:.0f} s, exit {code}",
          flush=True)
    if code:
        return code

    if not args.skip_demo:
        target, profile = ("reproduce", "full") if args.reproduce else ("demo", "demo")
        seconds, code, _ = _timed(["make", target], clone, env, base / f"{target}.log")
        print(f"make {target}: {seconds:.0f} s ({seconds / 60:.1f} min), exit {code}", flush=True)
        record = clone / "reports" / f"headlines-{profile}.json"
        if record.is_file():
            runs = json.loads(record.read_text())["notebooks"]
            for run in runs:
                print(f"  {run['notebook']:<20} {run['seconds']:6.0f} s"
                      f"{'' if run['ok'] else '  FAILED'}", flush=True)
    if not args.skip_test:
        seconds, code, log = _timed(["make", "test"], clone, env, base / "test.log")
        summary = [line for line in log.splitlines() if re.search(r"\d+ passed", line)]
        print(f"make test: {seconds:.0f} s ({seconds / 60:.1f} min), exit {code}; "
              f"{summary[-1].strip('= ') if summary else 'no summary'}", flush=True)
        slowest = log.split("slowest 10 durations", 1)
        if len(slowest) == 2:
            print("  slowest tests:\n" + "\n".join("  " + line for line in
                                                    slowest[1].splitlines()[1:11]), flush=True)
    print(f"logs: {base}" if args.keep else "", flush=True)
    if not args.keep:
        subprocess.call(["rm", "-rf", str(base)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
