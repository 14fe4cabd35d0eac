"""``privlab quote``: the headline block of the docs, written from a ``privlab demo`` record.

It renders the record's headlines into ``docs/headlines.md`` between the
``<!-- headlines: begin -->`` and ``<!-- headlines: end -->`` markers, and writes every
figure the prose quotes between ``<!--q:NAME-->`` and ``<!--/q-->`` markers (in notebooks,
README and the docs pages), so the figures quoted are the ones a run printed. ``--check``
changes nothing and exits 1 when the prose differs from the record.

See docs/methods/cli-quote.md.
"""

from __future__ import annotations

import difflib
import json
import math
import os
import platform
import re
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
    parser = subparsers.add_parser("quote", help="write the docs' headline block from a demo record")
    parser.add_argument("record", type=Path, nargs="+",
                        help="headlines-<profile>.json written by privlab demo (the block "
                             "comes from the first), then any record of more figures (e.g. "
                             "benchmarks/records/spia-splits.json)")
    parser.add_argument("--readme", type=Path, default=None,
                        help="the page holding the block (default: the repository's "
                             "docs/headlines.md; then README.md and every docs/ page's marked "
                             "figures are written too)")
    parser.add_argument("--notebooks", type=Path, default=None,
                        help="folder of NN_*.py/.ipynb notebooks whose marked figures to write "
                             "(default: the repository's, unless --readme is given)")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 when the block or a figure differs from "
                             "the record")
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
    problem = _record_problem(record)
    if problem:
        raise invalid("record", _CALLER, "a record written by privlab demo",
                      f"{path} ({problem})", "Write it again with make demo (or make "
                      "reproduce) rather than by hand.", given_is_text=True)
    return record


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and \
        math.isfinite(value) and value >= 0


def _record_problem(record: dict[str, Any]) -> str | None:
    """What in ``record`` the block cannot print truthfully, or None."""
    if not isinstance(record["machine"], dict):
        return f"'machine' is {type(record['machine']).__name__}, not an object"
    if not _finite(record["total_seconds"]):
        return f"'total_seconds' is {record['total_seconds']!r}, not a finite number of seconds"
    if not isinstance(record["notebooks"], list):
        return f"'notebooks' is {type(record['notebooks']).__name__}, not a list"
    for k, run in enumerate(record["notebooks"]):
        where = f"notebooks[{k}]"
        if not isinstance(run, dict):
            return f"{where} is {type(run).__name__}, not an object"
        if not isinstance(run.get("notebook"), str):
            return f"{where} has no 'notebook' name"
        if not _finite(run.get("seconds")):
            return f"{where} ({run['notebook']}) has 'seconds' {run.get('seconds')!r}, not a " \
                   "finite number"
        headlines = run.get("headlines", [])
        if not isinstance(headlines, list):
            return f"{where} has 'headlines' that are not a list"
        for j, h in enumerate(headlines):
            at = f"{where}.headlines[{j}]"
            if not isinstance(h, dict):
                return f"{at} is not an object"
            for key in ("study", "text", "status"):
                if not isinstance(h.get(key), str):
                    return f"{at} has no text '{key}'"
            for key in ("caveats", "details"):
                items = h.get(key, [])
                if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
                    return f"{at} has '{key}' that is not a list of texts"
    return None


def render_block(record: dict[str, Any]) -> str:
    """The headline block for ``record`` (markers included).

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


#: A quoted figure in prose: ``<!--q:name-->value<!--/q-->`` (``name`` may be
#: ``notebook:name``). One written right after a backtick is an example in a code span
#: (as in README's description of this), not a figure.
MARKER = re.compile(r"(?<!`)<!--q:(?P<key>[A-Za-z0-9_.:-]+)-->(?P<value>.*?)<!--/q-->")


def record_figures(*records: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Every figure the records hold: ``{notebook stem: {name: printed value}}``.

    Raises:
        PrivlabValueError: two records give one figure different values.

    Example:
        >>> record_figures({"notebooks": [{"notebook": "04_enron", "headlines": [
        ...     {"study": "04 Enron", "figures": {"leaks": "19"}}]}]})
        {'04_enron': {'leaks': '19'}}
    """
    out: dict[str, dict[str, str]] = {}
    for record in records:
        for run in record.get("notebooks", []):
            figures = out.setdefault(run["notebook"], {})
            for headline in run.get("headlines", []):
                for name, value in (headline.get("figures") or {}).items():
                    if figures.get(name, value) != value:
                        raise invalid("record", _CALLER, "records that agree on every figure",
                                      f"{run['notebook']}:{name} = {figures[name]!r} and "
                                      f"{value!r}", "Pass records of one run per figure.",
                                      given_is_text=True)
                    figures[name] = value
    return out


def fill_figures(text: str, figures: dict[str, dict[str, str]], *, notebook: str | None,
                 where: str) -> str:
    """``text`` with every marked figure set to the record's value (a marker right after a
    backtick is an example in a code span and is left alone).

    Args:
        text: a notebook's or README's text.
        figures: :func:`record_figures` of the record.
        notebook: the stem of the notebook ``text`` belongs to (bare names refer to its
            figures); None for README, where every name says its notebook.
        where: the file's name, for the error.

    Raises:
        ValueError: a marker names a figure the record does not hold (with file and line).

    Example:
        >>> fill_figures("in <!--q:leaks-->7<!--/q--> emails", {"04_enron": {"leaks": "19"}},
        ...              notebook="04_enron", where="04_enron.py")
        'in <!--q:leaks-->19<!--/q--> emails'
        >>> fill_figures("write `<!--q:x-->1<!--/q-->`", {}, notebook=None, where="README.md")
        'write `<!--q:x-->1<!--/q-->`'
    """
    def value(match: re.Match) -> str:
        key = match.group("key")
        source, _, name = key.rpartition(":")
        source = source or notebook
        found = figures.get(source or "", {}).get(name)
        if found is None:
            line = text.count("\n", 0, match.start()) + 1
            held = ", ".join(sorted(figures.get(source or "", {}))) or "none"
            raise invalid("record", _CALLER, f"a record that holds the figure {key!r} quoted at "
                          f"{where}:{line}", f"a record whose {source or '(no notebook)'} figures "
                          f"are: {held}",
                          "Run make demo again (the study may no longer print that figure), "
                          "or change the marker to a figure the study prints.",
                          given_is_text=True)
        return f"<!--q:{key}-->{found}<!--/q-->"

    return MARKER.sub(value, text)


def _fill_notebook_json(text: str, figures: dict[str, dict[str, str]], notebook: str,
                        where: str) -> str:
    """An ``.ipynb`` file's text with its markdown cells' figures filled (same layout)."""
    nb = json.loads(text)
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        filled = fill_figures(source, figures, notebook=notebook, where=where)
        if filled != source:
            cell["source"] = filled if isinstance(cell["source"], str) else filled.splitlines(True)
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def quoted_pages(root: Path, block_page: Path) -> list[Path]:
    """README and the Markdown pages of ``root/docs`` (all but ``block_page``), whose
    marked figures ``privlab quote`` writes."""
    pages = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    return [page for page in pages if page.is_file() and page.resolve() != block_page.resolve()]


def quoted_files(folder: Path) -> list[Path]:
    """The notebooks' two forms in ``folder``, whose marked figures ``privlab quote`` writes."""
    return sorted(folder.glob("[0-9][0-9]_*.py")) + sorted(folder.glob("[0-9][0-9]_*.ipynb"))


def _updated(path: Path, figures: dict[str, dict[str, str]], *, readme: bool = False,
             block: str | None = None) -> tuple[str, str]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise invalid("readme" if readme else "notebook", _CALLER, "a UTF-8 text file",
                      f"{path} ({exc})", "Pass the repository's README.md.",
                      given_is_text=True) from None
    if readme:
        new = fill_figures(replace_block(text, block), figures, notebook=None, where=path.name)
    elif path.suffix == ".ipynb":
        new = _fill_notebook_json(text, figures, path.stem, path.name)
    else:   # a notebook's .py source; README and docs pages name each figure's notebook
        new = fill_figures(text, figures, notebook=path.stem if path.suffix == ".py" else None,
                           where=path.name)
    return text, new


def run(args) -> int:
    """Write (or ``--check``) the headline block and every marked figure."""
    from privlab.config import home

    readme_path = args.readme or home() / "docs" / "headlines.md"
    records = [read_record(path) for path in args.record]
    record = records[0]
    figures = record_figures(*records)
    changes = [(readme_path, *_updated(readme_path, figures, readme=True,
                                       block=render_block(record)))]
    if args.readme is None:
        changes += [(path, *_updated(path, figures)) for path in quoted_pages(home(), readme_path)]
    notebooks = args.notebooks or (home() / "notebooks" if args.readme is None else None)
    if notebooks is not None:
        changes += [(path, *_updated(path, figures)) for path in quoted_files(notebooks)]
    differ = [(path, old, new) for path, old, new in changes if old != new]
    if args.check:
        if not differ:
            print(f"{readme_path.name} and the notebooks' marked figures match "
                  f"{', '.join(map(str, args.record))}")
            return 0
        for path, old, new in differ:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                       str(path), str(args.record[0])))
        return 1
    for path, _old, new in differ:
        path.write_text(new, encoding="utf-8")
    print(f"{readme_path.name}: headline block and figures written from "
          f"{', '.join(map(str, args.record))} "
          f"({len(differ)} file(s) changed)")
    return 0
