"""Nothing waits forever: a stalled LLM server, a pathological JSON answer, a named pipe
given as an input file, and the workers of a sweep killed while they start.

A server that never answers ends in an error within the client's one deadline per call
(kept at about a second here) naming the attempts made; an answer nested thousands of
levels deep or a hundred thousand ``{`` is refused at once; ``privlab resolution``
refuses a named pipe before opening it; ``kill -9`` of ``privlab epsilon-benchmark
--jobs 2`` in its first seconds leaves no worker behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from processes import children, running
from llm_server import FakeLLMServer, Reply

from privlab.cli import main
from privlab.errors import PrivlabValueError
from privlab.llm import (DEFAULT_DEADLINE, MAX_ANSWER_DEPTH, LLMClient, LLMError,
                         parse_json_answer)

ASK = [{"role": "user", "content": "x"}]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("PRIVLAB_LLM_DEADLINE", raising=False)
    return tmp_path / "cache"


# ---------------------------------------------------------------------- one deadline per call
def test_a_server_that_never_answers_ends_within_the_deadline_naming_the_attempts(cache):
    with FakeLLMServer(lambda request: Reply(200, "x", delay=30)) as server:
        client = LLMClient(server.base_url, "fake", deadline=1.0, backoff=0, cache=False)
        assert client.timeout == 60 and client.max_retries == 2  # the defaults
        start = time.monotonic()
        with pytest.raises(LLMError) as err:
            client.chat(ASK)
        elapsed = time.monotonic() - start
        assert len(server.requests) == 1
    assert 1.0 <= elapsed < 2.5  # was 182 s with the defaults and no deadline
    message = str(err.value)
    assert f"{server.base_url}/chat/completions within deadline=1.0 s (1 attempt of 3)" in message
    assert "PRIVLAB_LLM_DEADLINE" in message


def test_the_deadline_cuts_retries_and_backoff_short(cache):
    with FakeLLMServer(lambda request: Reply(503, {"error": "busy"}, delay=0.3)) as server:
        client = LLMClient(server.base_url, "fake", deadline=1.0, max_retries=20, backoff=0.2,
                           cache=False)
        start = time.monotonic()
        with pytest.raises(LLMError, match=r"within deadline=1\.0 s \((\d) attempts of 21\): "
                                           r"HTTP 503") as err:
            client.chat(ASK)
        elapsed = time.monotonic() - start
        attempts = len(server.requests)
    # 0.3 s per answer, backoff 0.2, then 0.4 cut to the 0.2 s left: two attempts
    assert attempts == 2 and "(2 attempts of 21)" in str(err.value)
    assert 1.0 <= elapsed < 2.5


def test_chat_json_shares_one_deadline_across_malformed_answers(cache):
    with FakeLLMServer(lambda request: Reply(200, {"choices": [{"message": {
            "content": "not json"}}]}, delay=0.3)) as server:
        client = LLMClient(server.base_url, "fake", deadline=1.0, max_retries=20, backoff=0,
                           cache=False)
        start = time.monotonic()
        with pytest.raises(LLMError, match=r"deadline=1\.0 s"):
            client.chat_json(ASK)
        elapsed = time.monotonic() - start
        assert 3 <= len(server.requests) <= 4
    assert 1.0 <= elapsed < 2.5


def test_the_deadline_defaults_to_60_s_and_is_set_by_the_environment(cache, monkeypatch):
    assert DEFAULT_DEADLINE == 60
    assert LLMClient("http://127.0.0.1:8000/v1", "m").deadline == 60
    monkeypatch.setenv("PRIVLAB_LLM_DEADLINE", "2.5")
    client = LLMClient("http://127.0.0.1:8000/v1", "m")
    assert client.deadline == 2.5 and "deadline=2.5" in repr(client)
    assert LLMClient("http://127.0.0.1:8000/v1", "m", deadline=7).deadline == 7
    for bad in ("soon", "0", "-3", "nan", "inf"):
        monkeypatch.setenv("PRIVLAB_LLM_DEADLINE", bad)
        with pytest.raises(PrivlabValueError,
                           match=rf"environment variable PRIVLAB_LLM_DEADLINE .* Got '{bad}'"):
            LLMClient("http://127.0.0.1:8000/v1", "m")
    monkeypatch.delenv("PRIVLAB_LLM_DEADLINE")
    for bad in (0, -1, float("inf")):
        with pytest.raises(PrivlabValueError, match="'deadline' parameter of LLMClient"):
            LLMClient("http://127.0.0.1:8000/v1", "m", deadline=bad)


# ---------------------------------------------------------------------- bounded JSON answers
@pytest.mark.parametrize("answer", [
    "{" * 120_000,                                  # was 16 s, growing quadratically
    "[" * 5_000 + "]" * 5_000,                      # valid, but was a RecursionError
    '{"a": ' * 5_000 + "1" + "}" * 5_000,
    '"open string ' + "[" * 5_000 + "]",           # the deep part found after a failed parse
    "```json\n" + "[" * 200 + "]" * 200 + "\n```",
])
def test_an_answer_nested_too_deep_is_refused_with_the_limit(answer):
    with pytest.raises(PrivlabValueError, match=rf"'text' parameter of parse_json_answer must "
                                                rf"be JSON nested at most max_depth="
                                                rf"{MAX_ANSWER_DEPTH} levels deep"):
        parse_json_answer(answer)


def test_nesting_is_counted_outside_strings_only_and_the_limits_can_be_moved():
    inside_a_string = '{"redacted": "' + "{[" * 300 + '\\" ]}"}'
    assert parse_json_answer(inside_a_string) == {"redacted": "{[" * 300 + '" ]}'}
    three = '{"a": [{"b": 1}]}'
    assert parse_json_answer(three, max_depth=3) == {"a": [{"b": 1}]}
    with pytest.raises(PrivlabValueError, match="at most max_depth=2 levels"):
        parse_json_answer(three, max_depth=2)
    deep = "[" * 150 + "]" * 150
    value = parse_json_answer("Sure! " + deep + " done", max_depth=150)
    for _ in range(149):
        assert len(value) == 1
        value = value[0]
    assert value == []


def test_an_answer_longer_than_max_chars_is_refused_with_its_length():
    with pytest.raises(PrivlabValueError, match=r"at most max_chars=1,000,000 characters\. "
                                                r"Got an answer of 1,000,001 characters"):
        parse_json_answer(" " * 1_000_000 + "1")
    assert parse_json_answer('["' + "x" * 999_990 + '"]') == ["x" * 999_990]
    with pytest.raises(PrivlabValueError, match="max_chars=10 characters"):
        parse_json_answer('{"a": "long"}', max_chars=10)


def test_unclosed_brackets_and_fences_are_not_json():
    for text in ("{" + "x" * 50_000, "[1, 2", "```json\n{\"a\": 1", "``````", "prose } {"):
        with pytest.raises(ValueError, match="not valid JSON"):
            parse_json_answer(text)
    assert parse_json_answer('The answer: {"a": [1, 2]} and [3] too.') == {"a": [1, 2]}
    assert parse_json_answer('["x"] then {"b": 2}') == ["x"]  # the first opener wins
    assert parse_json_answer("```\n[1]\n``` and ```[2]```") == [1]


# ---------------------------------------------------------------------- a named pipe as input
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs os.mkfifo (POSIX)")
@pytest.mark.parametrize("option", ["--audited", "--references"])
def test_resolution_refuses_a_named_pipe_without_waiting_for_a_writer(tmp_path, capsys,
                                                                      monkeypatch, option):
    monkeypatch.chdir(tmp_path)
    S = np.eye(3)
    np.save(tmp_path / "S.npy", S)
    os.mkfifo(tmp_path / "pipe.npy")
    files = {"--audited": "S.npy", "--references": "S.npy", option: "pipe.npy"}
    argv = ["resolution", "--audited", files["--audited"], "--references", files["--references"]]
    outcome = {}

    def run():
        try:
            outcome["code"] = main(argv)
        except SystemExit as exc:
            outcome["code"] = exc.code

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(10)
    if thread.is_alive():  # unblock the reader so the thread ends, then fail
        with open(tmp_path / "pipe.npy", "wb"):
            pass
        thread.join(5)
        pytest.fail(f"{option} blocked on a named pipe")
    out, err = capsys.readouterr()
    assert outcome["code"] == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("privlab resolution: error: ")
    assert f"The '{option}' parameter of privlab resolution must be a regular .npy file. " \
           f"Got pipe.npy (a named pipe) instead." in lines[0]
    assert "numpy.save" in lines[0]


# ---------------------------------------------------------------------- a sweep killed early


@pytest.mark.skipif(os.name != "posix", reason="the watch is installed on POSIX only")
def test_pool_workers_watch_their_parent_before_any_task():
    from joblib import delayed

    from privlab.epsilon.store import worker_pool

    # builtins as tasks: they reach the workers without importing this test module
    names = worker_pool(2)(delayed(eval)("[t.name for t in __import__('threading').enumerate()]")
                           for _ in range(4))
    assert all(batch.count("privlab-exit-with-parent") == 1 for batch in names)
    again = worker_pool(2)(delayed(eval)(
        f"__import__('privlab.epsilon.store', fromlist=['store']).exit_with_parent({os.getpid()})")
        for _ in range(2))
    assert again == [False, False]  # a task's own call adds no second watch


def _workers(pids) -> list[int]:
    found = []
    for pid in pids:
        try:
            if b"popen_loky" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            pass
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists() or os.name != "posix",
                    reason="reads process parents from /proc")
def test_workers_of_a_sweep_killed_while_they_start_die_with_it(tmp_path):
    # Settings that take each worker minutes: a worker that outlives the sweep shows.
    argv = [sys.executable, "-m", "privlab", "epsilon-benchmark", "--epsilon", "1", "2",
            "--n", "2000", "--jobs", "2", "--no-cache", "--quiet", "--out",
            str(tmp_path / "t.csv")]
    sweep = subprocess.Popen(argv, env=dict(os.environ, PRIVLAB_CACHE=str(tmp_path)),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        while len(_workers(seen)) < 2 and time.monotonic() < deadline:
            assert sweep.poll() is None, "the sweep ended before it could be killed"
            seen.update(children(sweep.pid))
            time.sleep(0.01)
        assert len(_workers(seen)) == 2, "the sweep started no pool"
    finally:  # killed as soon as both workers exist: before they import privlab
        sweep.send_signal(signal.SIGKILL)
        sweep.wait()
    try:
        deadline = time.monotonic() + 10
        while any(running(w) for w in seen) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [w for w in seen if running(w)], "workers outlived their killed sweep"
    finally:
        for pid in seen:
            if running(pid):
                os.kill(pid, signal.SIGKILL)
