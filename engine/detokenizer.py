"""Incremental detokenization: each step decodes a short window of a sequence's newest token ids.

Decoding a sequence's whole output every step (as the engine did) costs time in proportion to its length
at every token: a 1,000-token answer spent ~0.3 ms a step on it, and 16 of them ~5 ms of a ~30 ms step.
As vLLM does, the text a step adds is ``decode(ids[prefix:]) - decode(ids[prefix:read])``, where ``read``
is where the emitted text ends and ``prefix`` where the previous window began: decoding from a token
before ``read`` keeps whatever the tokenizer does at word starts (SentencePiece's spaces) the same in both
decodes, and a window never starts inside a character, because ``read`` only moves where the text ended
on a whole one.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

INCOMPLETE = "\ufffd"  # what a decoder gives for the first bytes of an unfinished UTF-8 character


class Delta(NamedTuple):
    text: str  # the text the new ids add ("" while they end inside a character)
    prefix_offset: int
    read_offset: int


def decode_delta(tokenizer, ids: Sequence[int], prefix_offset: int, read_offset: int, final: bool = False) -> Delta:
    """The text that ``ids[read_offset:]`` adds to ``decode(ids[:read_offset])``, and the offsets for the
    next call. The ids are held back while they end inside a UTF-8 character, unless ``final``."""
    if read_offset >= len(ids):
        return Delta("", prefix_offset, read_offset)
    before = tokenizer.decode(ids[prefix_offset:read_offset], skip_special_tokens=True)
    after = tokenizer.decode(ids[prefix_offset:], skip_special_tokens=True)
    if after.endswith(INCOMPLETE) and not final:
        return Delta("", prefix_offset, read_offset)
    return Delta(after[len(before):], read_offset, len(ids))
