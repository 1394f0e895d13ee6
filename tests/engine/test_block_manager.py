"""Block manager on its own: reference counts, LRU eviction, prefix reuse, sliding release."""
from __future__ import annotations

from engine.block_manager import FULL, SLIDING, BlockManager, BlockPool
from engine.sampling import SamplingParams
from engine.sequence import Sequence


def _seq(token_ids, rid="r") -> Sequence:
    return Sequence(rid, list(token_ids), SamplingParams())


def _run_prefill(bm: BlockManager, seq: Sequence) -> None:
    cached = bm.cached_prefix_blocks(seq)
    n_cached = len(cached.get(FULL, [])) * bm.block_size
    assert bm.can_allocate(seq, seq.num_tokens - n_cached, cached)
    bm.allocate(seq, seq.num_tokens - n_cached, cached)
    seq.num_computed_tokens = seq.num_tokens
    bm.commit(seq)


def test_pool_lru_eviction_only_of_free_blocks():
    pool = BlockPool(3)
    a, b = pool.allocate(), pool.allocate()
    pool.cache(a, b"ha")
    pool.cache(b, b"hb")
    pool.release(a)
    pool.release(b)
    assert pool.num_free == 3 and pool.lookup(b"ha") == a
    pool.share(b)  # reuse b: it leaves the free list, keeps its hash
    c = pool.allocate()  # the never-used block goes first
    d = pool.allocate()  # then the least recently freed cached block (a) is evicted
    assert d == a and pool.lookup(b"ha") is None and pool.lookup(b"hb") == b and c not in (a, b)


def test_prefix_reuse_shares_blocks_and_leaves_one_token():
    bm = BlockManager(block_size=4, num_full_blocks=16)
    first = _seq(range(10, 22))  # 12 tokens = 3 full blocks
    _run_prefill(bm, first)
    second = _seq(list(range(10, 22)) + [99], "s")
    cached = bm.cached_prefix_blocks(second)
    assert cached[FULL] == first.block_tables[FULL][:3]
    same = _seq(range(10, 22), "t")  # identical prompt: the last block is recomputed for its logits
    assert len(bm.cached_prefix_blocks(same)[FULL]) == 2
    bm.free(first)
    assert bm.num_referenced_blocks() == 0


def test_reset_prefix_cache_forgets_only_free_blocks():
    bm = BlockManager(block_size=4, num_full_blocks=16, num_sliding_blocks=16, sliding_window=8)
    done, live = _seq(range(10, 22)), _seq(range(50, 62), "live")  # 3 full blocks each
    _run_prefill(bm, done)
    _run_prefill(bm, live)
    bm.free(done)
    assert len(bm.cached_prefix_blocks(_seq(list(range(10, 22)) + [1], "a"))[FULL]) == 3
    # done's 3 blocks in each pool, and the live sequence's first sliding block, released out of its window
    assert bm.reset_prefix_cache() == 7
    assert bm.cached_prefix_blocks(_seq(list(range(10, 22)) + [1], "b")) == {FULL: [], SLIDING: []}
    # The live sequence's blocks are still found, and nothing was freed or leaked.
    assert bm.cached_prefix_blocks(_seq(list(range(50, 62)) + [1], "c"))[FULL] == live.block_tables[FULL]
    assert bm.num_referenced_blocks() == 5 and bm.reset_prefix_cache() == 0  # live: 3 full, 2 sliding blocks
    bm.free(live)
    assert bm.num_referenced_blocks() == 0


def test_sliding_blocks_released_and_prefix_needs_window():
    bm = BlockManager(block_size=4, num_full_blocks=32, num_sliding_blocks=32, sliding_window=8)
    seq = _seq(range(100, 140))  # 40 tokens
    _run_prefill(bm, seq)
    live = [b for b in seq.block_tables[SLIDING] if b >= 0]
    # The next query (position 40) reads keys 33..40: blocks 8 and 9 only.
    assert seq.block_tables[SLIDING][:8] == [-1] * 8 and len(live) == 2
    assert len(seq.block_tables[FULL]) == 10
    # The released sliding blocks stay cached, so a longer prompt with the same prefix still hits.
    other = _seq(list(range(100, 140)) + [7, 8, 9], "o")
    cached = bm.cached_prefix_blocks(other)
    assert len(cached[FULL]) == 10 and cached[SLIDING][:8] == [-1] * 8
    bm.free(seq)
    assert bm.num_referenced_blocks() == 0


def test_can_checks_change_nothing():
    bm = BlockManager(block_size=4, num_full_blocks=2)
    seq = _seq(range(20))
    before = (bm.pools[FULL].num_free, dict(bm.pools[FULL].hash_to_block))
    assert not bm.can_allocate(seq, 20, {})
    assert (bm.pools[FULL].num_free, dict(bm.pools[FULL].hash_to_block)) == before
