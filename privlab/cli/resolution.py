"""``privlab resolution``: the exact test on saved embeddings, for scripted audits.

    privlab resolution --audited S.npy --references T.npy --top-k 5 --json

``--audited`` holds S (unit rows of sanitized audited items); ``--references`` holds T
(rows E(y) - E(X_c(y))), or use ``--reference-originals`` and
``--reference-sanitized`` to have T built from the two embedding files.
"""

from __future__ import annotations

import argparse
import json
import math
import stat
from pathlib import Path

import numpy as np

from privlab.arrays import FLOAT64_FIX, FLOAT64_RANGE, beyond_float64
from privlab.errors import invalid


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
    parser.add_argument("--top-k", type=_count(0), default=5,
                        help="largest trials to list (default 5; 0 for none)")
    parser.add_argument("--normalize", action="store_true",
                        help="normalise the audited rows (and --reference-originals and "
                             "--reference-sanitized) instead of refusing non-unit rows")
    parser.add_argument("--dtype", choices=["float32", "float64"], default="float32")
    parser.add_argument("--device", default=None, help="cpu or cuda (default: cuda if available)")
    parser.add_argument("--block-size", type=_count(1), default=None,
                        help="rows per block, a positive integer (memory and speed only)")
    parser.add_argument("--json", action="store_true", help="print every field as JSON")
    parser.set_defaults(handler=run)


def _count(minimum: int):
    """An argparse type: an integer of at least ``minimum``, refused in one line."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < minimum:
            raise argparse.ArgumentTypeError(f"must be an integer >= {minimum}; got {text!r}")
        return value

    return parse


_CALLER = "privlab resolution"
_NPY_MAGIC = b"\x93NUMPY"
_SAVE_HINT = "Save the embeddings with numpy.save(path, array) from a float array."


def _load(path: Path, option: str) -> np.ndarray:
    """The 2-D real array in the .npy file ``path``, or a refusal naming ``option`` and
    the file (missing, a directory, not a regular file, unreadable, empty, not .npy,
    pickled, truncated)."""
    _check_npy_file(path, option)
    _check_npy_header(path, option)
    try:
        array = np.load(path, allow_pickle=False)
    except OSError as exc:
        raise _unreadable(path, option, exc) from exc
    except (EOFError, ValueError) as exc:
        reason = ("it holds pickled Python objects, which are never loaded"
                  if "allow_pickle" in str(exc) else f"it is truncated or damaged: {exc}")
        raise invalid(option, _CALLER, "a readable NumPy .npy array", f"{path} ({reason})",
                      _SAVE_HINT, given_is_text=True) from exc
    if array.dtype.kind not in "fiub":
        raise invalid(option, _CALLER, "a .npy file of real numbers",
                      f"{path} holding dtype {array.dtype}",
                      "Embeddings are float arrays (complex, text and records are refused).",
                      given_is_text=True)
    if array.ndim != 2:
        raise invalid(option, _CALLER, "a .npy file of shape (rows, d)",
                      f"{path} holding shape {array.shape}", "Stack one embedding per row.",
                      given_is_text=True)
    if array.dtype.kind == "f" and array.dtype.itemsize > 8:
        where = beyond_float64(array)
        if where is not None:
            raise invalid(option, _CALLER, f"a .npy file {FLOAT64_RANGE}", f"{path} holding a "
                          f"{where}", FLOAT64_FIX, given_is_text=True)
        array = array.astype(np.float64)
    return array


def _check_npy_header(path: Path, option: str) -> None:
    """Refuse a .npy file whose header promises more data than the file holds (before
    anything is allocated: a damaged header may claim 10**12 rows)."""
    try:
        with path.open("rb") as handle:
            version = np.lib.format.read_magic(handle)
            # Versions 2 and 3 share a header layout (3 allows UTF-8 field names).
            read = np.lib.format.read_array_header_1_0 if version == (1, 0) else \
                np.lib.format.read_array_header_2_0
            shape, _, dtype = read(handle)
            offset = handle.tell()
    except OSError as exc:
        raise _unreadable(path, option, exc) from exc
    except (EOFError, ValueError) as exc:
        raise invalid(option, _CALLER, "a readable NumPy .npy array",
                      f"{path} (it is truncated or damaged: {exc})", _SAVE_HINT,
                      given_is_text=True) from exc
    if dtype.hasobject:
        return  # refused by np.load itself, without reading the data
    needed = math.prod(shape) * dtype.itemsize
    held = path.stat().st_size - offset
    if needed > held:
        raise invalid(option, _CALLER, "a readable NumPy .npy array",
                      f"{path} (it is truncated or damaged: its header promises shape {shape} "
                      f"of {dtype}, {needed:,} bytes of data, but the file holds {held:,})",
                      _SAVE_HINT, given_is_text=True)
    if needed < held:  # np.load would read the first array and ignore the rest
        raise invalid(option, _CALLER, "a .npy file holding one array",
                      f"{path} ({held - needed:,} bytes after the array of shape {shape}: a "
                      "second array appended, or trailing data)",
                      "Save one array per file with numpy.save(path, array) (np.save on an "
                      "open file twice appends a second array).", given_is_text=True)


_SPECIAL_FILES = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"),
                  (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def _check_npy_file(path: Path, option: str) -> None:
    """Refuse a path that is not an existing, readable regular file starting like a .npy
    file. A named pipe, socket or device is refused before it is opened: reading one
    could wait forever for a writer."""
    if path.is_dir():
        raise invalid(option, _CALLER, "a .npy file", f"{path} (a directory)",
                      "Name the .npy file itself.", given_is_text=True)
    if not path.exists():
        raise invalid(option, _CALLER, "an existing .npy file", f"{path} (it does not exist)",
                      given_is_text=True)
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise _unreadable(path, option, exc) from exc
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _SPECIAL_FILES if test(mode)), "not a regular file")
        raise invalid(option, _CALLER, "a regular .npy file", f"{path} ({kind})",
                      "Save the array to a file with numpy.save and name that file; pipes, "
                      "sockets and devices are not read.", given_is_text=True)
    try:
        with path.open("rb") as handle:
            head = handle.read(len(_NPY_MAGIC))
    except OSError as exc:  # permission denied, a device that cannot be read ...
        raise _unreadable(path, option, exc) from exc
    if not head:
        raise invalid(option, _CALLER, "a NumPy .npy file", f"{path} (empty: 0 bytes)",
                      _SAVE_HINT, given_is_text=True)
    if head != _NPY_MAGIC:
        kind = "a .npz archive" if head.startswith(b"PK") else "a file of another kind"
        raise invalid(option, _CALLER, "a NumPy .npy file", f"{path} ({kind}: no .npy signature)",
                      _SAVE_HINT, given_is_text=True)


def _unreadable(path: Path, option: str, exc: OSError) -> ValueError:
    return invalid(option, _CALLER, "a readable .npy file",
                   f"{path} (it cannot be read: {exc.strerror or exc})", given_is_text=True)


def _as_options(exc: ValueError) -> ValueError:
    """``reference_directions``'s refusal, naming the command's options, not its own."""
    message = str(exc).replace("The 'E_ref' parameter of reference_directions",
                               "The '--reference-originals' option of privlab resolution")
    message = message.replace("The 'E_ref_sanitized' parameter of reference_directions",
                              "The '--reference-sanitized' option of privlab resolution")
    message = message.replace("Pass normalize=True to normalise them.",
                              "Pass --normalize to normalise them.")
    return type(exc)(message)


def run(args) -> int:
    """Execute the subcommand; prints JSON or a short report."""
    from privlab.resolution import DEFAULT_BLOCK_SIZE, reference_directions, resolution

    if args.references is not None and args.reference_sanitized is not None:
        raise invalid("--reference-sanitized", _CALLER, "used only with --reference-originals",
                      f"it with --references {args.references}",
                      "Pass either --references or both --reference-* files.",
                      given_is_text=True)
    S = _load(args.audited, "--audited")
    if args.references is not None:
        T = _load(args.references, "--references")
    else:
        if args.reference_sanitized is None:
            raise invalid("--reference-sanitized", _CALLER, "given with --reference-originals",
                          "nothing", "Pass the .npy of E(X_c(y)).", given_is_text=True)
        originals = _load(args.reference_originals, "--reference-originals")
        sanitized = _load(args.reference_sanitized, "--reference-sanitized")
        try:
            T = reference_directions(originals, sanitized, normalize=args.normalize)
        except ValueError as exc:  # named by the options the user typed
            raise _as_options(exc) from None
    res = resolution(S, T, top_k=args.top_k, normalize=args.normalize, dtype=args.dtype,
                     device=args.device,
                     block_size=DEFAULT_BLOCK_SIZE if args.block_size is None else args.block_size)
    if args.json:
        print(json.dumps(res.to_dict()))
    else:
        # Six significant digits: a tiny positive resolution must not print as zero.
        i, j = res.witness
        print(f"resolution {res.value:.6g} (max difference {res.max_difference:+.6g}); "
              f"decisive witness: audited {i} vs reference {j}")
        for i, j, v in res.top:
            print(f"  audited {i:>6}  reference {j:>6}  difference {v:+.6g}")
    return 0
