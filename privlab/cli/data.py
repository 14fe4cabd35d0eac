"""``privlab data paper PATH`` and ``privlab data spia PATH``: the papers' own data, laid out.

``paper`` takes a checkout of the contrastive-privacy authors' repository and lays out its
DiCaprio, McDonald's, Avengers and concept sets in privlab's data folder for notebooks 01,
02, 03 and 09; ``spia`` does the same with a checkout of the SPIA repository for notebook
08 (:mod:`privlab.datasets.paper`). Each prints what it laid out and the settings that run
each notebook on it (``Config(**paper_settings("01"))`` in a notebook).
"""

from __future__ import annotations

from pathlib import Path


def register(subparsers) -> None:
    """Add the ``data`` subcommand and its ``paper`` and ``spia`` verbs."""
    parser = subparsers.add_parser("data", help="lay out the papers' own data from a checkout")
    verbs = parser.add_subparsers(dest="what", metavar="WHAT")
    verbs.required = True
    for name, text in (("paper", "a checkout of github.com/umass-forensics/contrastive-privacy "
                                 "(notebooks 01, 02, 03, 09)"),
                       ("spia", "a checkout of github.com/maisonOP/spia (notebook 08)")):
        verb = verbs.add_parser(name, help=f"lay out {text}")
        verb.add_argument("path", type=Path, help="the checkout's folder")
        verb.add_argument("--to", type=Path, default=None, dest="target",
                          help=f"where to lay it out (default: <privlab home>/data/{name})")
        verb.add_argument("--copy", action="store_true",
                          help="copy the files (default: symbolic links into the checkout)")
    parser.set_defaults(handler=run)


def run(args) -> int:
    """Lay out the checkout and print the layout and each notebook's settings."""
    from privlab.datasets.paper import lay_out, lay_out_spia

    build = lay_out if args.what == "paper" else lay_out_spia
    layout = build(args.path, args.target, mode="copy" if args.copy else "link")
    for line in layout.lines():
        print(line)
    print("in a notebook: from privlab.datasets.paper import paper_settings; "
          "config = Config(**paper_settings('NN'))")
    return 0
