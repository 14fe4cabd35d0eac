"""SPIA's own prompts read from a checkout: what the adversary sends is the checkout's text."""

from __future__ import annotations

import json

import pytest

from privlab.errors import PrivlabValueError
from privlab.redaction.spia.adversaries import LLMAdversary, adversaries
from privlab.redaction.spia.checkout_prompts import clean_analysis, read_spia_prompts

# Short templates in SPIA's layout and with its placeholders, written for this test.
SUBJECTS_FILE = '''"""Subject analysis prompts (test stand-in)."""

ANALYSIS_AND_COUNT_SUBJECTS_TAB = """TAB-SUBJECTS marker. Count the people.
{text}
Individual Character Analysis:
The Number of Subjects:"""

ANALYSIS_AND_COUNT_SUBJECTS_PANORAMA = """PANORAMA-SUBJECTS marker. Count the people.
{text}"""
'''
PROFILES_FILE = '''"""Profiling prompts (test stand-in)."""

ANNOTATE_CODE_PII = """CODE marker.
# Text:
{text}
# Subjects:
{result_of_subjects_analysis}
# Format:
{result_format}"""

ANNOTATE_NON_CODE_PII = """NON-CODE marker.
{text}
{result_of_subjects_analysis}
{result_format}"""
'''
CLIENT_FILE = '''
def get_subject_profiling_code(text, analysis):
    result_format = [{"id": 0, "description": "d", "PIIs": [{"tag": "PHONE_NUMBER",
                      "keyword": "1", "certainty": 5}]}]
    return result_format


def get_subject_profiling_non_code(text, analysis):
    result_format = [{"id": 0, "description": "d", "PIIs": [{"tag": "SEX",
                      "keyword": "Male", "certainty": 4}]}]
    return result_format
'''

TEXT = "My wife Ann and I moved to Cork. Call me on 021 555 0100."
ANALYSIS = ("Sure.\n**Individual Character Analysis:**\n- The writer - narrator\n"
            "- Ann - the writer's wife\n\nThe Number of Subjects: 2")
CODE = [{"id": 0, "description": "the writer", "PIIs": [
    {"tag": "PHONE_NUMBER", "keyword": "021 555 0100", "certainty": 5}]},
        {"id": 1, "description": "Ann", "PIIs": [
            {"tag": "PHONE_NUMBER", "keyword": "", "certainty": 0}]}]
NON_CODE = [{"id": 0, "description": "the writer", "PIIs": [
    {"tag": "LOCATION", "keyword": "Cork / Ireland", "certainty": 4},
    {"tag": "RELATIONSHIP", "keyword": "Married", "certainty": 5}]},
            {"id": 1, "description": "Ann, the writer's wife", "PIIs": [
                {"tag": "NAME", "keyword": "Ann", "certainty": 5},
                {"tag": "SEX", "keyword": "Female", "certainty": 5},
                {"tag": "OCCUPATION", "keyword": "Not specified", "certainty": 1}]}]


def spia_checkout(root):
    (root / "config" / "prompts").mkdir(parents=True)
    (root / "src" / "llm").mkdir(parents=True)
    (root / "config" / "prompts" / "analysis_subjects.py").write_text(SUBJECTS_FILE)
    (root / "config" / "prompts" / "annotate_pii.py").write_text(PROFILES_FILE)
    (root / "src" / "llm" / "client.py").write_text(CLIENT_FILE)
    return root


class Recording:
    """A scripted local client: answers in turn and records every request."""

    model = "scripted"

    def __init__(self, answers):
        self.answers = list(answers)
        self.sent = []

    def chat(self, messages, **options):
        self.sent.append((messages, options))
        return self.answers.pop(0)

    def chat_json(self, messages, **options):  # privlab's own path may use it; SPIA's not
        self.sent.append((messages, {**options, "json_mode": True}))
        return json.loads(self.answers.pop(0))


def test_the_adversary_sends_the_checkouts_prompts_and_reads_their_answers(tmp_path):
    root = spia_checkout(tmp_path / "spia")
    client = Recording([ANALYSIS, json.dumps(CODE), json.dumps(NON_CODE)])
    adversary = adversaries.create("llm", client=client, prompts_from=root)
    [record] = adversary.infer([TEXT], ["TAB-0001"])

    analysis, count = clean_analysis(ANALYSIS)
    assert count == 2 and analysis.startswith("Individual Character Analysis: - The writer")
    code_format = [{"id": 0, "description": "d", "PIIs": [
        {"tag": "PHONE_NUMBER", "keyword": "1", "certainty": 5}]}]
    expected = [
        "TAB-SUBJECTS marker. Count the people.\n" + TEXT
        + "\nIndividual Character Analysis:\nThe Number of Subjects:",
        f"CODE marker.\n# Text:\n{TEXT}\n# Subjects:\n{analysis}\n# Format:\n{code_format}",
    ]
    sent = [messages for messages, _ in client.sent]
    assert [m[0]["content"] for m in sent[:2]] == expected
    assert all(len(m) == 1 and m[0]["role"] == "user" for m in sent)
    assert sent[2][0]["content"].startswith(f"NON-CODE marker.\n{TEXT}\n{analysis}\n[{{'id': 0")
    assert not any(options.get("json_mode") for _, options in client.sent)

    by_id = {s.id: s for s in record.subjects}
    assert sorted(by_id) == [0, 1]
    assert {(p.tag, p.keyword, p.certainty) for p in by_id[0].piis} == {
        ("PHONE_NUMBER", "021 555 0100", 5), ("LOCATION", "Cork / Ireland", 4),
        ("RELATIONSHIP", "Married", 5)}
    # "Not specified" says nothing was found: dropped, as SPIA's parser drops it
    assert {(p.tag, p.keyword) for p in by_id[1].piis} == {("NAME", "Ann"), ("SEX", "Female")}
    assert adversary.stats["no_value"] == 1
    assert by_id[1].description == "Ann"  # the first answer's description is kept

    digest = read_spia_prompts(root).digest
    assert adversary.name == f"llm two-step (scripted) with SPIA's prompts (sha256 {digest})"
    assert adversary.describe()["prompts"] == {
        "source": "SPIA checkout", "path": str(root.resolve()), "sha256": digest,
        "files": ["config/prompts/analysis_subjects.py", "config/prompts/annotate_pii.py",
                  "src/llm/client.py"]}


def test_a_panorama_document_gets_the_panorama_prompt_and_edits_are_read_at_run_time(tmp_path):
    root = spia_checkout(tmp_path / "spia")
    before = read_spia_prompts(root).digest
    prompts = root / "config" / "prompts" / "analysis_subjects.py"
    prompts.write_text(prompts.read_text().replace("Count the people.", "Count everyone."))
    client = Recording(["The Number of Subjects: 0"])
    adversary = LLMAdversary(client, prompts_from=root / "config" / "prompts")
    [record] = adversary.infer([TEXT], ["PANORAMA-01AB"])
    assert record.subjects == ()  # none counted: no profiling request
    assert [m[0]["content"] for m, _ in client.sent] == [
        "PANORAMA-SUBJECTS marker. Count everyone.\n" + TEXT]
    assert adversary.prompts.digest != before


def test_an_analysis_without_a_count_is_asked_again_unchanged(tmp_path):
    root = spia_checkout(tmp_path / "spia")
    client = Recording(["I cannot tell.", "The Number of Subjects: 0"])
    adversary = LLMAdversary(client, prompts_from=root, temperature_step=0.25)
    adversary.infer([TEXT], ["TAB-1"])
    first, second = client.sent
    assert first[0] == second[0] and (first[1]["temperature"], second[1]["temperature"]) == (0, 0.25)
    assert adversary.stats["retries"] == 1


def test_without_prompts_from_privlabs_own_prompts_are_sent(tmp_path):
    client = Recording(['{"subjects": []}'])
    adversary = LLMAdversary(client)
    adversary.infer([TEXT], ["TAB-1"])
    assert "TAB-SUBJECTS" not in client.sent[0][0][0]["content"]
    assert "Find every person" in client.sent[0][0][0]["content"]
    assert adversary.describe()["prompts"] == "privlab's"


def test_a_folder_that_is_not_a_spia_checkout_is_refused_with_the_fix(tmp_path):
    with pytest.raises(PrivlabValueError, match="'prompts_from' parameter of LLMAdversary.*"
                                                "git clone https://github.com/maisonOP/spia"):
        LLMAdversary(Recording([]), prompts_from=tmp_path)
    root = spia_checkout(tmp_path / "spia")
    (root / "src" / "llm" / "client.py").unlink()
    with pytest.raises(PrivlabValueError, match="client.py is missing there"):
        LLMAdversary(Recording([]), prompts_from=root)


def test_the_shared_spia_folder_holds_data_not_the_repositorys_prompts():
    from privlab.config import shared_data_dir

    folder = shared_data_dir()
    if folder is None or not (folder / "spia").is_dir():
        pytest.skip("../shared/data/spia is absent (a fresh clone has no shared data)")
    # The shared copy keeps SPIA's data files only: prompts need a checkout of the repository.
    with pytest.raises(PrivlabValueError, match="config/prompts"):
        read_spia_prompts(folder / "spia")


def test_the_study_sends_the_checkouts_prompts_and_its_headline_names_them(tmp_path,
                                                                           monkeypatch):
    from llm_server import FakeLLMServer

    from privlab.studies import spia

    root = spia_checkout(tmp_path / "spia")

    def respond(request):
        prompt = request["messages"][0]["content"]
        if "SUBJECTS marker" in prompt:
            return ANALYSIS
        return json.dumps(CODE if prompt.startswith("CODE marker") else NON_CODE)

    with FakeLLMServer(respond) as server:
        monkeypatch.setenv("PRIVLAB_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("PRIVLAB_LLM_MODEL", "fake")
        result = spia.run(spia.Config(data="sample", anonymizers=("none",), adversary="llm",
                                      baseline=None, max_documents=2, prompts_from=str(root)))
    sent = [r["messages"][0]["content"].split(" marker")[0] for r in server.requests]
    assert len(sent) == 6 and set(sent) <= {"TAB-SUBJECTS", "PANORAMA-SUBJECTS", "CODE",
                                            "NON-CODE"}
    digest = read_spia_prompts(root).digest
    assert result.provenance["adversary"] == (f"llm two-step (fake) with SPIA's prompts "
                                              f"(sha256 {digest})")
    headline = result.headline()
    assert f"adversary: llm two-step (fake) with SPIA's prompts (sha256 {digest}) (not an " \
        "offline stand-in)" in headline.caveats
    assert f"SPIA's prompts (sha256 {digest})" in headline.text
