"""Scheduler on its own (no model): token budget, chunked prefill, decode priority, preemption."""
from __future__ import annotations

import pytest

from engine.block_manager import BlockManager
from engine.sampling import SamplingParams
from engine.scheduler import QueueFullError, Scheduler
from engine.sequence import Sequence


def _sched(num_blocks=64, budget=16, max_seqs=8, waiting=8) -> Scheduler:
    return Scheduler(BlockManager(4, num_blocks), max_seqs, budget, waiting)


def _complete(sched: Scheduler, batch) -> None:
    """Pretend the model ran: advance computed tokens and append one token where a sample happens."""
    for seq, n in zip(batch.seqs, batch.num_new_tokens):
        seq.num_computed_tokens += n
        sched.block_manager.commit(seq)
        if seq.num_computed_tokens == seq.num_tokens:
            seq.token_ids.append(7)


def test_long_prompt_is_chunked_and_decodes_keep_running():
    sched = _sched(budget=16)
    short = Sequence("short", [1, 2, 3], SamplingParams())
    sched.add(short)
    _complete(sched, sched.schedule())
    sched.add(Sequence("long", list(range(40)), SamplingParams()))
    for _ in range(3):
        batch = sched.schedule()
        assert batch.num_tokens <= 16
        assert batch.seqs[0] is short and batch.num_decode_seqs == 1  # decode first, never stalled
        _complete(sched, batch)


def test_preemption_newest_first_and_recompute():
    sched = _sched(num_blocks=6, budget=64)
    a = Sequence("a", list(range(8)), SamplingParams())
    b = Sequence("b", list(range(50, 58)), SamplingParams())
    sched.add(a)
    sched.add(b)
    _complete(sched, sched.schedule())  # both admitted: 2 blocks each, 2 free (reserve keeps them)
    for _ in range(12):
        batch = sched.schedule()
        _complete(sched, batch)
    assert sched.num_preemptions > 0 and b.num_preemptions > 0 and a.num_preemptions == 0


def test_bounded_waiting_queue_rejects():
    sched = _sched(waiting=2)
    sched.add(Sequence("a", [1], SamplingParams()))
    sched.add(Sequence("b", [1], SamplingParams()))
    with pytest.raises(QueueFullError):
        sched.add(Sequence("c", [1], SamplingParams()))


def test_shared_prefix_is_computed_once_in_one_step():
    """Requests arriving together share the prefix blocks the first one computes in that same step."""
    sched = _sched(budget=64)
    prefix = list(range(100, 112))  # three full blocks of 4
    seqs = [Sequence(str(i), prefix + [i, i + 1], SamplingParams()) for i in range(3)]
    for seq in seqs:
        sched.add(seq)
    batch = sched.schedule()
    assert batch.seqs == seqs and batch.num_new_tokens == [14, 2, 2]
    first = seqs[0].block_tables["full"][:3]
    assert all(s.block_tables["full"][:3] == first for s in seqs) and seqs[1].num_cached_tokens == 12
    _complete(sched, batch)
    for seq in seqs:
        sched.finish(seq, "stop")
    assert sched.block_manager.num_referenced_blocks() == 0


def test_shared_prefix_waits_for_a_chunked_owner():
    """With the prefix split over chunks, a sharer waits for the chunk that completes what it needs."""
    sched = _sched(budget=8)
    prefix = list(range(100, 112))
    owner, sharer = Sequence("a", prefix + [1, 2], SamplingParams()), Sequence("b", prefix + [3, 4], SamplingParams())
    sched.add(owner)
    sched.add(sharer)
    batch = sched.schedule()
    assert batch.seqs == [owner] and batch.num_new_tokens == [8]  # blocks 0-1 now, block 2 next step
    _complete(sched, batch)
    batch = sched.schedule()
    assert batch.seqs == [owner, sharer] and batch.num_new_tokens == [6, 2]
    assert sharer.num_cached_tokens == 12



def test_a_draft_rides_with_its_decode_and_gives_way_to_budget_and_blocks():
    """A decode's draft rows come after the one-token decodes and take only the budget those leave; a rejected
    draft's blocks go back to the pool; a draft that would need a block the pool lacks is dropped instead of
    preempting anyone."""
    sched = _sched(num_blocks=4, budget=6)
    a, b = Sequence("a", [1, 2, 3], SamplingParams()), Sequence("b", [4, 5, 6], SamplingParams())
    sched.add(a)
    sched.add(b)
    _complete(sched, sched.schedule())  # each: one block, 4 tokens, 3 computed
    a.draft_token_ids = [9] * 5
    batch = sched.schedule()
    assert batch.seqs == [b, a] and batch.num_new_tokens == [1, 5] and batch.num_decode_seqs == 1
    assert a.draft_token_ids == [9] * 4 and len(a.block_tables["full"]) == 2  # b's token first, 4 left for a
    a.draft_token_ids = []
    for seq in (a, b):  # the model ran; all of a's draft was wrong: only its decode row counts
        seq.num_computed_tokens += 1
        seq.token_ids.append(7)
        sched.block_manager.commit(seq)
    assert len(a.block_tables["full"]) == 1 and sched.block_manager.pools["full"].num_free == 2
    # Both need a new block for their next token; b's draft would need one more than is left.
    b.draft_token_ids = [8] * 4
    batch = sched.schedule()
    assert b.draft_token_ids == [] and batch.num_new_tokens == [1, 1] and sched.num_preemptions == 0
