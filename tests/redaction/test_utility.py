"""Text utility of a redaction: BLEU and ROUGE against the original, worked out by hand."""

from __future__ import annotations

import math

import pytest

from privlab.errors import PrivlabTypeError, PrivlabValueError
from privlab.redaction.utility import MEASURES, document_utility, per_document, text_utility

ORIGINAL = "Ann was diagnosed with diabetes in May."
MASKED = "Ann was diagnosed with [REDACTED] in May."


def test_bleu_and_rouge_of_a_masked_sentence_worked_by_hand():
    u = document_utility(ORIGINAL, MASKED)
    # BLEU (sacrebleu 13a tokens): the reference "Ann was diagnosed with diabetes in May ."
    # has 8 tokens; the hypothesis "Ann was diagnosed with [ REDACTED ] in May ." has 10.
    # n-gram precisions: 7/10, 5/9, 3/8, 1/7; no brevity penalty (10 > 8).
    bleu = (7 / 10 * 5 / 9 * 3 / 8 * 1 / 7) ** 0.25
    assert u["bleu"] == pytest.approx(bleu, abs=1e-9)
    # ROUGE (lower-cased words, "[REDACTED]" -> "redacted"): 6 of 7 words shared, in order
    assert u["rouge1"] == pytest.approx(6 / 7) and u["rougeL"] == pytest.approx(6 / 7)


def test_rouge_l_follows_the_order_of_words_and_rouge_1_does_not():
    u = document_utility("one two three four", "four three two one")
    # every word is shared (ROUGE-1 = 1); the longest common subsequence is one word
    assert u["rouge1"] == 1.0 and u["rougeL"] == pytest.approx(0.25)
    # BLEU: 4/4 words, then no 2-, 3- or 4-gram match; sacrebleu's "exp" smoothing puts
    # 1 / (2^k * total) for the k-th order without a match: 1/(2*3), 1/(4*2), 1/(8*1)
    assert u["bleu"] == pytest.approx((1 * 1 / 6 * 1 / 8 * 1 / 8) ** 0.25, abs=1e-9)


def test_rouge_stems_words():
    assert document_utility("The loans were approved", "the loan was approved")["rouge1"] \
        == pytest.approx(0.75)  # loans ~ loan, the, approved; were != was


def test_unchanged_and_emptied_texts_are_the_two_ends():
    assert document_utility(ORIGINAL, ORIGINAL) == {m: 1.0 for m in MEASURES}
    assert document_utility(ORIGINAL, "") == {m: 0.0 for m in MEASURES}
    assert document_utility(ORIGINAL, "   ") == {m: 0.0 for m in MEASURES}


def test_corpus_value_is_the_mean_of_the_documents():
    originals, redacted = [ORIGINAL, "Bo lives in Cork."], [MASKED, "Bo lives in Cork."]
    rows = per_document(originals, redacted)
    assert rows[1] == {m: 1.0 for m in MEASURES}
    means = text_utility(originals, redacted)
    for m in MEASURES:
        assert means[m] == pytest.approx((rows[0][m] + 1.0) / 2)
    assert all(math.isnan(v) for v in text_utility([], []).values())


def test_refusals_name_the_problem():
    with pytest.raises(PrivlabValueError, match="'redacted' parameter of per_document must be "
                                                "2 texts"):
        per_document(["a b", "c d"], ["a b"])
    with pytest.raises(PrivlabValueError, match=r"'original\[1\]' .* non-empty text"):
        per_document(["a b", " "], ["a b", "c"])
    with pytest.raises(PrivlabTypeError, match="'originals' parameter of per_document"):
        per_document("a b", "a b")
    with pytest.raises(PrivlabTypeError, match=r"'redacted\[0\]'"):
        per_document(["a b"], [None])
