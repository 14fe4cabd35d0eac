"""Enron emails: loaders for the three common layouts and the paper's selection.

Layouts read (the format is detected from the path):

- JSON lines in the ``lay-k.json`` layout (keys ``text``, ``mid``, ``fpath``, ``subject``
  ...), plain or inside a ``.zip`` (``kenneth_json.zip``).
- The CMU maildir, as the ``enron_mail_*.tar.gz`` tarball or an unpacked folder (raw
  RFC 822 messages; headers are parsed and dropped).
- The common ``emails.csv`` with columns ``file`` and ``message`` (raw messages).

:func:`select_emails` applies the paper's selection: the body mentions the target
(case-insensitive; Ken Lay by default) and has at most 500 words after the header
metadata was stripped. :func:`load_mailbox` returns a
:class:`privlab.datasets.text_corpora.TextCorpus` ready for a study. The data is read
in place and never copied.
"""

from __future__ import annotations

import csv
import email
import io
import json
import re
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from privlab.errors import invalid

KEN_LAY_NAMES = ("Ken Lay",)
KEN_LAY_CONCEPTS = ("Ken Lay", "Kenneth Lay", "Kenneth L. Lay", "Kenneth L Lay")
DEFAULT_MAX_WORDS = 500
_HEADER_LINE = re.compile(r"^[A-Za-z][A-Za-z0-9-]*:\s?.*$")


@dataclass(frozen=True)
class Email:
    """One email body with where it came from.

    Attributes:
        id: the message id (or file path when there is none).
        text: the body, header metadata stripped.
        subject: the subject line (may be empty).
        source: the file path inside its corpus.
    """

    id: str
    text: str
    subject: str = ""
    source: str = ""


def strip_headers(raw: str) -> str:
    """Drop a leading RFC 822 header block (``Key: value`` lines up to the first blank line).

    Continuation lines (starting with whitespace) belong to the header before them. A
    text that does not start with a header line is returned unchanged.

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


def _parse_raw(raw: str, source: str) -> Email:
    message = email.message_from_string(raw)
    if message.is_multipart():
        parts = [p.get_payload(decode=False) for p in message.walk()
                 if p.get_content_type() == "text/plain"]
        body = "\n".join(p for p in parts if isinstance(p, str))
    else:
        body = message.get_payload(decode=False)
        body = body if isinstance(body, str) else ""
    if not message.keys():  # not a message at all: strip what looks like headers
        body = strip_headers(raw)
    return Email(str(message.get("Message-ID", source)).strip(), body.strip("\n"),
                 str(message.get("Subject", "") or ""), source)


def read_json_lines(path: str | Path) -> Iterator[Email]:
    """Emails from JSON lines in the ``lay-k.json`` layout (plain or zipped).

    Raises:
        ValueError: a line that is not JSON or lacks ``text`` (its line number is named).
    """
    path = Path(path)
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if n.endswith((".json", ".jsonl"))]
            if not names:
                raise invalid("path", "read_json_lines", "a zip holding a .json or .jsonl file",
                              str(path))
            for name in names:
                with archive.open(name) as handle:
                    yield from _json_records(io.TextIOWrapper(handle, encoding="utf-8"), name)
    else:
        with open(path, encoding="utf-8") as handle:
            yield from _json_records(handle, str(path))


def _json_records(handle, name: str) -> Iterator[Email]:
    for number, line in enumerate(handle, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise invalid("path", "read_json_lines", "JSON lines", f"line {number} of {name}: {exc}",
                          given_is_text=True) from exc
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            raise invalid("path", "read_json_lines", "records with a string 'text' field",
                          f"line {number} of {name} without one", given_is_text=True)
        yield Email(str(record.get("mid") or record.get("fpath") or f"{name}:{number}"),
                    strip_headers(record["text"]), str(record.get("subject") or ""),
                    str(record.get("fpath") or name))


def read_maildir(path: str | Path, user: str | None = None) -> Iterator[Email]:
    """Emails from the CMU maildir (a ``.tar.gz`` or an unpacked folder).

    Args:
        path: the tarball or the ``maildir`` folder (or a user's folder inside it).
        user: only this mailbox (e.g. ``"lay-k"``).
    """
    path = Path(path)
    wanted = f"/{user}/" if user else None
    if path.is_file() and tarfile.is_tarfile(path):
        with tarfile.open(path) as archive:
            for member in archive:
                if not member.isfile() or (wanted and wanted not in f"/{member.name}"):
                    continue
                handle = archive.extractfile(member)
                if handle is not None:
                    yield _parse_raw(handle.read().decode("utf-8", "replace"), member.name)
    elif path.is_dir():
        for file in sorted(p for p in path.rglob("*") if p.is_file()):
            if wanted and wanted not in "/" + file.relative_to(path.parent).as_posix() + "/":
                continue
            yield _parse_raw(file.read_text("utf-8", "replace"), str(file))
    else:
        raise invalid("path", "read_maildir", "a maildir folder or .tar.gz", str(path))


def read_emails_csv(path: str | Path) -> Iterator[Email]:
    """Emails from the common ``emails.csv`` (columns ``file`` and ``message``).

    Raises:
        ValueError: the columns are missing.
    """
    csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        if not reader.fieldnames or not {"file", "message"} <= set(reader.fieldnames):
            raise invalid("path", "read_emails_csv", "a CSV with columns 'file' and 'message'",
                          f"columns {reader.fieldnames}", given_is_text=True)
        for row in reader:
            yield _parse_raw(row["message"], row["file"])


def read_emails(path: str | Path, user: str | None = None) -> Iterator[Email]:
    """Any of the three layouts, detected from the path.

    Raises:
        ValueError: a path that does not exist or has an unknown layout.
    """
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
                  max_words: int = DEFAULT_MAX_WORDS, dedupe: bool = True) -> list[Email]:
    """The paper's selection: the body mentions a name (case-insensitive) within a word limit.

    Args:
        emails: parsed emails.
        names: the target's names; whitespace between words may be any run.
        max_words: keep bodies of at most this many whitespace-separated words.
        dedupe: keep only the first of identical bodies (the same email filed in several
            folders).

    Example:
        >>> es = [Email("1", "ken  LAY called"), Email("2", "Ken lay called"),
        ...       Email("3", "Kenneth called"), Email("4", "ken  LAY called")]
        >>> [e.id for e in select_emails(es)]
        ['1', '2']
    """
    from privlab.names import name_pattern

    if not isinstance(max_words, int) or max_words < 1:
        raise invalid("max_words", "select_emails", "a positive int", max_words)
    pattern = name_pattern(list(names))
    seen: set[str] = set()
    out = []
    for e in emails:
        if not pattern.search(e.text) or len(e.text.split()) > max_words:
            continue
        if dedupe:
            if e.text in seen:
                continue
            seen.add(e.text)
        out.append(e)
    return out


def default_mailbox_path() -> Path | None:
    """``<shared data>/enron/kenneth_json.zip`` when present, else None."""
    from privlab.config import shared_data_dir

    root = shared_data_dir()
    path = root / "enron" / "kenneth_json.zip" if root else None
    return path if path and path.is_file() else None


def load_mailbox(path: str | Path | None = None, *, names: Iterable[str] = KEN_LAY_NAMES,
                 concepts: Iterable[str] = KEN_LAY_CONCEPTS, max_words: int = DEFAULT_MAX_WORDS,
                 dedupe: bool = True, limit: int | None = None, user: str | None = None):
    """A selected Enron mailbox as a :class:`~privlab.datasets.text_corpora.TextCorpus`.

    Args:
        path: any layout :func:`read_emails` reads (default: Ken Lay's mailbox in the
            shared data folder).
        names: the target's names (selection and exact-name baseline).
        concepts: the concept list for concept-list redaction.
        max_words: the selection's word limit.
        dedupe: drop repeated bodies.
        limit: keep only the first ``limit`` selected emails (smoke runs).
        user: maildir user folder (e.g. ``"lay-k"``) for tarballs.

    Returns:
        The corpus (no leak ground truth: real data has none).

    Raises:
        ValueError: no path given and the default mailbox is absent, or nothing selected.
    """
    if path is None:
        path = default_mailbox_path()
        if path is None:
            raise invalid("path", "load_mailbox", "given when the shared Enron mailbox is absent",
                          None, "Pass the path to kenneth_json.zip, a maildir or emails.csv, or "
                          "use privlab.datasets.text_corpora.executive_mailbox().")
    names = tuple(names)
    chosen = select_emails(read_emails(path, user), names, max_words=max_words, dedupe=dedupe)
    if limit is not None:
        chosen = chosen[:int(limit)]
    if not chosen:
        raise invalid("path", "load_mailbox", f"a corpus with emails mentioning {list(names)}",
                      str(path), given_is_text=True)
    from privlab.datasets.text_corpora import TextCorpus

    return TextCorpus(f"enron:{Path(path).name}", tuple(e.text for e in chosen),
                      f"the identity of {names[0]}", names, tuple(concepts),
                      tuple({} for _ in chosen), source=str(path),
                      ids=tuple(e.id for e in chosen))


__all__ = ["Email", "KEN_LAY_CONCEPTS", "KEN_LAY_NAMES", "default_mailbox_path", "load_mailbox",
           "read_emails", "read_emails_csv", "read_json_lines", "read_maildir", "select_emails",
           "strip_headers"]
