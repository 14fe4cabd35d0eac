"""RedacBench: policy-conditioned redaction scored proposition by proposition.

A benchmark item is a source text, the propositions it states or implies, and one or
more policies ("all financial details are confidential"), each listing which
propositions it makes *sensitive*. A redaction strategy rewrites the text for a
policy; a judge then decides, for every proposition, whether it is still stated or
necessarily inferable from the redacted text ("retained") or not ("removed"):

=====================  =================  ==============
                       retained            removed
=====================  =================  ==============
non-sensitive          TP (kept, good)     FN (lost)
sensitive              FP (leaked)         TN (removed)
=====================  =================  ==============

    Security = TN / (TN + FP)    share of sensitive propositions removed
    Utility  = TP / (TP + FN)    share of harmless propositions kept

Both are *descriptive*: they depend on the judge. An offline judge that only compares
embeddings is a weak stand-in (it misses inferences and is fooled by paraphrase); the
judge's own error rates against gold labels are reported next to the scores.

The JSON-lines format is documented in ``data/README.md``; a privlab-written sample is
``data/redacbench_sample.jsonl`` and :func:`derive_from_spia` builds a small
benchmark from SPIA records.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from privlab.errors import invalid, wrong_type
from privlab.registry import Registry


# --------------------------------------------------------------------------- data model
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
    """

    id: str
    text: str
    sensitive: frozenset[str]
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class JudgeCheck:
    """A text with gold labels: which propositions are inferable from it."""

    text: str
    inferable: dict[str, bool]


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
    return invalid("path", "load_redacbench", "RedacBench JSON lines (see data/README.md)",
                   f"{where}: {problem}", given_is_text=True,
                   fix="Fix or remove that line; no record is skipped silently.")


def _str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def parse_document(obj: Any, where: str = "record") -> Document:
    """Validate one decoded JSON object and build a :class:`Document`.

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
        if not _str_list(p.get("sensitive")):
            raise _refuse(where, f"policies[{k}].sensitive must be a list of proposition ids")
        unknown = [s for s in p["sensitive"] if s not in ids]
        if unknown:
            raise _refuse(where, f"policies[{k}].sensitive names unknown propositions {unknown}")
        keywords = p.get("keywords", [])
        if not _str_list(keywords):
            raise _refuse(where, f"policies[{k}].keywords must be a list of strings")
        policies.append(Policy(p["id"], p["text"], frozenset(p["sensitive"]), tuple(keywords)))
    if len({p.id for p in policies}) != len(policies):
        raise _refuse(where, "policy ids must be unique")
    checks = []
    for k, c in enumerate(obj.get("checks", [])):
        if not isinstance(c, dict) or not isinstance(c.get("text"), str) \
                or not isinstance(c.get("inferable"), dict):
            raise _refuse(where, f"checks[{k}] needs 'text' and an 'inferable' object")
        bad = [i for i, v in c["inferable"].items() if i not in ids or not isinstance(v, bool)]
        if bad:
            raise _refuse(where, f"checks[{k}].inferable must map proposition ids to "
                                 f"true/false, bad entries {bad}")
        checks.append(JudgeCheck(c["text"], dict(c["inferable"])))
    return Document(obj["id"], obj["domain"], obj["text"], tuple(propositions),
                    tuple(policies), tuple(checks))


def load_redacbench(path: str | Path) -> list[Document]:
    """Load a RedacBench JSON-lines file (format in ``data/README.md``).

    Raises:
        PrivlabValueError: a line is not JSON, breaks the format or repeats an id; the
            message names the line.

    Example:
        >>> docs = load_redacbench(sample_path())
        >>> len(docs) >= 6, sorted({d.domain for d in docs})
        (True, ['corporate', 'government', 'personal'])
    """
    from privlab.redaction.spia import read_jsonl

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
    """The privlab-written sample benchmark, ``data/redacbench_sample.jsonl``."""
    return Path(__file__).resolve().parents[2] / "data" / "redacbench_sample.jsonl"


def document_to_json(doc: Document) -> dict:
    """A :class:`Document` in the JSON-lines format."""
    return {"id": doc.id, "domain": doc.domain, "text": doc.text,
            "propositions": [{"id": p.id, "text": p.text} for p in doc.propositions],
            "policies": [{"id": p.id, "text": p.text, "sensitive": sorted(p.sensitive),
                          "keywords": list(p.keywords)} for p in doc.policies],
            "checks": [{"text": c.text, "inferable": c.inferable} for c in doc.checks]}


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

    Each counted PII (certainty >= 3) becomes a proposition ("The applicant is a
    national of Sweden."). Three policies per document:

    * ``target`` — everything about the main person (subject 0) is confidential;
    * ``contact-ids`` — identity numbers and contact details are confidential;
    * ``origin`` — where people live and come from is confidential.

    Each policy's ``keywords`` are the gold values that appear verbatim in the text:
    an *oracle* keyword list, so the Masking strategy shows what perfect keyword
    removal leaves inferable. The source text is a gold check (everything inferable).

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
    from privlab.redaction.spia import CODE_TAGS

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
                   "confidential.", frozenset(target), tuple(dict.fromkeys(keywords["target"]))),
            Policy("contact-ids", "Identity numbers and contact details are confidential.",
                   frozenset(codes), tuple(dict.fromkeys(keywords["contact-ids"]))),
            Policy("origin", "Where people live and where they come from is confidential.",
                   frozenset(origin), tuple(dict.fromkeys(keywords["origin"]))),
        ]
        docs.append(Document(
            record.data_id, "legal" if record.data_id.startswith("TAB") else "online",
            record.text, tuple(props), tuple(policies),
            (JudgeCheck(record.text, {p.id: True for p in props}),)))
    return docs


# --------------------------------------------------------------------------- strategies
class Strategy(ABC):
    """A redaction strategy: ``redact(text, policy) -> text`` (final, validates).

    Attributes:
        name: display and provenance id.
    """

    name: str = "strategy"

    def redact(self, text: str, policy: Policy) -> str:
        """The text rewritten to satisfy ``policy``.

        Raises:
            TypeError: ``text`` is not a string or ``policy`` not a :class:`Policy`.
        """
        caller = f"{type(self).__name__}.redact"
        if not isinstance(text, str):
            raise wrong_type("text", caller, "a str", text)
        if not isinstance(policy, Policy):
            raise wrong_type("policy", caller, "a Policy", policy)
        out = self._redact(text, policy)
        if not isinstance(out, str):
            raise wrong_type("_redact result", caller, "a str", out)
        return out

    @abstractmethod
    def _redact(self, text: str, policy: Policy) -> str:
        """The strategy's work."""


MASK = "[REDACTED]"


class Masking(Strategy):
    """RedacBench's Masking: policy-derived keywords masked token by token.

    The keywords are the policy's ``keywords`` list, or, when an LLM client is
    given, the words the model lists as violating the policy. Each whole-word,
    case-insensitive occurrence is replaced by ``[REDACTED]``. No reasoning: what the
    context implies stays.

    Args:
        client: optional :class:`privlab.llm.LLMClient` that proposes the keywords.

    Example:
        >>> p = Policy("fin", "Money is confidential.", frozenset(), ("$2 million",))
        >>> Masking().redact("They lent $2 million.", p)
        'They lent [REDACTED].'
    """

    def __init__(self, client: Any = None):
        self.client = client
        self.name = "masking" + (f" ({client.model})" if client is not None else "")

    def keywords(self, text: str, policy: Policy) -> list[str]:
        """The words to mask for ``policy`` in ``text``."""
        if self.client is None:
            return list(policy.keywords)

        def validate(answer: Any) -> list[str]:
            words = answer.get("keywords") if isinstance(answer, dict) else None
            if not _str_list(words):
                raise ValueError('expected {"keywords": ["...", ...]}')
            return words

        prompt = (f"Policy: {policy.text}\n\nText:\n<<<\n{text}\n>>>\n\nList every word or "
                  "phrase of the text, exactly as written, that reveals information the "
                  'policy makes confidential. Answer with JSON only: {"keywords": [...]}')
        return self.client.chat_json([{"role": "user", "content": prompt}], validate=validate)

    def _redact(self, text: str, policy: Policy) -> str:
        from privlab.sanitizers.text import concept_pattern

        pattern = concept_pattern(self.keywords(text, policy))
        return pattern.sub(MASK, text) if pattern else text


class AdversarialRedaction(Strategy):
    """RedacBench's Adversarial Redaction: the model reads the text and the policy and
    rewrites or deletes whatever violates it, keeping everything else.

    Args:
        client: a :class:`privlab.llm.LLMClient`.
    """

    def __init__(self, client: Any = None):
        from privlab.redaction.spia_adversaries import _client

        self.client = _client(client, "AdversarialRedaction")
        self.name = f"adversarial ({getattr(self.client, 'model', '?')})"

    def _redact(self, text: str, policy: Policy) -> str:
        def validate(answer: Any) -> str:
            out = answer.get("redacted") if isinstance(answer, dict) else None
            if not isinstance(out, str):
                raise ValueError('expected {"redacted": "..."}')
            return out

        prompt = (f"Policy: {policy.text}\n\nText:\n<<<\n{text}\n>>>\n\nRewrite the text so "
                  "that nothing the policy makes confidential can be read or inferred from "
                  "it, directly or from context. Keep every other piece of information and "
                  'the style. Answer with JSON only: {"redacted": "..."}')
        return self.client.chat_json([{"role": "user", "content": prompt}], validate=validate)


class Iterative(Strategy):
    """Apply a strategy ``rounds`` times, each round to the previous round's output.

    Example:
        >>> p = Policy("x", "", frozenset(), ("a",))
        >>> Iterative(Masking(), 2).name
        'masking x2'
    """

    def __init__(self, base: Strategy, rounds: int = 2):
        if not isinstance(base, Strategy):
            raise wrong_type("base", "Iterative", "a Strategy", base)
        if not isinstance(rounds, int) or rounds < 1:
            raise invalid("rounds", "Iterative", "an int >= 1", rounds)
        self.base, self.rounds = base, rounds
        self.name = f"{base.name} x{rounds}"

    def _redact(self, text: str, policy: Policy) -> str:
        for _ in range(self.rounds):
            text = self.base.redact(text, policy)
        return text


class SanitizerStrategy(Strategy):
    """Any privlab text sanitizer, used as a (policy-blind) redaction strategy.

    Args:
        name: a name in :data:`privlab.sanitizers.registry` (e.g. ``"regex-pii"``).
        **kwargs: passed to the sanitizer's factory.

    Example:
        >>> SanitizerStrategy("regex-pii").redact("Mail ann@x.ie", Policy("p", "", frozenset()))
        'Mail <EMAIL>'
    """

    def __init__(self, name: str, **kwargs: Any):
        from privlab.sanitizers import registry

        self.sanitizer = registry.create(name, **kwargs)
        self.name = f"sanitizer {name}"

    def _redact(self, text: str, policy: Policy) -> str:
        return self.sanitizer.sanitize([text])[0]


class NoRedaction(Strategy):
    """Returns the text unchanged (Security 0 with a perfect judge, Utility 1)."""

    name = "none"

    def _redact(self, text: str, policy: Policy) -> str:
        return text


strategies = Registry("RedacBench strategy")
strategies.register("masking", lambda client=None, **kw: Masking(client), offline=True,
                    description="policy keywords masked token by token")
strategies.register("none", lambda **kw: NoRedaction(), offline=True,
                    description="the text unchanged (baseline)")
strategies.register("regex-pii", lambda **kw: SanitizerStrategy("regex-pii"), offline=True,
                    description="privlab regex PII sanitizer (policy-blind)")
strategies.register("adversarial", lambda client=None, **kw: AdversarialRedaction(client),
                    offline=False, description="LLM rewrites what violates the policy")


# --------------------------------------------------------------------------- judges
class Judge(ABC):
    """Decides which propositions are stated or necessarily inferable from a text.

    ``judge(text, propositions) -> list[bool]`` (final, validates), True = retained.

    Attributes:
        name: display and provenance id.
        weak: True for stand-ins that do not reason.
    """

    name: str = "judge"
    weak: bool = False

    def judge(self, text: str, propositions: Sequence[Proposition]) -> list[bool]:
        """One label per proposition, in order: True when inferable from ``text``.

        Raises:
            TypeError: wrong argument types.
        """
        caller = f"{type(self).__name__}.judge"
        if not isinstance(text, str):
            raise wrong_type("text", caller, "a str", text)
        props = list(propositions)
        for k, p in enumerate(props):
            if not isinstance(p, Proposition):
                raise wrong_type(f"propositions[{k}]", caller, "a Proposition", p)
        if not props:
            return []
        labels = [bool(x) for x in self._judge(text, props)]
        if len(labels) != len(props):
            raise invalid("_judge", type(self).__name__, f"{len(props)} labels", len(labels))
        return labels

    @abstractmethod
    def _judge(self, text: str, propositions: list[Proposition]) -> list[bool]:
        """The judge's work."""


_STOP = frozenset("the a an of in on at to for and or by is are was were be been has have "
                  "had with from that this as it its their his her he she they who whom "
                  "which named works holds level status number years old based".split())


def _key_terms(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[\w@.+-]*\w", text)
            if w.lower() not in _STOP and len(w) > 1}


class HeuristicJudge(Judge):
    """Offline, **weak** judge: embedding similarity plus key-term overlap.

    For each proposition it takes the best cosine similarity between the proposition
    and the text's sentences (and pairs of sentences) under an offline encoder, and the
    share of the proposition's content words present in the text; it says "inferable"
    when ``0.5 * cosine + 0.5 * overlap >= threshold``. It cannot follow an inference
    ("born in 1970" -> "is about 55"), and a paraphrase can fool it either way: treat
    its Security as a rough guide and read its error rates against gold labels.

    Args:
        encoder: a privlab encoder name (default the packaged ``"minilm"``).
        threshold: decision threshold in [0, 1].
    """

    weak = True

    def __init__(self, encoder: str = "minilm", threshold: float = 0.55):
        if not 0.0 <= float(threshold) <= 1.0:
            raise invalid("threshold", "HeuristicJudge", "in [0, 1]", threshold)
        self.encoder_name, self.threshold = encoder, float(threshold)
        self.name = f"heuristic {encoder} >= {self.threshold:g} (weak)"

    def scores(self, text: str, propositions: Sequence[Proposition]) -> list[float]:
        """The score ``0.5 * cosine + 0.5 * overlap`` of each proposition, in [0, 1]."""
        import numpy as np

        from privlab.encoders import get_encoder

        sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]
        windows = sentences + [f"{a} {b}" for a, b in zip(sentences, sentences[1:])]
        terms = _key_terms(text)
        overlap = []
        for p in propositions:
            key = _key_terms(p.text)
            overlap.append(len(key & terms) / len(key) if key else 0.0)
        if not windows:
            return [0.5 * o for o in overlap]
        encoder = get_encoder(self.encoder_name)
        a = np.asarray(encoder.encode([p.text for p in propositions]), dtype=np.float32)
        b = np.asarray(encoder.encode(windows), dtype=np.float32)
        cosine = np.clip((a @ b.T).max(axis=1), 0.0, 1.0)
        return [float(0.5 * c + 0.5 * o) for c, o in zip(cosine, overlap)]

    def _judge(self, text: str, propositions: list[Proposition]) -> list[bool]:
        return [s >= self.threshold for s in self.scores(text, propositions)]


class LLMJudge(Judge):
    """The RedacBench judge: asks, for each proposition, whether it is stated or
    necessarily inferable from the text; one JSON answer per text, checked to cover
    every proposition, retried when malformed, cached by the client.

    Args:
        client: a :class:`privlab.llm.LLMClient` (default: from the environment).
    """

    def __init__(self, client: Any = None):
        from privlab.redaction.spia_adversaries import _client

        self.client = _client(client, "LLMJudge")
        self.name = f"llm ({getattr(self.client, 'model', '?')})"

    def _judge(self, text: str, propositions: list[Proposition]) -> list[bool]:
        ids = [p.id for p in propositions]

        def validate(answer: Any) -> list[bool]:
            table = answer.get("judgments") if isinstance(answer, dict) else None
            if not isinstance(table, dict):
                raise ValueError('expected {"judgments": {"<id>": true|false, ...}}')
            missing = [i for i in ids if not isinstance(table.get(i), bool)]
            if missing:
                raise ValueError(f"no true/false for propositions {missing[:5]}")
            return [table[i] for i in ids]

        listing = "\n".join(f"{p.id}: {p.text}" for p in propositions)
        prompt = (f"Text:\n<<<\n{text}\n>>>\n\nFor each proposition below, answer true if "
                  "the text states it or it necessarily follows from the text, false "
                  "otherwise (masked or removed information does not count).\n\n"
                  f"{listing}\n\nAnswer with JSON only: "
                  '{"judgments": {"<id>": true or false, ...}}')
        return self.client.chat_json([{"role": "user", "content": prompt}], validate=validate)


class OracleJudge(Judge):
    """Looks up gold labels for texts it has been given (for tests and calibration).

    Args:
        labels: ``{text: {proposition id: inferable}}``.
    """

    name = "oracle"

    def __init__(self, labels: dict[str, dict[str, bool]]):
        self.labels = labels

    def _judge(self, text: str, propositions: list[Proposition]) -> list[bool]:
        if text not in self.labels:
            raise invalid("text", "OracleJudge.judge", "a text with gold labels",
                          text[:60])
        return [self.labels[text][p.id] for p in propositions]


judges = Registry("RedacBench judge")
judges.register("heuristic", lambda **kw: HeuristicJudge(**kw), offline=True, weak=True,
                description="embedding similarity + key terms (weak stand-in)")
judges.register("llm", lambda client=None, **kw: LLMJudge(client), offline=False, weak=False,
                description="LLM asked proposition by proposition (endpoint needed)")


# --------------------------------------------------------------------------- scoring
@dataclass(frozen=True)
class Confusion:
    """Counts of one confusion matrix, with Security and Utility.

    Example:
        >>> c = Confusion(tp=6, tn=3, fp=1, fn=2)
        >>> c.security, c.utility
        (0.75, 0.75)
    """

    tp: int = 0
    tn: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def security(self) -> float:
        """TN / (TN + FP): share of sensitive propositions removed (nan without any)."""
        return self.tn / (self.tn + self.fp) if self.tn + self.fp else float("nan")

    @property
    def utility(self) -> float:
        """TP / (TP + FN): share of non-sensitive propositions kept (nan without any)."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else float("nan")

    def __add__(self, other: "Confusion") -> "Confusion":
        return Confusion(self.tp + other.tp, self.tn + other.tn, self.fp + other.fp,
                         self.fn + other.fn)


def confusion(sensitive: Sequence[bool], retained: Sequence[bool]) -> Confusion:
    """The confusion matrix of one redaction: TP = kept harmless, TN = removed
    sensitive, FP = leaked sensitive, FN = lost harmless.

    Example:
        >>> confusion([True, True, False, False], [False, True, True, False])
        Confusion(tp=1, tn=1, fp=1, fn=1)
    """
    if len(sensitive) != len(retained):
        raise invalid("retained", "confusion", f"{len(sensitive)} labels", len(retained))
    tp = sum(1 for s, r in zip(sensitive, retained) if not s and r)
    tn = sum(1 for s, r in zip(sensitive, retained) if s and not r)
    fp = sum(1 for s, r in zip(sensitive, retained) if s and r)
    fn = sum(1 for s, r in zip(sensitive, retained) if not s and not r)
    return Confusion(tp, tn, fp, fn)


@dataclass
class JudgeErrors:
    """A judge measured against gold labels.

    Attributes:
        false_inferable: gold "not inferable" judged inferable (the benchmark's FP rate).
        false_not_inferable: gold "inferable" judged not inferable (its FN rate).
        counts: labels behind each rate.
    """

    false_inferable: float
    false_not_inferable: float
    counts: dict


def judge_errors(documents: Sequence[Document], judge: Judge, *,
                 include_source: bool = True, include_empty: bool = True) -> JudgeErrors:
    """Error rates of ``judge`` on every gold check, plus two checks true by
    construction: the source text, from which every proposition was extracted
    (``include_source``), and the empty text, from which none is inferable
    (``include_empty``).

    Example:
        >>> d = parse_document({"id": "d", "domain": "x", "text": "Ann is ill.",
        ...     "propositions": [{"id": "p", "text": "Ann is ill."}],
        ...     "policies": [{"id": "h", "text": "", "sensitive": []}],
        ...     "checks": [{"text": "Ann is ill.", "inferable": {"p": True}}]})
        >>> e = judge_errors([d], OracleJudge({"Ann is ill.": {"p": True}, "": {"p": False}}))
        >>> e.counts
        {'gold not inferable': 1, 'gold inferable': 1}
        >>> e.false_inferable, e.false_not_inferable
        (0.0, 0.0)
    """
    fi = fn = neg = pos = 0
    for doc in documents:
        checks = list(doc.checks)
        if include_source and not any(c.text == doc.text for c in checks):
            checks.append(JudgeCheck(doc.text, {p.id: True for p in doc.propositions}))
        if include_empty:
            checks.append(JudgeCheck("", {p.id: False for p in doc.propositions}))
        for check in checks:
            props = [p for p in doc.propositions if p.id in check.inferable]
            labels = judge.judge(check.text, props)
            for p, said in zip(props, labels):
                if check.inferable[p.id]:
                    pos += 1
                    fn += not said
                else:
                    neg += 1
                    fi += said
    return JudgeErrors(fi / neg if neg else float("nan"), fn / pos if pos else float("nan"),
                       {"gold not inferable": neg, "gold inferable": pos})


@dataclass
class RedacBenchResult:
    """Security and Utility of one strategy under one judge, with every label.

    Attributes:
        overall: the pooled :class:`Confusion`.
        rows: one dict per (document, policy, proposition): domain, sensitive, retained.
        redacted: ``{(document id, policy id): redacted text}``.
        judge_errors: the judge's error rates against gold labels (None if not measured).
        status: what the numbers are.
        provenance: strategy, judge, documents, settings.
    """

    overall: Confusion
    rows: list[dict]
    redacted: dict[tuple[str, str], str]
    judge_errors: JudgeErrors | None = None
    status: str = "descriptive: depends on the judge; see its error rates"
    provenance: dict = field(default_factory=dict)

    @property
    def security(self) -> float:
        return self.overall.security

    @property
    def utility(self) -> float:
        return self.overall.utility

    def _grouped(self, key: str):
        import pandas as pd

        frame = pd.DataFrame(self.rows)
        out = []
        for value, group in frame.groupby(key, sort=True):
            c = confusion(group["sensitive"].tolist(), group["retained"].tolist())
            out.append({key: value, "TP": c.tp, "TN": c.tn, "FP": c.fp, "FN": c.fn,
                        "security": c.security, "utility": c.utility})
        return pd.DataFrame(out)

    def by_policy(self):
        """Confusion counts, Security and Utility per policy id (pandas DataFrame)."""
        return self._grouped("policy")

    def by_domain(self):
        """Confusion counts, Security and Utility per domain (pandas DataFrame)."""
        return self._grouped("domain")

    def leaks(self):
        """The sensitive propositions still inferable (FP), with their redacted text."""
        import pandas as pd

        rows = [{**r, "redacted": self.redacted[(r["document"], r["policy"])]}
                for r in self.rows if r["sensitive"] and r["retained"]]
        return pd.DataFrame(rows)

    def confusion_frame(self):
        """The 2 x 2 matrix: rows sensitive / non-sensitive, columns retained / removed."""
        import pandas as pd

        c = self.overall
        return pd.DataFrame([[c.fp, c.tn], [c.tp, c.fn]], index=["sensitive", "non-sensitive"],
                            columns=["retained", "removed"])

    def to_frame(self):
        """One row: strategy, judge, counts, Security, Utility."""
        import pandas as pd

        c = self.overall
        return pd.DataFrame([{"strategy": self.provenance.get("strategy"),
                              "judge": self.provenance.get("judge"), "TP": c.tp, "TN": c.tn,
                              "FP": c.fp, "FN": c.fn, "security": c.security,
                              "utility": c.utility}])

    def _repr_html_(self) -> str:
        return (f"<p><b>RedacBench</b> — Security {self.security:.3f}, Utility "
                f"{self.utility:.3f}. <i>{self.status}</i></p>"
                + self.to_frame().to_html(index=False, float_format="%.3f"))


def evaluate(documents: Sequence[Document], strategy: Strategy, judge: Judge, *,
             errors: bool = False) -> RedacBenchResult:
    """Redact every document under each of its policies, judge every proposition, score.

    Args:
        documents: the benchmark.
        strategy: the redaction strategy.
        judge: the judge.
        errors: also measure the judge's error rates on the gold checks.

    Returns:
        A :class:`RedacBenchResult`. An exception from the strategy or the judge
        propagates: no partial result is returned.

    Example:
        >>> docs = load_redacbench(sample_path())[:1]
        >>> labels = {d.text: {p.id: True for p in d.propositions} for d in docs}
        >>> r = evaluate(docs, NoRedaction(), OracleJudge(labels))
        >>> r.security, r.utility
        (0.0, 1.0)
    """
    if not isinstance(strategy, Strategy):
        raise wrong_type("strategy", "evaluate", "a Strategy", strategy)
    if not isinstance(judge, Judge):
        raise wrong_type("judge", "evaluate", "a Judge", judge)
    rows, redacted = [], {}
    total = Confusion()
    for doc in documents:
        for policy in doc.policies:
            text = strategy.redact(doc.text, policy)
            redacted[(doc.id, policy.id)] = text
            labels = judge.judge(text, doc.propositions)
            sens = [p.id in policy.sensitive for p in doc.propositions]
            total = total + confusion(sens, labels)
            for p, s, r in zip(doc.propositions, sens, labels):
                rows.append({"document": doc.id, "domain": doc.domain, "policy": policy.id,
                             "proposition": p.id, "text": p.text, "sensitive": s,
                             "retained": r})
    return RedacBenchResult(
        total, rows, redacted, judge_errors(documents, judge) if errors else None,
        provenance={"strategy": strategy.name, "judge": judge.name,
                    "judge_weak": judge.weak, "documents": len(documents)})


__all__ = ["AdversarialRedaction", "Confusion", "Document", "HeuristicJudge", "Iterative",
           "Judge", "JudgeCheck", "JudgeErrors", "LLMJudge", "Masking", "NoRedaction",
           "OracleJudge", "Policy", "Proposition", "RedacBenchResult", "SanitizerStrategy",
           "Strategy", "confusion", "derive_from_spia", "evaluate", "judge_errors",
           "judges", "load_redacbench", "parse_document", "sample_path", "strategies"]
