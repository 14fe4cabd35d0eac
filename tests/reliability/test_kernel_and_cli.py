"""Odd and bad input to the exact kernel and to every ``privlab`` verb.

The kernel tables: each bad input is refused with the error type and a message naming
the parameter; each odd but valid input (tiny, huge, half-precision rows, a huge
``top_k``) gives the exact answer of a float64 double loop. The command-line tables:
each bad input ends the verb with exit status 2 and one line on stderr, naming the
option or file, never a traceback.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from privlab.cli import main
from privlab.errors import PrivlabTypeError, PrivlabValueError
from privlab.resolution import brute_force_resolution, reference_directions, resolution


def unit(a) -> np.ndarray:
    a = np.asarray(a, dtype=np.float64)
    return a / np.linalg.norm(a, axis=1, keepdims=True)


RNG = np.random.default_rng(20)
S3 = unit(RNG.standard_normal((5, 3)))
T3 = RNG.standard_normal((4, 3)) * 0.2
BF16_TWICE_UNIT = torch.nn.functional.normalize(torch.randn(4, 16), dim=1).to(torch.bfloat16) * 2

# (case, call, error type, regex the message must match)
KERNEL_REFUSALS = [
    ("complex S", lambda: resolution(S3.astype(complex), T3), PrivlabValueError,
     r"'S' parameter of resolution must be real.*complex128"),
    ("complex torch T", lambda: resolution(S3, torch.from_numpy(T3).to(torch.complex64)),
     PrivlabValueError, r"'T' parameter .* real"),
    ("complex E_ref", lambda: reference_directions(S3.astype(np.complex64), S3),
     PrivlabValueError, r"'E_ref' parameter of reference_directions must be real"),
    ("object array of strings", lambda: resolution(np.array([["a", "b", "c"]], dtype=object), T3),
     PrivlabValueError, r"'S' .* numeric array.*str 'a'"),
    ("object array with None", lambda: resolution(S3, np.array([[0.1, None, 0.2]], dtype=object)),
     PrivlabValueError, r"'T' .* numeric array.*NoneType"),
    ("string array", lambda: resolution(S3, np.array([["0.1", "0.2", "0.3"]])),
     PrivlabValueError, r"'T' .* numeric array.*dtype <U3"),
    ("list mixing numbers and text", lambda: resolution([[1.0, "x", 0.0]], T3),
     PrivlabValueError, r"'S' .* numeric array"),
    ("ragged list", lambda: resolution([[1.0, 0.0], [1.0]], T3), PrivlabValueError,
     r"'S' .* ragged or non-numeric"),
    ("structured array", lambda: resolution(S3, np.zeros((2, 3), dtype=[("a", "f8")])),
     PrivlabValueError, r"'T' .* numeric array"),
    ("None", lambda: resolution(None, T3), PrivlabTypeError, r"'S' .* NoneType"),
    ("block_size 0", lambda: resolution(S3, T3, block_size=0), PrivlabValueError,
     r"'block_size' .* positive. Got 0"),
    ("block_size -3", lambda: resolution(S3, T3, block_size=-3), PrivlabValueError,
     r"'block_size' .* positive. Got -3"),
    ("block_size (0, 4)", lambda: resolution(S3, T3, block_size=(0, 4)), PrivlabValueError,
     r"'block_size' .* positive"),
    ("block_size 2.5", lambda: resolution(S3, T3, block_size=2.5), PrivlabValueError,
     r"'block_size' .* positive int"),
    ("block_size True", lambda: resolution(S3, T3, block_size=True), PrivlabValueError,
     r"'block_size'"),
    ("top_k -1", lambda: resolution(S3, T3, top_k=-1), PrivlabValueError, r"'top_k' .* >= 0"),
    ("top_k 2.5", lambda: resolution(S3, T3, top_k=2.5), PrivlabValueError, r"'top_k'"),
    ("top_k '5'", lambda: resolution(S3, T3, top_k="5"), PrivlabValueError, r"'top_k'"),
    ("dtype float16", lambda: resolution(S3, T3, dtype="float16"), PrivlabValueError,
     r"'dtype' .* 'float32' or 'float64'"),
    ("dtype unhashable", lambda: resolution(S3, T3, dtype=["float32"]), PrivlabValueError,
     r"'dtype'"),
    ("device tpu", lambda: resolution(S3, T3, device="tpu"), PrivlabValueError, r"'device'"),
    ("device cuda:x", lambda: resolution(S3, T3, device="cuda:x"), PrivlabValueError,
     r"'device' .* 'cuda:N'"),
    ("NaN in T", lambda: resolution(S3, np.full((2, 3), np.nan)), PrivlabValueError,
     r"'T' .* finite"),
    ("different d", lambda: resolution(S3, np.ones((2, 4))), PrivlabValueError,
     r"'T' .* same dimension d as S \(d=3\)"),
    ("bfloat16 rows of length 2", lambda: resolution(BF16_TWICE_UNIT, torch.ones(2, 16)),
     PrivlabValueError, r"'S' .* unit-length.*length (2|1\.99).*normalize=True"),
    ("float16 rows 1% long", lambda: resolution((S3 * 1.01).astype(np.float16), T3),
     PrivlabValueError, r"'S' .* unit-length"),
    ("float32 rows 1% long", lambda: resolution((S3 * 1.01).astype(np.float32), T3),
     PrivlabValueError, r"'S' .* unit-length"),
    ("a zero row to normalise", lambda: resolution(np.zeros((1, 3)), T3, normalize=True),
     PrivlabValueError, r"'S' .* normalised.*zero rows at \[0\]"),
]


@pytest.mark.parametrize("case, call, error, pattern", KERNEL_REFUSALS,
                         ids=[row[0] for row in KERNEL_REFUSALS])
def test_kernel_refuses_bad_input_naming_the_parameter(case, call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


def _bf16_unit_rows():
    # Normalised in bfloat16 itself: lengths drift by up to ~0.75 of its epsilon (0.6%).
    S = torch.nn.functional.normalize(torch.randn(30, 64, generator=torch.Generator().manual_seed(1))
                                      .to(torch.bfloat16), dim=1)
    T = (torch.randn(25, 64, generator=torch.Generator().manual_seed(2)) * 0.1).to(torch.bfloat16)
    return S, T, S.double().numpy(), T.double().numpy()


def _fp16_unit_rows():
    S = unit(RNG.standard_normal((30, 64))).astype(np.float16)
    T = (RNG.standard_normal((25, 64)) * 0.1).astype(np.float16)
    return S, T, S.astype(np.float64), T.astype(np.float64)


def _as_torch(S, T, S64, T64):
    return torch.from_numpy(S), torch.from_numpy(T), S64, T64


def _mixed_magnitudes():
    T = RNG.standard_normal((12, 3)) * 0.3
    T *= np.array([1e-170, 1e39, 1.0, 2.0**-1000, 2.0**900, 1e-170, 1.0, 3e38, 2.0**-150,
                   1e-300, 0.0, 2.0**130])[:, None]
    return S3, T, S3, T


def _tiny_witness():
    # The user's case: every difference is within 1e-169 of zero, the largest 3e-170.
    S = np.eye(2)
    T = np.array([[3e-170, -1e-170], [-2e-170, 1e-171]])
    return S, T, S, T


def _object_floats():
    return S3.astype(object), T3.astype(object), S3, T3


def _integers_and_booleans():
    S = np.eye(3, dtype=np.int64)
    T = np.array([[True, False, False], [False, False, True]])
    return S, T, S.astype(float), T.astype(float)


# (case, builder returning inputs and their float64 values, kwargs)
KERNEL_ACCEPTED = [
    ("tiny rows 3e-170 (exact answer 3e-170)", _tiny_witness, {}),
    ("tiny rows 1e-170 times T", lambda: (S3, T3 * 1e-170, S3, T3 * 1e-170), {}),
    ("subnormal-scale rows 2**-1000 times T", lambda: (S3, T3 * 2.0**-1000, S3, T3 * 2.0**-1000),
     {}),
    ("huge rows 1e39 (beyond float32)", lambda: (S3, T3 * 1e39, S3, T3 * 1e39), {}),
    ("huge rows 2**900", lambda: (S3, T3 * 2.0**900, S3, T3 * 2.0**900), {}),
    ("rows of mixed extreme magnitudes", _mixed_magnitudes, {}),
    ("bfloat16 unit rows (torch)", _bf16_unit_rows, {}),
    ("float16 unit rows (NumPy)", _fp16_unit_rows, {}),
    ("float16 unit rows (torch)", lambda: _as_torch(*_fp16_unit_rows()), {}),
    ("object array of floats", _object_floats, {}),
    ("integer S and boolean T", _integers_and_booleans, {}),
    ("top_k 10**12", lambda: (S3, T3, S3, T3), {"top_k": 10**12}),
    ("top_k 2**70", lambda: (S3, T3, S3, T3), {"top_k": 2**70}),
    ("block_size beyond the rows", lambda: (S3, T3, S3, T3), {"block_size": (1, 10**9)}),
]


@pytest.mark.parametrize("case, build, kwargs", KERNEL_ACCEPTED,
                         ids=[row[0] for row in KERNEL_ACCEPTED])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_kernel_gives_the_exact_answer_on_odd_valid_input(case, build, kwargs, dtype):
    S, T, S64, T64 = build()
    m, n = S64.shape[0], T64.shape[0]
    top_k = min(kwargs.get("top_k", 5), m * n)
    a_max, witness, top = brute_force_resolution(S64, T64, top_k=top_k)
    res = resolution(S, T, dtype=dtype, **kwargs)
    per_row = [max(float(np.sum(S64[i] * T64[j])) + 0.0 for j in range(n)) for i in range(m)]
    assert (res.max_difference, res.witness, res.top) == (a_max, witness, top)
    assert res.per_audited.tolist() == per_row
    assert res.value == max(0.0, a_max)
    assert res.flagged().tolist() == [i for i in range(m) if per_row[i] > 0]


def test_the_tiny_case_is_flagged_with_its_exact_value():
    res = resolution(np.eye(2), np.array([[3e-170, -1e-170], [-2e-170, 1e-171]]))
    assert res.value == 3e-170 and res.witness == (0, 0)
    assert res.flagged().tolist() == [0, 1]  # audited 1 has +1e-171 against reference 1


def test_a_huge_top_k_lists_every_trial_once():
    res = resolution(S3, T3, top_k=10**12)
    assert len(res.top) == S3.shape[0] * T3.shape[0] == 20
    assert len({(i, j) for i, j, _ in res.top}) == 20


def test_scaling_T_by_a_power_of_two_scales_every_value_exactly():
    T = RNG.standard_normal((40, 3)) * 0.2
    base = resolution(S3, T, top_k=8)
    for power in (-1000, -600, 200, 1000):  # inputs and values stay normal numbers
        res = resolution(S3, np.ldexp(T, power), top_k=8)
        assert res.witness == base.witness
        assert res.top == [(i, j, float(np.ldexp(v, power))) for i, j, v in base.top]


# --------------------------------------------------------------------------- the CLI


@pytest.fixture
def files(tmp_path):
    """A folder of good, odd and broken .npy files for the command line."""
    S = unit(np.random.default_rng(0).standard_normal((6, 3)))
    np.save(tmp_path / "S.npy", S)
    np.save(tmp_path / "T.npy", np.random.default_rng(1).standard_normal((5, 3)) * 0.2)
    (tmp_path / "empty.npy").write_bytes(b"")
    (tmp_path / "folder.npy").mkdir()
    np.save(tmp_path / "pickled.npy", np.array([[0.1, "x", None]], dtype=object),
            allow_pickle=True)
    np.save(tmp_path / "strings.npy", np.array([["0.1", "0.2", "0.3"]]))
    np.save(tmp_path / "complex.npy", np.ones((2, 3), dtype=complex))
    np.save(tmp_path / "flat.npy", np.ones(3))
    np.save(tmp_path / "nan.npy", np.full((2, 3), np.nan))
    whole = (tmp_path / "T.npy").read_bytes()
    (tmp_path / "truncated.npy").write_bytes(whole[:-7])
    (tmp_path / "header_only.npy").write_bytes(whole[:20])
    (tmp_path / "text.npy").write_text("0.1 0.2 0.3\n")
    np.savez(tmp_path / "archive.npz", T=np.ones((2, 3)))
    return tmp_path


def run_cli(argv: list[str], capsys) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of one in-process run (argparse exits included)."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_refusal(code, err, verb, pattern):
    """Exit status 2 and exactly one stderr line "privlab <verb>: error: ..." matching."""
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"privlab {verb}: error: ".replace(" :", ":")), lines[0]
    assert re.search(pattern, lines[0]), (pattern, lines[0])


def _ref(name):
    return ["--audited", "S.npy", "--references", name]


# (case, arguments after "resolution", with file names relative to the fixture folder,
#  expected exit status, regex naming the option or file)
RESOLUTION_REFUSALS = [
    ("zero-byte .npy", _ref("empty.npy"), 2, r"'--references' .*empty\.npy \(empty: 0 bytes\)"),
    ("a directory", _ref("folder.npy"), 2, r"'--references' .*folder\.npy \(a directory\)"),
    ("missing file", _ref("nope.npy"), 2, r"'--references' .*nope\.npy \(it does not exist\)"),
    ("pickled object array", _ref("pickled.npy"), 2,
     r"'--references' .*pickled\.npy \(it holds pickled Python objects"),
    ("strings .npy", _ref("strings.npy"), 2, r"'--references' .*strings\.npy holding dtype <U3"),
    ("complex .npy", _ref("complex.npy"), 2,
     r"'--references' .*complex\.npy holding dtype complex128"),
    ("1-D .npy", _ref("flat.npy"), 2, r"'--references' .*flat\.npy holding shape \(3,\)"),
    ("truncated .npy", _ref("truncated.npy"), 2, r"'--references' .*truncated\.npy \(it is truncated"),
    ("header only", _ref("header_only.npy"), 2, r"'--references' .*header_only\.npy \(it is truncated"),
    ("text file", _ref("text.npy"), 2, r"'--references' .*text\.npy \(a file of another kind"),
    (".npz archive", _ref("archive.npz"), 2, r"'--references' .*archive\.npz \(a \.npz archive"),
    ("bad audited file", ["--audited", "empty.npy", "--references", "T.npy"], 2,
     r"'--audited' .*empty\.npy"),
    ("NaN references", _ref("nan.npy"), 2, r"'T' parameter of resolution must be finite"),
    ("non-unit audited rows", ["--audited", "T.npy", "--references", "T.npy"], 2,
     r"'S' .* unit-length"),
    ("--block-size 0", _ref("T.npy") + ["--block-size", "0"], 2,
     r"argument --block-size: must be an integer >= 1; got '0'"),
    ("--block-size -4", _ref("T.npy") + ["--block-size", "-4"], 2, r"argument --block-size"),
    ("--top-k -1", _ref("T.npy") + ["--top-k", "-1"], 2,
     r"argument --top-k: must be an integer >= 0; got '-1'"),
    ("--top-k five", _ref("T.npy") + ["--top-k", "five"], 2, r"argument --top-k"),
    ("--dtype float16", _ref("T.npy") + ["--dtype", "float16"], 2, r"argument --dtype"),
    ("--device tpu", _ref("T.npy") + ["--device", "tpu"], 2, r"'device' .* 'cpu', 'cuda'"),
    ("no references", ["--audited", "S.npy"], 2, r"one of the arguments --references"),
    ("originals without sanitized", ["--audited", "S.npy", "--reference-originals", "S.npy"],
     2, r"'--reference-sanitized' .* given with --reference-originals"),
    ("sanitized with --references", _ref("T.npy") + ["--reference-sanitized", "S.npy"], 2,
     r"'--reference-sanitized' .* only with --reference-originals"),
    ("unknown option", _ref("T.npy") + ["--fast"], 2, r"unrecognized arguments: --fast"),
]


@pytest.mark.parametrize("case, args, code, pattern", RESOLUTION_REFUSALS,
                         ids=[row[0] for row in RESOLUTION_REFUSALS])
def test_resolution_verb_refuses_in_one_line(files, capsys, monkeypatch, case, args, code,
                                             pattern):
    monkeypatch.chdir(files)
    got, out, err = run_cli(["resolution", *args], capsys)
    assert got == code and out == ""
    assert_one_line_refusal(got, err, "resolution", pattern)


def test_an_unreadable_file_is_named(files, capsys, monkeypatch):
    real_open = Path.open

    def locked(self, *args, **kwargs):  # root reads anything, so deny it here
        if self.name == "T.npy":
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", locked)
    code, _, err = run_cli(["resolution", "--audited", str(files / "S.npy"), "--references",
                            str(files / "T.npy")], capsys)
    assert_one_line_refusal(code, err, "resolution",
                            r"'--references' .*T\.npy \(it cannot be read: Permission denied\)")


def test_the_zero_byte_file_through_the_real_entry_point(files):
    run = subprocess.run([sys.executable, "-m", "privlab", "resolution", "--audited",
                          str(files / "S.npy"), "--references", str(files / "empty.npy")],
                         capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert "empty.npy (empty: 0 bytes)" in run.stderr


def test_odd_valid_files_give_the_exact_answer(files, capsys):
    np.save(files / "tiny.npy", np.array([[3e-170, -1e-170], [-2e-170, 1e-171]]))
    np.save(files / "eye.npy", np.eye(2, dtype=np.float16))
    code, out, _ = run_cli(["resolution", "--audited", str(files / "eye.npy"), "--references",
                            str(files / "tiny.npy"), "--top-k", str(10**12), "--json"], capsys)
    printed = json.loads(out)
    assert code == 0
    assert printed["value"] == 3e-170 and printed["witness"] == [0, 0]
    assert printed["top"] == [[0, 0, 3e-170], [1, 1, 1e-171], [1, 0, -1e-170], [0, 1, -2e-170]]
    code, out, _ = run_cli(["resolution", "--audited", str(files / "eye.npy"), "--references",
                            str(files / "tiny.npy")], capsys)
    assert out.splitlines()[0].startswith("resolution 3e-170 (max difference +3e-170)")


def _notebook(path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("1 + 1")]
    nbformat.write(nb, path)


# (case, arguments after "demo", expected exit status, regex naming the option)
DEMO_REFUSALS = [
    ("--notebooks missing", ["--notebooks", "nope"], 2,
     r"'--notebooks' .* existing folder. Got nope \(it does not exist\)"),
    ("--notebooks a file", ["--notebooks", "note.txt"], 2,
     r"'--notebooks' .*note\.txt \(a file\)"),
    ("--notebooks without notebooks", ["--notebooks", "empty"], 2,
     r"'--notebooks' .* NN_\*\.ipynb.*\(it holds none\)"),
    ("--only matching nothing", ["--notebooks", "nbs", "--only", "99"], 2,
     r"'--only' .* Got 99 instead"),
    ("--out a file", ["--notebooks", "nbs", "--out", "note.txt"], 2,
     r"'--out' .*note\.txt \(a file\)"),
    ("unknown option", ["--fast"], 2, r"unrecognized arguments: --fast"),
]


@pytest.mark.parametrize("case, args, code, pattern", DEMO_REFUSALS,
                         ids=[row[0] for row in DEMO_REFUSALS])
def test_demo_verb_refuses_in_one_line(tmp_path, capsys, monkeypatch, case, args, code,
                                       pattern):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "note.txt").write_text("not a folder")
    (tmp_path / "empty").mkdir()
    (tmp_path / "nbs").mkdir()
    _notebook(tmp_path / "nbs" / "00_a.ipynb")
    got, out, err = run_cli(["demo", *args], capsys)
    assert got == code and out == ""
    assert_one_line_refusal(got, err, "demo", pattern)
    assert not (tmp_path / "reports").exists()  # refused before running anything


# (case, arguments after "epsilon-benchmark", expected exit status, regex)
EPSILON_REFUSALS = [
    ("--n not a number", ["--n", "ten", "--out", "t.csv"], 2, r"argument --n: invalid int"),
    ("--jobs not a number", ["--jobs", "two", "--out", "t.csv"], 2, r"argument --jobs"),
    ("--n 0", ["--n", "0", "--out", "t.csv"], 2, r"'--n' option .* >= 10"),
    ("no --out", [], 2, r"the following arguments are required: --out"),
]


@pytest.mark.parametrize("case, args, code, pattern", EPSILON_REFUSALS,
                         ids=[row[0] for row in EPSILON_REFUSALS])
def test_epsilon_verb_refuses_in_one_line(tmp_path, capsys, monkeypatch, case, args, code,
                                          pattern):
    monkeypatch.chdir(tmp_path)
    got, out, err = run_cli(["epsilon-benchmark", "--no-cache", "--quiet", *args], capsys)
    assert got == code and out == ""
    assert_one_line_refusal(got, err, "epsilon-benchmark", pattern)
    assert not (tmp_path / "t.csv").exists()


@pytest.mark.parametrize("argv, pattern", [
    ([], r"the following arguments are required: COMMAND"),
    (["bogus"], r"invalid choice: 'bogus'"),
])
def test_the_top_level_refuses_in_one_line(capsys, argv, pattern):
    code, _, err = run_cli(argv, capsys)
    assert_one_line_refusal(code, err, "", pattern)
