"""``privlab quote``: README's headline block, written from a ``privlab demo`` record.

``privlab demo`` writes ``headlines-<profile>.json`` beside its reports: every headline
it printed, each notebook's wall time, the profile and the machine. ``privlab quote``
renders that record into README between the markers

    <!-- headlines: begin -->
    <!-- headlines: end -->

so that the figures README quotes are the ones a run printed, never typed by hand.
``--check`` changes nothing and exits 1 when README's block differs from the record
(after a fresh ``make demo``, it tells whether README still says what the code prints).
"""

from __future__ import annotations

import difflib
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

from privlab.errors import invalid

BEGIN = "<!-- headlines: begin -->"
END = "<!-- headlines: end -->"
_CALLER = "privlab quote"
_WORDING = {"smoke": "the smoke settings (`privlab demo --smoke`)",
            "demo": "the demo settings (`make demo`)",
            "full": "the full settings (`make reproduce`)"}


def register(subparsers) -> None:
    """Add the ``quote`` subcommand."""
    parser = subparsers.add_parser("quote", help="write README's headline block from a demo record")
    parser.add_argument("record", type=Path, help="headlines-<profile>.json written by privlab demo")
    parser.add_argument("--readme", type=Path, default=None, help="default: the repository's README.md")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 when README's block differs from the record")
    parser.set_defaults(handler=run)


def machine() -> dict[str, Any]:
    """What a timing rests on: cores, platform, whether the shared data was beside the clone."""
    from privlab.config import shared_data_dir

    return {"cores": os.cpu_count(), "platform": platform.platform(terse=True),
            "python": platform.python_version(), "shared_data": shared_data_dir() is not None}


def write_record(path: Path, profile: str, runs: list[dict[str, Any]]) -> Path:
    """Write what a demo printed: per notebook its seconds, success and headlines.

    Args:
        path: the JSON file to write.
        profile: ``"smoke"``, ``"demo"`` or ``"full"``.
        runs: one dict per notebook: ``notebook``, ``seconds``, ``ok``, ``headlines``
            (each a dict of ``study``, ``text``, ``status``, ``caveats`` and, from
            headlines with them, ``details`` and ``status_note``).
    """
    record = {"profile": profile, "date": time.strftime("%Y-%m-%d"), "machine": machine(),
              "total_seconds": round(sum(r["seconds"] for r in runs), 1), "notebooks": runs}
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def read_record(path: Path) -> dict[str, Any]:
    """A record written by :func:`write_record`, checked for the fields the block needs."""
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise invalid("record", _CALLER, "a headlines-<profile>.json written by privlab demo",
                      f"{path} ({type(exc).__name__}: {exc})",
                      "Run make demo (or make reproduce) and pass reports/headlines-demo.json.",
                      given_is_text=True) from None
    missing = [k for k in ("profile", "date", "machine", "total_seconds", "notebooks")
               if k not in record] if isinstance(record, dict) else ["profile"]
    if missing:
        raise invalid("record", _CALLER, "a record written by privlab demo",
                      f"{path} (no '{missing[0]}' field)", given_is_text=True)
    return record


def render_block(record: dict[str, Any]) -> str:
    """README's headline block for ``record`` (markers included).

    Example:
        >>> rec = {"profile": "demo", "date": "2026-12-01", "total_seconds": 12.0,
        ...        "machine": {"cores": 2, "platform": "Linux", "shared_data": False},
        ...        "notebooks": [{"notebook": "00_quickstart", "seconds": 12.0, "ok": True,
        ...                       "headlines": [{"study": "00 quickstart", "text": "resolution 0.2",
        ...                                      "status": "diagnostic", "caveats": ["12 texts"]}]}]}
        >>> print(render_block(rec))  # doctest: +NORMALIZE_WHITESPACE
        <!-- headlines: begin -->
        Printed by a run on the demo settings (`make demo`) on 2026-12-01 (2 cores, Linux, without ../shared/data): 1 notebooks in 12 s (0.2 min). Written by `privlab quote` from its record; not edited by hand.
        <BLANKLINE>
        ```
        00 quickstart      resolution 0.2
                           status: diagnostic
                           rests on: 12 texts
        ```
        <BLANKLINE>
        Wall time per notebook: 00_quickstart 12 s.
        <!-- headlines: end -->
    """
    where = record["machine"]
    data = "with ../shared/data" if where.get("shared_data") else "without ../shared/data"
    total = float(record["total_seconds"])
    lines = [BEGIN,
             f"Printed by a run on {_WORDING.get(record['profile'], record['profile'])} on "
             f"{record['date']} ({where.get('cores')} cores, {where.get('platform')}, {data}): "
             f"{len(record['notebooks'])} notebooks in {total:.0f} s ({total / 60:.1f} min). "
             "Written by `privlab quote` from its record; not edited by hand.", "", "```"]
    for run in record["notebooks"]:
        if not run.get("ok", True):
            lines.append(f"{run['notebook']:<18} FAILED")
        for h in run.get("headlines", []):
            lines.append(f"{h['study']:<18} {h['text']}")
            if h.get("details"):
                lines.append(f"{'':<18} details: {'; '.join(h['details'])}")
            note = h.get("status_note")
            lines.append(f"{'':<18} status: {h['status']}" + (f" — {note}" if note else ""))
            if h.get("caveats"):
                lines.append(f"{'':<18} rests on: {'; '.join(h['caveats'])}")
    times = ", ".join(f"{r['notebook']} {r['seconds']:.0f} s" for r in record["notebooks"])
    lines += ["```", "", f"Wall time per notebook: {times}.", END]
    return "\n".join(lines)


def replace_block(readme: str, block: str) -> str:
    """``readme`` with the text between the markers replaced by ``block``."""
    start, end = readme.find(BEGIN), readme.find(END)
    if start < 0 or end < start:
        raise invalid("--readme", _CALLER, f"a file holding the markers {BEGIN} and {END}",
                      "a file without them", "Add both markers where the block belongs.",
                      given_is_text=True)
    return readme[:start] + block + readme[end + len(END):]


def run(args) -> int:
    """Write (or ``--check``) README's headline block."""
    from privlab.config import home

    readme_path = args.readme or home() / "README.md"
    record = read_record(args.record)
    try:
        readme = readme_path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise invalid("readme", _CALLER, "a UTF-8 text file", f"{readme_path} ({exc})",
                      "Pass the repository's README.md.", given_is_text=True) from None
    updated = replace_block(readme, render_block(record))
    if args.check:
        if updated == readme:
            print(f"{readme_path.name}: the headline block matches {args.record}")
            return 0
        sys.stdout.writelines(difflib.unified_diff(readme.splitlines(True), updated.splitlines(True),
                                                   str(readme_path), str(args.record)))
        return 1
    readme_path.write_text(updated, encoding="utf-8")
    print(f"{readme_path.name}: headline block written from {args.record}")
    return 0
