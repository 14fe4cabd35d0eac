"""The LLM adversary's and evaluator's prompts, and asking for JSON until the answer holds.

The prompts follow SPIA's two steps (the subjects, then the CODE and NON-CODE profiles) in
privlab's own words; :func:`ask_json` asks again, saying what was wrong, until an answer
holds. See docs/methods/redaction-spia-adversaries.md.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any, Callable, Sequence

from privlab.errors import invalid

#: SPIA's reference date for ages (the paper's annotation date).
SPIA_REFERENCE_DATE = date(2025, 9, 1)


def reference_date(value: str | date | None, caller: str = "reference_date") -> date:
    """A reference date from ``"YYYY-MM-DD"`` or a date (None: SPIA's 1 September 2025).

    Example:
        >>> reference_date("2024-01-31"), reference_date(None)
        (datetime.date(2024, 1, 31), datetime.date(2025, 9, 1))
    """
    if value is None:
        return SPIA_REFERENCE_DATE
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise invalid("reference_date", caller, "a date written YYYY-MM-DD", value,
                      "SPIA computes ages at 2025-09-01.") from None


class LLMAnswerError(RuntimeError):
    """The model's answers stayed unusable after every attempt; ``problems`` says why."""

    def __init__(self, message: str, problems: Sequence[str]):
        super().__init__(message)
        self.problems = list(problems)


def ask_json(client: Any, messages: list[dict], validate: Callable[[Any], Any], *,
             attempts: int = 3, temperature: float = 0.0, temperature_step: float = 0.2,
             what: str = "the answer", json_mode: bool = True) -> Any:
    """Ask for JSON, validate it, and on failure ask again saying what was wrong.

    Each new attempt repeats the conversation with the unusable answer and its problem, at
    a temperature ``temperature_step`` higher (at most 1). ``json_mode=False`` asks a
    ``chat`` client without the endpoint's JSON mode (SPIA's prompts want a JSON list).
    See docs/methods/redaction-spia-adversaries.md.

    Returns:
        ``validate(answer)`` of the first answer that holds.

    Raises:
        LLMAnswerError: no answer held after ``attempts`` tries; its ``problems`` list
            what was wrong each time.

    Example:
        >>> class Scripted:
        ...     answers = iter(['{"n": "x"}', '{"n": 2}'])
        ...     def chat(self, messages, **options):
        ...         return next(self.answers)
        >>> def positive(answer):
        ...     if not isinstance(answer.get("n"), int):
        ...         raise ValueError("'n' must be an integer")
        ...     return answer["n"]
        >>> ask_json(Scripted(), [{"role": "user", "content": "n?"}], positive)
        2
    """
    from privlab.llm import LLMError, parse_json_answer

    problems: list[str] = []
    conversation = list(messages)
    for attempt in range(max(1, int(attempts))):
        heat = min(1.0, temperature + temperature_step * attempt)
        raw = ""
        try:
            if hasattr(client, "chat"):
                raw = client.chat(conversation, temperature=heat, json_mode=json_mode)
                answer = parse_json_answer(raw)
            else:
                answer = client.chat_json(conversation, temperature=heat)
                raw = json.dumps(answer, ensure_ascii=False)
        except (ValueError, LLMError) as exc:
            problem = f"it was not valid JSON ({exc})"
        else:
            try:
                return validate(answer)
            except ValueError as exc:
                problem = str(exc)
        problems.append(problem)
        conversation = list(messages) + ([{"role": "assistant", "content": raw[:4000]}]
                                         if raw else []) + [{"role": "user", "content": (
            f"Your answer could not be used: {problem}. Answer again with the whole JSON "
            "object, corrected, and nothing else.")}]
    raise LLMAnswerError(f"{what} was unusable after {len(problems)} attempts: "
                         + " | ".join(problems), problems)


# --------------------------------------------------------------------------- step 1
SUBJECTS = """Find every person in the text below who could be told apart from the others:
the people a privacy law calls data subjects.

Rules:
- Count people, not institutions: a court, a ministry or "the police" is nobody; the
  judge who signed, the officer who arrested, the writer of a post are somebody.
- Count each person once. Merge every way the text refers to them (a name, a handle, an
  e-mail address, "the applicant", "he") into one entry.
- A group with a stated size counts as that many people, each listed ("three sons" are
  Son 1, Son 2, Son 3). A group without a size ("some neighbours", "the witnesses") is
  not counted.
- Whoever an identifier belongs to must be listed: an ID number, a driving licence, a
  phone number, a passport number or an e-mail address always points to a person.
- Placeholders such as [MASKED] or <PERSON> stand for removed words; a person whose name
  was removed is still a person: describe them by their role.

Worked example 1.
Text: "Posted by dana_k: My partner and I adopted two cats last spring. My sister Ruth
keeps asking when she can visit. Call the shelter manager on 0871 555 0199 if you want one."
Answer: {{"subjects": [
  {{"id": 0, "name": "dana_k", "description": "writer of the post, lives with a partner"}},
  {{"id": 1, "name": "", "description": "the writer's partner"}},
  {{"id": 2, "name": "Ruth", "description": "the writer's sister"}},
  {{"id": 3, "name": "", "description": "the shelter manager, phone 0871 555 0199"}}],
  "not_counted": ["the cats (not people)"]}}

Worked example 2.
Text: "The applicant, a [MASKED] national, was arrested by two gendarmes. His lawyer,
Ms [MASKED], appealed. The Minister of the Interior refused the request."
Answer: {{"subjects": [
  {{"id": 0, "name": "", "description": "the applicant, arrested, represented by a lawyer"}},
  {{"id": 1, "name": "", "description": "gendarme 1 of the two who made the arrest"}},
  {{"id": 2, "name": "", "description": "gendarme 2 of the two who made the arrest"}},
  {{"id": 3, "name": "", "description": "the applicant's lawyer, a woman"}},
  {{"id": 4, "name": "", "description": "the Minister of the Interior"}}],
  "not_counted": []}}

The text:
<<<
{text}
>>>

Answer with JSON only, in the form of the examples: ids 0, 1, 2... in order of first
appearance, "name" the most complete name or handle the text gives ("" when none), and a
description that tells the person apart (role, relation, what they did). Give
{{"subjects": []}} when the text mentions nobody."""

# --------------------------------------------------------------------------- step 2
TAG_DEFINITIONS = {
    "NAME": "the name that refers to the person: full name, surname, first name or nickname "
            "(the most complete form the text supports)",
    "SEX": "Male or Female",
    "AGE": "age in years on {reference}: one number (34) or a range of at most ten years "
           "(30-39); someone born in 1970 is 54-55",
    "LOCATION": "where the person lives or is based now, in four levels from the most "
                "specific known: premises / sub-city / city / country (e.g. \"Brno / "
                "Czechia\", \"Karawal Nagar / Delhi / India\", or just \"Ireland\")",
    "NATIONALITY": "the country of citizenship, as its English short name (Türkiye, United "
                   "Kingdom, India)",
    "EDUCATION": "one of: No High School Diploma, In Highschool, High School Diploma, "
                 "In College, College Degree, PhD",
    "RELATIONSHIP": "one of: No relation, In Relation, Married, Divorced, Widowed (for a "
                    "person who has died, give none)",
    "OCCUPATION": "the job as a general name, not a title (Lawyer, Judge, Software "
                  "Developer); Unemployed when the person has none",
    "AFFILIATION": "the organisation the person belongs to (company, court, ministry, "
                   "university, party)",
    "POSITION": "the title or rank held within that organisation (Agent, President of the "
                "Section, Head of Department), distinct from the occupation",
    "IDENTIFICATION_NUMBER": "a national identity number (e.g. an SSN, or IE-ID-1234567)",
    "DRIVER_LICENSE_NUMBER": "a driving licence number (e.g. US-DL-73164773250)",
    "PHONE_NUMBER": "any phone or fax number, mobile or landline",
    "PASSPORT_NUMBER": "a passport number",
    "EMAIL_ADDRESS": "an e-mail address, personal or work",
}

_CERTAINTY = """Certainty, 1 to 5: 5 = stated outright ("I married last year" -> Married);
4 = very sure; 3 = clear evidence in the text; 2 = weak evidence; 1 = a guess from a
stereotype alone. Every value has a certainty."""

PROFILE_NON_CODE = """Infer personal information about every person listed below from the
text, including what the text only implies: a title, a pronoun, a spouse, a job, a court,
a country all say something. Placeholders such as [MASKED] are removed words and are
never a value, but what surrounds them still counts.

Tags:
{tags}

Rules:
- Give all ten tags for every person. When the text gives no evidence, give your best
  guess with certainty 1 or 2; never answer "unknown" or leave a keyword empty. Infer as
  much as possible.
- Attach a value to the person it belongs to (their subject id).
- The same tag may appear twice for one person only for two different facts; the same
  fact in two forms ("Michael Jordan", "Jordan") is given once, in its most specific form.
{certainty}

Worked example.
Text: "Mr [MASKED], who was born in 1961, worked as a bus driver in [MASKED] until his
wife died."  Subject 0: the applicant.
Answer: {{"subjects": [{{"id": 0, "PIIs": [
  {{"tag": "NAME", "keyword": "", "certainty": 0}},
  {{"tag": "SEX", "keyword": "Male", "certainty": 5}},
  {{"tag": "AGE", "keyword": "63-64", "certainty": 5}},
  {{"tag": "LOCATION", "keyword": "{example_country}", "certainty": 1}},
  {{"tag": "NATIONALITY", "keyword": "{example_country}", "certainty": 1}},
  {{"tag": "EDUCATION", "keyword": "High School Diploma", "certainty": 2}},
  {{"tag": "RELATIONSHIP", "keyword": "Widowed", "certainty": 5}},
  {{"tag": "OCCUPATION", "keyword": "Bus driver", "certainty": 4}},
  {{"tag": "AFFILIATION", "keyword": "city transport company", "certainty": 1}},
  {{"tag": "POSITION", "keyword": "Driver", "certainty": 2}}]}}]}}
(NAME is the one tag that may stay empty, with certainty 0, when no name survives.)

The text:
<<<
{text}
>>>

The people:
{subjects}

Answer with JSON only, one entry per person and all ten tags each:
{{"subjects": [{{"id": 0, "PIIs": [{{"tag": "SEX", "keyword": "...", "certainty": 3}}, ...]}}]}}"""

PROFILE_CODE = """Find the identifiers that belong to every person listed below in the text.

Tags:
{tags}

Rules:
- Attach an identifier to the person it belongs to (their subject id).
- A person may have several identifiers of one kind: give each. Copy each identifier in
  its most complete form; a placeholder such as [MASKED] is never a value.
- When a person has no identifier of a kind, give that tag with keyword "" and
  certainty 0.
{certainty}

Worked example.
Text: "Reach me at lee.moss@example.ie or on +353 1 555 0142. My client's licence,
IE-DL-55501234, was refused."  Subjects: 0 the writer, 1 the writer's client.
Answer: {{"subjects": [
  {{"id": 0, "PIIs": [{{"tag": "EMAIL_ADDRESS", "keyword": "lee.moss@example.ie", "certainty": 5}},
                    {{"tag": "PHONE_NUMBER", "keyword": "+353 1 555 0142", "certainty": 5}}]}},
  {{"id": 1, "PIIs": [{{"tag": "DRIVER_LICENSE_NUMBER", "keyword": "IE-DL-55501234", "certainty": 5}}]}}]}}

The text:
<<<
{text}
>>>

The people:
{subjects}

Answer with JSON only:
{{"subjects": [{{"id": 0, "PIIs": [{{"tag": "...", "keyword": "...", "certainty": 5}}]}}]}}"""


def tag_list(tags: Sequence[str], reference: date) -> str:
    """The tag definitions as a bulleted list, ages at ``reference``."""
    day = f"{reference.day} {reference.strftime('%B')} {reference.year}"
    return "\n".join(f"- {t}: {TAG_DEFINITIONS[t].format(reference=day)}" for t in tags)


def profile_prompt(group: str, tags: Sequence[str], text: str, subjects: str,
                   reference: date) -> str:
    """The step-2 prompt for ``group`` ("code" or "non-code")."""
    template = PROFILE_CODE if group == "code" else PROFILE_NON_CODE
    return template.format(tags=tag_list(tags, reference), certainty=_CERTAINTY, text=text,
                           subjects=subjects, example_country="Czechia")


# --------------------------------------------------------------------------- evaluation
JUDGE = """Two values were given for the same personal attribute ({tag}: {definition}) of
the same person: one by an annotator who read the original text, one by someone who read
an anonymized version.
Annotator: {gold}
Other: {predicted}
Do they state the same fact? Answer "yes" (the same fact, in any wording), "less precise"
(consistent but less specific, e.g. a country for a city in it) or "no" (different or
contradictory). Answer with JSON only: {{"verdict": "yes" | "less precise" | "no"}}"""

MATCH = """The same document was annotated twice: list A from the original text, list B
from an anonymized version of it. Each list names the people in the document with what
was found about them. Pair every person of B with the person of A they are, one to one,
using their roles, their relations and what the text says about them more than the exact
values (anonymization removes names and changes details). A person of A that B does not
describe, or a person of B that is nobody in A, stays unpaired.

Original text:
<<<
{original}
>>>

Anonymized text:
<<<
{anonymized}
>>>

List A (from the original text):
{gold}

List B (from the anonymized text):
{predicted}

Answer with JSON only: {{"pairs": [[A_index, B_index], ...]}} (no index twice)."""


def describe_for_matching(index: int, description: str, piis: Sequence[tuple[str, str]]) -> str:
    """One person of a matching list: index, description, then their values by tag."""
    values = "; ".join(f"{tag}={keyword}" for tag, keyword in piis if keyword)
    return f"{index}: {description or '(no description)'}" + (f" [{values}]" if values else "")


__all__ = ["JUDGE", "LLMAnswerError", "MATCH", "PROFILE_CODE", "PROFILE_NON_CODE",
           "SPIA_REFERENCE_DATE", "SUBJECTS", "TAG_DEFINITIONS", "ask_json",
           "describe_for_matching", "profile_prompt", "reference_date", "tag_list"]
