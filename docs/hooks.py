"""MkDocs hooks of privlab's documentation site (named in mkdocs.yml).

* The study notebooks become pages: the executed copies ``make demo`` left in
  ``reports/`` when they are there (outputs included), else the committed
  ``notebooks/NN_*.ipynb`` (no outputs). ``PRIVLAB_DOCS_NOTEBOOKS`` names another folder.
* Math is rendered by the MathJax 2 copy inside the ``jupyter-server-mathjax`` wheel,
  copied into ``site/assets/mathjax``; every page loads it by a relative path, so the
  built site renders math with the network off (no CDN).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
MATHJAX_DIR = "assets/mathjax"
PLACEHOLDER = "PRIVLAB_MATHJAX"   # mkdocs.yml's custom_mathjax_url for the notebook pages
# MathJax 2 options: the fonts the wheel ships (STIX-Web), no image fonts, no menu
# messages; arithmatex writes \( \) and \[ \] in elements of class "arithmatex".
_CONFIG = """<script>
window.MathJax = {
  "HTML-CSS": {availableFonts: [], preferredFont: null, webFont: "STIX-Web", imageFont: null},
  SVG: {font: "STIX-Web"},
  tex2jax: {inlineMath: [["\\\\(", "\\\\)"]], displayMath: [["\\\\[", "\\\\]"]],
            processEscapes: true},
  messageStyle: "none", showMathMenu: false
};
</script>"""


def _notebook_folder() -> Path:
    chosen = os.environ.get("PRIVLAB_DOCS_NOTEBOOKS")
    if chosen:
        return Path(chosen)
    reports = ROOT / "reports"
    return reports if any(reports.glob("[0-9][0-9]*_*.ipynb")) else ROOT / "notebooks"


def _notebooks() -> list[Path]:
    return sorted(_notebook_folder().glob("[0-9][0-9]*_*.ipynb"))


def _title(page: Path) -> str:
    """A Markdown page's first heading (its file name when it has none)."""
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return page.stem


def on_config(config):
    """List in the navigation what the folders hold: the notebooks under "Notebooks", each
    notebook's companion page under "Lessons", every decision record under "Decisions"."""
    docs = Path(config["docs_dir"])
    found = {
        "Notebooks": [{path.stem: f"notebooks/{path.name}"} for path in _notebooks()],
        "Lessons": [{_title(page): page.relative_to(docs).as_posix()}
                    for page in sorted((docs / "lessons").glob("*.md"))],
        "Decisions": [{_title(page): page.relative_to(docs).as_posix()}
                      for page in sorted((docs / "decisions").glob("2*.md"))],
    }
    nav = config["nav"] or []
    for name, entries in found.items():
        section = next((s for s in nav if isinstance(s, dict) and name in s), None)
        if section is None and entries:
            section = {name: []}
            nav.insert(len(nav) - 1 if name != "Decisions" else len(nav), section)
        if section is not None:
            listed = section[name] if isinstance(section[name], list) else [section[name]]
            section[name] = list(listed) + entries
    return config


@event_priority(100)   # before mkdocs-jupyter turns .ipynb files into pages
def on_files(files, config):
    """Add the notebooks (from outside docs/) as ``notebooks/NN_*.ipynb``.

    They are copied to a temporary folder first: mkdocs-jupyter needs a real source folder
    (``File.generated`` leaves it unset).
    """
    staging = Path(tempfile.mkdtemp(prefix="privlab-docs-"))
    (staging / "notebooks").mkdir()
    for path in _notebooks():
        # An executed copy keeps its widgets' state, whose page would fetch the widget
        # manager from a CDN; privlab demo has already copied a panel's outputs into the
        # cells (privlab.ui.static.inline_widget_outputs), so the state is left out.
        nb = json.loads(path.read_text(encoding="utf-8"))
        nb.get("metadata", {}).pop("widgets", None)
        (staging / "notebooks" / path.name).write_text(json.dumps(nb), encoding="utf-8")
        files.append(File(f"notebooks/{path.name}", str(staging), config["site_dir"],
                          config["use_directory_urls"]))
    return files


#: A Sphinx role left in a rendered docstring (mkdocstrings reads Google style, not reST).
_ROLE = re.compile(r":(?:func|mod|class|meth|data|attr|exc):(?=<code>|[\w~])")


def _mathjax_url(page) -> str:
    depth = page.url.count("/") if page.url else 0
    return "../" * depth + f"{MATHJAX_DIR}/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"


def on_post_page(output, page, config):
    """Load the local MathJax on every page that has math (notebooks: in their own place);
    show the docstrings' Sphinx roles (``:func:`name```) as plain code."""
    output = _ROLE.sub("", output).replace("<code>~", "<code>")
    url = _mathjax_url(page)
    if PLACEHOLDER in output:
        return output.replace(PLACEHOLDER, url).replace("<head>", "<head>\n" + _CONFIG, 1)
    if 'class="arithmatex"' not in output:
        return output
    scripts = f'{_CONFIG}\n<script src="{url}"></script>\n'
    return re.sub(r"</head>", lambda _: scripts + "</head>", output, count=1)


def on_post_build(config):
    """Copy MathJax from the jupyter-server-mathjax wheel into the site."""
    import jupyter_server_mathjax

    source = Path(jupyter_server_mathjax.__file__).parent / "static"
    target = Path(config["site_dir"]) / MATHJAX_DIR
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target)
