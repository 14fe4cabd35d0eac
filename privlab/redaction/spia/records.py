"""SPIA records: the 15 tags, the subject / PII schema, loading and writing.

Gold records and an adversary's predictions share one schema (subjects with PIIs, each a
tag, a keyword and a certainty 0-5), so both are read, written and scored alike. The
JSON-lines schema and its required and optional keys: docs/methods/redaction-spia-scoring.md.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from privlab.errors import invalid
from privlab.io import check_readable, iter_jsonl, refuse_record, write_jsonl

#: The five tags with a fixed format, inferred in a separate request by the LLM adversary.
CODE_TAGS: tuple[str, ...] = ("IDENTIFICATION_NUMBER", "DRIVER_LICENSE_NUMBER",
                              "PHONE_NUMBER", "PASSPORT_NUMBER", "EMAIL_ADDRESS")
#: The ten free-text tags.
NON_CODE_TAGS: tuple[str, ...] = ("NAME", "SEX", "AGE", "LOCATION", "NATIONALITY",
                                  "EDUCATION", "RELATIONSHIP", "OCCUPATION", "AFFILIATION",
                                  "POSITION")
#: All fifteen tags, in the order SPIA lists them.
TAGS: tuple[str, ...] = ("NAME",) + CODE_TAGS + NON_CODE_TAGS[1:]

#: Minimum gold certainty for a PII to count (the SPIA reference setting).
MIN_CERTAINTY = 3

_EXPECTED = "SPIA JSON lines (see data/README.md)"
_RECORD_KEYS = ("metadata", "text", "subjects")
_SUBJECT_KEYS = ("id", "PIIs", "description")
_PII_KEYS = ("tag", "keyword", "certainty", "hardness")


@dataclass(frozen=True)
class PII:
    """One personal attribute of a subject.

    Attributes:
        tag: one of :data:`TAGS`.
        keyword: the value ("" when absent).
        certainty: 0 (absent) to 5 (stated explicitly).
        hardness: how hard the annotators found it to infer (0-5; 0 when not given).
    """

    tag: str
    keyword: str
    certainty: int
    hardness: int = 0

    @property
    def counted(self) -> bool:
        """True when the PII counts in CPR/IPR: non-empty keyword, certainty >= 3."""
        return bool(self.keyword.strip()) and self.certainty >= MIN_CERTAINTY


@dataclass(frozen=True)
class Subject:
    """One person in a document, with a distinguishing description and their PIIs."""

    id: int
    description: str
    piis: tuple[PII, ...] = ()

    def counted_piis(self, min_certainty: int = MIN_CERTAINTY) -> list[PII]:
        """The PIIs that count: non-empty keyword and certainty >= ``min_certainty``."""
        return [p for p in self.piis if p.keyword.strip() and p.certainty >= min_certainty]

    def values(self, tag: str) -> list[str]:
        """Every non-empty keyword this subject has for ``tag``."""
        return [p.keyword for p in self.piis if p.tag == tag and p.keyword.strip()]


@dataclass(frozen=True)
class SPIARecord:
    """One document with its subjects (gold annotation or an adversary's prediction)."""

    data_id: str
    text: str
    subjects: tuple[Subject, ...]
    metadata: dict = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> dict:
        """The record in the SPIA JSON-lines schema."""
        meta = {**self.metadata, "data_id": self.data_id,
                "number_of_subjects": len(self.subjects)}
        return {"metadata": meta, "text": self.text, "subjects": [
            {"id": s.id, "description": s.description,
             "PIIs": [{"tag": p.tag, "keyword": p.keyword, "certainty": p.certainty,
                       "hardness": p.hardness} for p in s.piis]} for s in self.subjects]}


def _refuse(where: str, problem: str) -> Exception:
    return refuse_record("load_spia", _EXPECTED, where, problem)


def _check_keys(obj: dict, required: tuple[str, ...], optional: tuple[str, ...],
                where: str, at: str) -> None:
    """Refuse a missing required key, or an unknown key that looks like a schema key."""
    known = required + optional
    unknown = [k for k in obj if isinstance(k, str) and k not in known]
    for key in known:
        if key in obj:
            continue
        close = [k for k in unknown
                 if difflib.SequenceMatcher(None, k.lower(), key.lower()).ratio() >= 0.8]
        if close:
            raise _refuse(where, f"{at}{close[0]!r} is not a SPIA key; did you mean {key!r}?")
        if key in required:
            raise _refuse(where, f"{at}{key!r} is missing")


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?[0-9]+\s*", value):
        return int(value)  # one optional sign, ASCII digits: '--3' and '²' are not ints
    return None


def parse_spia_record(obj: Any, where: str = "record") -> SPIARecord:
    """Validate one decoded JSON object and build an :class:`SPIARecord`.

    Args:
        obj: the decoded JSON object.
        where: where it came from, for the error message (e.g. ``"spia.jsonl line 3"``).

    Returns:
        The record.

    Raises:
        PrivlabValueError: naming ``where`` and the first problem found.

    Example:
        >>> r = parse_spia_record({"metadata": {"data_id": "d1"}, "text": "Ann, 34.",
        ...     "subjects": [{"id": 0, "description": "Ann",
        ...                   "PIIs": [{"tag": "AGE", "keyword": "34", "certainty": 5}]}]})
        >>> r.subjects[0].piis[0]
        PII(tag='AGE', keyword='34', certainty=5, hardness=0)
    """
    if not isinstance(obj, dict):
        raise _refuse(where, f"expected a JSON object, found {type(obj).__name__}")
    _check_keys(obj, _RECORD_KEYS, (), where, "")
    meta = obj.get("metadata")
    if not isinstance(meta, dict) or not isinstance(meta.get("data_id"), str) \
            or not meta["data_id"]:
        raise _refuse(where, "'metadata.data_id' must be a non-empty string")
    text = obj.get("text")
    if not isinstance(text, str):
        raise _refuse(where, "'text' must be a string")
    raw_subjects = obj.get("subjects")
    if not isinstance(raw_subjects, list):
        raise _refuse(where, "'subjects' must be a list")
    subjects = []
    seen: set[int] = set()
    for k, s in enumerate(raw_subjects):
        if not isinstance(s, dict):
            raise _refuse(where, f"subjects[{k}] must be an object")
        _check_keys(s, _SUBJECT_KEYS[:2], _SUBJECT_KEYS[2:], where, f"subjects[{k}]: ")
        sid = _int(s.get("id"))
        if sid is None:
            raise _refuse(where, f"subjects[{k}].id must be an integer")
        if sid in seen:
            raise _refuse(where, f"subject id {sid} appears twice")
        seen.add(sid)
        desc = s.get("description", "")
        if not isinstance(desc, str):
            raise _refuse(where, f"subjects[{k}].description must be a string")
        raw_piis = s["PIIs"]
        if not isinstance(raw_piis, list):
            raise _refuse(where, f"subjects[{k}].PIIs must be a list")
        piis = []
        for j, p in enumerate(raw_piis):
            at = f"subjects[{k}].PIIs[{j}]"
            if not isinstance(p, dict):
                raise _refuse(where, f"{at} must be an object")
            _check_keys(p, _PII_KEYS[:3], _PII_KEYS[3:], where, f"{at}: ")
            tag = p.get("tag")
            if tag not in TAGS:
                raise _refuse(where, f"{at}.tag must be one of the 15 SPIA tags, got {tag!r}")
            keyword = p["keyword"]
            if keyword is None:
                keyword = ""
            if not isinstance(keyword, str):
                raise _refuse(where, f"{at}.keyword must be a string")
            certainty = _int(p["certainty"])
            if certainty is None or not 0 <= certainty <= 5:
                raise _refuse(where, f"{at}.certainty must be an integer 0-5, "
                                     f"got {p.get('certainty')!r}")
            hardness = _int(p.get("hardness", 0))
            if hardness is None:
                raise _refuse(where, f"{at}.hardness must be an integer")
            piis.append(PII(tag, keyword.strip(), certainty, hardness))
        subjects.append(Subject(sid, desc, tuple(piis)))
    return SPIARecord(meta["data_id"], text, tuple(subjects),
                      {k: v for k, v in meta.items() if k != "data_id"})


def load_spia(path: str | Path) -> list[SPIARecord]:
    """Load SPIA JSON lines (gold annotations or predicted profiles).

    Args:
        path: a ``.jsonl`` file in the SPIA schema.

    Returns:
        One :class:`SPIARecord` per non-blank line, in file order.

    Raises:
        PrivlabValueError: a missing or empty file, or a line that is not UTF-8 JSON,
            breaks the schema or repeats a data_id (file and line named).

    Example:
        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "x.jsonl")
        >>> _ = open(p, "w").write('{"metadata": {"data_id": "a"}, "text": "", "subjects": []}\\n')
        >>> [r.data_id for r in load_spia(p)]
        ['a']
    """
    path = Path(path)
    if not path.is_file():
        raise invalid("path", "load_spia", "an existing JSON-lines file", str(path))
    check_readable(path, "path", "load_spia")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise invalid("path", "load_spia", "a UTF-8 text file",
                      f"{path.name} line {line}: byte 0x{raw[exc.start]:02x} is not UTF-8",
                      "Re-save the file as UTF-8.", given_is_text=True) from None
    records = []
    seen: dict[str, int] = {}
    for number, obj in iter_jsonl(text.split("\n"), path.name, "load_spia"):
        record = parse_spia_record(obj, f"{path.name} line {number}")
        if record.data_id in seen:
            raise _refuse(f"{path.name} line {number}",
                          f"data_id {record.data_id!r} already used on line {seen[record.data_id]}")
        seen[record.data_id] = number
        records.append(record)
    if not records:
        raise invalid("path", "load_spia", _EXPECTED, f"{path.name}: no records (an empty file)",
                      "Point to the SPIA .jsonl file itself; an adversary that found nothing "
                      "still writes one record per document.", given_is_text=True)
    return records


def write_spia(records: Iterable[SPIARecord], path: str | Path) -> Path:
    """Write records as SPIA JSON lines, atomically (a partial file is never left as final).

    Args:
        records: the records to write.
        path: the ``.jsonl`` file to create (its folder is created when missing).

    Returns:
        ``path``.

    Example:
        >>> import tempfile, os
        >>> path = os.path.join(tempfile.mkdtemp(), "o.jsonl")
        >>> p = write_spia([SPIARecord("d", "text", ())], path)
        >>> load_spia(p)[0].data_id
        'd'
    """
    return write_jsonl((record.to_json() for record in records), path)


def count_subjects_and_piis(records: Sequence[SPIARecord],
                            min_certainty: int = MIN_CERTAINTY) -> tuple[int, int]:
    """Counted subjects and counted PIIs, as the SPIA evaluation counts them.

    A subject counts when it has at least one counted PII.

    Example:
        >>> r = parse_spia_record({"metadata": {"data_id": "d"}, "text": "", "subjects": [
        ...     {"id": 0, "PIIs": [{"tag": "SEX", "keyword": "Male", "certainty": 3}]},
        ...     {"id": 1, "PIIs": [{"tag": "SEX", "keyword": "Female", "certainty": 2}]}]})
        >>> count_subjects_and_piis([r])
        (1, 1)
    """
    subjects = piis = 0
    for record in records:
        for s in record.subjects:
            n = len(s.counted_piis(min_certainty))
            subjects += n > 0
            piis += n
    return subjects, piis


__all__ = ["CODE_TAGS", "MIN_CERTAINTY", "NON_CODE_TAGS", "PII", "SPIARecord", "Subject", "TAGS",
           "count_subjects_and_piis", "load_spia", "parse_spia_record", "write_spia"]
