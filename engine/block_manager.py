"""Paged KV blocks: free lists, reference counts, hash-chained prefix reuse, sliding-window release.

Each KV group (``full``: full-attention layers; ``sliding``: sliding-window layers) has its own
pool, so sliding layers hold at most a window's worth of blocks per sequence. A block table keeps
logical positions: entry ``i`` covers tokens ``[i * block_size, (i + 1) * block_size)``, and ``-1``
marks a block released after sliding out of the window. ``can_*`` checks change nothing; the
verbs (`allocate`, `append_slots`, `commit`, `free`) change state.
"""
from __future__ import annotations

import hashlib
from array import array
from collections import OrderedDict

from engine.sequence import Sequence

FULL, SLIDING = "full", "sliding"
# Full blocks that sequences scheduled in the current step are computing: hash -> {group: block id}.
InStepBlocks = dict[bytes, dict[str, int]]


def chain_hash(parent: bytes, token_ids: list[int]) -> bytes:
    """Hash of a full block, chained over its parent's hash so equal hashes mean equal prefixes."""
    return hashlib.blake2b(parent + array("q", token_ids).tobytes(), digest_size=16).digest()


class BlockPool:
    """Blocks of one KV group. Free blocks sit in LRU order; cached ones keep their hash until reused."""

    def __init__(self, num_blocks: int) -> None:
        self.num_blocks = num_blocks
        self.ref_counts = [0] * num_blocks
        self.block_hash: list[bytes | None] = [None] * num_blocks
        self.hash_to_block: dict[bytes, int] = {}
        self.free_blocks: OrderedDict[int, None] = OrderedDict((i, None) for i in range(num_blocks))

    @property
    def num_free(self) -> int:
        return len(self.free_blocks)

    @property
    def num_used(self) -> int:
        return self.num_blocks - len(self.free_blocks)

    def lookup(self, block_hash: bytes) -> int | None:
        return self.hash_to_block.get(block_hash)

    def allocate(self) -> int:
        """Take the least recently freed block, evicting its cached hash."""
        block_id, _ = self.free_blocks.popitem(last=False)
        self._forget_hash(block_id)
        self.ref_counts[block_id] = 1
        return block_id

    def share(self, block_id: int) -> None:
        """Take one more reference to a cached block (a prefix hit)."""
        if self.ref_counts[block_id] == 0:
            del self.free_blocks[block_id]
        self.ref_counts[block_id] += 1

    def release(self, block_id: int) -> None:
        assert self.ref_counts[block_id] > 0, f"block {block_id} released twice"
        self.ref_counts[block_id] -= 1
        if self.ref_counts[block_id] == 0:
            self.free_blocks[block_id] = None

    def cache(self, block_id: int, block_hash: bytes) -> None:
        if self.block_hash[block_id] is None and block_hash not in self.hash_to_block:
            self.hash_to_block[block_hash] = block_id
            self.block_hash[block_id] = block_hash

    def forget_free_hashes(self) -> int:
        """Drop the cached hashes of the free blocks (those held by sequences keep theirs); returns how many."""
        forgotten = [b for b in self.free_blocks if self.block_hash[b] is not None]
        for block_id in forgotten:
            self._forget_hash(block_id)
        return len(forgotten)

    def _forget_hash(self, block_id: int) -> None:
        """The block no longer stands for its prefix (evicted, or the cache reset)."""
        old = self.block_hash[block_id]
        if old is not None:
            if self.hash_to_block.get(old) == block_id:
                del self.hash_to_block[old]
            self.block_hash[block_id] = None

    def num_free_after_sharing(self, block_ids: list[int]) -> int:
        return self.num_free - sum(1 for b in block_ids if self.ref_counts[b] == 0)


class BlockManager:
    """Block tables for every sequence over one or two pools."""

    def __init__(self, block_size: int, num_full_blocks: int, num_sliding_blocks: int = 0,
                 sliding_window: int | None = None, enable_prefix_caching: bool = True) -> None:
        self.block_size = block_size
        self.sliding_window = sliding_window
        self.enable_prefix_caching = enable_prefix_caching
        self.pools = {FULL: BlockPool(num_full_blocks)}
        if num_sliding_blocks:
            assert sliding_window, "a sliding pool needs a window"
            self.pools[SLIDING] = BlockPool(num_sliding_blocks)
        self.num_hit_tokens = 0
        self.num_queried_tokens = 0

    # ---- pure checks ------------------------------------------------------------------------
    def compute_hashes(self, seq: Sequence) -> list[bytes]:
        """Chain hashes of the sequence's full blocks (extended incrementally, never recomputed)."""
        bs = self.block_size
        hashes = seq.block_hashes
        for i in range(len(hashes), seq.num_tokens // bs):
            hashes.append(chain_hash(hashes[-1] if hashes else b"", seq.token_ids[i * bs:(i + 1) * bs]))
        return hashes

    def _first_needed_block(self, num_computed: int) -> int:
        """First logical block a sliding layer still reads when the next query is at ``num_computed``."""
        return max(0, num_computed - self.sliding_window + 1) // self.block_size

    def cached_prefix_blocks(self, seq: Sequence, in_step: InStepBlocks | None = None) -> dict[str, list[int]]:
        """Physical blocks of the longest reusable cached prefix (always leaves one token to compute).

        ``in_step`` (from `blocks_completed_in_step`) adds the blocks that sequences already scheduled in
        this step are computing: every layer stores the whole batch's keys and values before any token
        attends, so a sequence admitted in the same step may read them as if they were cached.
        """
        if not self.enable_prefix_caching:
            return {}
        in_step = in_step or {}
        hashes = self.compute_hashes(seq)[: (seq.num_tokens - 1) // self.block_size]

        def lookup(group: str, h: bytes) -> int | None:
            block_id = self.pools[group].lookup(h)
            return block_id if block_id is not None else in_step.get(h, {}).get(group)

        full_ids: list[int] = []
        for h in hashes:
            block_id = lookup(FULL, h)
            if block_id is None:
                break
            full_ids.append(block_id)
        if SLIDING not in self.pools:
            return {FULL: full_ids}
        for num_blocks in range(len(full_ids), -1, -1):
            first = self._first_needed_block(num_blocks * self.block_size)
            sliding_ids = [lookup(SLIDING, h) for h in hashes[first:num_blocks]]
            if all(b is not None and b >= 0 for b in sliding_ids):
                return {FULL: full_ids[:num_blocks], SLIDING: [-1] * first + sliding_ids}
        return {}

    def blocks_completed_in_step(self, seq: Sequence, num_new_tokens: int) -> InStepBlocks:
        """The full blocks, not yet cached, that computing ``num_new_tokens`` more tokens of ``seq`` this
        step completes: hash to physical block per group. Call after the step's slots are allocated."""
        if not self.enable_prefix_caching:
            return {}
        hashes = self.compute_hashes(seq)
        done = min(len(hashes), (seq.num_computed_tokens + num_new_tokens) // self.block_size)
        blocks: InStepBlocks = {}
        for i in range(seq.num_computed_tokens // self.block_size, done):
            if self.pools[FULL].lookup(hashes[i]) is None:
                blocks[hashes[i]] = {group: table[i] for group, table in seq.block_tables.items()}
        return blocks

    def _num_new_blocks(self, group: str, table_len: int, num_computed: int, num_new_tokens: int) -> int:
        needed = -(-(num_computed + num_new_tokens) // self.block_size)
        return max(0, needed - table_len)

    def can_allocate(self, seq: Sequence, num_new_tokens: int, cached: dict[str, list[int]], reserve: int = 0) -> bool:
        """Whether a waiting sequence fits (its cached prefix plus ``num_new_tokens``), keeping ``reserve`` blocks free."""
        num_cached = len(cached.get(FULL, [])) * self.block_size
        for group, pool in self.pools.items():
            hit = cached.get(group, [])
            free = pool.num_free_after_sharing([b for b in hit if b >= 0])
            if free - reserve < self._num_new_blocks(group, len(hit), num_cached, num_new_tokens):
                return False
        return True

    def can_append(self, seq: Sequence, num_new_tokens: int) -> bool:
        """Whether a running sequence can get slots for ``num_new_tokens`` more tokens."""
        return all(
            pool.num_free >= self._num_new_blocks(g, len(seq.block_tables[g]), seq.num_computed_tokens, num_new_tokens)
            for g, pool in self.pools.items()
        )

    # ---- verbs ------------------------------------------------------------------------------
    def allocate(self, seq: Sequence, num_new_tokens: int, cached: dict[str, list[int]]) -> None:
        """Admit a waiting sequence: share its cached prefix blocks and allocate the rest."""
        assert not seq.block_tables, f"{seq.request_id} already has blocks"
        num_cached = len(cached.get(FULL, [])) * self.block_size
        for group, pool in self.pools.items():
            table = list(cached.get(group, []))
            for block_id in table:
                if block_id >= 0:
                    pool.share(block_id)
            seq.block_tables[group] = table
        seq.num_computed_tokens = num_cached
        seq.num_cached_tokens += num_cached
        self.num_hit_tokens += num_cached
        self.num_queried_tokens += seq.num_tokens
        self.append_slots(seq, num_new_tokens)

    def append_slots(self, seq: Sequence, num_new_tokens: int) -> None:
        """Grow every block table to cover ``num_computed_tokens + num_new_tokens`` tokens."""
        for group, pool in self.pools.items():
            table = seq.block_tables[group]
            for _ in range(self._num_new_blocks(group, len(table), seq.num_computed_tokens, num_new_tokens)):
                table.append(pool.allocate())

    def commit(self, seq: Sequence) -> None:
        """After a step: cache newly completed blocks, release sliding blocks now out of the window and blocks
        past the computed tokens (those a rejected draft took)."""
        num_needed = -(-seq.num_computed_tokens // self.block_size)
        for group, table in seq.block_tables.items():
            while len(table) > num_needed:
                self.pools[group].release(table.pop())
        if self.enable_prefix_caching:
            hashes = self.compute_hashes(seq)
            num_full = min(len(hashes), seq.num_computed_tokens // self.block_size)
            for group, pool in self.pools.items():
                table = seq.block_tables[group]
                for i in range(num_full):
                    if table[i] >= 0:
                        pool.cache(table[i], hashes[i])
        sliding = self.pools.get(SLIDING)
        if sliding is not None:
            table = seq.block_tables[SLIDING]
            for i in range(self._first_needed_block(seq.num_computed_tokens)):
                if table[i] >= 0:
                    sliding.release(table[i])
                    table[i] = -1

    def free(self, seq: Sequence) -> None:
        """Release all of a sequence's blocks, tail first so that prefix blocks stay cached longest."""
        for group, table in seq.block_tables.items():
            pool = self.pools[group]
            for block_id in reversed(table):
                if block_id >= 0:
                    pool.release(block_id)
        seq.block_tables = {}

    def reset_prefix_cache(self) -> int:
        """Forget every cached prefix block no live sequence holds (as vLLM's ``reset_prefix_cache``);
        returns the number of blocks forgotten over all pools."""
        return sum(pool.forget_free_hashes() for pool in self.pools.values())

    # ---- reporting --------------------------------------------------------------------------
    def num_used_blocks(self) -> dict[str, int]:
        return {g: p.num_used for g, p in self.pools.items()}

    def num_referenced_blocks(self) -> int:
        """Blocks held by live sequences (cached, evictable free blocks excluded)."""
        return sum(sum(1 for r in p.ref_counts if r > 0) for p in self.pools.values())

    @property
    def usage(self) -> float:
        """Fraction of KV blocks held by live sequences, over all pools."""
        total = sum(p.num_blocks for p in self.pools.values())
        return self.num_referenced_blocks() / total

    @property
    def prefix_hit_rate(self) -> float:
        return self.num_hit_tokens / self.num_queried_tokens if self.num_queried_tokens else 0.0
