"""The declared split, the literal values of the offline adversary, the text-blind
baseline, and nothing invented: checked on the shared SPIA files (skipped without them)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from privlab.redaction.spia import contextual, split
from privlab.redaction.spia.adversaries import adversaries
from privlab.redaction.spia.baseline import (
    BASE_RATE,
    BaseRateAdversary,
    base_rate_profile,
    base_rate_table,
)
from privlab.redaction.spia.contextual import ContextualAdversary, literal_values
from privlab.redaction.spia.lexicon import ROLES
from privlab.redaction.spia.prompts import TAG_DEFINITIONS
from privlab.redaction.spia.protection import protection
from privlab.redaction.spia.records import PII, Subject
from privlab.redaction.spia.spans import anonymize, entity_file_for, load_entities

# The module's shared fixtures are built once: its tests stay on one xdist worker.
pytestmark = pytest.mark.xdist_group("redaction.spia.test_split_baseline")


@pytest.fixture(scope="session")
def development(loaded):
    """PANORAMA-531 minus the 151 evaluation documents."""
    return split.select(loaded["spia_panorama_531.jsonl"], "development")


def gold_values(records) -> set[tuple[str, str]]:
    """(tag, lower-cased value) of every non-empty gold PII, any certainty."""
    return {(p.tag, p.keyword.strip().lower()) for r in records for s in r.subjects
            for p in s.piis if p.keyword.strip()}


def test_split_is_declared_by_ids_and_matches_the_files(shared_data, loaded, development):
    panorama_151 = {r.data_id for r in loaded["spia_panorama_151.jsonl"]}
    assert split.PANORAMA_EVALUATION_IDS == panorama_151
    assert len(development) == 380 and not {r.data_id for r in development} & panorama_151
    assert {split.document_role(r.data_id) for r in loaded["spia_tab_144.jsonl"]} == {
        "evaluation"}
    described = split.describe(loaded["spia_panorama_531.jsonl"])
    assert described["documents_scored"] == {"development": 380, "evaluation": 151}
    assert described["scored_on"] == "mixed"
    with pytest.raises(ValueError, match="split"):
        split.select([], "test")


# SPIA's closed vocabularies (the prompts' definitions): a value of one is generic
CLOSED = {tag: {v.strip().lower() for v in re.split(r",|\bor\b", TAG_DEFINITIONS[tag]
                                                       .split("one of:")[-1].split("(")[0])
                if v.strip()} for tag in ("SEX", "EDUCATION", "RELATIONSHIP")}


def is_generic(tag: str, value: str, rule: str) -> bool:
    """A literal is *generic* when it is (a) a value of SPIA's closed vocabulary for its
    tag (Male/Female; the six education levels; the five relationship states), or
    (b) the role noun itself: the rule's own pattern matches the whole value, or the value
    is a phrase of the pattern's own words, so it restates what the text must contain
    ("Judge" for "the judge", "Student" for "a university student")."""
    if value.lower() in CLOSED.get(tag, set()):
        return True
    for role in ROLES:
        if role["pattern"] == rule:
            plain = " ".join(re.findall(r"[a-z]+", re.sub(r"\\b|\(\?:|[()?|]", " ",
                                                          rule.lower())))
            return role["regex"].fullmatch(value) is not None or \
                f" {value.lower()} " in f" {plain} "
    return False


def test_generic_is_defined_narrowly():
    student = next(r["pattern"] for r in ROLES if "university" in r["pattern"])
    agent = ROLES[0]["pattern"]
    assert is_generic("OCCUPATION", "Student", student)
    assert is_generic("EDUCATION", "In College", student)   # a SPIA education level
    assert not is_generic("OCCUPATION", "Government Agent", agent)
    assert not is_generic("OCCUPATION", "Software Developer", "tech words")


def test_no_literal_value_comes_only_from_the_evaluation_files(shared_data, loaded,
                                                               development):
    """Each fixed value the contextual adversary can write must occur in the development
    split's gold annotation (same tag, any certainty, case aside) or be generic (see
    :func:`is_generic`). A value found in the evaluation files' annotation and in neither
    would have been learnt from the answer key ("Government Agent", "European Court of
    Human Rights", "Strasbourg / France" were, and are gone)."""
    dev = gold_values(development)
    evaluation = gold_values(loaded["spia_panorama_151.jsonl"] + loaded["spia_tab_144.jsonl"])
    literals = literal_values()
    assert len(literals) > 40
    only_eval = [(tag, value, rule) for tag, value, rule in literals
                 if (tag, value.lower()) in evaluation and (tag, value.lower()) not in dev
                 and not is_generic(tag, value, rule)]
    assert only_eval == []
    # the check has teeth: the values removed would fail it
    for tag, value in (("OCCUPATION", "Government Agent"), ("LOCATION", "Strasbourg / France"),
                       ("AFFILIATION", "European Court of Human Rights")):
        assert (tag, value.lower()) in evaluation and (tag, value.lower()) not in dev
    # every value the reader writes as a literal is listed in literal_values()
    source = Path(contextual.__file__).read_text(encoding="utf-8")
    written = set(re.findall(r'\.put\("([A-Z_]+)",\s*"([^"{]+)"', source))
    assert written <= {(tag, value) for tag, value, _ in literals}


def test_base_rate_table_is_the_development_splits(shared_data, development):
    assert base_rate_table(development) == BASE_RATE
    assert BASE_RATE["first"]["SEX"] == "Female" and BASE_RATE["other"]["SEX"] == "Male"
    assert "NAME" not in BASE_RATE["first"]  # identifiers are no attribute to guess


def shuffle_words(text: str, seed: int) -> str:
    words = text.split()
    random.Random(seed).shuffle(words)
    return " ".join(words)


def test_base_rate_adversary_is_text_blind(shared_data, loaded):
    """Its predictions depend on the person count only: shuffling a document's words
    changes nothing once the count is the same, and two documents with the same count get
    the same profile."""
    adversary = adversaries.create("base-rate")
    assert isinstance(adversary, BaseRateAdversary) and adversary.weak
    records = loaded["spia_panorama_151.jsonl"][:40]
    texts, ids = [r.text for r in records], [r.data_id for r in records]
    shuffled = [shuffle_words(t, k) for k, t in enumerate(texts)]
    before, after = adversary.infer(texts, ids), adversary.infer(shuffled, ids)
    counts = [contextual.count_people(t) for t in texts]
    same = 0
    for record, again, text, mixed, n in zip(before, after, texts, shuffled, counts):
        assert record.subjects == base_rate_profile(n)
        if contextual.count_people(mixed) == n:
            same += 1
            assert again.subjects == record.subjects
    assert same >= 10  # 14 of the 40 keep their count when their words are shuffled
    # a counter that returns a constant makes every document's profile the same
    fixed = BaseRateAdversary(counter=lambda text: 2).infer(texts[:5] + shuffled[:5], ids[:10])
    assert len({r.subjects for r in fixed}) == 1


def test_base_rate_slots_pair_in_order_and_score(shared_data, loaded):
    """The first slot is paired with the main person and credited with the base rates
    that fit: a Filipino writer from the Philippines gets the LOCATION guess right."""
    records = loaded["spia_panorama_151.jsonl"]
    guesses = BaseRateAdversary(counter=lambda text: 1).infer([r.text for r in records],
                                                              [r.data_id for r in records])
    result = protection(records, guesses)
    assert 0.0 < 1 - result.cpr < 0.25
    paired = [row for row in result.subjects if row["matched"] is not None]
    assert paired and all(row["subject"] == 0 or row["matched"] == 0 for row in paired)
    assert all(r["predicted_certainty"] == 1 for r in result.piis if r["score"] > 0)


def test_gold_spans_leave_no_recovered_pii_of_an_unmentioned_person(shared_data, loaded):
    """With every annotated span masked, what is still recovered belongs to people the
    adversary found mentioned in the masked text: no person made from a count ("four
    amazing kids" gave four invented children, 22 of 37 recovered PIIs before)."""
    path = shared_data / "spia" / "spia_panorama_151.jsonl"
    records = loaded["spia_panorama_151.jsonl"]
    texts = anonymize("gold-spans", records, load_entities(entity_file_for(path)))
    predicted = ContextualAdversary().infer(texts, [r.data_id for r in records])
    result = protection(records, predicted)
    by_id = {r.data_id: r for r in predicted}
    text_of = dict(zip([r.data_id for r in records], texts))
    for record in predicted:
        assert len(record.metadata["mentions"]) == len(record.subjects)
        assert all(record.metadata["mentions"]), record.data_id  # everyone is mentioned
        assert not any(re.match(r"(?i)child \d", s.description) for s in record.subjects)
    recovered = {(r["data_id"], r["subject"]) for r in result.piis if r["score"] > 0}
    assert recovered  # masking every span still leaves something inferable
    for row in result.subjects:
        if (row["data_id"], row["subject"]) in recovered:
            mentions = by_id[row["data_id"]].metadata["mentions"][row["matched"]]
            spans = [text_of[row["data_id"]][s:e] for s, e in mentions]
            assert any(span.strip() and not contextual.PLACEHOLDER.fullmatch(span.strip())
                       for span in spans)
    # nearly everything is protected once the children are gone (0.961 with them)
    assert result.cpr > 0.98
    assert sum(r["score"] for r in result.piis) < 15


def test_eb4ff_married_is_credited_to_the_writer_only(shared_data, loaded):
    """On the real post: the writer says "my dear spouse Thomas"; the adversary reads
    the writer as married, and the spouse is not credited with it."""
    (record,) = [r for r in loaded["spia_panorama_151.jsonl"] if r.data_id == "PANORAMA-EB4FF"]
    predicted = ContextualAdversary().infer([record.text], [record.data_id])
    rows = {(r["subject"], r["tag"]): r for r in protection([record], predicted).piis}
    assert rows[(0, "RELATIONSHIP")]["score"] == 1.0
    spouse = [s for s in predicted[0].subjects if "Thomas" in s.description]
    if not any(p.tag == "RELATIONSHIP" for s in spouse for p in s.piis):
        assert rows[(1, "RELATIONSHIP")]["score"] == 0.0


def test_matcher_gives_partial_names_half(shared_data):
    from privlab.redaction.spia.protection import score_subject

    gold = Subject(1, "Leigh - likely spouse", (PII("NAME", "Leigh Lawrence", 5),))
    ((_, value, score),) = score_subject(gold, Subject(0, "Leigh", (PII("NAME", "Leigh", 3),)))
    assert (value, score) == ("Leigh", 0.5)
