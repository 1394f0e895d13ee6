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
