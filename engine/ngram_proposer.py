"""N-gram speculation (prompt lookup decoding, as vLLM's ``ngram`` method): draft tokens for free.

A sequence's last ``n`` tokens (``n`` from `MAX_NGRAM` down to `MIN_NGRAM`) are looked up among its
earlier tokens, prompt and output alike; the tokens that followed their latest earlier occurrence are
the draft. The engine computes the draft's rows in the same step as the sequence's next token and keeps
the longest prefix that greedy decoding would have produced anyway, plus the token after it, so the
output is the same with or without drafts. Support answers copy their policy section's wording, and
loops repeat, so one step often yields several tokens; on the CPU a step's cost is mostly the weights'
single pass, and a few more rows cost little next to a step of their own.

A draft that runs into the end of the sequence continues periodically: when the match is ``p`` tokens
back, the sequence is taken to repeat with period ``p``, which is what looking the draft itself up again
would give.
"""
from __future__ import annotations

MAX_NGRAM = 3
MIN_NGRAM = 2


class NgramIndex:
    """The latest position after every n-gram of one sequence, extended as the sequence grows."""

    def __init__(self) -> None:
        self.next_after: list[dict[tuple[int, ...], int]] = [{} for _ in range(MAX_NGRAM + 1)]
        self.num_indexed = 0  # n-grams ending before this position are indexed

    def _extend(self, token_ids: list[int]) -> None:
        """Index the n-grams that end before the last token (those with a following token)."""
        for end in range(self.num_indexed, len(token_ids) - 1):
            for n in range(MIN_NGRAM, MAX_NGRAM + 1):
                if end + 1 >= n:
                    self.next_after[n][tuple(token_ids[end + 1 - n:end + 1])] = end + 1
        self.num_indexed = max(self.num_indexed, len(token_ids) - 1)

    def propose(self, token_ids: list[int], max_tokens: int) -> list[int]:
        """Up to ``max_tokens`` draft tokens to follow ``token_ids`` (the same list, grown, on every call)."""
        if max_tokens <= 0:
            return []
        self._extend(token_ids)
        length = len(token_ids)
        for n in range(min(MAX_NGRAM, length - 1), MIN_NGRAM - 1, -1):
            after = self.next_after[n].get(tuple(token_ids[length - n:]))
            if after is not None:
                period = length - after
                return [token_ids[after + i % period] for i in range(max_tokens)]
        return []
