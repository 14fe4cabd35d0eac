"""Arrays that NumPy would convert while losing data, at every public array entry.

One table of inputs (masked, complex, longdouble beyond float64, np.matrix, SciPy sparse,
meta tensors, text and object dtypes, non-finite values) against one table of entry
points (the kernel, reference directions, the symmetric test, the certified and the
screened paths, the ε auditors, the cascade and pair tables): every pair is refused with
the error type and a message naming the parameter and the fix. Beside them: what the
guard keeps (valid longdouble, integer, object-of-float input gives the float64 answer),
the ``normalize`` flag, the certified path's status when no value is computed, and the
resolution verb on files NumPy would misread.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse
import torch

from privlab.arrays import check_array, check_flag
from privlab.epsilon.auditors import registry as auditors
from privlab.epsilon.cascade import audit_cascade
from privlab.epsilon.pairs import certify_pairs
from privlab.errors import PrivlabTypeError, PrivlabValueError
from privlab.resolution import reference_directions, resolution, symmetric_resolution
from privlab.scale import certified_resolution
from privlab.scale.result import BELOW_DELTA, EXACT
from tests.reliability.test_kernel_and_cli import assert_one_line_refusal, run_cli

S = np.eye(3)
T = np.array([[0.1, -0.2, 0.05], [0.0, 0.3, -0.1]])


def _longdouble(value: str) -> np.ndarray:
    out = T.astype(np.longdouble)
    out[1, 2] = np.longdouble(value)
    return out


def _matrix(a) -> np.matrix:
    with warnings.catch_warnings():  # NumPy discourages np.matrix: that is the point
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        return np.matrix(a)


# (case, builder of a bad (2, 3) input, error type, regex the message must match after
#  the parameter's name)
BAD_ARRAYS = [
    ("longdouble 1e400", lambda: _longdouble("1e400"), PrivlabValueError,
     r"float64 can hold.*1e\+400.*index \((0, )?1, 2\).*Rescale"),
    ("longdouble 1e-400 (underflows to 0)", lambda: _longdouble("1e-400"), PrivlabValueError,
     r"float64 can hold.*1e-400"),
    ("masked array", lambda: np.ma.masked_array(T, mask=[[0, 1, 0], [0, 0, 0]]),
     PrivlabValueError, r"plain array \(a mask would be dropped.*\d+ masked entries.*x\.filled"),
    ("complex128", lambda: T + 1j, PrivlabValueError, r"real .*complex128.*x\.real"),
    ("object array holding a complex", lambda: np.array([[0.1, 1 + 2j, 0.0]] * 2, dtype=object),
     PrivlabValueError, r"real .*complex"),
    ("np.matrix", lambda: _matrix(T), PrivlabValueError, r"np\.matrix.*np\.asarray\(x\)"),
    ("SciPy sparse", lambda: scipy.sparse.csr_matrix(T), PrivlabValueError,
     r"dense array.*csr_matrix.*x\.toarray\(\)"),
    ("torch meta tensor", lambda: torch.empty(2, 3, device="meta"), PrivlabValueError,
     r"meta tensor of shape \(\d+, 3\).*real device"),
    ("torch sparse tensor", lambda: torch.from_numpy(T).to_sparse(), PrivlabValueError,
     r"layout torch\.sparse_coo.*to_dense"),
    ("strings", lambda: T.astype(str), PrivlabValueError, r"numeric array.*dtype <U"),
    ("object array holding text", lambda: np.array([[0.1, "x", 0.0]] * 2, dtype=object),
     PrivlabValueError, r"numeric array.*str 'x'"),
    ("dates", lambda: np.zeros((2, 3), dtype="datetime64[D]"), PrivlabValueError,
     r"numeric array.*datetime64"),
    ("NaN", lambda: np.where(T > 0.2, np.nan, T), PrivlabValueError, r"finite"),
    ("a bare string", lambda: "0.1 0.2 0.3", PrivlabTypeError, r"Got str"),
]


def _pair(x):
    """Two identities' outputs of which the second is ``x`` stacked to 12 rows."""
    a = np.random.default_rng(0).standard_normal((12, 3))
    if isinstance(x, str):
        return a, x
    if isinstance(x, torch.Tensor):
        return a, torch.cat([x] * 6) if not x.is_sparse else x
    if scipy.sparse.issparse(x) or isinstance(x, np.matrix):
        return a, x
    return a, np.concatenate([x] * 6) if not isinstance(x, np.ma.MaskedArray) else \
        np.ma.concatenate([x] * 6)


def _cascade(x):
    labels = np.array(["a", "b"])
    if isinstance(x, (str, torch.Tensor)) or scipy.sparse.issparse(x) \
            or isinstance(x, np.matrix):
        return audit_cascade(x, labels, np.array([True, False]), [("a", "b")])
    return audit_cascade(x[None], labels, np.array([True, False]), [("a", "b")])


# (entry point, the parameter the message names, call with the bad input)
ENTRIES = [
    ("resolution S", "S", lambda x: resolution(x, T)),
    ("resolution T", "T", lambda x: resolution(S, x)),
    ("reference_directions", "E_ref", lambda x: reference_directions(x, S[:2])),
    # The symmetric test builds its reference directions first, which name the input.
    ("symmetric_resolution", "E_ref_sanitized", lambda x: symmetric_resolution(S[:2], x)),
    ("certified_resolution", "T", lambda x: certified_resolution(S, x)),
    ("auditor (reserved)", "b", lambda x: auditors.create("reserved").audit(*_pair(x))),
    ("auditor (hockey-stick)", "b", lambda x: auditors.create("hockey-stick").audit(*_pair(x))),
    ("certify_pairs", "embeddings",
     lambda x: certify_pairs(x, np.array(["a", "b"]), np.array([True, False]), [("a", "b")],
                           alpha=0.05)),
    ("audit_cascade", "vectors", _cascade),
]


@pytest.mark.parametrize("entry, parameter, call", ENTRIES, ids=[e[0] for e in ENTRIES])
@pytest.mark.parametrize("case, build, error, pattern", BAD_ARRAYS,
                         ids=[b[0] for b in BAD_ARRAYS])
def test_every_array_entry_refuses_what_conversion_would_lose(entry, parameter, call, case,
                                                             build, error, pattern):
    with pytest.raises(error, match=rf"'{parameter}' parameter of .*{pattern}"):
        call(build())


def test_the_guard_keeps_valid_input_as_it_is():
    plain = np.asarray(T)
    assert check_array(plain, "x", "demo") is plain
    tensor = torch.from_numpy(T)
    kept = check_array(tensor, "x", "demo", torch_ok=True)
    assert isinstance(kept, torch.Tensor) and kept.data_ptr() == tensor.data_ptr()
    assert check_array([[1, 2]], "x", "demo").dtype == np.int64
    assert check_array(np.array([[0.5, 1]], dtype=object), "x", "demo").tolist() == [[0.5, 1.0]]
    wide = check_array(T.astype(np.longdouble), "x", "demo")
    assert wide.dtype == np.float64 and wide.tolist() == T.tolist()


def test_longdouble_that_fits_gives_the_float64_answer():
    exact = resolution(S, T)
    wide = resolution(S.astype(np.longdouble), T.astype(np.longdouble))
    assert (wide.value, wide.witness, wide.top) == (exact.value, exact.witness, exact.top)
    assert wide.value == 0.3


@pytest.mark.parametrize("value", ["no", "False", 0, 1, None, np.array([True])])
@pytest.mark.parametrize("call", [
    lambda v: resolution(S, T, normalize=v),
    lambda v: reference_directions(S, S, normalize=v),
    lambda v: symmetric_resolution(S, S, normalize=v),
    lambda v: certified_resolution(S, T, normalize=v),
], ids=["resolution", "reference_directions", "symmetric_resolution", "certified_resolution"])
def test_normalize_must_be_a_bool(call, value):
    with pytest.raises(PrivlabTypeError, match=r"'normalize' parameter .* True or False"):
        call(value)


def test_normalize_true_and_numpy_bools_still_work():
    assert check_flag(np.bool_(False), "normalize", "demo") is False
    assert resolution(S * 2, T, normalize=np.bool_(True)).value == 0.3


def test_a_flagged_call_that_finds_nothing_is_not_labelled_exact():
    T3 = np.array([[0.1, 0, 0], [0, 0.2, 0], [0, 0, 0.3]])
    nothing = certified_resolution(S, T3, mode="flagged", delta=0.5)
    assert nothing.value is None and nothing.status == BELOW_DELTA
    assert "not computed" in nothing.to_dict()["status"]
    found = certified_resolution(S, T3, mode="flagged", delta=0.25)
    assert found.value == 0.3 and found.status == EXACT
    zero = certified_resolution(S, -T3, mode="flagged", delta=0.0)  # every trial <= 0
    assert zero.value == 0.0 and zero.status == EXACT


def test_dask_with_unknown_chunks_is_refused_before_anything_runs():
    da = pytest.importorskip("dask.array", reason="dask is an optional dependency")
    lazy = da.from_array(T, chunks=1)
    filtered = lazy[lazy[:, 0] >= 0]  # a boolean filter leaves the row count unknown
    with pytest.raises(PrivlabValueError, match=r"'T' .* known shape.*compute_chunk_sizes"):
        certified_resolution(S, filtered)
    with pytest.raises(PrivlabValueError, match=r"'T' .* real .*complex"):
        certified_resolution(S, da.from_array(T + 1j, chunks=1))
    with pytest.raises(PrivlabValueError, match=r"'T' .* dask array"):
        resolution(S, lazy)


def test_ivf_with_more_lists_than_references_is_refused():
    pytest.importorskip("faiss", reason="faiss is an optional dependency")
    from privlab.scale.screen import screen_resolution

    with pytest.raises(PrivlabValueError, match=r"'nlist' .* at most the number of references "
                                                r"\(n = 2\)\. Got 10"):
        screen_resolution(S, T, index="ivf", nlist=10)
    assert screen_resolution(S, T, index="ivf", nlist=2).lower_bound <= 0.3


@pytest.mark.parametrize("seed", [-1, 2**32, 2.0, True])
@pytest.mark.parametrize("call", [
    lambda s: certified_resolution(S, T, seed=s),
    lambda s: auditors.create("reserved").audit(*_pair(T), seed=s),
], ids=["certified_resolution", "auditor"])
def test_seeds_numpy_refuses_are_refused_by_name(call, seed):
    with pytest.raises((PrivlabValueError, PrivlabTypeError), match=r"'seed' parameter"):
        call(seed)


def test_screen_refuses_a_negative_seed():
    pytest.importorskip("faiss", reason="faiss is an optional dependency")
    from privlab.scale.screen import screen_resolution

    with pytest.raises(PrivlabValueError, match=r"'seed' .* \[0, 2\*\*32 - 1\]"):
        screen_resolution(S, T, index="ivf", seed=-5)


# --------------------------------------------------------------------------- the CLI


def test_cli_refuses_a_longdouble_file_beyond_float64(tmp_path, capsys):
    np.save(tmp_path / "S.npy", S)
    np.save(tmp_path / "L.npy", _longdouble("1e400"))
    code, out, err = run_cli(["resolution", "--audited", str(tmp_path / "S.npy"),
                              "--references", str(tmp_path / "L.npy")], capsys)
    assert out == ""
    assert_one_line_refusal(code, err, "resolution",
                            r"'--references' .*L\.npy holding a float128 value .*1e\+400")


def test_cli_reads_a_longdouble_file_that_fits_exactly(tmp_path, capsys):
    np.save(tmp_path / "S.npy", S)
    np.save(tmp_path / "L.npy", T.astype(np.longdouble))
    code, out, _ = run_cli(["resolution", "--audited", str(tmp_path / "S.npy"),
                            "--references", str(tmp_path / "L.npy")], capsys)
    assert code == 0 and out.startswith("resolution 0.3 ")


def test_cli_refuses_a_header_promising_10_to_the_12_rows(tmp_path, capsys):
    import io

    np.save(tmp_path / "S.npy", S)
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<f8", "fortran_order": False, "shape": (10**12, 3)})
    (tmp_path / "huge.npy").write_bytes(header.getvalue() + T.tobytes())
    code, out, err = run_cli(["resolution", "--audited", str(tmp_path / "S.npy"),
                              "--references", str(tmp_path / "huge.npy")], capsys)
    assert out == ""
    assert_one_line_refusal(code, err, "resolution",
                            r"'--references' .*huge\.npy \(it is truncated or damaged: its "
                            r"header promises shape \(1000000000000, 3\).*holds 48\)")
