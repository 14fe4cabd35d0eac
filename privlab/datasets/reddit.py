"""Reddit comments: Pushshift JSON lines or a folder of ``.txt`` files, keyword selection.

The paper's Avengers set is 49 comments that each contain the string "Avengers",
published as a folder of ``.txt`` files, one comment per file. :func:`load_comments`
reads either layout, keeps comments that contain the keyword as a plain substring
(case-insensitive by default: in the paper's folder every comment holds "avengers" in
some case, and 14 of the 49 never as "Avengers"; ``case_sensitive=True`` for the exact
string) and returns a :class:`~privlab.datasets.text_corpora.TextCorpus`.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import numbers
import warnings
import zlib
from pathlib import Path
from typing import Iterable, Iterator

from privlab.errors import invalid, item_list
from privlab.io import describe_skipped, read_file_bytes, walk_folder

_REMOVED = {"[deleted]", "[removed]", ""}


def _open_binary(path: Path):
    suffix = path.suffix.lower()
    opener = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open, ".zst": None}.get(suffix, open)
    if opener is None:
        raise invalid("path", "read_comments", "plain, .gz, .bz2 or .xz JSON lines", str(path),
                      "Decompress .zst dumps first (zstd -d file.zst).")
    return opener(path, "rb")


def _not_utf8(where: str, data: bytes, exc: UnicodeDecodeError):
    return invalid("path", "read_comments", "UTF-8 text",
                   f"{where}: byte 0x{data[exc.start]:02x} at column {exc.start + 1} is not UTF-8",
                   "Re-save the file as UTF-8.", given_is_text=True)


def _txt_entry(path: Path) -> str | None:
    """Why a comment folder's file is passed over (None: it is read)."""
    if path.suffix.lower() != ".txt":
        return "not a .txt file"
    return None


def _read_folder(path: Path, skipped: list | None) -> Iterator[tuple[str, str]]:
    files, passed = walk_folder(path, accept=_txt_entry, caller="read_comments",
                                parameter="path")
    if skipped is not None:
        skipped.extend(passed)
    elif passed:
        warnings.warn(f"read_comments: {len(passed)} entr{'y' if len(passed) == 1 else 'ies'} "
                      f"of {path} passed over ({describe_skipped(passed)}).", UserWarning,
                      stacklevel=3)
    first: dict[str, Path] = {}
    for file in files:
        cid = file.stem
        if cid in first:
            raise invalid("path", "read_comments", "a folder of comments with distinct ids "
                          "(file names without their suffix)",
                          f"id {cid!r} twice: {first[cid].relative_to(path).as_posix()} and "
                          f"{file.relative_to(path).as_posix()}",
                          "Rename or remove one of them.", given_is_text=True)
        first[cid] = file
        data = read_file_bytes(file, "path", "read_comments", "a folder of readable .txt files")
        try:
            text = data.decode("utf-8-sig").strip()
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            raise _not_utf8(f"{file.name} line {line}", data, exc) from None
        if text not in _REMOVED:
            yield cid, text


def _field(record: dict, key: str, where: str) -> str | None:
    """A record's text field: a string or absent (None); anything else is refused."""
    value = record.get(key)
    if value is None or isinstance(value, str):
        return value
    raise invalid("path", "read_comments", f"records whose '{key}' is a string",
                  f"{where}: a {type(value).__name__} ({str(value)[:40]})",
                  "Fix or remove that line.", given_is_text=True)


def read_comments(path: str | Path, *, skipped: list | None = None
                  ) -> Iterator[tuple[str, str]]:
    """``(id, body)`` pairs from Pushshift JSON lines or a folder of ``.txt`` files.

    Deleted and removed comments are skipped. Pushshift records use ``body`` (comments)
    or ``selftext``/``title`` (submissions). In a folder, every file whose suffix is
    ``.txt`` in any case is a comment named by its file name; the entries passed over
    (other files, dangling links, FIFOs, sub-folders that cannot be listed ...) are
    appended to ``skipped`` as ``{"file", "reason"}`` when it is given, else named in a
    warning.

    Raises:
        PrivlabValueError: a missing path, a file that cannot be read or is not UTF-8, a
            JSON line that cannot be read, a text field that is not a string, or an id
            that repeats (the file and line are named).
    """
    path = Path(path)
    if path.is_dir():
        yield from _read_folder(path, skipped)
        return
    if not path.is_file():
        raise invalid("path", "read_comments", "a JSON lines file or a folder of .txt files",
                      str(path))
    first: dict[str, int] = {}
    try:
        with _open_binary(path) as handle:
            for number, raw in enumerate(handle, 1):
                try:
                    line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
                except UnicodeDecodeError as exc:
                    raise _not_utf8(f"{path.name} line {number}", raw, exc) from None
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise invalid("path", "read_comments", "JSON lines",
                                  f"{path.name} line {number}: {exc}",
                                  given_is_text=True) from exc
                if not isinstance(record, dict):
                    raise invalid("path", "read_comments", "one JSON object per line",
                                  f"{path.name} line {number}: a {type(record).__name__}",
                                  given_is_text=True)
                where = f"{path.name} line {number}"
                body = _field(record, "body", where)
                if body is None:
                    body = " ".join(x for x in (_field(record, "title", where),
                                                _field(record, "selftext", where)) if x)
                raw_id = record.get("id", number)
                if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)):
                    raise invalid("path", "read_comments", "records whose 'id' is a string",
                                  f"{where}: a {type(raw_id).__name__}",
                                  "Fix or remove that line.", given_is_text=True)
                cid = str(raw_id)
                if cid in first:
                    raise invalid("path", "read_comments", "records with distinct ids",
                                  f"{where}: id {cid!r} again (first on line {first[cid]})",
                                  "Remove the repeated record.", given_is_text=True)
                first[cid] = number
                body = body.strip()
                if body not in _REMOVED:
                    yield cid, body
    except (EOFError, OSError, lzma.LZMAError, zlib.error) as exc:  # a damaged archive
        raise invalid("path", "read_comments", "a readable file", f"{path.name}: {exc}",
                      "Copy or download the file again.", given_is_text=True) from exc


def _check_count(value, parameter: str, caller: str) -> None:
    """Refuse a count that is not a positive int (None means no bound)."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, numbers.Integral)
                              or value < 1):
        raise invalid(parameter, caller, "a positive int or None (no bound)", value)


def select_comments(comments: Iterable[tuple[str, str]], keyword: str = "Avengers", *,
                    case_sensitive: bool = False, max_words: int | None = None,
                    limit: int | None = None) -> list[tuple[str, str]]:
    """Comments containing ``keyword`` as a substring, first ``limit`` of them.

    Example:
        >>> select_comments([("a", "Avengers rocks"), ("b", "avengers"), ("c", "cats")])
        [('a', 'Avengers rocks'), ('b', 'avengers')]
        >>> len(select_comments([("a", "Avengers"), ("b", "avengers")], case_sensitive=True))
        1
    """
    if not isinstance(keyword, str) or not keyword:
        raise invalid("keyword", "select_comments", "a non-empty string", keyword)
    _check_count(limit, "limit", "select_comments")
    _check_count(max_words, "max_words", "select_comments")
    key = keyword if case_sensitive else keyword.lower()
    if isinstance(comments, (str, bytes)):
        raise invalid("comments", "select_comments", "(id, text) pairs", comments,
                      "A bare string would be read character by character; pass "
                      "[(comment_id, text), ...] (read_comments gives them).")
    out = []
    for pair in comments:
        if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
            raise invalid("comments", "select_comments", "(id, text) pairs", pair,
                          "Pass [(comment_id, text), ...] (read_comments gives them).")
        cid, body = pair
        hay = body if case_sensitive else body.lower()
        if key in hay and (max_words is None or len(body.split()) <= max_words):
            out.append((cid, body))
            if limit is not None and len(out) >= limit:
                break
    return out


def load_comments(path: str | Path, keyword: str = "Avengers", *,
                  concepts: Iterable[str] | None = None, names: Iterable[str] | None = None,
                  case_sensitive: bool = False, max_words: int | None = None,
                  limit: int | None = 49):
    """Selected comments as a :class:`~privlab.datasets.text_corpora.TextCorpus`.

    Args:
        path: Pushshift JSON lines (optionally compressed) or a folder of ``.txt``.
        keyword: the selection string, also the target's name.
        concepts: the concept list (default: the keyword).
        names: the forms of the target's name the exact-name baseline counts (default:
            the keyword; e.g. ``["Avengers", "Avenger"]`` to count the singular too).
        case_sensitive: match the keyword's case too (default: any case).
        max_words: optional word limit.
        limit: how many to keep (the paper's 49 by default; None for all); a positive int.

    Returns:
        The corpus; ``provenance["skipped"]`` lists the folder entries passed over
        (``{"file", "reason"}``), which are also named in a warning.

    Raises:
        PrivlabValueError: a file :func:`read_comments` refuses, a ``limit`` or
            ``max_words`` that is not a positive int or None, or nothing matched.
    """
    from privlab.datasets.text_corpora import TextCorpus

    _check_count(limit, "limit", "load_comments")
    _check_count(max_words, "max_words", "load_comments")
    if concepts is not None:
        concepts = item_list(concepts, "concepts", "load_comments")
    skipped: list[dict] = []
    chosen = select_comments(read_comments(path, skipped=skipped), keyword,
                             case_sensitive=case_sensitive, max_words=max_words, limit=limit)
    if skipped:
        warnings.warn(f"load_comments: {len(skipped)} entr{'y' if len(skipped) == 1 else 'ies'} "
                      f"of {path} passed over ({describe_skipped(skipped)}); all are listed "
                      "in corpus.provenance['skipped'].", UserWarning, stacklevel=2)
    if not chosen:
        raise invalid("keyword", "load_comments", f"found in at least one comment of {path}",
                      keyword)
    names = (keyword,) if names is None else tuple(names)
    if not names or not all(isinstance(n, str) and n.strip() for n in names):
        raise invalid("names", "load_comments", "non-empty strings (or None: the keyword)",
                      names)
    return TextCorpus(f"reddit:{Path(path).name}", tuple(b for _, b in chosen),
                      f"the identity of {keyword}", names, tuple(concepts or (keyword,)),
                      tuple({} for _ in chosen), source=str(path),
                      ids=tuple(c for c, _ in chosen),
                      provenance={"skipped": tuple(skipped)})


__all__ = ["load_comments", "read_comments", "select_comments"]
