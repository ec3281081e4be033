"""Texts longer than 512 positions are split into passages, never truncated."""

import numpy as np
import pytest

from attnspec.pretrained.passages import (
    MAX_POSITIONS,
    full_passages,
    leading_full_passages,
    split_into_passages,
)

CLS, SEP = 101, 102


def test_split_keeps_every_token_once_and_wraps_each_passage():
    ids = np.arange(1000, 2300)  # 1300 tokens: more than two full passages of 512
    parts = split_into_passages(ids, MAX_POSITIONS, cls_id=CLS, sep_id=SEP)
    assert [p.size for p in parts] == [512, 512, 1300 - 2 * 510 + 2]
    assert all(p[0] == CLS and p[-1] == SEP for p in parts)
    np.testing.assert_array_equal(np.concatenate([p[1:-1] for p in parts]), ids)


def test_passage_length_beyond_the_model_positions_is_refused():
    with pytest.raises(ValueError, match="512 positions"):
        split_into_passages(np.arange(10), 513, cls_id=CLS, sep_id=SEP)


def test_full_passages_skip_short_tails_and_never_straddle_documents():
    documents = [np.arange(10), np.arange(100, 107)]
    chosen = full_passages(documents, 6, 3, cls_id=CLS, sep_id=SEP)
    np.testing.assert_array_equal(
        chosen,
        [[CLS, 0, 1, 2, 3, SEP], [CLS, 4, 5, 6, 7, SEP], [CLS, 100, 101, 102, 103, SEP]],
    )


def test_asking_for_more_passages_than_the_corpus_has_fails():
    with pytest.raises(ValueError, match="has 2 full passages of 6 tokens, 3 were asked for"):
        full_passages([np.arange(9)], 6, 3, cls_id=CLS, sep_id=SEP)


def test_leading_full_passages_take_at_most_what_the_corpus_has():
    documents = [np.arange(10), np.arange(100, 107)]  # 2 + 1 full passages of 6 ids
    np.testing.assert_array_equal(
        leading_full_passages(documents, 6, 2, cls_id=CLS, sep_id=SEP),
        full_passages(documents, 6, 2, cls_id=CLS, sep_id=SEP),
    )
    assert leading_full_passages(documents, 6, 50, cls_id=CLS, sep_id=SEP).shape == (3, 6)
    with pytest.raises(ValueError, match="no full passage"):
        leading_full_passages(documents, 14, 5, cls_id=CLS, sep_id=SEP)
    with pytest.raises(ValueError, match="at_most"):
        leading_full_passages(documents, 6, 0, cls_id=CLS, sep_id=SEP)
