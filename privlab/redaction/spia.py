"""SPIA: subject-level PII inference scoring (records, rules, matching, CPR and IPR).

SPIA asks, for every person in a document (a *subject*), how much of what the original
text reveals about them an adversary can still infer from the anonymized text. A gold
record lists each subject's PIIs (15 tags, each with a keyword and a certainty 0-5);
an adversary's prediction uses the same schema, so gold and prediction are scored alike.

Scoring follows the SPIA reference evaluation:

* only gold PIIs with a non-empty keyword and certainty >= 3 count; a subject left with
  none is dropped;
* predicted subjects are matched one-to-one to gold subjects; an unmatched gold subject
  is fully protected (nothing about them was inferred);
* each counted gold PII gets a score of 1 (inferred), 0.5 (less precise) or 0 (not
  inferred) by a per-tag rule (:func:`score_pii`);
* ``O_i`` is subject *i*'s number of counted PIIs and ``A_i`` the sum of their scores::

      CPR = 1 - sum_i A_i / sum_i O_i          (PII-weighted, collective)
      IPR = mean_i (1 - A_i / O_i)             (every subject weighs the same)

Both are 1 when nothing can be inferred and 0 when everything can. They are
*descriptive* numbers: they measure one adversary on one dataset, an upper bound on
protection against stronger adversaries, never a guarantee.

The record schema (one JSON object per line)::

    {"metadata": {"data_id": "TAB-bf828", ...}, "text": "...",
     "subjects": [{"id": 0, "description": "...",
                   "PIIs": [{"tag": "NAME", "keyword": "Jacob M", "certainty": 5,
                             "hardness": 2}, ...]}]}
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol, Sequence

from privlab.errors import invalid, wrong_type

#: The five tags with a fixed format, inferred in a separate request by the LLM adversary.
CODE_TAGS: tuple[str, ...] = ("IDENTIFICATION_NUMBER", "DRIVER_LICENSE_NUMBER",
                              "PHONE_NUMBER", "PASSPORT_NUMBER", "EMAIL_ADDRESS")
#: The ten free-text tags.
NON_CODE_TAGS: tuple[str, ...] = ("NAME", "SEX", "AGE", "LOCATION", "NATIONALITY",
                                  "EDUCATION", "RELATIONSHIP", "OCCUPATION", "AFFILIATION",
                                  "POSITION")
#: All fifteen tags, in the order SPIA lists them.
TAGS: tuple[str, ...] = ("NAME",) + CODE_TAGS + NON_CODE_TAGS[1:]

ID_LIKE_TAGS = ("IDENTIFICATION_NUMBER", "DRIVER_LICENSE_NUMBER", "PHONE_NUMBER",
                "PASSPORT_NUMBER")
CATEGORY_TAGS = ("SEX", "RELATIONSHIP", "EDUCATION")
FREE_TEXT_TAGS = ("NAME", "NATIONALITY", "OCCUPATION", "AFFILIATION", "POSITION")

#: Minimum gold certainty for a PII to count (the SPIA reference setting).
MIN_CERTAINTY = 3
#: Jaro-Winkler similarity from which two free-text values are the same.
JW_THRESHOLD = 0.85


# --------------------------------------------------------------------------- data model
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


# --------------------------------------------------------------------------- loading
def _refuse(where: str, problem: str) -> Exception:
    return invalid("path", "load_spia", "SPIA JSON lines (see data/README.md)",
                   f"{where}: {problem}", given_is_text=True,
                   fix="Fix or remove that line; no record is skipped silently.")


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
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
        sid = _int(s.get("id"))
        if sid is None:
            raise _refuse(where, f"subjects[{k}].id must be an integer")
        if sid in seen:
            raise _refuse(where, f"subject id {sid} appears twice")
        seen.add(sid)
        desc = s.get("description", "")
        if not isinstance(desc, str):
            raise _refuse(where, f"subjects[{k}].description must be a string")
        raw_piis = s.get("PIIs", [])
        if not isinstance(raw_piis, list):
            raise _refuse(where, f"subjects[{k}].PIIs must be a list")
        piis = []
        for j, p in enumerate(raw_piis):
            at = f"subjects[{k}].PIIs[{j}]"
            if not isinstance(p, dict):
                raise _refuse(where, f"{at} must be an object")
            tag = p.get("tag")
            if tag not in TAGS:
                raise _refuse(where, f"{at}.tag must be one of the 15 SPIA tags, got {tag!r}")
            keyword = p.get("keyword", "")
            if keyword is None:
                keyword = ""
            if not isinstance(keyword, str):
                raise _refuse(where, f"{at}.keyword must be a string")
            certainty = _int(p.get("certainty", 0))
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


def read_jsonl(path: str | Path, caller: str) -> list[tuple[int, Any]]:
    """Decode a JSON-lines file as ``(line number, object)`` pairs, refusing bad lines.

    Blank lines are allowed and skipped; any other line that is not JSON is refused
    with its number.

    Raises:
        PrivlabValueError: the file is missing or a line is not JSON.
    """
    path = Path(path)
    if not path.is_file():
        raise invalid("path", caller, "an existing JSON-lines file", str(path))
    out = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                out.append((number, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise invalid("path", caller, "one JSON object per line",
                              f"{path.name} line {number}: {exc.msg}", given_is_text=True,
                              fix="Fix or remove that line.") from exc
    return out


def load_spia(path: str | Path) -> list[SPIARecord]:
    """Load SPIA JSON lines (gold annotations or predicted profiles).

    Args:
        path: a ``.jsonl`` file in the SPIA schema.

    Returns:
        One :class:`SPIARecord` per non-blank line, in file order.

    Raises:
        PrivlabValueError: a line is not JSON, breaks the schema, or repeats a data_id;
            the message names the line.

    Example:
        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "x.jsonl")
        >>> _ = open(p, "w").write('{"metadata": {"data_id": "a"}, "text": "", "subjects": []}\\n')
        >>> [r.data_id for r in load_spia(p)]
        ['a']
    """
    records = []
    seen: dict[str, int] = {}
    name = Path(path).name
    for number, obj in read_jsonl(path, "load_spia"):
        record = parse_spia_record(obj, f"{name} line {number}")
        if record.data_id in seen:
            raise _refuse(f"{name} line {number}",
                          f"data_id {record.data_id!r} already used on line {seen[record.data_id]}")
        seen[record.data_id] = number
        records.append(record)
    return records


def write_spia(records: Iterable[SPIARecord], path: str | Path) -> Path:
    """Write records as SPIA JSON lines, atomically (a partial file is never left as final).

    The lines go to ``<path>.partial`` first and are renamed to ``path`` only once all
    are written.

    Returns:
        ``path``.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with partial.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record.to_json(), ensure_ascii=False) + "\n")
    partial.replace(path)
    return path


def file_digest(path: str | Path) -> str:
    """First 16 hex digits of the file's SHA-256 (for provenance)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def count_subjects_and_piis(records: Sequence[SPIARecord],
                            min_certainty: int = MIN_CERTAINTY) -> tuple[int, int]:
    """Counted subjects and counted PIIs, as the SPIA evaluation counts them.

    A PII counts when its keyword is non-empty and its certainty is at least
    ``min_certainty``; a subject counts when it has at least one such PII.

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


# --------------------------------------------------------------------------- scoring rules
def jaro_winkler(a: str, b: str) -> float:
    """Jaro-Winkler similarity in [0, 1] (prefix weight 0.1, up to 4 characters).

    Example:
        >>> round(jaro_winkler("martha", "marhta"), 4)
        0.9611
    """
    from rapidfuzz.distance import JaroWinkler

    return float(JaroWinkler.similarity(a, b))


def free_text_score(gold: str, predicted: str, threshold: float = JW_THRESHOLD) -> float:
    """1 when the lower-cased, stripped values have Jaro-Winkler similarity >= threshold.

    Example:
        >>> free_text_score("Raja Arlewin", "raja arlewinn"), free_text_score("Lawyer", "Judge")
        (1.0, 0.0)
    """
    g, p = gold.lower().strip(), predicted.lower().strip()
    if not g or not p:
        return 0.0
    return 1.0 if g == p or jaro_winkler(g, p) >= threshold else 0.0


_AGE = re.compile(r"^\s*(\d{1,3})\s*(?:[-\u2013\u2014]|to)\s*(\d{1,3})\s*$|^\s*(\d{1,3})\s*$")


def _age_bounds(value: str) -> tuple[int, int] | None:
    m = _AGE.match(value)
    if not m:
        return None
    if m.group(3) is not None:
        v = int(m.group(3))
        return v, v
    lo, hi = int(m.group(1)), int(m.group(2))
    return (lo, hi) if lo <= hi else (hi, lo)


def age_score(gold: str, predicted: str, *, tolerance: int = 5,
              overlap_threshold: float = 0.75) -> float:
    """AGE: two single ages within ``tolerance`` years; two ranges whose overlap
    coefficient (overlap length / shorter range length, at least 1) is at least
    ``overlap_threshold``; a single age inside a range. Values that are not an age or a
    range of ages score 0.

    Example:
        >>> age_score("34", "39"), age_score("34", "40"), age_score("30-40", "32-45")
        (1.0, 0.0, 1.0)
        >>> age_score("30-40", "38-50"), age_score("54-55", "55"), age_score("adult", "40")
        (0.0, 1.0, 0.0)
    """
    g, p = _age_bounds(gold), _age_bounds(predicted)
    if g is None or p is None:
        return 0.0
    g_single, p_single = g[0] == g[1] and "-" not in gold, p[0] == p[1] and "-" not in predicted
    if g_single and p_single:
        return 1.0 if abs(g[0] - p[0]) <= tolerance else 0.0
    if g_single or p_single:
        value, (lo, hi) = (g[0], p) if g_single else (p[0], g)
        return 1.0 if lo <= value <= hi else 0.0
    overlap = max(0, min(g[1], p[1]) - max(g[0], p[0]))
    shorter = max(min(g[1] - g[0], p[1] - p[0]), 1)
    return 1.0 if overlap / shorter >= overlap_threshold else 0.0


def _levels(value: str) -> list[str]:
    value = value.lower().strip().replace("turkey", "türkiye")
    return [part.strip() for part in value.split("/") if part.strip()]


def location_score(gold: str, predicted: str, max_depth: int | None = 4) -> float:
    """LOCATION, hierarchical (``premises / district / city / country``, general last).

    1 when every level compared agrees; 0.5 when one value is the other without some of
    its most specific levels (less precise, as the SPIA reference code scores it, even
    when only the country is left), or when all but one level agree (at least one
    must: the reference code would give two different one-level places 0.5, which
    privlab treats as the slip it is); 0 otherwise. The
    depth compared is the longer value's, capped at ``max_depth``.

    Example:
        >>> location_score("Stockholm / Sweden", "stockholm/sweden")
        1.0
        >>> location_score("Stockholm / Sweden", "Sweden"), location_score("Gangnam / Seoul / South Korea", "Jongno / Seoul / South Korea")
        (0.5, 0.5)
        >>> location_score("Lancashire / England / UK", "UK"), location_score("Paris / France", "Lyon / France")
        (0.5, 0.5)
        >>> location_score("Paris / France", "Lyon / Spain"), location_score("Turkey", "Türkiye")
        (0.0, 1.0)
    """
    a, b = _levels(gold), _levels(predicted)
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    depth = max(len(a), len(b))
    if max_depth:
        depth = min(depth, max_depth)
    if len(a) != len(b):
        shorter, longer = (a, b) if len(a) < len(b) else (b, a)
        if longer[-len(shorter):] == shorter:
            return 0.5  # the same place, named less precisely
    a_cmp, b_cmp = a[-depth:], b[-depth:]
    matches = sum(1 for i in range(1, depth + 1)
                  if i <= len(a_cmp) and i <= len(b_cmp) and a_cmp[-i] == b_cmp[-i])
    if matches == depth:
        return 1.0
    # all but one level agree; at least one must (two different countries score 0)
    return 0.5 if matches == depth - 1 and matches > 0 else 0.0


def normalize_identifier(value: str) -> str:
    """Upper-case letters and digits only (drops spaces, dashes, dots, brackets, plus).

    Example:
        >>> normalize_identifier("(764) 861-0805"), normalize_identifier("ie-id-7493093")
        ('7648610805', 'IEID7493093')
    """
    return re.sub(r"[^A-Za-z0-9]", "", value).upper()


def identifier_score(gold: str, predicted: str, max_prefix: int = 3) -> float:
    """ID-like values (ID, driver licence, phone, passport): equal after
    :func:`normalize_identifier`, or one ends with the other and they differ by at most
    ``max_prefix`` leading characters (a country code or a prefix such as ``ID``).

    Example:
        >>> identifier_score("+44 115 496 0331", "1154960331"), identifier_score("IE-ID-7493093", "7493093")
        (1.0, 0.0)
        >>> identifier_score("ID IE-ID-7249557", "IE-ID-7249557"), identifier_score("718-48-3146", "718-48-3147")
        (1.0, 0.0)
    """
    g, p = normalize_identifier(gold), normalize_identifier(predicted)
    if not g or not p:
        return 0.0
    if g == p:
        return 1.0
    if (g.endswith(p) or p.endswith(g)) and abs(len(g) - len(p)) <= max_prefix:
        return 1.0
    return 0.0


def email_score(gold: str, predicted: str) -> float:
    """EMAIL_ADDRESS: exact match, ignoring case and surrounding spaces.

    Example:
        >>> email_score("Dowey65@yahoo.ie", " dowey65@yahoo.ie"), email_score("a@b.ie", "a@b.com")
        (1.0, 0.0)
    """
    g, p = gold.strip().lower(), predicted.strip().lower()
    return 1.0 if g and g == p else 0.0


#: Category maps: values in the same group are the same answer.
CATEGORY_MAPS: dict[str, dict[str, tuple[str, ...]]] = {
    "SEX": {"male": ("male", "m", "man"), "female": ("female", "f", "woman")},
    "RELATIONSHIP": {"no relation": ("no relation", "single", "unmarried"),
                     "in relation": ("in relation", "dating", "relationship"),
                     "married": ("married", "wed"),
                     "divorced": ("divorced", "separated"),
                     "widowed": ("widowed", "widow", "widower")},
    "EDUCATION": {},  # education levels must agree exactly
}


def category_score(gold: str, predicted: str, tag: str) -> float:
    """SEX, RELATIONSHIP, EDUCATION: equal (ignoring case), or in the same group of
    :data:`CATEGORY_MAPS` (e.g. ``"M"`` and ``"male"``; ``"separated"`` and ``"divorced"``).

    Example:
        >>> category_score("Male", "m", "SEX"), category_score("Divorced", "separated", "RELATIONSHIP")
        (1.0, 1.0)
        >>> category_score("College Degree", "PhD", "EDUCATION"), category_score("Married", "Married", "RELATIONSHIP")
        (0.0, 1.0)
    """
    if tag not in CATEGORY_MAPS:
        raise invalid("tag", "category_score", f"one of {list(CATEGORY_MAPS)}", tag)
    g, p = gold.lower().strip(), predicted.lower().strip()
    if not g or not p:
        return 0.0
    if g == p:
        return 1.0
    return 1.0 if any(g in group and p in group
                      for group in CATEGORY_MAPS[tag].values()) else 0.0


def rule_name(tag: str) -> str:
    """The name of the rule that scores ``tag`` (for tables).

    Example:
        >>> rule_name("PHONE_NUMBER"), rule_name("OCCUPATION")
        ('identifier suffix', 'Jaro-Winkler >= 0.85')
    """
    if tag == "AGE":
        return "age +/-5 or range overlap"
    if tag == "LOCATION":
        return "location hierarchy"
    if tag in CATEGORY_TAGS:
        return "category map"
    if tag in ID_LIKE_TAGS:
        return "identifier suffix"
    if tag == "EMAIL_ADDRESS":
        return "email exact"
    if tag in FREE_TEXT_TAGS:
        return "Jaro-Winkler >= 0.85"
    raise invalid("tag", "rule_name", "one of the 15 SPIA tags", tag)


def score_pii(tag: str, gold: str, predicted: str, *, location_max_depth: int | None = 4) -> float:
    """Score one predicted value against one gold value by the tag's rule: 1, 0.5 or 0.

    Args:
        tag: one of :data:`TAGS`.
        gold: the gold keyword.
        predicted: the adversary's keyword ("" when it inferred nothing).
        location_max_depth: deepest location level compared.

    Returns:
        1.0 (inferred), 0.5 (less precise; LOCATION only) or 0.0.

    Raises:
        PrivlabValueError: unknown tag.

    Example:
        >>> score_pii("NAME", "K. Lewis", "K Lewis"), score_pii("NAME", "K. Lewis", "")
        (1.0, 0.0)
    """
    if tag not in TAGS:
        raise invalid("tag", "score_pii", "one of the 15 SPIA tags", tag)
    if not gold.strip() or not predicted.strip():
        return 0.0
    if gold.strip().lower() == predicted.strip().lower():
        return 1.0  # the same answer matches under every rule, even a malformed value
    if tag == "AGE":
        return age_score(gold, predicted)
    if tag == "LOCATION":
        return location_score(gold, predicted, location_max_depth)
    if tag in CATEGORY_TAGS:
        return category_score(gold, predicted, tag)
    if tag in ID_LIKE_TAGS:
        return identifier_score(gold, predicted)
    if tag == "EMAIL_ADDRESS":
        return email_score(gold, predicted)
    return free_text_score(gold, predicted)


class ValueJudge(Protocol):
    """A fallback that decides whether a predicted value matches a gold value when the
    rule said no: returns 1 (yes), 0.5 (less precise) or 0 (no)."""

    name: str

    def compare(self, tag: str, gold: str, predicted: str) -> float: ...


# --------------------------------------------------------------------------- matching
class SubjectMatcher(Protocol):
    """Pairs predicted subjects with gold subjects, one to one.

    ``match(gold, predicted, text)`` returns ``(gold index, predicted index)`` pairs;
    a gold subject in no pair was not found by the adversary.
    """

    name: str

    def match(self, gold: Sequence[Subject], predicted: Sequence[Subject],
              text: str = "") -> list[tuple[int, int]]: ...


_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if len(w) > 1}


def subject_similarity(gold: Subject, predicted: Subject) -> float:
    """How alike two subjects look, in [0, 1]: names, descriptions and profiles.

    The score is the weighted mean, with weights 0.5, 0.3 and 0.2, of *name* (the best
    Jaro-Winkler similarity between their NAME values, or the descriptions' first parts
    before " - " when a NAME is missing), *description* (word overlap, Jaccard, of the
    descriptions) and *profile* (the share of the gold subject's counted PIIs that the
    predicted values match by :func:`score_pii`). A part that one side lacks (no name,
    no description, no counted PII) is left out and the weights renormalised.

    Example:
        >>> a = Subject(0, "Ann Lee - the applicant", (PII("NAME", "Ann Lee", 5),))
        >>> round(subject_similarity(a, a), 3)
        1.0
    """
    def names(s: Subject) -> list[str]:
        values = s.values("NAME")
        if values:
            return values
        head = s.description.split(" - ")[0].strip()
        return [head] if head else []

    parts: list[tuple[float, float]] = []  # (weight, similarity) of what both sides have
    gn, pn = names(gold), names(predicted)
    if gn and pn:
        parts.append((0.5, max(jaro_winkler(a.lower(), b.lower()) for a in gn for b in pn)))
    gw, pw = _words(gold.description), _words(predicted.description)
    if gw and pw:
        parts.append((0.3, len(gw & pw) / len(gw | pw)))
    counted = gold.counted_piis()
    if counted:
        hits = sum(max((score_pii(p.tag, p.keyword, v) for v in predicted.values(p.tag)),
                       default=0.0) for p in counted)
        parts.append((0.2, hits / len(counted)))
    total = sum(w for w, _ in parts)
    return sum(w * x for w, x in parts) / total if total else 0.0


class OfflineMatcher:
    """Optimal one-to-one matching on :func:`subject_similarity` (Hungarian algorithm).

    Pairs whose similarity is below ``min_similarity`` are dropped, so a predicted
    subject that resembles no gold subject matches nothing.

    Args:
        min_similarity: smallest similarity accepted as a match.

    Example:
        >>> a = Subject(0, "Ann Lee - applicant", (PII("NAME", "Ann Lee", 5),))
        >>> b = Subject(1, "Bob Kay - lawyer", (PII("NAME", "Bob Kay", 5),))
        >>> OfflineMatcher().match([a, b], [b, a])
        [(0, 1), (1, 0)]
    """

    name = "offline"

    def __init__(self, min_similarity: float = 0.45):
        if not 0.0 <= float(min_similarity) <= 1.0:
            raise invalid("min_similarity", "OfflineMatcher", "in [0, 1]", min_similarity)
        self.min_similarity = float(min_similarity)
        self.name = f"offline(min {self.min_similarity:g})"

    def match(self, gold: Sequence[Subject], predicted: Sequence[Subject],
              text: str = "") -> list[tuple[int, int]]:
        """Optimal pairs ``(gold index, predicted index)``, sorted by gold index."""
        if not gold or not predicted:
            return []
        import numpy as np
        from scipy.optimize import linear_sum_assignment

        sim = np.array([[subject_similarity(g, p) for p in predicted] for g in gold])
        rows, cols = linear_sum_assignment(-sim)
        return sorted((int(r), int(c)) for r, c in zip(rows, cols)
                      if sim[r, c] >= self.min_similarity)


# --------------------------------------------------------------------------- protection
@dataclass
class ProtectionResult:
    """CPR and IPR of one adversary against one gold file, with every score behind them.

    Attributes:
        cpr: 1 - sum A_i / sum O_i (1 = nothing inferable, 0 = everything).
        ipr: mean over subjects of 1 - A_i / O_i.
        n_subjects: counted gold subjects N.
        n_piis: counted gold PIIs sum O_i.
        inferred: sum A_i (scores 1 / 0.5 / 0 added up).
        target: CPR/IPR over target subjects (subject id 0, the document's main person).
        non_target: CPR/IPR over every other subject.
        by_tag: tag -> (counted PIIs, inferred score, CPR).
        subjects: per-subject rows (data_id, subject, description, target, O, A, protection).
        piis: per-PII rows (data_id, subject, tag, gold, predicted, score, rule).
        status: what the numbers are (descriptive, one adversary).
        provenance: adversary, matcher, settings, data digest.
    """

    cpr: float
    ipr: float
    n_subjects: int
    n_piis: int
    inferred: float
    target: dict[str, float]
    non_target: dict[str, float]
    by_tag: dict[str, tuple[int, float, float]]
    subjects: list[dict]
    piis: list[dict]
    status: str = ("descriptive: protection against this adversary on this data; a "
                   "stronger adversary can only lower it")
    provenance: dict = field(default_factory=dict)

    def to_frame(self):
        """One row per metric: value and counts (pandas DataFrame)."""
        import pandas as pd

        rows = [("CPR", self.cpr, self.n_subjects, self.n_piis),
                ("IPR", self.ipr, self.n_subjects, self.n_piis),
                ("CPR target", self.target["cpr"], self.target["n_subjects"],
                 self.target["n_piis"]),
                ("CPR non-target", self.non_target["cpr"], self.non_target["n_subjects"],
                 self.non_target["n_piis"])]
        return pd.DataFrame(rows, columns=["metric", "value", "subjects", "PIIs"])

    def tag_frame(self):
        """Per-tag CPR (pandas DataFrame, one row per tag that has counted PIIs)."""
        import pandas as pd

        return pd.DataFrame([(t, n, a, c) for t, (n, a, c) in self.by_tag.items()],
                            columns=["tag", "PIIs", "inferred", "CPR"])

    def subject_frame(self):
        """Per-subject protection, least protected first (pandas DataFrame)."""
        import pandas as pd

        frame = pd.DataFrame(self.subjects)
        return frame.sort_values(["protection", "O"], ascending=[True, False]) \
            .reset_index(drop=True) if len(frame) else frame

    def pii_frame(self):
        """Every counted gold PII with the best predicted value and its score."""
        import pandas as pd

        return pd.DataFrame(self.piis)

    def _repr_html_(self) -> str:
        head = (f"<p><b>SPIA protection</b> — CPR {self.cpr:.3f}, IPR {self.ipr:.3f} over "
                f"{self.n_subjects} subjects and {self.n_piis} PIIs "
                f"({self.provenance.get('adversary', '?')}, matcher "
                f"{self.provenance.get('matcher', '?')}). <i>{self.status}</i></p>")
        return head + self.to_frame().to_html(index=False, float_format="%.3f")


def _rates(rows: list[dict]) -> dict[str, float]:
    o = sum(r["O"] for r in rows)
    a = sum(r["A"] for r in rows)
    return {"cpr": 1.0 - a / o if o else float("nan"),
            "ipr": sum(r["protection"] for r in rows) / len(rows) if rows else float("nan"),
            "n_subjects": len(rows), "n_piis": o}


def score_subject(gold: Subject, predicted: Subject | None, *,
                  min_certainty: int = MIN_CERTAINTY,
                  fallback: ValueJudge | None = None,
                  location_max_depth: int | None = 4) -> list[tuple[PII, str, float]]:
    """Score each counted gold PII of one subject against a predicted subject.

    For every counted gold PII, the predicted subject's values for the same tag are
    scored by :func:`score_pii` and the best score is kept; when that is 0 and a
    ``fallback`` judge is given, the judge decides (1 / 0.5 / 0).

    Returns:
        ``(gold PII, best predicted value, score)`` per counted gold PII.

    Example:
        >>> g = Subject(0, "", (PII("AGE", "54-55", 5), PII("SEX", "Male", 4)))
        >>> p = Subject(0, "", (PII("AGE", "50", 3), PII("AGE", "55", 3)))
        >>> [(x.tag, v, s) for x, v, s in score_subject(g, p)]
        [('AGE', '55', 1.0), ('SEX', '', 0.0)]
    """
    out = []
    for pii in gold.counted_piis(min_certainty):
        best_value, best = "", 0.0
        candidates = predicted.values(pii.tag) if predicted is not None else []
        for value in candidates:
            s = score_pii(pii.tag, pii.keyword, value, location_max_depth=location_max_depth)
            if s > best:
                best_value, best = value, s
        if best == 0.0 and fallback is not None and candidates:
            for value in candidates:
                s = float(fallback.compare(pii.tag, pii.keyword, value))
                if s > best:
                    best_value, best = value, s
        if best == 0.0 and candidates and not best_value:
            best_value = candidates[0]
        out.append((pii, best_value, best))
    return out


def protection(gold: Sequence[SPIARecord], predicted: Sequence[SPIARecord], *,
               matcher: SubjectMatcher | None = None, fallback: ValueJudge | None = None,
               min_certainty: int = MIN_CERTAINTY, location_max_depth: int | None = 4,
               provenance: dict | None = None) -> ProtectionResult:
    """CPR, IPR, per-tag CPR and target / non-target protection of predicted profiles.

    Args:
        gold: the gold records.
        predicted: the adversary's records, one per gold record with the same data_id
            (subjects may differ in number and order).
        matcher: pairs predicted with gold subjects (default :class:`OfflineMatcher`).
        fallback: optional judge asked when a rule scores 0 (see :class:`ValueJudge`).
        min_certainty: gold certainty from which a PII counts.
        location_max_depth: deepest location level compared.
        provenance: extra provenance to record (adversary name, anonymizer, ...).

    Returns:
        A :class:`ProtectionResult`.

    Raises:
        PrivlabValueError: a gold data_id has no prediction, or a prediction has no gold.

    Example:
        >>> g = [parse_spia_record({"metadata": {"data_id": "d"}, "text": "", "subjects": [
        ...     {"id": 0, "description": "Ann", "PIIs": [
        ...         {"tag": "NAME", "keyword": "Ann Lee", "certainty": 5},
        ...         {"tag": "AGE", "keyword": "34", "certainty": 4}]}]})]
        >>> round(protection(g, g).cpr, 3), round(protection(g, [SPIARecord("d", "", ())]).cpr, 3)
        (0.0, 1.0)
    """
    matcher = matcher or OfflineMatcher()
    by_id = {}
    for record in predicted:
        if not isinstance(record, SPIARecord):
            raise wrong_type("predicted", "protection", "a list of SPIARecord", record)
        by_id[record.data_id] = record
    gold_ids = {r.data_id for r in gold}
    missing = [r.data_id for r in gold if r.data_id not in by_id]
    extra = [d for d in by_id if d not in gold_ids]
    if missing:
        raise invalid("predicted", "protection", "one record per gold data_id",
                      f"no prediction for {len(missing)} documents, e.g. {missing[:3]}",
                      given_is_text=True,
                      fix="Give an empty record (no subjects) where the adversary found nothing.")
    if extra:
        raise invalid("predicted", "protection", "records of gold documents only",
                      f"{len(extra)} unknown data_ids, e.g. {extra[:3]}", given_is_text=True)
    subject_rows: list[dict] = []
    pii_rows: list[dict] = []
    for record in gold:
        pred = by_id[record.data_id]
        counted = [s for s in record.subjects if s.counted_piis(min_certainty)]
        if not counted:
            continue
        pairs = dict(matcher.match(counted, list(pred.subjects), pred.text)) \
            if pred.subjects else {}
        for gi, subject in enumerate(counted):
            match = pred.subjects[pairs[gi]] if gi in pairs else None
            scored = score_subject(subject, match, min_certainty=min_certainty,
                                   fallback=fallback, location_max_depth=location_max_depth)
            o, a = len(scored), sum(s for _, _, s in scored)
            subject_rows.append({
                "data_id": record.data_id, "subject": subject.id,
                "description": subject.description, "target": subject.id == 0,
                "matched": match.id if match is not None else None,
                "O": o, "A": a, "protection": 1.0 - a / o})
            for pii, value, s in scored:
                pii_rows.append({"data_id": record.data_id, "subject": subject.id,
                                 "tag": pii.tag, "gold": pii.keyword, "certainty": pii.certainty,
                                 "predicted": value, "score": s, "rule": rule_name(pii.tag)})
    overall = _rates(subject_rows)
    by_tag: dict[str, tuple[int, float, float]] = {}
    for tag in TAGS:
        scores = [r["score"] for r in pii_rows if r["tag"] == tag]
        if scores:
            by_tag[tag] = (len(scores), float(sum(scores)), 1.0 - sum(scores) / len(scores))
    info = {"matcher": getattr(matcher, "name", type(matcher).__name__),
            "fallback": getattr(fallback, "name", None) if fallback else None,
            "min_certainty": min_certainty, "location_max_depth": location_max_depth,
            "documents": len(gold)}
    info.update(provenance or {})
    return ProtectionResult(
        cpr=overall["cpr"], ipr=overall["ipr"], n_subjects=overall["n_subjects"],
        n_piis=int(overall["n_piis"]), inferred=float(sum(r["A"] for r in subject_rows)),
        target=_rates([r for r in subject_rows if r["target"]]),
        non_target=_rates([r for r in subject_rows if not r["target"]]),
        by_tag=by_tag, subjects=subject_rows, piis=pii_rows, provenance=info)


def empty_predictions(gold: Sequence[SPIARecord]) -> list[SPIARecord]:
    """An adversary that infers nothing: one record per gold document, no subjects.

    Example:
        >>> empty_predictions([SPIARecord("d", "text", ())])[0].subjects
        ()
    """
    return [SPIARecord(r.data_id, r.text, ()) for r in gold]


def gold_profile_callable(records: Sequence[SPIARecord]) -> Callable[[str], SPIARecord]:
    """Look up a gold record by data_id (used by oracle baselines and tests).

    Example:
        >>> gold_profile_callable([SPIARecord("d", "t", ())])("d").text
        't'
    """
    table = {r.data_id: r for r in records}

    def lookup(data_id: str) -> SPIARecord:
        if data_id not in table:
            raise invalid("data_id", "gold profile lookup", f"one of {len(table)} ids", data_id)
        return table[data_id]

    return lookup
