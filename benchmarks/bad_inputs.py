"""Bad inputs and faults, run one by one and classified: does privlab refuse them clearly?

    PYTHONPATH=$PWD python benchmarks/bad_inputs.py [--timeout 20] [--only AREA] [-v]

Each case builds a bad input (small arrays, files in a scratch folder, a scripted LLM
server on loopback, command lines) and calls one public entry of privlab in a forked
child process with a timeout, capturing its result, exception, warnings, log records
and (for command lines) exit status and standard error. The outcome is classified:

* ``refused``   a privlab error (PrivlabValueError, PrivlabTypeError, an LLMError, ...)
                or, on the command line, exit status 2 with one line on stderr (Python's
                own TypeError for an unknown keyword argument names it, and counts here);
* ``handled``   a result where one is fine, with the problem said (a warning, a skipped
                list) when the case expects that;
* ``traceback`` any other exception type, or a command line ending in a Traceback;
* ``silent``    a result where the case expects a refusal, or a result that fails the
                case's own check (data lost or converted without a word);
* ``leak``      a secret of the case in any form (raw, JSON-escaped, percent-encoded,
                base64, or a 12-character piece of it) in the message, the warnings,
                the logs, stderr or a file the case names (a cache);
* ``hang``      no answer within the timeout (the child is killed).

It prints the count of each class and every case that is not ``refused`` or ``handled``.
Exit status 1 when there is any leak, hang or silent case, or more than 5 tracebacks.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import io
import json
import logging
import multiprocessing
import os
import sys
import tempfile
import time
import traceback
import urllib.parse
import warnings
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

CLASSES = ("refused", "handled", "traceback", "silent", "leak", "hang")
CLEAN = ("refused", "handled")


@dataclass
class Case:
    name: str
    area: str
    call: Callable[[Path], Any]
    # "refuse": only a clear refusal is right; "handle": a result is fine (check()
    # may still find it silent); "either": a refusal or a result.
    expect: str = "refuse"
    check: Callable[[Any, list[str]], str | None] | None = None
    secrets: tuple[str, ...] = ()
    cli: bool = False
    files: tuple[str, ...] = ()  # files (relative to the scratch folder) searched for secrets
    env: dict[str, str] = field(default_factory=dict)


CASES: list[Case] = []


def case(name, area, expect="refuse", check=None, secrets=(), cli=False, files=(), env=None):
    def register(fn):
        CASES.append(Case(name, area, fn, expect, check, tuple(secrets), cli, tuple(files),
                          dict(env or {})))
        return fn
    return register


def add(name, area, fn, expect="refuse", **kw):
    case(name, area, expect, **kw)(fn)


# ---------------------------------------------------------------------------------------
# helpers
def unit(a) -> np.ndarray:
    a = np.asarray(a, dtype=np.float64)
    return a / np.linalg.norm(a, axis=1, keepdims=True)


RNG = np.random.default_rng(19)
S = unit(RNG.standard_normal((6, 4)))
T = RNG.standard_normal((5, 4)) * 0.3


def write(tmp: Path, name: str, data: bytes | str) -> Path:
    path = tmp / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def save_npy(tmp: Path, name: str, array) -> Path:
    path = tmp / name
    np.save(path, array, allow_pickle=True)
    return path


def cli(*argv: str):
    """Marker: the case runs ``privlab <argv>`` (paths with {tmp} filled in)."""
    return ("cli", argv)


def secret_forms(secret: str) -> list[str]:
    forms = {secret, json.dumps(secret)[1:-1], urllib.parse.quote(secret, safe=""),
             base64.b64encode(secret.encode()).decode().rstrip("="),
             base64.b64encode(f"user:{secret}".encode()).decode().rstrip("=")}
    if len(secret) >= 16:
        forms |= {secret[i:i + 12] for i in range(0, len(secret) - 11, 4)}
    return [f for f in forms if f]


# ---------------------------------------------------------------------------------------
# running one case in a child
def _child(case_: Case, tmp: Path, conn) -> None:
    os.chdir(tmp)
    for k, v in case_.env.items():
        os.environ[k] = v.replace("{tmp}", str(tmp))
    logs = io.StringIO()
    handler = logging.StreamHandler(logs)
    logging.getLogger().addHandler(handler)
    logging.getLogger().setLevel(logging.DEBUG)
    out: dict[str, Any] = {"warnings": []}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = case_.call(tmp)
            if isinstance(result, tuple) and len(result) == 2 and isinstance(result[0], str) \
                    and result[0] == "cli":
                out.update(_run_cli(result[1], tmp))
            else:
                out["kind"] = "result"
                out["result"] = result
                out["repr"] = _safe_repr(result)
        except BaseException as exc:  # noqa: BLE001 - everything is classified
            out["kind"] = "exception"
            out["type"] = f"{type(exc).__module__}.{type(exc).__qualname__}"
            out["message"] = str(exc)
            out["trace"] = traceback.format_exc()
    out["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught]
    out["logs"] = logs.getvalue()
    if out.get("kind") == "result":
        try:
            out["problem"] = case_.check(out.pop("result"), out["warnings"]) if case_.check else None
        except BaseException as exc:  # noqa: BLE001
            out["problem"] = f"the case's check failed: {type(exc).__name__}: {exc}"
    out.pop("result", None)
    try:
        conn.send(out)
    except Exception as exc:  # noqa: BLE001 - an unpicklable field
        conn.send({"kind": "exception", "type": "harness", "message": repr(exc),
                   "warnings": [], "logs": ""})


def _safe_repr(value) -> str:
    try:
        return repr(value)[:2000]
    except Exception:  # noqa: BLE001
        return "<no repr>"


def _run_cli(argv, tmp: Path) -> dict:
    from privlab.cli.main import main

    argv = [a.replace("{tmp}", str(tmp)) for a in argv]
    err_path, out_path = tmp / ".stderr", tmp / ".stdout"
    saved = os.dup(2), os.dup(1)
    with open(err_path, "wb") as err, open(out_path, "wb") as out:
        os.dup2(err.fileno(), 2)
        os.dup2(out.fileno(), 1)
        sys.stderr = io.TextIOWrapper(os.fdopen(os.dup(2), "wb"), write_through=True)
        sys.stdout = io.TextIOWrapper(os.fdopen(os.dup(1), "wb"), write_through=True)
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:  # noqa: BLE001 - what python -m privlab would print
            traceback.print_exc()
            code = 1
        finally:
            sys.stderr.flush()
            sys.stdout.flush()
            os.dup2(saved[0], 2)
            os.dup2(saved[1], 1)
            sys.stderr, sys.stdout = sys.__stderr__, sys.__stdout__
    return {"kind": "cli", "code": code, "stderr": err_path.read_text(errors="replace"),
            "stdout": out_path.read_text(errors="replace")[:4000]}


def classify(case_: Case, out: dict | None, tmp: Path) -> tuple[str, str]:
    if out is None:
        return "hang", "no answer within the timeout"
    texts = [out.get("message", ""), out.get("stderr", ""), out.get("stdout", ""),
             out.get("repr", ""), out.get("logs", ""), *out.get("warnings", []),
             out.get("trace", "") if out.get("kind") == "exception" else ""]
    for rel in case_.files:
        for path in tmp.glob(rel):
            if path.is_file():
                texts.append(path.read_bytes().decode("latin-1"))
    for secret in case_.secrets:
        for form in secret_forms(secret):
            if any(form in t for t in texts):
                return "leak", f"the secret appears (as {form[:6]}...)"
    if out["kind"] == "exception":
        kind = out["type"]
        first = (out["message"].splitlines() or [""])[0][:200]
        # Python's own TypeError for an unknown or missing keyword names the parameter
        keyword = kind == "builtins.TypeError" and ("unexpected keyword argument" in first
                                                     or "missing 1 required" in first)
        if kind.startswith("privlab.") or keyword:
            if case_.expect == "handle":
                return "silent", f"refused a valid input: {kind}: {first}"
            return "refused", f"{kind.rsplit('.', 1)[1]}: {first}"
        return "traceback", f"{kind}: {first}"
    if out["kind"] == "cli":
        err = out["stderr"].strip()
        if "Traceback (most recent call last)" in err:
            return "traceback", "exit %s: %s" % (out["code"], err.splitlines()[-1][:200])
        if out["code"] == 2:
            lines = err.splitlines()
            if len(lines) != 1:
                return "traceback", f"exit 2 with {len(lines)} lines on stderr: {err[:200]}"
            if case_.expect == "handle":
                return "silent", f"refused a valid input: {lines[0][:200]}"
            return "refused", lines[0][:200]
        if out["code"] == 0:
            if case_.expect == "refuse":
                return "silent", f"exit 0 where a refusal was expected: {err[:150]}"
            return "handled", f"exit 0 {err[:100]}"
        return "traceback", f"exit {out['code']}: {err[:200]}"
    # a result
    if case_.expect == "refuse":
        return "silent", f"returned {out.get('repr', '')[:150]}"
    if out.get("problem"):
        return "silent", out["problem"]
    return "handled", "; ".join(out["warnings"])[:200]


def run_case(case_: Case, timeout: float) -> tuple[str, str, float]:
    ctx = multiprocessing.get_context("fork")
    with tempfile.TemporaryDirectory(prefix="privlab-bad-") as scratch:
        tmp = Path(scratch)
        (tmp / "cache").mkdir()
        os.environ["PRIVLAB_CACHE"] = str(tmp / "cache")
        os.environ["PRIVLAB_HOME"] = str(tmp / "home")
        parent, child = ctx.Pipe(duplex=False)
        start = time.monotonic()
        proc = ctx.Process(target=_child, args=(case_, tmp, child), daemon=True)
        proc.start()
        child.close()
        out = None
        if parent.poll(timeout):
            try:
                out = parent.recv()
            except EOFError:
                out = {"kind": "exception", "type": "crash",
                       "message": f"the child died (exit {proc.exitcode})", "warnings": []}
        proc.join(2)
        if proc.is_alive():
            proc.kill()
            proc.join()
        if out is None and proc.exitcode is not None and proc.exitcode != -9 and \
                time.monotonic() - start < timeout:
            out = {"kind": "exception", "type": "crash",
                   "message": f"the child died (exit {proc.exitcode})", "warnings": []}
        verdict, detail = classify(case_, out, tmp)
        return verdict, detail, time.monotonic() - start


# ---------------------------------------------------------------------------------------
# the cases
# ---- kernel: privlab.resolution -------------------------------------------------------
def _kernel_cases():
    import importlib

    R = importlib.import_module("privlab.resolution")

    res, ref, sym = R.resolution, R.reference_directions, R.symmetric_resolution
    bad_arrays = {
        "float128 holding 1e400": lambda: np.full((2, 4), np.longdouble("1e400")),
        "longdouble tiny values": lambda: np.full((2, 4), np.longdouble("1e-4000")),
        "masked array": lambda: np.ma.masked_array(S, mask=np.eye(6, 4, dtype=bool)),
        "np.matrix": lambda: np.matrix(S),
        "3-D array": lambda: S[None],
        "1-D vector": lambda: S[0],
        "0-D scalar": lambda: np.float64(1.0),
        "empty (0, 4)": lambda: np.zeros((0, 4)),
        "zero width (3, 0)": lambda: np.zeros((3, 0)),
        "bool array": lambda: S > 0,
        "int8 array": lambda: (S * 10).astype(np.int8),
        "datetime array": lambda: np.zeros((2, 4), dtype="datetime64[s]"),
        "timedelta array": lambda: np.zeros((2, 4), dtype="timedelta64[s]"),
        "bytes array": lambda: np.array([[b"a", b"b", b"c", b"d"]]),
        "dict": lambda: {"a": 1},
        "set of floats": lambda: {1.0, 2.0},
        "generator": lambda: (r for r in S),
        "pandas DataFrame with text column": lambda: __import__("pandas").DataFrame(
            {"a": ["x", "y"], "b": [1.0, 2.0], "c": [0.1, 0.2], "d": [0.0, 1.0]}),
        "inf row": lambda: np.vstack([S[:2], np.full((1, 4), np.inf)]),
        "-inf T": lambda: np.full((2, 4), -np.inf),
        "float16 overflow": lambda: np.full((2, 4), 7e4).astype(np.float16),
        "torch meta tensor": lambda: __import__("torch").empty((2, 4), device="meta"),
        "scipy sparse": lambda: __import__("scipy.sparse").sparse.csr_matrix(S),
        "list of tuples of str numbers": lambda: [("0.1", "0.2", "0.3", "0.4")],
        "nested None": lambda: [[None] * 4],
        "huge int values": lambda: np.full((2, 4), 2**62, dtype=np.int64),
        "object array of Decimals": lambda: np.array([[__import__("decimal").Decimal(1)] * 4],
                                                     dtype=object),
    }
    for label, make in bad_arrays.items():
        add(f"resolution S = {label}", "kernel", lambda tmp, make=make: res(make(), T))
        if label in ("masked array", "np.matrix", "inf row", "float128 holding 1e400",
                     "empty (0, 4)", "scipy sparse", "torch meta tensor"):
            add(f"resolution T = {label}", "kernel", lambda tmp, make=make: res(S, make()))
    add("resolution non-unit S without normalize", "kernel", lambda tmp: res(S * 3, T))
    add("resolution normalize='no'", "kernel", lambda tmp: res(S * 3, T, normalize="no"))
    add("resolution normalize=1.5", "kernel", lambda tmp: res(S, T, normalize=1.5))
    add("resolution zero row with normalize", "kernel",
        lambda tmp: res(np.vstack([S, np.zeros((1, 4))]), T, normalize=True))
    add("resolution top_k=None", "kernel", lambda tmp: res(S, T, top_k=None))
    add("resolution top_k=1e3 float", "kernel", lambda tmp: res(S, T, top_k=1e3))
    add("resolution block_size='64'", "kernel", lambda tmp: res(S, T, block_size="64"))
    add("resolution block_size=(4,)", "kernel", lambda tmp: res(S, T, block_size=(4,)))
    add("resolution block_size=2**70", "kernel", lambda tmp: res(S, T, block_size=2**70),
        expect="either")
    add("resolution dtype=np.float64 (type)", "kernel", lambda tmp: res(S, T, dtype=np.float64),
        expect="either")
    add("resolution device=0", "kernel", lambda tmp: res(S, T, device=0))
    add("resolution device='cuda' without a GPU", "kernel", lambda tmp: res(S, T, device="cuda"),
        expect="either")
    add("resolution unknown keyword", "kernel", lambda tmp: res(S, T, topk=3))
    add("resolution S and T as strings", "kernel", lambda tmp: res("S.npy", "T.npy"))
    add("resolution d mismatch 4 vs 5", "kernel", lambda tmp: res(S, np.ones((2, 5))))
    add("reference_directions shape mismatch", "kernel",
        lambda tmp: ref(S, S[:3]))
    add("reference_directions NaN", "kernel",
        lambda tmp: ref(S, np.where(S > 0.5, np.nan, S)))
    add("reference_directions normalize='yes'", "kernel",
        lambda tmp: ref(S, S, normalize="yes"))
    add("reference_directions identical rows (zero T)", "kernel",
        lambda tmp: res(S, ref(S, S)), expect="either",
        check=lambda r, w: None if float(r.value) == float(r.value) else "NaN resolution")
    add("symmetric_resolution unequal rows", "kernel", lambda tmp: sym(S, S[:4]))
    add("symmetric_resolution bad kwarg", "kernel", lambda tmp: sym(S, S, bogus=1))
    add("brute_force_resolution top_k=-2", "kernel",
        lambda tmp: R.brute_force_resolution(S, T, top_k=-2))
    add("brute_force_resolution string rows", "kernel",
        lambda tmp: R.brute_force_resolution([["a"] * 4], T))


# ---- certified path: privlab.scale ----------------------------------------------------
def _certified_cases():
    from privlab.scale import certified_resolution as cr

    def value_ok(r, w):
        if r.value is None or not np.isfinite(r.value):
            return f"value {r.value!r}"
        return None

    add("certified mode='min'", "certified", lambda tmp: cr(S, T, mode="min"))
    add("certified mode=None", "certified", lambda tmp: cr(S, T, mode=None))
    add("certified delta=-0.1", "certified", lambda tmp: cr(S, T, delta=-0.1))
    add("certified delta=nan", "certified", lambda tmp: cr(S, T, delta=float("nan")))
    add("certified delta='0.1'", "certified", lambda tmp: cr(S, T, delta="0.1"))
    add("certified delta=5", "certified", lambda tmp: cr(S, T, delta=5.0), expect="either",
        check=value_ok)
    add("certified bound='l2'", "certified", lambda tmp: cr(S, T, bound="l2"))
    add("certified clusters=0", "certified", lambda tmp: cr(S, T, clusters=0))
    add("certified clusters=-1", "certified", lambda tmp: cr(S, T, clusters=-1))
    add("certified clusters=100 > n", "certified", lambda tmp: cr(S, T, clusters=100),
        expect="either", check=value_ok)
    add("certified clusters=2.5", "certified", lambda tmp: cr(S, T, clusters=2.5))
    add("certified seed=-1", "certified", lambda tmp: cr(S, T, seed=-1))
    add("certified seed=2**40", "certified", lambda tmp: cr(S, T, seed=2**40))
    add("certified seed='1'", "certified", lambda tmp: cr(S, T, seed="1"))
    add("certified top_k=-1", "certified", lambda tmp: cr(S, T, top_k=-1))
    add("certified client='local'", "certified", lambda tmp: cr(S, T, client="local"))
    add("certified masked T", "certified",
        lambda tmp: cr(S, np.ma.masked_array(T, mask=T > 0)))
    add("certified complex S", "certified", lambda tmp: cr(S.astype(complex), T))
    add("certified NaN S", "certified", lambda tmp: cr(np.full((2, 4), np.nan), T))
    add("certified empty T", "certified", lambda tmp: cr(S, np.zeros((0, 4))))
    add("certified dtype='int8'", "certified", lambda tmp: cr(S, T, dtype="int8"))
    add("certified block_size=0", "certified", lambda tmp: cr(S, T, block_size=0))
    add("certified longdouble 1e400", "certified",
        lambda tmp: cr(np.full((2, 4), np.longdouble("1e400")), T))
    add("certified per_audited on one row", "certified",
        lambda tmp: cr(S[:1], T, mode="per_audited"), expect="handle", check=value_ok)
    add("certified dask with unknown chunks", "certified",
        lambda tmp: cr(__import__("dask.array").array.from_array(S, chunks=3)[
            __import__("dask.array").array.from_array(S[:, 0] > -2, chunks=3)], T))


# ---- the command line ----------------------------------------------------------------
def _cli_cases():
    def files(tmp, s=S, t=T):
        np.save(tmp / "S.npy", s)
        np.save(tmp / "T.npy", t)

    def with_files(*argv, s=S, t=T):
        def run(tmp):
            files(tmp, s, t)
            return cli(*argv)
        return run

    base = ("resolution", "--audited", "{tmp}/S.npy", "--references", "{tmp}/T.npy")
    add("cli resolution missing file", "cli", with_files("resolution", "--audited",
        "{tmp}/nope.npy", "--references", "{tmp}/T.npy"))
    add("cli resolution folder as file", "cli", with_files("resolution", "--audited", "{tmp}",
        "--references", "{tmp}/T.npy"))
    add("cli resolution text file as npy", "cli",
        lambda tmp: (write(tmp, "S.npy", "hello"), np.save(tmp / "T.npy", T),
                     cli(*base))[-1])
    add("cli resolution truncated npy", "cli",
        lambda tmp: (np.save(tmp / "S.npy", S), write(tmp, "S.npy", (tmp / "S.npy").read_bytes()[:90]),
                     np.save(tmp / "T.npy", T), cli(*base))[-1])
    add("cli resolution npy header claiming 10^12 rows", "cli",
        lambda tmp: (np.save(tmp / "S.npy", S), write(tmp, "S.npy", (tmp / "S.npy").read_bytes()
                     .replace(b"(6, 4)", b"(1000000000000, 4)")), np.save(tmp / "T.npy", T),
                     cli(*base))[-1])
    add("cli resolution pickled object npy", "cli",
        lambda tmp: (save_npy(tmp, "S.npy", np.array([{"a": 1}], dtype=object)),
                     np.save(tmp / "T.npy", T), cli(*base))[-1])
    add("cli resolution npz given", "cli",
        lambda tmp: (np.savez(tmp / "S.npz", S=S), np.save(tmp / "T.npy", T),
                     cli("resolution", "--audited", "{tmp}/S.npz", "--references",
                         "{tmp}/T.npy"))[-1])
    add("cli resolution unit check fails", "cli", with_files(*base, s=S * 2))
    add("cli resolution 1-D npy", "cli", with_files(*base, s=S[0]))
    add("cli resolution --top-k -3", "cli", with_files(*base, "--top-k", "-3"))
    add("cli resolution --top-k abc", "cli", with_files(*base, "--top-k", "abc"))
    add("cli resolution --block-size 0", "cli", with_files(*base, "--block-size", "0"))
    add("cli resolution --block-size 1.5", "cli", with_files(*base, "--block-size", "1.5"))
    add("cli resolution --device quantum", "cli", with_files(*base, "--device", "quantum"))
    add("cli resolution --dtype float16", "cli", with_files(*base, "--dtype", "float16"))
    add("cli resolution both reference modes", "cli", with_files(*base,
        "--reference-originals", "{tmp}/S.npy"))
    add("cli resolution originals without sanitized", "cli", with_files(
        "resolution", "--audited", "{tmp}/S.npy", "--reference-originals", "{tmp}/S.npy"))
    add("cli resolution sanitized without originals", "cli", with_files(
        "resolution", "--audited", "{tmp}/S.npy", "--references", "{tmp}/T.npy",
        "--reference-sanitized", "{tmp}/S.npy"))
    add("cli resolution a FIFO", "cli",
        lambda tmp: (os.mkfifo(tmp / "fifo.npy"), np.save(tmp / "T.npy", T),
                     cli("resolution", "--audited", "{tmp}/fifo.npy", "--references",
                         "{tmp}/T.npy"))[-1])
    add("cli resolution /dev/zero", "cli", with_files("resolution", "--audited", "/dev/zero",
                                                      "--references", "{tmp}/T.npy"))
    if os.geteuid() != 0:  # root reads every file
        add("cli resolution unreadable file", "cli",
            lambda tmp: (files(tmp), os.chmod(tmp / "S.npy", 0), cli(*base))[-1])
    add("cli resolution NaN in T", "cli", with_files(*base, t=np.full((2, 4), np.nan)))
    add("cli resolution empty audited", "cli", with_files(*base, s=np.zeros((0, 4))))
    add("cli resolution --json twice", "cli", with_files(*base, "--json", "--json"),
        expect="either")
    add("cli no verb", "cli", lambda tmp: cli())
    add("cli unknown verb", "cli", lambda tmp: cli("resolve"))
    add("cli demo --only (no value)", "cli", lambda tmp: cli("demo", "--only"))
    add("cli demo --only 99", "cli", lambda tmp: cli("demo", "--only", "99", "--notebooks",
                                                      "{tmp}/nb", "--out", "{tmp}/r"))
    add("cli demo --notebooks missing", "cli", lambda tmp: cli("demo", "--notebooks",
                                                                "{tmp}/missing"))
    add("cli demo --notebooks empty folder", "cli",
        lambda tmp: ((tmp / "nb").mkdir(), cli("demo", "--notebooks", "{tmp}/nb",
                                               "--out", "{tmp}/r"))[-1])
    add("cli demo --out is a file", "cli",
        lambda tmp: (write(tmp, "f", "x"), cli("demo", "--only", "00", "--out", "{tmp}/f"))[-1])
    add("cli demo --smoke --full", "cli", lambda tmp: cli("demo", "--smoke", "--full"))
    add("cli demo --only 0a", "cli", lambda tmp: cli("demo", "--only", "0a", "--out",
                                                      "{tmp}/r"))
    eb = ("epsilon-benchmark", "--mechanism", "laplace", "--geometry", "dispersed",
          "--n", "20", "--out", "{tmp}/o.csv", "--no-cache", "--quiet")
    add("cli epsilon --epsilon -1", "cli", lambda tmp: cli(*eb, "--epsilon", "-1"))
    add("cli epsilon --epsilon nan", "cli", lambda tmp: cli(*eb, "--epsilon", "nan"))
    add("cli epsilon --epsilon inf", "cli", lambda tmp: cli(*eb, "--epsilon", "inf"))
    add("cli epsilon --epsilon 1 1", "cli", lambda tmp: cli(*eb, "--epsilon", "1", "1"))
    add("cli epsilon --n 2000000000", "cli", lambda tmp: cli(*eb, "--epsilon", "1", "--n",
                                                              "2000000000"))
    add("cli epsilon --n 5", "cli", lambda tmp: cli(*eb[:-6], "--n", "5", "--epsilon", "1",
                                                     "--out", "{tmp}/o.csv"))
    add("cli epsilon --mechanism cauchy", "cli",
        lambda tmp: cli("epsilon-benchmark", "--mechanism", "cauchy", "--epsilon", "1",
                        "--out", "{tmp}/o.csv"))
    add("cli epsilon --methods typo", "cli", lambda tmp: cli(*eb, "--epsilon", "1",
                                                              "--methods", "resrved"))
    add("cli epsilon --jobs 0", "cli", lambda tmp: cli(*eb, "--epsilon", "1", "--jobs", "0"))
    add("cli epsilon --jobs -2", "cli", lambda tmp: cli(*eb, "--epsilon", "1", "--jobs", "-2"))
    add("cli epsilon --pairs 0", "cli", lambda tmp: cli(*eb, "--epsilon", "1", "--pairs", "0"))
    add("cli epsilon --repetition -1", "cli", lambda tmp: cli(*eb, "--epsilon", "1",
                                                               "--repetition", "-1"))
    add("cli epsilon --mmd-permutations -5", "cli", lambda tmp: cli(*eb, "--epsilon", "1",
                                                                     "--mmd-permutations", "-5"))
    add("cli epsilon --out into a missing folder", "cli",
        lambda tmp: cli(*eb[:-3], "{tmp}/no/such/dir/o.csv", "--epsilon", "1"),
        expect="either")
    add("cli epsilon --out newdir/", "cli", lambda tmp: cli(*eb[:-3], "{tmp}/newdir/",
                                                             "--epsilon", "1"))
    add("cli epsilon --out is a folder", "cli", lambda tmp: cli(*eb[:-3], "{tmp}",
                                                                 "--epsilon", "1"))
    add("cli epsilon without --out", "cli", lambda tmp: cli("epsilon-benchmark",
                                                             "--epsilon", "1"))
    add("cli quote missing record", "cli", lambda tmp: cli("quote", "{tmp}/h.json",
                                                           "--readme", "{tmp}/R.md", "--check"))
    add("cli quote record not JSON", "cli",
        lambda tmp: (write(tmp, "h.json", "{oops"), write(tmp, "R.md", "# x\n"),
                     cli("quote", "{tmp}/h.json", "--readme", "{tmp}/R.md", "--check"))[-1])
    add("cli quote record a JSON list", "cli",
        lambda tmp: (write(tmp, "h.json", "[1, 2]"), write(tmp, "R.md", "# x\n"),
                     cli("quote", "{tmp}/h.json", "--readme", "{tmp}/R.md", "--check"))[-1])
    add("cli quote record not UTF-8", "cli",
        lambda tmp: (write(tmp, "h.json", b"\xff\xfe{}"), write(tmp, "R.md", "# x\n"),
                     cli("quote", "{tmp}/h.json", "--readme", "{tmp}/R.md", "--check"))[-1])
    add("cli quote empty record object", "cli",
        lambda tmp: (write(tmp, "h.json", "{}"), write(tmp, "R.md", "# x\n"),
                     cli("quote", "{tmp}/h.json", "--readme", "{tmp}/R.md", "--check"))[-1])
    add("cli quote README missing", "cli",
        lambda tmp: (write(tmp, "h.json", "{}"),
                     cli("quote", "{tmp}/h.json", "--readme", "{tmp}/none.md"))[-1])
    add("cli quote README is a folder", "cli",
        lambda tmp: (write(tmp, "h.json", "{}"),
                     cli("quote", "{tmp}/h.json", "--readme", "{tmp}"))[-1])


# ---- loaders -------------------------------------------------------------------------
def _loader_cases():
    from privlab.datasets import enron, reddit
    from privlab.datasets.face_embeddings import load_embedding_table
    from privlab.redaction.spia.records import load_spia
    from privlab.redaction.redacbench import load_redacbench

    def line(**kw):
        return json.dumps({"text": "Ken Lay called.", "mid": "m1", **kw})

    def emails(tmp, data, name="e.json"):
        return list(enron.read_emails(write(tmp, name, data)))

    add("enron repeated mid", "loaders", lambda tmp: emails(tmp, line() + "\n" + line() + "\n"))
    add("enron text is a number", "loaders", lambda tmp: emails(tmp, line(text=5) + "\n"))
    add("enron text is a list", "loaders", lambda tmp: emails(tmp, line(text=["a"]) + "\n"))
    add("enron a JSON array line", "loaders", lambda tmp: emails(tmp, "[1, 2]\n"))
    add("enron NUL bytes", "loaders", lambda tmp: emails(tmp, b"\x00\x00\x00"))
    add("enron UTF-16 file", "loaders",
        lambda tmp: emails(tmp, (line() + "\n").encode("utf-16")))
    add("enron gzip given as json", "loaders",
        lambda tmp: emails(tmp, __import__("gzip").compress((line() + "\n").encode())))
    add("enron empty file", "loaders", lambda tmp: enron.load_mailbox(write(tmp, "e.json", b"")))
    add("enron unknown suffix .xml", "loaders", lambda tmp: emails(tmp, "<a/>", "e.xml"))
    add("enron path is None", "loaders", lambda tmp: list(enron.read_emails(None)))
    add("enron missing file", "loaders", lambda tmp: list(enron.read_emails(tmp / "none.json")))
    add("enron zip with encrypted member", "loaders",
        lambda tmp: list(enron.read_emails(_encrypted_zip(tmp))))
    add("enron zip with no json member", "loaders",
        lambda tmp: list(enron.read_emails(_zip(tmp, "e.zip", "notes.bin", b"\x00"))))
    add("enron CSV with CR-only lines", "loaders",
        lambda tmp: list(enron.read_emails_csv(write(tmp, "e.csv",
                                                     "file,message\r1,hello\r2,bye\r"))))
    add("enron CSV without a message column", "loaders",
        lambda tmp: list(enron.read_emails_csv(write(tmp, "e.csv", "a,b\n1,2\n"))))
    add("enron CSV with a NUL", "loaders",
        lambda tmp: list(enron.read_emails_csv(write(tmp, "e.csv", "file,message\n1,a\x00b\n"))),
        expect="either")
    add("enron select names='Ken Lay'", "loaders",
        lambda tmp: enron.select_emails([], names="Ken Lay"))
    add("enron select names=[5]", "loaders", lambda tmp: enron.select_emails([], names=[5]))
    add("enron load_mailbox limit=-1", "loaders",
        lambda tmp: enron.load_mailbox(write(tmp, "e.json", line() + "\n"), limit=-1))
    add("enron load_mailbox max_words=0", "loaders",
        lambda tmp: enron.load_mailbox(write(tmp, "e.json", line() + "\n"), max_words=0))
    add("enron load_mailbox match='fuzzy'", "loaders",
        lambda tmp: enron.load_mailbox(write(tmp, "e.json", line() + "\n"), match="fuzzy"))
    add("enron load_mailbox concepts='Enron'", "loaders",
        lambda tmp: enron.load_mailbox(write(tmp, "e.json", line() + "\n"), concepts="Enron"))
    add("enron load_mailbox no match", "loaders",
        lambda tmp: enron.load_mailbox(write(tmp, "e.json", line(text="nothing") + "\n")))
    add("enron maildir is a file", "loaders",
        lambda tmp: list(enron.read_maildir(write(tmp, "md", "x"))))

    def rc(tmp, data, name="c.jsonl", **kw):
        return list(reddit.read_comments(write(tmp, name, data), **kw))

    rline = lambda **kw: json.dumps({"id": "c1", "body": "Avengers rock", **kw})  # noqa: E731
    add("reddit repeated id", "loaders", lambda tmp: rc(tmp, rline() + "\n" + rline() + "\n"))
    add("reddit body is a dict", "loaders", lambda tmp: rc(tmp, rline(body={"a": 1}) + "\n"))
    add("reddit id is a float", "loaders", lambda tmp: rc(tmp, rline(id=1.5) + "\n"))
    add("reddit id is null", "loaders", lambda tmp: rc(tmp, rline(id=None) + "\n"))
    add("reddit latin-1 bytes", "loaders",
        lambda tmp: rc(tmp, rline(body="caf").encode() + b"\xe9\n"))
    add("reddit broken JSON on line 2", "loaders", lambda tmp: rc(tmp, rline() + "\n{\n"))
    add("reddit truncated .zst", "loaders", lambda tmp: rc(tmp, b"\x28\xb5\x2f\xfd\x00", "c.zst"))
    add("reddit truncated .gz", "loaders", lambda tmp: rc(tmp, b"\x1f\x8b\x08\x00", "c.gz"))
    add("reddit folder with binary .txt", "loaders",
        lambda tmp: (write(tmp, "d/a.txt", b"\xff\xfe\x00"),
                     list(reddit.read_comments(tmp / "d")))[-1])
    add("reddit folder with a dangling link", "loaders",
        lambda tmp: (write(tmp, "d/a.txt", "Avengers"), os.symlink(tmp / "nope", tmp / "d/b.txt"),
                     _skips(tmp / "d"))[-1], expect="handle",
        check=lambda r, w: None if r[1] else "the dangling link is not listed as skipped")
    add("reddit load_comments keyword=''", "loaders",
        lambda tmp: reddit.load_comments(write(tmp, "c.jsonl", rline() + "\n"), keyword=""))
    add("reddit load_comments keyword=5", "loaders",
        lambda tmp: reddit.load_comments(write(tmp, "c.jsonl", rline() + "\n"), keyword=5))
    add("reddit load_comments limit=0", "loaders",
        lambda tmp: reddit.load_comments(write(tmp, "c.jsonl", rline() + "\n"), limit=0))
    add("reddit load_comments limit=2.5", "loaders",
        lambda tmp: reddit.load_comments(write(tmp, "c.jsonl", rline() + "\n"), limit=2.5))
    add("reddit load_comments concepts='Thor'", "loaders",
        lambda tmp: reddit.load_comments(write(tmp, "c.jsonl", rline() + "\n"), concepts="Thor"))
    add("reddit load_comments max_words=-1", "loaders",
        lambda tmp: reddit.load_comments(write(tmp, "c.jsonl", rline() + "\n"), max_words=-1))

    def spia_rec(data_id="a", **pii):
        p = {"tag": "AGE", "keyword": "34", "certainty": 4, "hardness": 1, **pii}
        return json.dumps({"metadata": {"data_id": data_id}, "text": "Ann, 34.",
                           "subjects": [{"id": 0, "description": "Ann", "PIIs": [p]}]})

    for label, data in [("certainty '--3'", spia_rec(certainty="--3")),
                        ("certainty 4.5", spia_rec(certainty=4.5)),
                        ("certainty true", spia_rec(certainty=True)),
                        ("certainty -1", spia_rec(certainty=-1)),
                        ("hardness 'hard'", spia_rec(hardness="hard")),
                        ("tag 5", spia_rec(tag=5)),
                        ("keyword a list", spia_rec(keyword=["a"])),
                        ("tag unknown 'SHOE'", spia_rec(tag="SHOE")),
                        ("text is null", json.dumps({"metadata": {"data_id": "a"}, "text": None,
                                                     "subjects": []})),
                        ("subjects a dict", json.dumps({"metadata": {"data_id": "a"},
                                                        "text": "x", "subjects": {}})),
                        ("metadata missing", json.dumps({"text": "x", "subjects": []})),
                        ("data_id a number", json.dumps({"metadata": {"data_id": 7},
                                                         "text": "x", "subjects": []})),
                        ("line is a string", '"just text"'),
                        ("NaN certainty", spia_rec().replace('"certainty": 4', '"certainty": NaN'))]:
        add(f"spia {label}", "loaders",
            lambda tmp, data=data: load_spia(write(tmp, "s.jsonl", data + "\n")),
            expect="refuse" if label != "tag unknown 'SHOE'" else "either")
    add("spia path a folder", "loaders", lambda tmp: load_spia(tmp))

    def table(tmp, text, name="t.csv", **kw):
        return load_embedding_table(write(tmp, name, text), **kw)

    add("face table one row", "loaders", lambda tmp: table(tmp, "label,a,b\nx,1,0\n"),
        expect="either")
    add("face table label column missing", "loaders",
        lambda tmp: table(tmp, "label,a,b\nx,1,0\ny,0,1\n", label_column="who"))
    add("face table text in a vector cell", "loaders",
        lambda tmp: table(tmp, "label,a,b\nx,1,zero\ny,0,1\nx,1,0\n"))
    add("face table ragged vector cells", "loaders",
        lambda tmp: table(tmp, 'label,v\nx,"[1,0]"\ny,"[0,1,0]"\n', vector_column="v"))
    add("face table all-zero vectors", "loaders",
        lambda tmp: table(tmp, "label,a,b\nx,0,0\ny,0,0\n"), expect="either",
        check=lambda r, w: None if len(r) or w else "every row dropped without a word")
    add("face table inf value", "loaders",
        lambda tmp: table(tmp, "label,a,b\nx,inf,0\ny,0,1\n"), expect="either",
        check=lambda r, w: None if np.isfinite(np.asarray(r.embeddings)).all() else "inf kept")
    add("face table embedding_columns='a'", "loaders",
        lambda tmp: table(tmp, "label,a,b\nx,1,0\ny,0,1\n", embedding_columns="a"))
    add("face table min_norm=-1", "loaders",
        lambda tmp: table(tmp, "label,a,b\nx,1,0\ny,0,1\n", min_norm=-1))
    add("face table normalize='no'", "loaders",
        lambda tmp: table(tmp, "label,a,b\nx,1,0\ny,0,1\n", normalize="no"))
    add("face table .npz without labels", "loaders",
        lambda tmp: (np.savez(tmp / "t.npz", embeddings=S), load_embedding_table(tmp / "t.npz"))[-1])
    add("face table .npz labels 2-D", "loaders",
        lambda tmp: (np.savez(tmp / "t.npz", embeddings=S, labels=np.zeros((6, 2))),
                     load_embedding_table(tmp / "t.npz"))[-1])
    add("face table .npz with pickled object", "loaders",
        lambda tmp: (np.savez(tmp / "t.npz", embeddings=np.array([{}] * 6, dtype=object),
                              labels=np.arange(6)), load_embedding_table(tmp / "t.npz"))[-1])
    add("face table .parquet", "loaders", lambda tmp: table(tmp, "x", name="t.parquet"))
    add("face table empty CSV", "loaders", lambda tmp: table(tmp, ""))
    add("face table header only", "loaders", lambda tmp: table(tmp, "label,a,b\n"))

    rb = json.loads((ROOT / "data/redacbench_sample.jsonl").read_text().splitlines()[0])
    for label, change in [("propositions a string", {"propositions": "p1"}),
                          ("text missing", {"text": None}),
                          ("id a list", {"id": ["x"]}),
                          ("misspelled key 'propostions'", {"propostions": []})]:
        def run(tmp, change=change):
            obj = dict(rb)
            for k, v in change.items():
                if v is None:
                    obj.pop(k)
                else:
                    obj[k] = v
            return load_redacbench(write(tmp, "r.jsonl", json.dumps(obj) + "\n"))
        add(f"redacbench {label}", "loaders", run)
    add("redacbench repeated id", "loaders",
        lambda tmp: load_redacbench(write(tmp, "r.jsonl", (json.dumps(rb) + "\n") * 2)))


def _encrypted_zip(tmp: Path) -> Path:
    path = _zip(tmp, "e.zip", "lay-k.json", b'{"text": "x", "mid": "m"}\n')
    raw = bytearray(path.read_bytes())
    # set the "encrypted" flag bit in the local and central headers
    for sig in (b"PK\x03\x04", b"PK\x01\x02"):
        at = raw.find(sig)
        flag = at + (6 if sig == b"PK\x03\x04" else 8)
        raw[flag] |= 1
    path.write_bytes(bytes(raw))
    return path


def _zip(tmp: Path, name: str, member: str, data: bytes) -> Path:
    with zipfile.ZipFile(tmp / name, "w") as archive:
        archive.writestr(member, data)
    return tmp / name


def _skips(folder: Path):
    from privlab.datasets import reddit

    skipped: list = []
    comments = list(reddit.read_comments(folder, skipped=skipped))
    return comments, skipped


# ---- images ---------------------------------------------------------------------------
def _image_cases():
    from PIL import Image
    from privlab.datasets.images import load_folder, read_image

    def img(tmp, name, mode="RGB", size=(8, 8), color=0, **save):
        path = tmp / name
        Image.new(mode, size, color).save(path, **save)
        return path

    add("image zero-byte .png", "images", lambda tmp: read_image(write(tmp, "a.png", b"")))
    add("image text file named .jpg", "images", lambda tmp: read_image(write(tmp, "a.jpg", "hi")))
    add("image truncated png", "images",
        lambda tmp: read_image(write(tmp, "b.png", img(tmp, "a.png").read_bytes()[:40])))
    add("image max_side=0", "images", lambda tmp: read_image(img(tmp, "a.png"), max_side=0))
    add("image max_side=-5", "images", lambda tmp: read_image(img(tmp, "a.png"), max_side=-5))
    add("image max_side='big'", "images", lambda tmp: read_image(img(tmp, "a.png"),
                                                                 max_side="big"))
    add("image max_pixels=10 (bomb guard)", "images",
        lambda tmp: read_image(img(tmp, "a.png", size=(64, 64)), max_pixels=10))
    add("image a folder", "images", lambda tmp: read_image(tmp))
    add("image path None", "images", lambda tmp: read_image(None))
    add("image 16-bit white", "images",
        lambda tmp: read_image(img(tmp, "a.png", "I;16", color=65535)), expect="handle",
        check=lambda r, w: None if r.min() > 200 else f"white loads as {r.min()}")
    add("image float TIFF with NaN", "images",
        lambda tmp: read_image(_nan_tiff(tmp)), expect="either")
    add("image two-frame GIF", "images",
        lambda tmp: _notes(read_image, _gif(tmp)), expect="handle",
        check=lambda r, w: None if (r[1] or w) else "the second frame dropped unseen")
    add("image CMYK jpeg", "images", lambda tmp: read_image(img(tmp, "a.jpg", "CMYK")),
        expect="handle", check=lambda r, w: None if r.shape[-1] == 3 else f"shape {r.shape}")
    add("image 1x1 palette", "images", lambda tmp: read_image(img(tmp, "a.gif", "P", (1, 1))),
        expect="handle")
    add("folder missing", "images", lambda tmp: load_folder(tmp / "none"))
    add("folder is a file", "images", lambda tmp: load_folder(img(tmp, "a.png")))
    add("folder empty", "images", lambda tmp: load_folder(tmp / "cache"))
    add("folder with a FIFO and a picture", "images",
        lambda tmp: ((tmp / "d").mkdir(), img(tmp, "d/a.png"), os.mkfifo(tmp / "d/f.png"),
                     load_folder(tmp / "d"))[-1], expect="handle",
        check=lambda r, w: None if "f.png" in repr(getattr(r, "skipped", "")) + " ".join(w)
        else "the FIFO is not listed")
    add("folder with a damaged picture", "images",
        lambda tmp: ((tmp / "d").mkdir(), img(tmp, "d/a.png"), write(tmp, "d/b.png", b"\x89PNG"),
                     load_folder(tmp / "d"))[-1])
    add("folder with a link loop", "images",
        lambda tmp: ((tmp / "d").mkdir(), img(tmp, "d/a.png"), os.symlink(tmp / "d/l1.png",
                     tmp / "d/l2.png"), os.symlink(tmp / "d/l2.png", tmp / "d/l1.png"),
                     load_folder(tmp / "d"))[-1], expect="handle",
        check=lambda r, w: None if "l1" in repr(getattr(r, "skipped", "")) + " ".join(w)
        else "the loop is not listed")
    add("folder recursive='yes'", "images",
        lambda tmp: load_folder(tmp / "cache", recursive="yes"))


def _notes(fn, path):
    notes: list = []
    return fn(path, notes=notes), notes


def _gif(tmp: Path) -> Path:
    from PIL import Image

    frames = [Image.new("RGB", (8, 8), c) for c in ((255, 0, 0), (0, 0, 255))]
    frames[0].save(tmp / "a.gif", save_all=True, append_images=frames[1:])
    return tmp / "a.gif"


def _nan_tiff(tmp: Path) -> Path:
    from PIL import Image

    a = np.full((8, 8), 0.5, dtype=np.float32)
    a[0, 0] = np.nan
    Image.fromarray(a, mode="F").save(tmp / "a.tif")
    return tmp / "a.tif"


# ---- study configs --------------------------------------------------------------------
def _config_cases():
    import dataclasses
    import importlib
    import typing
    from privlab.studies import STUDY_MODULES

    for study in STUDY_MODULES:
        Config = importlib.import_module(f"privlab.studies.{study}").Config
        try:
            hints = typing.get_type_hints(Config)
        except Exception:  # noqa: BLE001
            hints = {}
        made = 0
        for f in dataclasses.fields(Config):
            hint = hints.get(f.name, f.type)
            args = set(typing.get_args(hint)) if typing.get_origin(hint) in (
                typing.Union, getattr(__import__("types"), "UnionType", None)) else {hint}
            args.discard(type(None))
            if args == {bool}:
                bad = [("'no'", "no")]
            elif args == {int}:
                bad = [("'3'", "3"), ("2.5", 2.5)]
            elif args == {float}:
                bad = [("'0.5'", "0.5"), ("nan", float("nan"))]
            elif args == {str}:
                bad = [("5", 5)]
            elif typing.get_origin(next(iter(args))) is tuple and len(args) == 1:
                bad = [("bare string", "abc")] if made % 2 == 0 else [("None inside", (None,))]
            else:
                continue
            for label, value in bad[: 1 if made > 6 else 2]:
                add(f"{study}.Config {f.name}={label}", "configs",
                    lambda tmp, C=Config, n=f.name, v=value: C.smoke(**{n: v}))
                made += 1
        add(f"{study}.Config unknown field", "configs",
            lambda tmp, C=Config: C.smoke(no_such_field=1))


# ---- caches ---------------------------------------------------------------------------
def _cache_cases():
    import sqlite3
    from privlab.encoders import EmbeddingCache

    v = unit(np.ones((1, 4)))[0].astype(np.float32)

    def cache(tmp):
        return EmbeddingCache(tmp / "cache" / "embeddings.sqlite")

    add("embedding cache put NaN vector", "caches",
        lambda tmp: cache(tmp).put_many("m", [("k", np.full(4, np.nan))]))
    add("embedding cache put non-unit vector", "caches",
        lambda tmp: cache(tmp).put_many("m", [("k", np.ones(4))]))
    add("embedding cache put mixed dims", "caches",
        lambda tmp: cache(tmp).put_many("m", [("k", v), ("j", unit(np.ones((1, 3)))[0])]))
    add("embedding cache file is garbage", "caches",
        lambda tmp: (write(tmp, "cache/embeddings.sqlite", b"garbage" * 100),
                     cache(tmp).get_many("m", ["k"]))[-1], expect="handle",
        check=lambda r, w: None if w else "a damaged cache replaced without a warning")
    add("embedding cache flipped sign", "caches", lambda tmp: _flipped(tmp), expect="handle",
        check=lambda r, w: None if not r else f"a flipped vector came back: {r}")
    add("embedding cache locked", "caches", lambda tmp: _locked(tmp, cache), expect="handle",
        check=lambda r, w: None if w else "no warning about the lock")
    add("embedding cache path under a file", "caches",
        lambda tmp: EmbeddingCache(write(tmp, "f", "x") / "e.sqlite"))
    add("PRIVLAB_CACHE below a file", "caches",
        lambda tmp: (write(tmp, "file", "x"), __import__("privlab.config").config.cache_dir())[-1],
        env={"PRIVLAB_CACHE": "{tmp}/file/sub"})
    add("epsilon store damaged table", "caches", lambda tmp: _damaged_store(tmp),
        expect="handle", check=lambda r, w: None if w else "a damaged table read without a word")
    add("llm cache locked for 30 s", "caches", lambda tmp: _llm_locked(tmp), expect="either",
        check=lambda r, w: None if r < 8 and w else f"waited {r:.0f} s on the lock, warnings {w}")


def _flipped(tmp):
    import sqlite3
    from privlab.encoders import EmbeddingCache

    c = EmbeddingCache(tmp / "e.sqlite")
    c.put_many("m", [("k", unit(np.arange(1, 5)[None])[0].astype(np.float32))])
    con = sqlite3.connect(tmp / "e.sqlite")
    (blob,) = con.execute("SELECT vec FROM emb").fetchone()
    flipped = (-np.frombuffer(blob, np.float32)).tobytes()
    con.execute("UPDATE emb SET vec=?", (flipped,))
    con.commit()
    con.close()
    return c.get_many("m", ["k"])


def _locked(tmp, cache):
    import sqlite3

    c = cache(tmp)
    con = sqlite3.connect(c.path)
    con.execute("BEGIN EXCLUSIVE")
    try:
        return c.get_many("m", ["k"])
    finally:
        con.close()


def _llm_locked(tmp):
    import sqlite3
    from llm_server import FakeLLMServer
    from privlab.config import cache_dir
    from privlab.llm import LLMClient

    with FakeLLMServer(lambda r: "hi") as server:
        client = LLMClient(server.base_url, "fake", deadline=20)
        client.chat([{"role": "user", "content": "a"}])
        con = sqlite3.connect(cache_dir() / "llm.sqlite")
        con.execute("BEGIN EXCLUSIVE")
        start = time.monotonic()
        try:
            client.chat([{"role": "user", "content": "b"}])
        except Exception as exc:  # noqa: BLE001
            if time.monotonic() - start > 10:
                return time.monotonic() - start
            raise
        finally:
            con.close()
        return time.monotonic() - start


def _damaged_store(tmp):
    import pandas as pd
    from privlab.epsilon.store import read_stored, store_table

    path = store_table(pd.DataFrame({"a": [1, 2]}), tmp / "t.csv")
    path.write_bytes(path.read_bytes()[:-3] + b"zz\n")
    return read_stored(path, lambda f: None, lambda: pd.DataFrame({"a": [1, 2]}))


# ---- ε auditors -----------------------------------------------------------------------
def _auditor_cases():
    from privlab.epsilon.auditors import registry

    a = RNG.standard_normal((30, 3))
    b = RNG.standard_normal((30, 3)) + 0.5

    def make(name):
        try:
            return registry.create(name)
        except TypeError:
            return registry.create(name, epsilon=1.0)

    bad = [("complex a", lambda: (a + 1j, b), {}),
           ("NaN in b", lambda: (a, np.where(b > 1, np.nan, b)), {}),
           ("d mismatch", lambda: (a, b[:, :2]), {}),
           ("one row", lambda: (a[:1], b), {}),
           ("delta=1.5", lambda: (a, b), {"delta": 1.5}),
           ("seed=-3", lambda: (a, b), {"seed": -3}),
           ("masked a", lambda: (np.ma.masked_array(a, mask=a > 1), b), {}),
           ("strings", lambda: ([["x", "y", "z"]] * 5, b), {})]
    for k, name in enumerate(registry.names()):
        for j, (label, data, kw) in enumerate(bad):
            if (j + k) % 2:  # half of the grid, varied per auditor
                continue
            add(f"auditor {name} {label}", "auditors",
                lambda tmp, n=name, d=data, kw=kw: make(n).audit(*d(), **kw))
    for name in ("gaussmech", "mmd-tv", "roc-ht", "reserved", "kde-lr"):
        add(f"auditor {name} identical constant samples", "auditors",
            lambda tmp, n=name: make(n).audit(np.ones((20, 2)), np.ones((20, 2))),
            expect="either",
            check=lambda r, w: None if r.value == r.value and r.value >= 0 else f"value {r.value}")
    add("auditor registry unknown name", "auditors", lambda tmp: registry.create("resrved"))
    add("audit_pairs labels too short", "auditors",
        lambda tmp: __import__("privlab.epsilon.auditors.table").epsilon.auditors.table
        .audit_pairs(a, [0, 1], [(0, 1)]))


# ---- the LLM client against a loopback server ----------------------------------------
KEY = "sk-test-" + "Zq7" * 12 + "/x+y=="


def _llm_cases():
    from llm_server import FakeLLMServer, Reply

    def client(server, **kw):
        from privlab.llm import LLMClient

        return LLMClient(kw.pop("url", server.base_url), "fake", max_retries=kw.pop("r", 1),
                         backoff=0.01, timeout=kw.pop("timeout", 3), deadline=kw.pop("dl", 6),
                         **kw)

    def ask(responder, **kw):
        def run(tmp):
            with FakeLLMServer(responder) as server:
                return client(server, **kw).chat([{"role": "user", "content": "hi"}])
        return run

    def ask_json(responder, **kw):
        def run(tmp):
            with FakeLLMServer(responder) as server:
                return client(server, **kw).chat_json([{"role": "user", "content": "hi"}])
        return run

    env = {"OPENAI_API_KEY": KEY}
    leaky = dict(secrets=(KEY,), env=env, files=("cache/*",))
    echo_forms = {
        "raw": KEY, "JSON-escaped": json.dumps(KEY)[1:-1],
        "percent-encoded": urllib.parse.quote(KEY, safe=""),
        "base64": base64.b64encode(KEY.encode()).decode(),
        "base64 user:key": base64.b64encode(f"user:{KEY}".encode()).decode(),
        "inside a long body": "x" * 500 + KEY + "y" * 5000,
        "split over a line break": KEY[:20] + "\n" + KEY[20:],
    }
    for label, text in echo_forms.items():
        add(f"llm 401 echoing the key ({label})", "llm",
            ask(lambda r, t=text: Reply(401, {"error": f"bad key {t}"})),
            expect="refuse", **leaky)
        add(f"llm answer echoing the key ({label})", "llm",
            ask(lambda r, t=text: f"your key is {t}"), expect="handle",
            check=lambda r, w: None if w else "no warning", **leaky)
    add("llm 500 echoing the Authorization header", "llm",
        ask(lambda r: Reply(500, {"headers": r["_headers"]})), **leaky)
    add("llm non-JSON 200 echoing the key", "llm", ask(lambda r: Reply(200, f"<html>{KEY}")),
        **leaky)
    add("llm answer without choices echoing the key", "llm",
        ask(lambda r: {"echo": KEY}), **leaky)
    add("llm key in URL ?api_key= (answer echoes the path)", "llm",
        lambda tmp: _query_key(tmp, "api_key"), expect="either", secrets=(KEY,),
        files=("cache/*",))
    add("llm key in URL ?key= (error echoes the path)", "llm",
        lambda tmp: _query_key(tmp, "key"), expect="either", secrets=(KEY,), files=("cache/*",))
    add("llm key in URL ?key= repr", "llm",
        lambda tmp: repr(_client_for(f"http://127.0.0.1:9/v1?key={KEY}")), expect="handle",
        secrets=(KEY,))
    add("llm URL password with '/'", "llm",
        lambda tmp: _client_for(f"http://u:{KEY}@127.0.0.1:9/v1"), secrets=(KEY,))
    add("llm non-ASCII key", "llm", ask(lambda r: "ok"),
        secrets=("clé-secrète-123456789012",), env={"OPENAI_API_KEY": "clé-secrète-123456789012"})
    add("llm key with a trailing newline", "llm", ask(lambda r: "ok"),
        secrets=("sk-abcdefghijklmnopqrstuv",), env={"OPENAI_API_KEY": "sk-abcdefghijklmnopqrstuv\n"})
    add("llm server never answers", "llm", ask(lambda r: Reply(200, "x", delay=30), dl=3))
    add("llm server trickles", "llm", ask(lambda r: Reply(200, {"a": "b" * 100}, trickle=0.2),
                                          dl=3))
    add("llm server drops the connection", "llm", ask(lambda r: Reply(drop=True)))
    add("llm nothing listening", "llm",
        lambda tmp: _client_for("http://127.0.0.1:9/v1").chat([{"role": "user", "content": "x"}]))
    add("llm ftp:// URL", "llm",
        lambda tmp: _client_for("ftp://127.0.0.1/v1").chat([{"role": "user", "content": "x"}]))
    add("llm URL with port 'abc'", "llm", lambda tmp: _client_for("http://127.0.0.1:abc/v1"))
    add("llm deadline=-1", "llm", lambda tmp: _client_for("http://127.0.0.1:9/v1", deadline=-1))
    add("llm PRIVLAB_LLM_DEADLINE=soon", "llm", lambda tmp: _client_for("http://127.0.0.1:9/v1"),
        env={"PRIVLAB_LLM_DEADLINE": "soon"})
    add("llm max_retries=1.5", "llm",
        lambda tmp: _client_for("http://127.0.0.1:9/v1", max_retries=1.5))
    add("llm chat_json nested 5000 deep", "llm", ask_json(lambda r: "[" * 5000 + "]" * 5000))
    add("llm chat_json 200k braces", "llm", ask_json(lambda r: "{" * 200000))
    add("llm chat_json prose", "llm", ask_json(lambda r: "I cannot answer that."))
    add("llm content null", "llm", ask(lambda r: {"choices": [{"message": {"content": None}}]}))
    add("llm HTTP 429 forever", "llm", ask(lambda r: Reply(429, {"error": "slow down"})))
    add("llm parse_json_answer on bytes", "llm",
        lambda tmp: __import__("privlab.llm").llm.parse_json_answer(b'{"a": 1}'))
    add("llm messages a string", "llm", ask_json(lambda r: "{}"), expect="either")


def _client_for(url, **kw):
    from privlab.llm import LLMClient

    options = {"timeout": 2, "deadline": 3, "max_retries": 0, **kw}
    if os.environ.get("PRIVLAB_LLM_DEADLINE"):
        options.pop("deadline")
    return LLMClient(url, "fake", **options)


def _query_key(tmp, name):
    from llm_server import FakeLLMServer, Reply

    with FakeLLMServer(lambda r: Reply(400, {"error": f"bad request to {r['_path']}"})
                       if name == "key" else f"you asked {r['_path']}") as server:
        c = _client_for(f"{server.base_url}?{name}={urllib.parse.quote(KEY, safe='')}")
        return c.chat([{"role": "user", "content": "x"}])


# ---- more entries: the benchmark grid, folders, the cache API, client arguments --------
def _more_cases():
    from privlab.epsilon import benchmark as B
    from privlab.epsilon.auditors.table import audit_pairs
    from privlab.io import walk_folder
    from privlab.llm import parse_json_answer, redact_secrets

    a = RNG.standard_normal((24, 3))
    for label, kw in [("epsilon=-1", dict(epsilon=-1.0)), ("epsilon=nan", dict(epsilon=float("nan"))),
                      ("n=5", dict(n=5)), ("n='20'", dict(n="20")), ("n=20.5", dict(n=20.5)),
                      ("repetition=-1", dict(repetition=-1)),
                      ("geometry='flat'", dict(geometry="flat"))]:
        add(f"Setting {label}", "auditors",
            lambda tmp, kw=kw: B.Setting(**{"mechanism": "laplace", "geometry": "dispersed",
                                            "epsilon": 1.0, "n": 20, **kw}))
    setting = lambda: B.Setting("laplace", "dispersed", 1.0, 20)  # noqa: E731
    add("run_sweep settings=[]", "auditors", lambda tmp: B.run_sweep([], progress=False),
        expect="either", check=lambda r, w: None if len(r) == 0 else f"{len(r)} rows")
    add("run_sweep n_jobs=0", "auditors", lambda tmp: B.run_sweep([setting()], n_jobs=0))
    add("run_sweep a bare Setting", "auditors", lambda tmp: B.run_sweep(setting()))
    add("run_sweep methods='reserved'", "auditors",
        lambda tmp: B.run_sweep([setting()], methods="reserved"))
    add("run_sweep n_pairs=-1", "auditors", lambda tmp: B.run_sweep([setting()], n_pairs=-1))
    add("audit_pairs pair naming an absent label", "auditors",
        lambda tmp: audit_pairs(a, [0] * 12 + [1] * 12, [(0, 7)], methods=("gaussmech",)))
    add("audit_pairs labels of another length", "auditors",
        lambda tmp: audit_pairs(a, [0, 1] * 5, [(0, 1)], methods=("gaussmech",)))
    add("audit_pairs methods a bare string", "auditors",
        lambda tmp: audit_pairs(a, [0] * 12 + [1] * 12, [(0, 1)], methods="gaussmech"))
    add("audit_pairs family_alpha=2", "auditors",
        lambda tmp: audit_pairs(a, [0] * 12 + [1] * 12, [(0, 1)], family_alpha=2.0))
    add("walk_folder on a file", "loaders", lambda tmp: walk_folder(write(tmp, "f", "x")))
    add("walk_folder missing", "loaders", lambda tmp: walk_folder(tmp / "none"))
    add("walk_folder root None", "loaders", lambda tmp: walk_folder(None))
    add("reddit select_comments limit=-2", "loaders",
        lambda tmp: __import__("privlab.datasets.reddit").datasets.reddit.select_comments(
            [("a", "Avengers")], limit=-2))
    add("reddit select_comments comments a string", "loaders",
        lambda tmp: __import__("privlab.datasets.reddit").datasets.reddit.select_comments(
            "Avengers assemble"))
    add("enron select_emails match='fuzzy'", "loaders",
        lambda tmp: __import__("privlab.datasets.enron").datasets.enron.select_emails(
            [], match="fuzzy"))

    def emb(tmp):
        from privlab.encoders import EmbeddingCache

        return EmbeddingCache(tmp / "e.sqlite")

    add("embedding cache get_many keys a bare string", "caches",
        lambda tmp: emb(tmp).get_many("m", "abc"))
    add("embedding cache get_many model None", "caches",
        lambda tmp: emb(tmp).get_many(None, ["k"]), expect="either")
    add("embedding cache put_many a bare vector", "caches",
        lambda tmp: emb(tmp).put_many("m", np.ones(4) / 2))
    add("embedding cache put_many text vector", "caches",
        lambda tmp: emb(tmp).put_many("m", [("k", "0.5 0.5 0.5 0.5")]))

    def llm(**kw):
        from privlab.llm import LLMClient

        return LLMClient(kw.pop("url", "http://127.0.0.1:9/v1"), kw.pop("model", "fake"),
                         timeout=2, deadline=3, max_retries=0, **kw)

    add("llm model=5", "llm", lambda tmp: llm(model=5))
    add("llm base_url with spaces", "llm",
        lambda tmp: llm(url="  http://127.0.0.1:9/v1 ").chat([{"role": "user", "content": "x"}]))
    add("llm api_key_env=''", "llm", lambda tmp: llm(api_key_env=""))
    add("llm chat messages a string", "llm", lambda tmp: llm().chat("hello"))
    add("llm chat messages []", "llm", lambda tmp: llm().chat([]))
    add("llm chat temperature 'hot'", "llm",
        lambda tmp: llm().chat([{"role": "user", "content": "x"}], temperature="hot"))
    add("llm chat_json validate=5", "llm",
        lambda tmp: llm().chat_json([{"role": "user", "content": "x"}], validate=5))
    add("llm edit_image image None", "llm", lambda tmp: llm().edit_image(None, "blur"))
    add("parse_json_answer max_chars=-1", "llm", lambda tmp: parse_json_answer("{}", max_chars=-1))
    add("parse_json_answer None", "llm", lambda tmp: parse_json_answer(None))
    add("redact_secrets secrets a bare string", "llm",
        lambda tmp: redact_secrets("key sk-abcdefgh12345678 here", "sk-abcdefgh12345678"),
        expect="either", check=lambda r, w: None if "sk-abc" not in r else f"kept: {r}")


def _register_all():
    for group in (_kernel_cases, _certified_cases, _cli_cases, _loader_cases, _image_cases,
                  _config_cases, _cache_cases, _auditor_cases, _llm_cases, _more_cases):
        group()



def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--only", help="run only the cases of this area (or name prefix)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every case")
    args = parser.parse_args(argv)
    _register_all()
    chosen = [c for c in CASES if not args.only or c.area == args.only
              or c.name.startswith(args.only)]
    # privlab imported once here; each fork starts from it
    # the heavy imports happen once here, not in every child
    import pandas  # noqa: F401
    import PIL.Image  # noqa: F401
    import torch  # noqa: F401
    import privlab.cli.main  # noqa: F401
    import privlab.epsilon.auditors  # noqa: F401
    import privlab.llm  # noqa: F401
    import privlab.resolution  # noqa: F401
    import privlab.scale  # noqa: F401
    import privlab.studies  # noqa: F401
    for module in privlab.studies.STUDY_MODULES:
        __import__(f"privlab.studies.{module}")

    counts = dict.fromkeys(CLASSES, 0)
    bad: list[tuple[str, str, str]] = []
    start = time.monotonic()
    for c in chosen:
        verdict, detail, took = run_case(c, args.timeout)
        counts[verdict] += 1
        if verdict not in CLEAN:
            bad.append((verdict, f"[{c.area}] {c.name}", detail))
        if args.verbose:
            print(f"{verdict:9s} {took:5.1f}s [{c.area}] {c.name}: {detail}", flush=True)
    areas = sorted({c.area for c in chosen})
    print(f"\n{len(chosen)} cases in {len(areas)} areas ({', '.join(areas)}), "
          f"{time.monotonic() - start:.0f} s, timeout {args.timeout:g} s")
    print("  ".join(f"{k}: {v}" for k, v in counts.items()))
    for verdict, name, detail in sorted(bad):
        print(f"  {verdict:9s} {name}: {detail}")
    failed = counts["leak"] or counts["hang"] or counts["silent"] or counts["traceback"] > 5
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
