"""RedacBench data: documents, propositions, policies and hand-labelled checks, and their loading.

The JSON-lines format is in ``data/README.md``; the sample is
``data/redacbench_sample.jsonl`` and :func:`derive_from_spia` builds a small benchmark
from SPIA records. See docs/methods/redaction-redacbench.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from privlab.io import read_jsonl, refuse_record

_EXPECTED = "RedacBench JSON lines (see data/README.md)"

#: Where a policy's keywords may come from (``Policy.keywords_from``).
KEYWORD_SOURCES = ("text", "gold")


@dataclass(frozen=True)
class Proposition:
    """The smallest unit of fact a text states or implies."""

    id: str
    text: str


@dataclass(frozen=True)
class Policy:
    """A safety policy and the propositions of its document that it makes sensitive.

    Attributes:
        id: unique within the document.
        text: the policy in words.
        sensitive: ids of the propositions that violate it.
        keywords: words the Masking strategy removes for this policy (optional).
        keywords_from: ``"text"`` (written from the policy and the text) or ``"gold"``
            (the answer values: Masking with them is an oracle).
    """

    id: str
    text: str
    sensitive: frozenset[str]
    keywords: tuple[str, ...] = ()
    keywords_from: str = "text"


@dataclass(frozen=True)
class JudgeCheck:
    """A text with hand labels: which propositions are still inferable from it.

    Attributes:
        text: the checked text (a redacted version of the source).
        inferable: proposition id -> True (still inferable) or False (not).
        origin: how the text was made, e.g. ``"hand-written rewrite"`` ("" when not given).
    """

    text: str
    inferable: dict[str, bool]
    origin: str = ""


@dataclass(frozen=True)
class Document:
    """One benchmark item: source text, domain, propositions, policies, gold checks."""

    id: str
    domain: str
    text: str
    propositions: tuple[Proposition, ...]
    policies: tuple[Policy, ...]
    checks: tuple[JudgeCheck, ...] = ()


def _refuse(where: str, problem: str) -> Exception:
    return refuse_record("load_redacbench", _EXPECTED, where, problem)


#: The keys each level of a record may hold (anything else is refused: a misspelt
#: optional key such as ``keyword`` would otherwise be ignored without a word).
_KEYS = {
    "record": ("id", "domain", "text", "propositions", "policies", "checks"),
    "propositions": ("id", "text"),
    "policies": ("id", "text", "sensitive", "keywords", "keywords_from"),
    "checks": ("text", "inferable", "origin"),
}


def _check_keys(obj: dict, level: str, where: str, place: str) -> None:
    """Refuse a key of ``obj`` that the format does not define, naming the closest one."""
    import difflib

    known = _KEYS[level]
    for key in obj:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise _refuse(where, f"{place} has the unknown key {key!r} (known: "
                                 f"{', '.join(known)}){hint}")


def _str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def parse_document(obj: Any, where: str = "record") -> Document:
    """Validate one decoded JSON object and build a :class:`Document`.

    Args:
        obj: the decoded JSON object.
        where: where it came from, for the error message (e.g. ``"b.jsonl line 3"``).

    Returns:
        The document.

    Raises:
        PrivlabValueError: naming ``where`` and the first problem.

    Example:
        >>> d = parse_document({"id": "d1", "domain": "personal", "text": "Ann is ill.",
        ...     "propositions": [{"id": "p1", "text": "Ann is ill."}],
        ...     "policies": [{"id": "health", "text": "Health is private.", "sensitive": ["p1"]}]})
        >>> d.policies[0].sensitive
        frozenset({'p1'})
    """
    if not isinstance(obj, dict):
        raise _refuse(where, f"expected a JSON object, found {type(obj).__name__}")
    _check_keys(obj, "record", where, "the record")
    for key in ("id", "domain", "text"):
        if not isinstance(obj.get(key), str) or (key != "text" and not obj[key]):
            raise _refuse(where, f"'{key}' must be a non-empty string")
    props = obj.get("propositions")
    if not isinstance(props, list) or not props:
        raise _refuse(where, "'propositions' must be a non-empty list")
    propositions = []
    for k, p in enumerate(props):
        if not isinstance(p, dict) or not isinstance(p.get("id"), str) \
                or not isinstance(p.get("text"), str) or not p["text"].strip():
            raise _refuse(where, f"propositions[{k}] needs string 'id' and non-empty 'text'")
        _check_keys(p, "propositions", where, f"propositions[{k}]")
        propositions.append(Proposition(p["id"], p["text"].strip()))
    ids = [p.id for p in propositions]
    if len(set(ids)) != len(ids):
        raise _refuse(where, "proposition ids must be unique")
    pols = obj.get("policies")
    if not isinstance(pols, list) or not pols:
        raise _refuse(where, "'policies' must be a non-empty list")
    policies = []
    for k, p in enumerate(pols):
        if not isinstance(p, dict) or not isinstance(p.get("id"), str) \
                or not isinstance(p.get("text"), str):
            raise _refuse(where, f"policies[{k}] needs string 'id' and 'text'")
        _check_keys(p, "policies", where, f"policies[{k}]")
        if not _str_list(p.get("sensitive")):
            raise _refuse(where, f"policies[{k}].sensitive must be a list of proposition ids")
        unknown = [s for s in p["sensitive"] if s not in ids]
        if unknown:
            raise _refuse(where, f"policies[{k}].sensitive names unknown propositions {unknown}")
        keywords = p.get("keywords", [])
        if not _str_list(keywords):
            raise _refuse(where, f"policies[{k}].keywords must be a list of strings")
        source = p.get("keywords_from", "text")
        if source not in KEYWORD_SOURCES:
            raise _refuse(where, f"policies[{k}].keywords_from must be one of "
                                 f"{list(KEYWORD_SOURCES)}, found {source!r}")
        policies.append(Policy(p["id"], p["text"], frozenset(p["sensitive"]), tuple(keywords),
                               source))
    if len({p.id for p in policies}) != len(policies):
        raise _refuse(where, "policy ids must be unique")
    raw_checks = obj.get("checks", [])
    if not isinstance(raw_checks, list):
        raise _refuse(where, "'checks' must be a list")
    checks = []
    for k, c in enumerate(raw_checks):
        if not isinstance(c, dict) or not isinstance(c.get("text"), str) \
                or not isinstance(c.get("inferable"), dict):
            raise _refuse(where, f"checks[{k}] needs 'text' and an 'inferable' object")
        _check_keys(c, "checks", where, f"checks[{k}]")
        bad = [i for i, v in c["inferable"].items() if i not in ids or not isinstance(v, bool)]
        if bad:
            raise _refuse(where, f"checks[{k}].inferable must map proposition ids to "
                                 f"true/false, bad entries {bad}")
        origin = c.get("origin", "")
        if not isinstance(origin, str):
            raise _refuse(where, f"checks[{k}].origin must be a string")
        checks.append(JudgeCheck(c["text"], dict(c["inferable"]), origin))
    return Document(obj["id"], obj["domain"], obj["text"], tuple(propositions),
                    tuple(policies), tuple(checks))


def load_redacbench(path: str | Path) -> list[Document]:
    """Load a RedacBench JSON-lines file (format in ``data/README.md``).

    Args:
        path: the ``.jsonl`` file.

    Returns:
        One :class:`Document` per non-blank line, in file order.

    Raises:
        PrivlabValueError: a line is not JSON, breaks the format or repeats an id; the
            message names the line.

    Example:
        >>> docs = load_redacbench(sample_path())
        >>> len(docs), sorted({d.domain for d in docs})
        (16, ['corporate', 'government', 'medical', 'personal'])
    """
    name = Path(path).name
    docs, seen = [], {}
    for number, obj in read_jsonl(path, "load_redacbench"):
        doc = parse_document(obj, f"{name} line {number}")
        if doc.id in seen:
            raise _refuse(f"{name} line {number}",
                          f"id {doc.id!r} already used on line {seen[doc.id]}")
        seen[doc.id] = number
        docs.append(doc)
    return docs


def sample_path() -> Path:
    """The privlab-written sample benchmark, ``data/redacbench_sample.jsonl``.

    Sixteen short documents in four domains, with hand-labelled checks (see data/README.md).

    Example:
        >>> sample_path().name
        'redacbench_sample.jsonl'
    """
    # privlab/redaction/redacbench/data.py -> the repository root holds data/
    return Path(__file__).resolve().parents[3] / "data" / "redacbench_sample.jsonl"


def document_to_json(doc: Document) -> dict:
    """A :class:`Document` in the JSON-lines format (what :func:`parse_document` reads).

    Example:
        >>> doc = load_redacbench(sample_path())[0]
        >>> parse_document(document_to_json(doc)) == doc
        True
    """
    policies = []
    for p in doc.policies:
        policy = {"id": p.id, "text": p.text, "sensitive": sorted(p.sensitive),
                  "keywords": list(p.keywords)}
        if p.keywords_from != "text":
            policy["keywords_from"] = p.keywords_from
        policies.append(policy)
    checks = []
    for c in doc.checks:
        check = {"origin": c.origin} if c.origin else {}
        checks.append({**check, "text": c.text, "inferable": dict(c.inferable)})
    return {"id": doc.id, "domain": doc.domain, "text": doc.text,
            "propositions": [{"id": p.id, "text": p.text} for p in doc.propositions],
            "policies": policies, "checks": checks}


_SPIA_SENTENCE = {
    "NAME": "{who} is named {value}.", "SEX": "{who} is {value_lower}.",
    "AGE": "{who} is {value} years old.", "LOCATION": "{who} is based in {value}.",
    "NATIONALITY": "{who} is a national of {value}.",
    "EDUCATION": "{who}'s education level is {value}.",
    "RELATIONSHIP": "{who}'s relationship status is {value_lower}.",
    "OCCUPATION": "{who} works as {value}.", "AFFILIATION": "{who} is affiliated with {value}.",
    "POSITION": "{who} holds the position {value}.",
    "IDENTIFICATION_NUMBER": "{who}'s identity number is {value}.",
    "DRIVER_LICENSE_NUMBER": "{who}'s driving licence number is {value}.",
    "PHONE_NUMBER": "{who}'s phone number is {value}.",
    "PASSPORT_NUMBER": "{who}'s passport number is {value}.",
    "EMAIL_ADDRESS": "{who}'s e-mail address is {value}.",
}


def derive_from_spia(records: Sequence[Any], *, max_documents: int | None = 10,
                     max_chars: int = 4000) -> list[Document]:
    """Build a small RedacBench-style benchmark from SPIA records.

    Each counted PII becomes a proposition, under three policies per document (``target``,
    ``contact-ids``, ``origin``). The keywords are gold values (an *oracle* list, never a
    headline) and there are no hand-labelled checks. See docs/methods/redaction-redacbench.md.

    Args:
        records: :class:`privlab.redaction.spia.SPIARecord` objects.
        max_documents: keep the first this many documents with counted PIIs (None: all).
        max_chars: skip documents longer than this (long legal texts make slow judges).

    Returns:
        The documents, domain ``"legal"`` for TAB ids and ``"online"`` otherwise.

    Example:
        >>> from privlab.redaction.spia import parse_spia_record
        >>> r = parse_spia_record({"metadata": {"data_id": "TAB-1"}, "text": "Ann, Swedish.",
        ...     "subjects": [{"id": 0, "description": "Ann - applicant", "PIIs": [
        ...         {"tag": "NATIONALITY", "keyword": "Sweden", "certainty": 4}]}]})
        >>> d = derive_from_spia([r])[0]
        >>> d.propositions[0].text, sorted(d.policies[0].sensitive)
        ('Ann is a national of Sweden.', ['p0'])
    """
    from privlab.redaction.spia.records import CODE_TAGS

    docs: list[Document] = []
    for record in records:
        if max_documents is not None and len(docs) >= max_documents:
            break
        if len(record.text) > max_chars:
            continue
        props, target, codes, origin = [], set(), set(), set()
        keywords: dict[str, list[str]] = {"target": [], "contact-ids": [], "origin": []}
        for subject in record.subjects:
            names = subject.values("NAME")
            who = names[0] if names else (subject.description.split(" - ")[0].strip()
                                          or f"Person {subject.id}")
            for pii in subject.counted_piis():
                pid = f"p{len(props)}"
                props.append(Proposition(pid, _SPIA_SENTENCE[pii.tag].format(
                    who=who, value=pii.keyword, value_lower=pii.keyword.lower())))
                verbatim = pii.keyword if pii.keyword.lower() in record.text.lower() else None
                groups = []
                if subject.id == 0:
                    target.add(pid), groups.append("target")
                if pii.tag in CODE_TAGS:
                    codes.add(pid), groups.append("contact-ids")
                if pii.tag in ("LOCATION", "NATIONALITY"):
                    origin.add(pid), groups.append("origin")
                for g in groups:
                    if verbatim:
                        keywords[g].append(verbatim)
        if not props:
            continue
        policies = [
            Policy("target", "Everything about the main person of the document is "
                   "confidential.", frozenset(target), tuple(dict.fromkeys(keywords["target"])),
                   "gold"),
            Policy("contact-ids", "Identity numbers and contact details are confidential.",
                   frozenset(codes), tuple(dict.fromkeys(keywords["contact-ids"])), "gold"),
            Policy("origin", "Where people live and where they come from is confidential.",
                   frozenset(origin), tuple(dict.fromkeys(keywords["origin"])), "gold"),
        ]
        docs.append(Document(
            record.data_id, "legal" if record.data_id.startswith("TAB") else "online",
            record.text, tuple(props), tuple(policies)))
    return docs


__all__ = ["Document", "JudgeCheck", "KEYWORD_SOURCES", "Policy", "Proposition",
           "derive_from_spia", "document_to_json", "load_redacbench", "parse_document",
           "sample_path"]
