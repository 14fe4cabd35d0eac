"""Enron emails: loaders for the three common layouts and the paper's selection.

:func:`load_mailbox` reads JSON lines (plain or zipped), the CMU maildir (tarball or
folder) or ``emails.csv`` in place, and :func:`select_emails` applies the paper's rule
(the body mentions the target, at most 500 words) with two labelled, opt-in departures.
Layouts, decoding, skips and the selection rule: ``docs/methods/data-loaders.md`` and
``docs/methods/data.md``.
"""

from __future__ import annotations

import codecs
import csv
import email
import email.errors
import email.header
import json
import numbers
import os
import re
import sys
import tarfile
import warnings
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from privlab.errors import PrivlabValueError, invalid, item_list, wrong_type
from privlab.io import read_file_bytes, walk_folder

KEN_LAY_NAMES = ("Ken Lay",)
KEN_LAY_CONCEPTS = ("Ken Lay", "Kenneth Lay", "Kenneth L. Lay", "Kenneth L Lay")
DEFAULT_MAX_WORDS = 500
_HEADER_LINE = re.compile(r"^[A-Za-z][A-Za-z0-9-]*:\s?.*$")
_TRANSFER_ENCODED = ("base64", "quoted-printable", "x-uuencode", "uuencode", "uue", "x-uue")
_UTF8_FIX = "Re-save the file as UTF-8 (for example iconv -f cp1252 -t utf-8)."


@dataclass(frozen=True)
class Email:
    """One email body with where it came from.

    Attributes:
        id: the message id (or file path when there is none).
        text: the body (of a raw message: the header block parsed and dropped).
        subject: the subject line (may be empty).
        source: the file path inside its corpus.
        problem: why the body could not be decoded ("" when it was); such an email has
            an empty ``text`` and is never selected.
    """

    id: str
    text: str
    subject: str = ""
    source: str = ""
    problem: str = ""


def strip_headers(raw: str) -> str:
    """Drop a leading RFC 822 header block (``Key: value`` lines up to the first blank line).

    Continuation lines (starting with whitespace) belong to the header before them. A
    text that does not start with a header line is returned unchanged. Meant for raw
    messages only: on a body it would take a first line such as ``Ken: DELIGHTED ...``
    for a header and delete real text, so bodies (the JSON-lines layout) never pass here.

    Example:
        >>> strip_headers("Message-ID: <1>\\nFrom: a@b.com\\nSubject: hi\\n  there\\n\\nBody text")
        'Body text'
        >>> strip_headers("Ken will attend.\\n\\nRosie")
        'Ken will attend.\\n\\nRosie'
    """
    lines = raw.replace("\r\n", "\n").split("\n")
    if not lines or not _HEADER_LINE.match(lines[0]):
        return raw
    for index, line in enumerate(lines):
        if line.strip() == "":
            return "\n".join(lines[index + 1:]).strip("\n")
        if not (_HEADER_LINE.match(line) or line[:1] in (" ", "\t")):
            return raw
    return ""


class _Undecodable(Exception):
    """A message body that its declared encodings cannot turn into text."""


def _part_text(part, from_text: bool) -> str:
    """One part's body as text: transfer encoding undone, declared charset applied."""
    payload = part.get_payload()
    if not isinstance(payload, str):
        return ""
    encoding = str(part.get("Content-Transfer-Encoding", "7bit")).strip().lower()
    if from_text and encoding not in _TRANSFER_ENCODED:
        return payload  # the CSV file was decoded already; 7bit/8bit text is final
    data = part.get_payload(decode=True)
    broken = (email.errors.InvalidBase64LengthDefect, email.errors.InvalidBase64CharactersDefect)
    if any(isinstance(d, broken) for d in part.defects):  # the email package would guess
        raise _Undecodable("a base64 body that is not valid base64")
    charset = part.get_content_charset() or "us-ascii"
    try:
        info = codecs.lookup(charset)
    except LookupError:
        raise _Undecodable(f"an unknown charset {charset!r}") from None
    if not getattr(info, "_is_text_encoding", True):  # rot13, base64, zlib: not a charset
        raise _Undecodable(f"a charset {charset!r} that names no text encoding")
    codec = info.name
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        also = ""
        if codec == "ascii":  # 8-bit bytes under an ASCII label: UTF-8 is its only superset
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError:
                also = " nor UTF-8"
        raise _Undecodable(f"body byte 0x{data[exc.start]:02x} at offset {exc.start} is "
                           f"not {charset} (declared){also}") from None


def _subject(value) -> str:
    """The subject with RFC 2047 encoded words decoded; raw 8-bit bytes read as UTF-8."""
    if value is None:
        return ""
    if isinstance(value, email.header.Header):  # raw 8-bit bytes in the header
        raw = b"".join(c if isinstance(c, bytes) else c.encode()
                       for c, _ in email.header.decode_header(value))
        return raw.decode("utf-8", "backslashreplace")
    try:
        return str(email.header.make_header(email.header.decode_header(value)))
    except (email.errors.HeaderParseError, LookupError, UnicodeError):
        return str(value)


def _parse_raw(raw: bytes | str, source: str) -> Email:
    """An :class:`Email` from one raw RFC 822 message (bytes from a file, text from CSV)."""
    from_text = isinstance(raw, str)
    message = email.message_from_string(raw) if from_text else email.message_from_bytes(raw)
    ident = str(message.get("Message-ID", source)).strip()
    subject = _subject(message.get("Subject", ""))
    try:
        if not message.keys():  # not a message at all: strip what looks like headers
            body = strip_headers(raw if from_text else raw.decode("utf-8"))
        elif message.is_multipart():
            plain = [p for p in message.walk() if p.get_content_type() == "text/plain"]
            if not plain:
                kinds = sorted({p.get_content_type() for p in message.walk()
                                if not p.is_multipart()})
                raise _Undecodable(f"no text/plain part (parts: {', '.join(kinds) or 'none'})")
            body = "\n".join(_part_text(p, from_text) for p in plain)
        elif message.get_content_type() == "text/html":
            raise _Undecodable("an HTML-only body (Content-Type text/html, no text/plain "
                               "part)")
        elif message.get_content_maintype() == "text":
            body = _part_text(message, from_text)
        else:
            raise _Undecodable(f"no text body (Content-Type {message.get_content_type()})")
    except UnicodeDecodeError as exc:
        return Email(ident, "", subject, source,
                     f"byte 0x{raw[exc.start]:02x} at offset {exc.start} is not UTF-8 "
                     "and the file has no headers to declare a charset")
    except _Undecodable as exc:
        return Email(ident, "", subject, source, str(exc))
    return Email(ident, body.strip("\n"), subject, source)


def _utf8_lines(lines: Iterable[bytes], name: str, caller: str) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` from byte lines, refusing the first line that is not UTF-8."""
    for number, line in enumerate(lines, 1):
        try:
            yield number, line.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            raise invalid("path", caller, "a UTF-8 text file",
                          f"{name} line {number}: byte 0x{line[exc.start]:02x} at column "
                          f"{exc.start + 1} is not UTF-8", _UTF8_FIX, given_is_text=True
                          ) from None


def _corrupt(caller: str, expected: str, name: str, exc: BaseException) -> PrivlabValueError:
    return invalid("path", caller, expected, f"{name}: {str(exc) or type(exc).__name__}",
                   "Copy or download the file again; a damaged archive cannot be read.",
                   given_is_text=True)


def read_json_lines(path: str | Path) -> Iterator[Email]:
    """Emails from JSON lines in the ``lay-k.json`` layout (plain or zipped).

    Each record's ``text`` is the message body (the headers are the record's other
    keys), kept exactly as stored.

    Raises:
        PrivlabValueError: a corrupt zip, a line that is not UTF-8 or not JSON, or a
            record without a string ``text`` (the file and line are named).
    """
    path = Path(path)
    caller = "read_json_lines"
    if path.suffix.lower() == ".zip":
        try:
            archive = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError) as exc:
            raise _corrupt(caller, "a readable zip archive", path.name, exc) from exc
        with archive:
            names = [n for n in archive.namelist() if n.endswith((".json", ".jsonl"))]
            if not names:
                raise invalid("path", caller, "a zip holding a .json or .jsonl file", str(path))
            for name in names:
                where = f"{path.name}/{name}"
                try:
                    with archive.open(name) as handle:
                        yield from _json_records(_utf8_lines(handle, where, caller), where,
                                                 name)
                except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
                    raise _corrupt(caller, "a readable zip archive", where, exc) from exc
                except NotImplementedError as exc:  # e.g. Deflate64 or AES members
                    raise invalid("path", caller, "a zip archive compressed with stored, "
                                  "deflate, bzip2 or lzma", f"{where}: {exc}",
                                  "Unzip it with a tool that reads it (e.g. 7z x) and pass "
                                  "the .json file, or re-zip it with zip -9.",
                                  given_is_text=True) from None
                except RuntimeError as exc:  # zipfile: "... is encrypted, password required"
                    raise invalid("path", caller, "a zip archive whose members are not "
                                  "encrypted", f"{where}: {exc}",
                                  "Unzip it with its password and pass the .json file.",
                                  given_is_text=True) from None
    else:
        with open(path, "rb") as handle:
            yield from _json_records(_utf8_lines(handle, path.name, caller), path.name,
                                     str(path))


def _json_records(lines: Iterable[tuple[int, str]], name: str, source: str) -> Iterator[Email]:
    """Emails from numbered lines; ``name`` is for messages, ``source`` for ids and sources."""
    first: dict[str, int] = {}
    for number, line in lines:
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise invalid("path", "read_json_lines", "JSON lines", f"{name} line {number}: {exc}",
                          given_is_text=True) from exc
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            raise invalid("path", "read_json_lines", "records with a string 'text' field",
                          f"{name} line {number} without one", given_is_text=True)
        ident = str(record.get("mid") or record.get("fpath") or f"{source}:{number}")
        if ident in first:
            raise invalid("path", "read_json_lines", "records with distinct ids ('mid')",
                          f"{name} line {number}: id {ident!r} again (first on line "
                          f"{first[ident]})", "Remove the repeated record.",
                          given_is_text=True)
        first[ident] = number
        # "text" is the body already (its headers are the record's other keys).
        yield Email(ident, record["text"], str(record.get("subject") or ""),
                    str(record.get("fpath") or source))


def read_maildir(path: str | Path, user: str | None = None) -> Iterator[Email]:
    """Emails from the CMU maildir (a ``.tar.gz`` or an unpacked folder).

    Bodies are decoded from their transfer encoding and declared charset; one that
    cannot be decoded comes back with an empty text and its ``problem``.

    Args:
        path: the tarball or the ``maildir`` folder (or a user's folder inside it).
        user: only this mailbox (e.g. ``"lay-k"``).

    Raises:
        PrivlabValueError: a path that is neither, or a tarball that cannot be read.
    """
    path = Path(path)
    wanted = f"/{user}/" if user else None
    if path.is_file() and tarfile.is_tarfile(path):
        try:
            with tarfile.open(path) as archive:
                yield from _distinct(_tar_messages(archive, wanted))
        except (tarfile.TarError, EOFError, zlib.error, OSError) as exc:
            raise _corrupt("read_maildir", "a readable tar archive", path.name, exc) from exc
    elif path.is_dir():
        files, passed = walk_folder(path, caller="read_maildir", parameter="path")
        entries = [(f, "") for f in files] + [(path / s["file"], s["reason"]) for s in passed]
        yield from _distinct(_folder_messages(path, sorted(entries), wanted))
    else:
        raise invalid("path", "read_maildir", "a maildir folder or .tar.gz", str(path))


def _tar_messages(archive: tarfile.TarFile, wanted: str | None) -> Iterator[Email]:
    for member in archive:
        if wanted and wanted not in f"/{member.name}":
            continue
        if member.isdir():
            continue
        if not member.isfile():
            kind = "a link" if member.issym() or member.islnk() else "not a regular file"
            yield Email(member.name, "", "", member.name, f"{kind} in the archive, not read")
            continue
        handle = archive.extractfile(member)
        if handle is not None:
            yield _parse_raw(handle.read(), member.name)


def _folder_messages(root: Path, entries: list[tuple[Path, str]], wanted: str | None
                     ) -> Iterator[Email]:
    for file, passed in entries:
        if wanted and wanted not in "/" + file.relative_to(root.parent).as_posix() + "/":
            continue
        if passed:  # a dangling link, a FIFO, a folder that cannot be listed ...
            yield Email(str(file), "", "", str(file), passed)
            continue
        data = read_file_bytes(file, "path", "read_maildir", "a maildir of readable files")
        yield _parse_raw(data, str(file))


def _distinct(emails: Iterable[Email]) -> Iterator[Email]:
    """Emails with their ids checked: a Message-ID seen before is refused with both files."""
    first: dict[str, str] = {}
    for e in emails:
        if e.id in first:
            raise invalid("path", "read_maildir", "messages with distinct Message-IDs",
                          f"{e.source}: Message-ID {e.id!r} again (first in {first[e.id]})",
                          "Remove the repeated message.", given_is_text=True)
        first[e.id] = e.source
        yield e


def read_emails_csv(path: str | Path) -> Iterator[Email]:
    """Emails from the common ``emails.csv`` (columns ``file`` and ``message``).

    Raises:
        PrivlabValueError: the columns are missing, a line is not UTF-8, or a row has
            fewer or more fields than the header (the file and line are named).
    """
    caller, path = "read_emails_csv", Path(path)
    csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
    with open(path, "rb") as handle:
        # Decoding line by line names the line of a bad byte; quoted messages span lines.
        reader = csv.DictReader(text for _, text in _utf8_lines(handle, path.name, caller))
        try:
            header = reader.fieldnames
        except csv.Error as exc:
            raise _csv_error(path, reader, exc) from None
        if not header or not {"file", "message"} <= set(header):
            raise invalid("path", caller, "a CSV with columns 'file' and 'message'",
                          f"columns {reader.fieldnames}", given_is_text=True)
        width = len(reader.fieldnames)
        first: dict[str, int] = {}
        rows = iter(reader)
        end = reader.line_num  # the line the previous row ended on
        while True:
            try:
                row = next(rows)
            except StopIteration:
                return
            except csv.Error as exc:
                raise _csv_error(path, reader, exc) from None
            if None in row or None in row.values():
                fields = width + len(row.get(None) or ()) - sum(v is None for v in row.values())
                raise invalid("path", caller, f"rows of {width} fields like its header",
                              f"{path.name} line {reader.line_num}: {fields} fields",
                              "Fix or remove that row; an unclosed quote also shortens rows.",
                              given_is_text=True)
            email_ = _parse_raw(row["message"], row["file"])
            start, end = end + 1, reader.line_num
            if email_.id in first:
                raise invalid("path", caller, "messages with distinct Message-IDs",
                              f"{path.name} line {start}: Message-ID {email_.id!r} "
                              f"again (first on line {first[email_.id]})",
                              "Remove the repeated row.", given_is_text=True)
            first[email_.id] = start
            yield email_


def _csv_error(path: Path, reader: csv.DictReader, exc: csv.Error) -> PrivlabValueError:
    """The refusal of a row the csv module cannot split (bare CR line ends, above all)."""
    if "new-line" in str(exc):
        return invalid("path", "read_emails_csv", "CSV with LF or CRLF line ends",
                       f"{path.name} line {reader.line_num + 1}: its lines end in a bare CR",
                       "Convert the line ends, e.g. tr '\\r' '\\n' < old.csv > emails.csv.",
                       given_is_text=True)
    return invalid("path", "read_emails_csv", "well-formed CSV",
                   f"{path.name} line {reader.line_num + 1}: {exc}", "Fix or remove that row.",
                   given_is_text=True)


def read_emails(path: str | Path, user: str | None = None) -> Iterator[Email]:
    """Any of the three layouts, detected from the path.

    Raises:
        ValueError: a path that does not exist or has an unknown layout.
        TypeError: a path that is not a str or pathlib.Path.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise wrong_type("path", "read_emails", "a file or folder path (str or pathlib.Path)",
                         path)
    path = Path(path)
    if not path.exists():
        raise invalid("path", "read_emails", "an existing file or folder", str(path))
    name = path.name.lower()
    if name.endswith((".json", ".jsonl", ".zip")):
        return read_json_lines(path)
    if name.endswith(".csv"):
        return read_emails_csv(path)
    if path.is_dir() or name.endswith((".tar.gz", ".tgz", ".tar")):
        return read_maildir(path, user)
    raise invalid("path", "read_emails", "a .json/.jsonl/.zip, .csv, maildir folder or tarball",
                  str(path))


def select_emails(emails: Iterable[Email], names: Iterable[str] = KEN_LAY_NAMES, *,
                  max_words: int = DEFAULT_MAX_WORDS, match: str = "substring",
                  dedupe: bool = False) -> list[Email]:
    """The paper's selection: the body mentions a name (case-insensitive) within a word limit.

    Args:
        emails: parsed emails.
        names: the target's names; whitespace between words may be any run.
        max_words: keep bodies of at most this many whitespace-separated words.
        match: ``"substring"`` (the paper's rule: the name anywhere in the body, also
            glued to other characters as in ``=09Ken Lay@ENRON``) or ``"word"`` (whole
            words only, a stricter rule of privlab's).
        dedupe: keep only the first of identical bodies (the same email filed in several
            folders). Off by default: the paper's stated selection drops none.

    Emails whose body could not be decoded (a non-empty ``problem``) are never selected.

    Example:
        >>> es = [Email("1", "ken  LAY called"), Email("2", "Memo_Ken Lay"),
        ...       Email("3", "Kenneth called"), Email("4", "ken  LAY called")]
        >>> [e.id for e in select_emails(es)]
        ['1', '2', '4']
        >>> [e.id for e in select_emails(es, match="word", dedupe=True)]
        ['1']
    """
    from privlab.names import name_pattern

    if isinstance(max_words, bool) or not isinstance(max_words, int) or max_words < 1:
        raise invalid("max_words", "select_emails", "a positive int", max_words)
    if not isinstance(dedupe, bool):
        raise invalid("dedupe", "select_emails", "True or False", dedupe)
    pattern = name_pattern(item_list(names, "names", "select_emails"), match=match)
    out = [e for e in emails
           if not e.problem and pattern.search(e.text) and len(e.text.split()) <= max_words]
    return drop_repeats(out)[0] if dedupe else out


def drop_repeats(emails: Iterable[Email]) -> tuple[list[Email], int]:
    """The first email of each distinct body, and how many repeats were dropped.

    Example:
        >>> kept, dropped = drop_repeats([Email("1", "a"), Email("2", "b"), Email("3", "a")])
        >>> [e.id for e in kept], dropped
        (['1', '2'], 1)
    """
    seen: set[str] = set()
    kept, dropped = [], 0
    for e in emails:
        if e.text in seen:
            dropped += 1
        else:
            seen.add(e.text)
            kept.append(e)
    return kept, dropped


def default_mailbox_path() -> Path | None:
    """``<shared data>/enron/kenneth_json.zip`` when present, else None."""
    from privlab.config import shared_data_dir

    root = shared_data_dir()
    path = root / "enron" / "kenneth_json.zip" if root else None
    return path if path and path.is_file() else None


def load_mailbox(path: str | Path | None = None, *, names: Iterable[str] = KEN_LAY_NAMES,
                 concepts: Iterable[str] = KEN_LAY_CONCEPTS, max_words: int = DEFAULT_MAX_WORDS,
                 match: str = "substring", dedupe: bool = False, limit: int | None = None,
                 user: str | None = None):
    """A selected Enron mailbox as a :class:`~privlab.datasets.text_corpora.TextCorpus`.

    Args:
        path: any layout :func:`read_emails` reads (default: Ken Lay's shared mailbox).
        names: the target's names (selection and exact-name baseline).
        concepts: the concept list for concept-list redaction.
        max_words: the selection's word limit.
        match: ``"substring"`` (the paper's rule) or ``"word"`` (whole words).
        dedupe: drop repeated bodies (off: the paper's selection drops none).
        limit: keep only the first ``limit`` selected emails, or None for all.
        user: maildir user folder (e.g. ``"lay-k"``) for tarballs.

    Returns:
        The corpus, without leak ground truth. Its ``provenance`` holds ``emails_read``,
        ``skipped`` (one ``{"file", "id", "problem"}`` per message not read, also named in
        a warning) and ``selection`` (the rule, ``selected`` and ``repeats_dropped``).

    Raises:
        PrivlabValueError: no path and no default mailbox, a bad ``limit``, a file the
            readers refuse, or nothing selected.

    Example:
        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "box.jsonl")
        >>> _ = open(p, "w").write('{"text": "Ken Lay called.", "mid": "m1"}\\n')
        >>> c = load_mailbox(p)
        >>> c.ids, c.provenance["emails_read"], c.provenance["skipped"]
        (('m1',), 1, ())
        >>> c.provenance["selection"]["match"], c.name_match
        ('substring', 'substring')
    """
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, numbers.Integral)
                              or limit < 1):
        raise invalid("limit", "load_mailbox", "a positive int or None (all emails)", limit,
                      "Pass limit=None to keep every selected email.")
    if path is None:
        path = default_mailbox_path()
        if path is None:
            raise invalid("path", "load_mailbox", "given when the shared Enron mailbox is absent",
                          None, "Pass the path to kenneth_json.zip, a maildir or emails.csv, or "
                          "use privlab.datasets.text_corpora.executive_mailbox().")
    names = tuple(item_list(names, "names", "load_mailbox"))
    concepts = tuple(item_list(concepts, "concepts", "load_mailbox"))
    skipped: list[dict] = []
    read = 0

    def tally(emails: Iterable[Email]) -> Iterator[Email]:
        nonlocal read
        for e in emails:
            read += 1
            if e.problem:
                skipped.append({"file": e.source, "id": e.id, "problem": e.problem})
            yield e

    if not isinstance(dedupe, bool):
        raise invalid("dedupe", "load_mailbox", "True or False", dedupe)
    chosen = select_emails(tally(read_emails(path, user)), names, max_words=max_words,
                           match=match)
    selected, dropped = len(chosen), 0
    if dedupe:
        chosen, dropped = drop_repeats(chosen)
    if skipped:
        shown = "; ".join(f"{s['file']} ({s['id']}): {s['problem']}" for s in skipped[:3])
        warnings.warn(f"load_mailbox: {len(skipped)} of {read} messages in {Path(path).name} "
                      f"could not be decoded or read and were skipped ({shown}"
                      f"{'; ...' if len(skipped) > 3 else ''}); all are listed in "
                      "corpus.provenance['skipped'].", stacklevel=2)
    if limit is not None:
        chosen = chosen[:int(limit)]
    if not chosen:
        raise invalid("path", "load_mailbox", f"a corpus with emails mentioning {list(names)}",
                      str(path), given_is_text=True)
    from privlab.datasets.text_corpora import TextCorpus

    return TextCorpus(f"enron:{Path(path).name}", tuple(e.text for e in chosen),
                      f"the identity of {names[0]}", names, tuple(concepts),
                      tuple({} for _ in chosen), source=str(path),
                      ids=tuple(e.id for e in chosen), name_match=match,
                      provenance={"emails_read": read, "skipped": tuple(skipped),
                                  "selection": {"match": match, "max_words": max_words,
                                                "dedupe": dedupe, "selected": selected,
                                                "repeats_dropped": dropped}})


__all__ = ["Email", "KEN_LAY_CONCEPTS", "KEN_LAY_NAMES", "default_mailbox_path", "drop_repeats",
           "load_mailbox", "read_emails", "read_emails_csv", "read_json_lines", "read_maildir",
           "select_emails", "strip_headers"]
