"""Identity-labelled embedding tables: loading, checks and the load report.

:func:`load_embedding_table` reads a CSV or ``.npz`` table of one identity label and one
embedding per generated image; malformed rows stop the load with every bad line named,
while dropped and duplicated rows are counted in the :class:`LoadReport`. The formats
and the rules for imperfect rows: ``docs/methods/data-loaders.md``.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from privlab.arrays import check_flag
from privlab.errors import invalid, item_list, wrong_type
from privlab.hashing import bytes_hash, file_hash
from privlab.io import check_readable

MIN_NORM = 1e-6
LABEL_COLUMN_NAMES = ("label", "identity", "identity_id", "id", "person", "name", "subject",
                      "subject_id", "person_id", "class", "target")
MISSING_TOKENS = ("", "nan", "na", "n/a", "null", "none")
MAX_LISTED = 10


# ----------------------------------------------------------------------------------
# The table and its load report
# ----------------------------------------------------------------------------------

@dataclass
class LoadReport:
    """What happened to the rows of a table on the way in.

    Attributes:
        rows_read: data rows found (blank lines excluded).
        blank_lines: empty lines skipped in a CSV file (they hold no row).
        dropped_missing: locations of rows whose vector was missing altogether.
        dropped_zero_norm: locations of rows whose vector norm was at most ``min_norm``.
        duplicates: one row per group of identical vectors among the kept rows, with
            ``kind`` (``"within identity"`` or ``"across identities"``), ``labels``,
            ``locations`` and ``rows`` (the group size).
        location_kind: ``"line"`` (CSV line number, the header is line 1) or ``"row"``
            (0-based index in a ``.npz`` file or in arrays).
        min_norm: the norm threshold used.
    """

    rows_read: int
    blank_lines: int = 0
    dropped_missing: list[int] = field(default_factory=list)
    dropped_zero_norm: list[int] = field(default_factory=list)
    duplicates: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(
        columns=["kind", "labels", "locations", "rows"]))
    location_kind: str = "line"
    min_norm: float = MIN_NORM

    @property
    def kept(self) -> int:
        """Rows kept after dropping missing and zero-norm vectors."""
        return self.rows_read - len(self.dropped_missing) - len(self.dropped_zero_norm)

    def duplicate_groups(self, kind: str) -> int:
        """Number of duplicate groups of ``kind`` (``"within identity"`` or
        ``"across identities"``)."""
        if self.duplicates.empty:
            return 0
        return int((self.duplicates["kind"] == kind).sum())

    def to_frame(self) -> pd.DataFrame:
        """Field/value table of the counts, for notebooks."""
        rows = [("rows read", self.rows_read), ("rows kept", self.kept),
                ("dropped: missing vector", len(self.dropped_missing)),
                ("dropped: norm <= %g" % self.min_norm, len(self.dropped_zero_norm)),
                ("duplicate groups within one identity",
                 self.duplicate_groups("within identity")),
                ("duplicate groups across identities",
                 self.duplicate_groups("across identities")),
                ("blank lines skipped", self.blank_lines)]
        return pd.DataFrame(rows, columns=["field", "value"])


@dataclass
class EmbeddingTable:
    """Identity-labelled embeddings, one row per generated image.

    Attributes:
        embeddings: float64 ``(N, d)``; unit rows when loaded with ``normalize=True``.
        labels: ``(N,)`` array of identity labels as strings.
        locations: ``(N,)`` int array: the CSV line or array row each kept row came from.
        source: the file path, or a description of where the rows came from.
        report: the :class:`LoadReport`.
        provenance: file hash, settings and, for generated tables, the generation record
            (``provenance["generation"]``).
    """

    embeddings: np.ndarray = field(repr=False)
    labels: np.ndarray = field(repr=False)
    locations: np.ndarray = field(repr=False)
    source: str
    report: LoadReport
    provenance: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def dim(self) -> int:
        """Embedding dimension d."""
        return int(self.embeddings.shape[1])

    def counts(self) -> pd.Series:
        """Rows per identity, labels in sorted order."""
        return pd.Series(self.labels).value_counts().sort_index().rename("rows")

    def identities(self) -> list[str]:
        """Sorted identity labels."""
        return sorted(set(self.labels.tolist()))

    def rows(self, label: str) -> np.ndarray:
        """The embeddings of one identity, ``(n_label, d)``.

        Raises:
            PrivlabValueError: no row has ``label`` (named, with the nearest labels).
        """
        found = self.embeddings[self.labels == str(label)]
        if not len(found):
            import difflib

            known = self.identities()
            near = difflib.get_close_matches(str(label), known, n=3)
            raise invalid("label", "EmbeddingTable.rows", f"one of the table's {len(known)} "
                          "identities", label, f"Did you mean {near}?" if near else
                          f"E.g. {known[:5]}.")
        return found

    def to_frame(self) -> pd.DataFrame:
        """One row per kept row: ``label``, ``location`` and ``e0 … e{d-1}``."""
        frame = pd.DataFrame(self.embeddings, columns=[f"e{k}" for k in range(self.dim)])
        frame.insert(0, "location", self.locations)
        frame.insert(0, "label", self.labels)
        return frame

    def save_csv(self, path: str | Path) -> Path:
        """Write the kept rows as CSV (``label`` then ``e0 … e{d-1}``); returns the path.

        The file reads back with :func:`load_embedding_table` to the same vectors
        (bit for bit with ``normalize=False``; renormalising moves the last digit).
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["label"] + [f"e{k}" for k in range(self.dim)])
            for label, vec in zip(self.labels, self.embeddings):
                writer.writerow([label] + [repr(float(v)) for v in vec])
        return path

    def summary(self) -> pd.DataFrame:
        """Field/value table: source, hash, shape, identities and the load report."""
        counts = self.counts()
        head = [("source", self.source), ("sha256", self.provenance.get("sha256", "")),
                ("dimension", self.dim), ("identities", len(counts)),
                ("rows per identity", f"{counts.min()}–{counts.max()}" if len(counts) else "")]
        return pd.concat([pd.DataFrame(head, columns=["field", "value"]),
                          self.report.to_frame()], ignore_index=True)

    def _repr_html_(self) -> str:
        return ("<b>identity-labelled embedding table</b>"
                + self.summary().to_html(index=False))


# ----------------------------------------------------------------------------------
# Loading
# ----------------------------------------------------------------------------------

def _listing(problems: list[tuple[int, str]], kind: str) -> str:
    shown = "; ".join(f"{kind} {loc}: {why}" for loc, why in problems[:MAX_LISTED])
    more = len(problems) - MAX_LISTED
    return (f"{len(problems)} malformed row{'s' if len(problems) != 1 else ''} ({shown}"
            + (f"; and {more} more" if more > 0 else "") + ")")


def _parse_number(token: str) -> float | None:
    """A float, None for a missing token; raises ValueError for anything else."""
    text = token.strip()
    if text.lower() in MISSING_TOKENS:
        return None
    value = float(text)
    if math.isnan(value):
        return None
    return value


def _parse_vector_cell(cell: str) -> list[float | None]:
    text = cell.strip()
    if text.lower() in MISSING_TOKENS:
        return []
    if text.startswith("["):
        values = json.loads(text)
        if not isinstance(values, list) or any(
                isinstance(v, (list, dict, bool, str)) for v in values):
            raise ValueError("the JSON value is not a flat list of numbers")
        return [None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)
                for v in values]
    return [_parse_number(t) for t in re.split(r"[\s,;]+", text) if t != ""]


def _row_vector(values: list[float | None], dim: int | None) -> tuple[str, Any]:
    """Classify parsed values: ("missing", None), ("ok", vector) or ("bad", reason)."""
    present = [v for v in values if v is not None]
    if not present:
        return "missing", None
    if len(present) != len(values):
        return "bad", f"{len(values) - len(present)} of {len(values)} values missing"
    if dim is not None and len(values) != dim:
        return "bad", f"a vector of length {len(values)}, others have {dim}"
    if not all(math.isfinite(v) for v in present):
        return "bad", "an infinite value"
    return "ok", present


def _pick_label_column(header: list[str], label_column: str | None, caller: str) -> int:
    if label_column is not None:
        if label_column not in header:
            raise invalid("label_column", caller, f"one of the header's columns {header}",
                          label_column)
        return header.index(label_column)
    lowered = [h.strip().lower() for h in header]
    for name in LABEL_COLUMN_NAMES:
        if name in lowered:
            return lowered.index(name)
    if len(header) > 2 and header[0] not in ("", "0") and \
            re.fullmatch(r"[A-Za-z_]*\d+", header[0]) and \
            re.fullmatch(r"[A-Za-z_]*\d+", header[1]):
        # e0, e1, ... first: the first column is an embedding value, not the label
        raise invalid("label_column", caller, "the header's column holding the identity",
                      None, f"None of the columns {header} is named like a label "
                      f"({', '.join(LABEL_COLUMN_NAMES[:6])}, ...) and the first looks like an "
                      "embedding value. Pass label_column='<name>'; nothing was loaded.")
    return 0


def _read_csv(path: Path, label_column, embedding_columns, vector_column, caller):
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise invalid("path", caller, "a UTF-8 text file",
                      f"{path.name} line {line}: byte 0x{raw[exc.start]:02x} is not UTF-8",
                      "Re-save the file as UTF-8; nothing was loaded.",
                      given_is_text=True) from None
    # newline=None reads \r\n, \n and a lone \r (old Mac files) alike as line ends
    reader = csv.reader(io.StringIO(text, newline=None))
    try:
        header = next(reader)
    except StopIteration:
        raise invalid("path", caller, "a CSV file with a header line",
                      f"{path.name}: an empty file", given_is_text=True) from None
    header = [h.strip() for h in header]
    label_at = _pick_label_column(header, label_column, caller)
    others = [i for i in range(len(header)) if i != label_at]
    if vector_column is not None:
        if vector_column not in header:
            raise invalid("vector_column", caller, f"one of the header's columns {header}",
                          vector_column)
        mode, cols = "cell", [header.index(vector_column)]
    elif embedding_columns is not None:
        missing = [c for c in embedding_columns if c not in header]
        if missing or not embedding_columns:
            raise invalid("embedding_columns", caller,
                          "a nonempty list of the header's columns", list(embedding_columns))
        mode, cols = "columns", [header.index(c) for c in embedding_columns]
    elif len(others) == 1:
        mode, cols = "cell", others
    elif others:
        mode, cols = "columns", others
    else:
        raise invalid("path", caller, "a CSV file with a label column and embedding columns",
                      f"a header with only {header}", given_is_text=True)
    labels, vectors, locations, missing_at, problems = [], [], [], [], []
    blank, dim = 0, None
    for record in reader:
        line = reader.line_num
        if not record or all(not f.strip() for f in record) and len(record) <= 1:
            blank += 1
            continue
        if len(record) != len(header):
            problems.append((line, f"{len(record)} fields, the header has {len(header)}"))
            continue
        label = record[label_at].strip()
        if not label or label.lower() == "nan":
            problems.append((line, "an empty label" if not label else "a NaN label"))
            continue
        try:
            values = (_parse_vector_cell(record[cols[0]]) if mode == "cell"
                      else [_parse_number(record[c]) for c in cols])
        except (ValueError, json.JSONDecodeError) as exc:
            reason = str(exc).split("\n")[0]
            problems.append((line, f"a value that is not a number ({reason})"))
            continue
        status, payload = _row_vector(values, dim)
        if status == "bad":
            problems.append((line, payload))
            continue
        labels.append(label)
        locations.append(line)
        if status == "missing":
            vectors.append(None)
            missing_at.append(line)
        else:
            dim = len(payload) if dim is None else dim
            vectors.append(payload)
    if problems:
        raise invalid("path", caller, "a table whose every row holds a label and a vector",
                      f"{path.name}: {_listing(problems, 'line')}", "Repair or remove those "
                      "lines; nothing was loaded.", given_is_text=True)
    return labels, vectors, locations, blank, {"format": "csv", "mode": mode,
                                                "label_column": header[label_at],
                                                "columns": len(header)}


_NPZ_FIX = ("Save the table again with np.savez(path, embeddings=x.astype(float), "
            "labels=y.astype(str)); nothing was loaded.")


def _read_npz(path: Path, embeddings_key: str, labels_key: str, caller: str):
    def refuse(problem: str) -> Exception:
        return invalid("path", caller, "a readable .npz archive of numeric embeddings and "
                       "string labels", f"{path.name}: {problem}", _NPZ_FIX, given_is_text=True)

    try:
        data = np.load(path, allow_pickle=False)
    except (zipfile.BadZipFile, EOFError, OSError) as exc:
        raise refuse(f"not a complete zip archive ({exc})") from exc
    except ValueError as exc:  # numpy's answer to a file that is neither .npy nor .npz
        raise refuse(f"not an .npz archive ({str(exc).split('.')[0]})") from exc
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise refuse("a single .npy array, not an archive of named arrays")
    with data:
        keys = list(data.keys())
        for key, parameter in ((embeddings_key, "embeddings_key"), (labels_key, "labels_key")):
            if key not in data:
                raise invalid(parameter, caller, f"one of the arrays in the file {keys}", key)
        arrays = []
        for key in (embeddings_key, labels_key):
            try:
                arrays.append(np.asarray(data[key]))
            except ValueError as exc:
                if "allow_pickle" in str(exc):  # never unpickle: it runs code from the file
                    raise refuse(f"array '{key}' holds pickled Python objects (dtype object)"
                                 ) from exc
                raise refuse(f"array '{key}' is truncated or damaged ({exc})") from exc
            except (zipfile.BadZipFile, EOFError, OSError, zlib.error) as exc:
                raise refuse(f"array '{key}' is truncated or damaged ({exc})") from exc
    x, y = arrays
    return _from_arrays_checked(x, y, caller, path.name) + ({"format": "npz", "keys": keys},)


def _from_arrays_checked(x: np.ndarray, y: np.ndarray, caller: str, name: str | None = None):
    at = f"{name}: " if name else ""  # the file, when the arrays came from one
    if x.ndim != 2:
        raise invalid("embeddings", caller, "a 2-D array (N, d)", f"{at}shape {x.shape}",
                      given_is_text=True)
    if y.ndim != 1 or len(y) != len(x):
        raise invalid("labels", caller, f"a 1-D array of length {len(x)}",
                      f"{at}shape {y.shape}", given_is_text=True)
    if x.dtype.kind == "c":  # astype(float) would drop the imaginary part with a warning
        raise invalid("embeddings", caller, "real numbers", f"{at}dtype {x.dtype}",
                      "Save the real embeddings (np.real(x) if the imaginary parts are 0); "
                      "nothing was loaded.", given_is_text=True)
    try:
        x = x.astype(np.float64)
    except (TypeError, ValueError):
        raise invalid("embeddings", caller, "numeric", f"{at}dtype {x.dtype}",
                      given_is_text=True) from None
    labels, vectors, locations, problems = [], [], [], []
    for i in range(len(x)):
        value = y[i]
        if isinstance(value, (bytes, np.bytes_)):
            try:  # labels saved as bytes: the text they hold, never "b'alice'"
                value = bytes(value).decode("utf-8")
            except UnicodeDecodeError:
                problems.append((i, "a label of bytes that are not UTF-8"))
                continue
        if isinstance(value, (float, np.floating)) and math.isnan(value):
            problems.append((i, "a NaN label"))
            continue
        label = str(value).strip()
        if not label or label.lower() == "nan":
            problems.append((i, "an empty label" if not label else "a NaN label"))
            continue
        row = x[i]
        values = [None if math.isnan(v) else float(v) for v in row]
        status, payload = _row_vector(values, None)
        if status == "bad":
            problems.append((i, payload))
            continue
        labels.append(label)
        locations.append(i)
        vectors.append(None if status == "missing" else payload)
    if problems:
        raise invalid("embeddings", caller, "rows that each hold a label and a finite vector",
                      at + _listing(problems, "row"), "Repair or remove those rows; nothing "
                      "was loaded.", given_is_text=True)
    return labels, vectors, locations, 0


def _check_min_norm(min_norm: Any, caller: str) -> None:
    if isinstance(min_norm, bool) or not isinstance(min_norm, (int, float)) \
            or not min_norm >= 0 or math.isinf(min_norm):  # NaN fails >= 0: it kept NaN rows
        raise invalid("min_norm", caller, "a finite nonnegative number", min_norm,
                      f"E.g. min_norm={MIN_NORM}.")


def _finish(labels, vectors, locations, blank, location_kind, min_norm, normalize, source,
            provenance) -> EmbeddingTable:
    missing = [loc for loc, v in zip(locations, vectors) if v is None]
    keep = [k for k, v in enumerate(vectors) if v is not None]
    dim = len(vectors[keep[0]]) if keep else 0
    x = np.asarray([vectors[k] for k in keep], dtype=np.float64).reshape(len(keep), dim)
    lab = np.asarray([labels[k] for k in keep], dtype=object).astype(str)
    loc = np.asarray([locations[k] for k in keep], dtype=np.int64)
    norms = np.linalg.norm(x, axis=1) if len(x) else np.zeros(0)
    small = norms <= min_norm
    zero_at = loc[small].tolist()
    x, lab, loc, norms = x[~small], lab[~small], loc[~small], norms[~small]
    if len(keep) and not len(x):  # every vector was below min_norm
        raise invalid("path", "load_embedding_table", "a table with at least one usable vector",
                      f"{source}: all {len(keep)} vectors have norm <= min_norm={min_norm}",
                      "Check the embedding columns (vector_column= or embedding_columns=) or "
                      "lower min_norm.", given_is_text=True)
    duplicates = find_duplicates(x, lab, loc)
    if normalize and len(x):
        x = x / norms[:, None]
    report = LoadReport(rows_read=len(vectors), blank_lines=blank, dropped_missing=missing,
                        dropped_zero_norm=[int(v) for v in zero_at], duplicates=duplicates,
                        location_kind=location_kind, min_norm=min_norm)
    provenance = dict(provenance)
    provenance.update({"normalized": bool(normalize), "min_norm": min_norm,
                       "rows_read": report.rows_read, "rows_kept": int(len(x)),
                       "identities": int(len(set(lab.tolist())))})
    return EmbeddingTable(x, lab, loc, source, report, provenance)


def find_duplicates(embeddings: np.ndarray, labels: Sequence, locations: Sequence[int]
                    ) -> pd.DataFrame:
    """Groups of identical vectors, within one identity or across identities.

    Args:
        embeddings: ``(N, d)`` array.
        labels: ``N`` identity labels.
        locations: ``N`` line or row numbers, reported for each group.

    Returns:
        DataFrame with one row per group of two or more identical rows: ``kind``
        (``"within identity"`` when every copy has the same label, else ``"across
        identities"``), ``labels`` (sorted distinct labels), ``locations`` and ``rows``.

    Example:
        >>> x = np.array([[1.0, 0], [1.0, 0], [0, 1.0], [0, 1.0], [0.5, 0.5]])
        >>> d = find_duplicates(x, ["a", "a", "a", "b", "b"], [2, 3, 4, 5, 6])
        >>> d[["kind", "rows"]].values.tolist()
        [['within identity', 2], ['across identities', 2]]
    """
    x = np.ascontiguousarray(np.asarray(embeddings, dtype=np.float64))
    groups: dict[bytes, list[int]] = {}
    for k in range(len(x)):
        groups.setdefault((x[k] + 0.0).tobytes(), []).append(k)
    rows = []
    for members in groups.values():
        if len(members) < 2:
            continue
        labs = sorted({str(labels[k]) for k in members})
        rows.append({"kind": "within identity" if len(labs) == 1 else "across identities",
                     "labels": labs, "locations": [int(locations[k]) for k in members],
                     "rows": len(members)})
    return pd.DataFrame(rows, columns=["kind", "labels", "locations", "rows"])


def load_embedding_table(path: str | Path, *, label_column: str | None = None,
                         embedding_columns: Sequence[str] | None = None,
                         vector_column: str | None = None, embeddings_key: str = "embeddings",
                         labels_key: str = "labels", min_norm: float = MIN_NORM,
                         normalize: bool = True,
                         generation: Mapping[str, Any] | None = None) -> EmbeddingTable:
    """Read an identity-labelled embedding table from CSV or ``.npz``.

    CSV: the label column is ``label_column``, else the first header named ``label``,
    ``identity``, ``identity_id``, ``id``, ``person`` or ``name``, else the first
    column. The vector is ``vector_column`` (one cell: JSON list or numbers separated by
    spaces, commas or semicolons), else ``embedding_columns``, else every other column
    (one other column is read as a vector cell). Empty cells and ``nan``/``NA``/``null``
    mark missing values.

    Args:
        path: a ``.csv`` or ``.npz`` file.
        label_column: CSV column holding the identity label.
        embedding_columns: CSV columns holding the coordinates, in order.
        vector_column: CSV column holding the whole vector.
        embeddings_key: ``.npz`` array ``(N, d)`` of embeddings.
        labels_key: ``.npz`` array ``(N,)`` of labels.
        min_norm: rows whose vector norm is at most this are dropped (and counted).
        normalize: L2-normalise the kept rows.
        generation: what is known about how the rows were generated (generator,
            revision, settings, seeds, checkpoints, donor, sources, label meaning); it
            is kept in ``provenance["generation"]`` for the Appendix A record.

    Returns:
        An :class:`EmbeddingTable`; its ``report`` counts dropped rows and lists
        duplicated vectors.

    Raises:
        PrivlabValueError: a missing file, an unknown suffix or column, a file that is not
            UTF-8 (CSV) or is damaged, truncated or pickled (``.npz``), or malformed rows
            (the file and all bad lines or rows named at once; nothing is loaded).

    Example:
        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "t.csv")
        >>> _ = open(p, "w").write("label,e0,e1\\nann,3,4\\nann,,\\nbob,0,0\\nbob,1,0\\n")
        >>> t = load_embedding_table(p)
        >>> len(t), t.report.dropped_missing, t.report.dropped_zero_norm
        (2, [3], [4])
        >>> t.embeddings[0].tolist()
        [0.6, 0.8]
    """
    caller = "load_embedding_table"
    if not isinstance(path, (str, Path)):
        raise wrong_type("path", caller, "a path to a .csv or .npz file", path)
    path = Path(path)
    if not path.is_file():
        raise invalid("path", caller, "an existing file", str(path),
                      "Check the path, or use toy_face_table() for the offline default.")
    _check_min_norm(min_norm, caller)
    if generation is not None and not isinstance(generation, Mapping):
        raise wrong_type("generation", caller, "a mapping or None", generation)
    normalize = check_flag(normalize, "normalize", caller)
    if embedding_columns is not None:
        embedding_columns = item_list(embedding_columns, "embedding_columns", caller)
    check_readable(path, "path", caller)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        labels, vectors, locations, blank, fmt = _read_csv(
            path, label_column, embedding_columns, vector_column, caller)
        kind = "line"
    elif suffix == ".npz":
        labels, vectors, locations, blank, fmt = _read_npz(path, embeddings_key, labels_key,
                                                           caller)
        kind = "row"
    else:
        raise invalid("path", caller, "a .csv or .npz file", str(path),
                      "Save the table as CSV (label + embedding) or .npz (embeddings, labels).")
    if not vectors:
        raise invalid("path", caller, "a table with at least one row", f"{path.name}: no rows",
                      given_is_text=True)
    prov = {"sha256": file_hash(path), "path": str(path), **fmt,
            "generation": dict(generation or {})}
    return _finish(labels, vectors, locations, blank, kind, float(min_norm), normalize,
                   str(path), prov)


def table_from_arrays(embeddings: Any, labels: Sequence, *, source: str = "arrays",
                      min_norm: float = MIN_NORM, normalize: bool = True,
                      generation: Mapping[str, Any] | None = None) -> EmbeddingTable:
    """An :class:`EmbeddingTable` from in-memory arrays, with the same checks as a file.

    Rows are located by their 0-based index. All-NaN rows count as missing vectors.

    Example:
        >>> t = table_from_arrays(np.array([[2.0, 0], [0, 0]]), ["a", "b"])
        >>> len(t), t.report.dropped_zero_norm
        (1, [1])
    """
    caller = "table_from_arrays"
    normalize = check_flag(normalize, "normalize", caller)
    _check_min_norm(min_norm, caller)
    x = np.asarray(embeddings)
    y = np.asarray(labels)
    labels_, vectors, locations, blank = _from_arrays_checked(x, y, caller)
    if not vectors:
        raise invalid("embeddings", caller, "at least one row", "no rows", given_is_text=True)
    digest = bytes_hash(np.ascontiguousarray(x, dtype=np.float64).tobytes()
                        + "\x00".join(map(str, y.tolist())).encode())
    prov = {"sha256": digest, "format": "arrays", "generation": dict(generation or {})}
    return _finish(labels_, vectors, locations, blank, "row", float(min_norm), normalize,
                   source, prov)


__all__ = ["EmbeddingTable", "LABEL_COLUMN_NAMES", "LoadReport", "MIN_NORM", "MISSING_TOKENS",
           "find_duplicates", "load_embedding_table", "table_from_arrays"]
