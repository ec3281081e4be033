"""Texts to model inputs: WordPiece ids split into passages of at most 512 positions.

A BERT input is [CLS] t_1 ... t_m [SEP] with m + 2 <= 512 (the learnt position embeddings).
A document's ids t_1 ... t_T are cut into consecutive runs of m = passage_tokens - 2 ids, the
last run possibly shorter, each wrapped in [CLS] ... [SEP]: every id of the document appears in
exactly one passage (split, never truncated). Passages never straddle two documents.
"""

from collections.abc import Sequence

import numpy as np

from attnspec.validation import check_count

MAX_POSITIONS = 512
SPECIAL_TOKENS = 2  # [CLS] and [SEP]


def special_token_ids(tokenizer) -> tuple[int, int]:
    """The ids of [CLS] and [SEP] in the tokenizer's vocabulary."""
    return tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")


def encode_documents(tokenizer, texts: Sequence[str]) -> list[np.ndarray]:
    """WordPiece ids of each text without special tokens (the tokenizer must not truncate)."""
    return [np.asarray(tokenizer.encode(text, add_special_tokens=False).ids) for text in texts]


def split_into_passages(
    token_ids: np.ndarray, passage_tokens: int, *, cls_id: int, sep_id: int
) -> list[np.ndarray]:
    """Consecutive passages [CLS] t_{km+1} ... t_{(k+1)m} [SEP], m = passage_tokens - 2.

    Parameters
    ----------
    token_ids : ndarray of int
        One document's ids, without special tokens.
    passage_tokens : int
        Length of a full passage including [CLS] and [SEP]; 3 <= passage_tokens <= 512.
    cls_id, sep_id : int
        Ids of [CLS] and [SEP].

    Returns
    -------
    list of ndarray
        ceil(T / m) passages; all have passage_tokens ids except possibly the last.
    """
    if not SPECIAL_TOKENS < passage_tokens <= MAX_POSITIONS:
        raise ValueError(
            f"passage_tokens must be in [{SPECIAL_TOKENS + 1}, {MAX_POSITIONS}] (the model has "
            f"{MAX_POSITIONS} positions), got {passage_tokens}"
        )
    token_ids = np.asarray(token_ids, dtype=np.int64)
    run = passage_tokens - SPECIAL_TOKENS
    return [
        np.concatenate([[cls_id], token_ids[start : start + run], [sep_id]])
        for start in range(0, token_ids.size, run)
    ]


def count_full_passages(documents: Sequence[np.ndarray], passage_tokens: int) -> int:
    """Number of full-length passages of ``passage_tokens`` ids (with [CLS], [SEP]) the
    documents give: sum over documents of floor(T / m), m = passage_tokens - 2."""
    run = passage_tokens - SPECIAL_TOKENS
    return sum(int(np.asarray(document).size) // run for document in documents)


def full_passages(
    documents: Sequence[np.ndarray], passage_tokens: int, count: int, *, cls_id: int, sep_id: int
) -> np.ndarray:
    """The first ``count`` full-length passages of the documents, in corpus order.

    Returns an int64 array of shape (count, passage_tokens). The shorter last passage of each
    document is skipped (all analysed passages have the same n); ValueError if the corpus has
    fewer than ``count`` full passages.
    """
    full = [
        passage
        for document in documents
        for passage in split_into_passages(document, passage_tokens, cls_id=cls_id, sep_id=sep_id)
        if passage.size == passage_tokens
    ]
    if len(full) < count:
        raise ValueError(
            f"the corpus has {len(full)} full passages of {passage_tokens} tokens, "
            f"{count} were asked for"
        )
    return np.stack(full[:count])


def leading_full_passages(
    documents: Sequence[np.ndarray], passage_tokens: int, at_most: int, *, cls_id: int, sep_id: int
) -> np.ndarray:
    """The first min(``at_most``, available) full-length passages of the documents.

    As :func:`full_passages` with count = min(at_most, :func:`count_full_passages`): for a set of
    lengths n of which the longest leave the corpus only a few passages. ValueError if the corpus
    has no full passage of ``passage_tokens`` ids or ``at_most`` < 1.
    """
    at_most = check_count(at_most, "at_most", 1)
    available = count_full_passages(documents, passage_tokens)
    if available == 0:
        raise ValueError(
            f"passage_tokens = {passage_tokens}: the corpus has no full passage of that length "
            "(a longer corpus, or a smaller n)"
        )
    return full_passages(
        documents, passage_tokens, min(at_most, available), cls_id=cls_id, sep_id=sep_id
    )
