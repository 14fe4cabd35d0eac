"""``privlab resolution``: the exact test on saved embeddings, for scripted audits.

    privlab resolution --audited S.npy --references T.npy --top-k 5 --json

``--audited`` holds S (unit rows of sanitized audited items); ``--references`` holds T
(rows E(y) - E(X_c(y))), or use ``--reference-originals`` and
``--reference-sanitized`` to have T built from the two embedding files.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np


def register(subparsers) -> None:
    """Add the ``resolution`` subcommand."""
    parser = subparsers.add_parser(
        "resolution", help="exact resolution and decisive witness from .npy embeddings",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--audited", required=True, type=Path,
                        help=".npy file, (m, d) unit rows E(X_c(x)) of the audited items")
    refs = parser.add_mutually_exclusive_group(required=True)
    refs.add_argument("--references", type=Path,
                      help=".npy file, (n, d) rows E(y) - E(X_c(y))")
    refs.add_argument("--reference-originals", type=Path,
                      help=".npy file, (n, d) unit rows E(y); needs --reference-sanitized")
    parser.add_argument("--reference-sanitized", type=Path,
                        help=".npy file, (n, d) unit rows E(X_c(y))")
    parser.add_argument("--top-k", type=int, default=5, help="largest trials to list (default 5)")
    parser.add_argument("--normalize", action="store_true",
                        help="normalise audited rows instead of refusing non-unit rows")
    parser.add_argument("--dtype", choices=["float32", "float64"], default="float32")
    parser.add_argument("--device", default=None, help="cpu or cuda (default: cuda if available)")
    parser.add_argument("--block-size", type=int, default=None)
    parser.add_argument("--json", action="store_true", help="print every field as JSON")
    parser.set_defaults(handler=run)


def _load(path: Path, option: str) -> np.ndarray:
    if not path.is_file():
        raise FileNotFoundError(f"The '{option}' file {path} does not exist.")
    try:
        return np.load(path, allow_pickle=False)
    except ValueError as exc:
        raise ValueError(f"The '{option}' file {path} is not a NumPy .npy array: {exc}") from exc


def run(args) -> int:
    """Execute the subcommand; prints JSON or a short report."""
    from privlab.resolution import DEFAULT_BLOCK_SIZE, reference_directions, resolution

    S = _load(args.audited, "--audited")
    if args.references is not None:
        T = _load(args.references, "--references")
    else:
        if args.reference_sanitized is None:
            raise ValueError("The '--reference-sanitized' option is required with "
                             "--reference-originals. Pass the .npy of E(X_c(y)).")
        T = reference_directions(_load(args.reference_originals, "--reference-originals"),
                                 _load(args.reference_sanitized, "--reference-sanitized"))
    res = resolution(S, T, top_k=args.top_k, normalize=args.normalize, dtype=args.dtype,
                     device=args.device, block_size=args.block_size or DEFAULT_BLOCK_SIZE)
    if args.json:
        print(json.dumps(res.to_dict()))
    else:
        i, j = res.witness
        print(f"resolution {res.value:.6f} (max difference {res.max_difference:+.6f}); "
              f"decisive witness: audited {i} vs reference {j}")
        for i, j, v in res.top:
            print(f"  audited {i:>6}  reference {j:>6}  difference {v:+.6f}")
    return 0
