"""Continuous batching: iteration-level scheduling under a per-step token budget.

Every step, running sequences go first (a decode token each, with its n-gram draft if it has one, or
the next chunk of a prompt),
then waiting sequences are admitted in arrival order while the token budget, ``max_num_seqs``
and free KV blocks allow. Prompts are chunked so a long prompt never stalls running decodes.
When blocks run out, the newest running sequence is preempted and later recomputed. A waiting
sequence shares the blocks that sequences scheduled in the same step are computing (every layer
stores the whole batch's keys and values before any token attends), and waits a step only when its
next uncached block is one that another sequence will prefill in a later chunk; so requests sharing
a prefix (the SoT expansions of one answer) compute it only once, and all in one step.
"""
from __future__ import annotations

import time
from collections import deque
from typing import NamedTuple

from engine.block_manager import BlockManager, InStepBlocks
from engine.sequence import Sequence, SequenceStatus


class QueueFullError(RuntimeError):
    """The bounded waiting queue is full; the caller should retry later."""


class ScheduledBatch(NamedTuple):
    """One step's work: decode sequences first, then prefill chunks, with new-token counts."""

    seqs: list[Sequence]
    num_new_tokens: list[int]
    num_decode_seqs: int

    @property
    def num_tokens(self) -> int:
        return sum(self.num_new_tokens)


class Scheduler:
    def __init__(self, block_manager: BlockManager, max_num_seqs: int, max_num_batched_tokens: int,
                 max_waiting_requests: int) -> None:
        self.block_manager = block_manager
        self.max_num_seqs = max_num_seqs
        self.max_num_batched_tokens = max_num_batched_tokens
        self.max_waiting_requests = max_waiting_requests
        self.waiting: deque[Sequence] = deque()
        self.running: list[Sequence] = []
        self.num_preemptions = 0

    @property
    def has_unfinished(self) -> bool:
        return bool(self.waiting or self.running)

    def add(self, seq: Sequence) -> None:
        if len(self.waiting) >= self.max_waiting_requests:
            raise QueueFullError(f"waiting queue is full ({self.max_waiting_requests} requests); retry later")
        self.waiting.append(seq)

    def schedule(self) -> ScheduledBatch:
        """Pick this step's decodes and prefill chunks, allocating blocks; may preempt."""
        budget = self.max_num_batched_tokens
        scheduled: list[tuple[Sequence, int]] = []
        preempted = False
        running = sorted(self.running, key=lambda s: s.is_prefilling)  # decodes first
        decodes_left = sum(1 for s in running if not s.is_prefilling)
        for seq in running:
            if seq.status != SequenceStatus.RUNNING or budget == 0:
                continue
            needed = seq.num_tokens - seq.num_computed_tokens
            decodes_left -= not seq.is_prefilling
            # A draft takes what the budget has left after every decode's own token.
            num_new = min(needed + min(len(seq.draft_token_ids), max(0, budget - needed - decodes_left)), budget)
            if num_new > needed and not self.block_manager.can_append(seq, num_new):
                num_new = min(needed, budget)  # a draft never costs a preemption
            del seq.draft_token_ids[max(0, num_new - needed):]
            while not self.block_manager.can_append(seq, num_new):
                victim = next(s for s in reversed(self.running) if all(s is not t for t, _ in scheduled))
                self._preempt(victim)
                preempted = True
                if victim is seq:
                    break
            else:
                self.block_manager.append_slots(seq, num_new)
                scheduled.append((seq, num_new))
                budget -= num_new
        if not preempted:  # no admissions in a step that had to preempt: avoids preempt/resume loops
            self._admit_waiting(scheduled, budget)
        # One-token decodes first; a decode with a draft attends like a prompt chunk (the same bits per row).
        scheduled.sort(key=lambda item: item[0].is_prefilling or item[1] > 1)
        now = time.monotonic()
        for seq, _ in scheduled:
            if seq.first_scheduled_time is None:
                seq.first_scheduled_time = now
        num_decode = sum(1 for seq, n in scheduled if not seq.is_prefilling and n == 1)
        return ScheduledBatch([s for s, _ in scheduled], [n for _, n in scheduled], num_decode)

    def _admit_waiting(self, scheduled: list[tuple[Sequence, int]], budget: int) -> None:
        bm = self.block_manager
        in_step: InStepBlocks = {}  # blocks being computed this step, shared at once
        later: set[bytes] = set()  # prompt blocks that scheduled sequences compute in a later step
        for s, n in scheduled:
            if s.is_prefilling:
                self._note_prefill(s, n, in_step, later)
        deferred: list[Sequence] = []
        while self.waiting and budget > 0 and len(self.running) < self.max_num_seqs:
            seq = self.waiting[0]
            cached = bm.cached_prefix_blocks(seq, in_step)
            num_cached = len(cached.get("full", [])) * bm.block_size
            next_block = num_cached // bm.block_size
            if next_block < len(seq.block_hashes) and seq.block_hashes[next_block] in later:
                deferred.append(self.waiting.popleft())  # another sequence prefills this block in a later step
                continue
            num_new = min(seq.num_tokens - num_cached, budget)
            # Keep one free block per running sequence so admissions do not force preemptions.
            if not bm.can_allocate(seq, num_new, cached, reserve=len(self.running)):
                break
            self.waiting.popleft()
            bm.allocate(seq, num_new, cached)
            seq.status = SequenceStatus.RUNNING
            self.running.append(seq)
            scheduled.append((seq, num_new))
            budget -= num_new
            self._note_prefill(seq, num_new, in_step, later)
        self.waiting.extendleft(reversed(deferred))

    def _note_prefill(self, seq: Sequence, num_new: int, in_step: InStepBlocks, later: set[bytes]) -> None:
        """Record the prompt blocks a prefilling sequence completes this step and those it leaves for later."""
        bm = self.block_manager
        in_step.update(bm.blocks_completed_in_step(seq, num_new))
        if bm.enable_prefix_caching:
            later.update(bm.compute_hashes(seq)[(seq.num_computed_tokens + num_new) // bm.block_size:])

    def _preempt(self, seq: Sequence) -> None:
        """Preemption by recompute: drop the blocks; the sequence re-enters the front of the queue."""
        self.block_manager.free(seq)
        seq.num_computed_tokens = 0
        seq.draft_token_ids.clear()
        seq.status = SequenceStatus.WAITING
        seq.num_preemptions += 1
        self.num_preemptions += 1
        self.running.remove(seq)
        self.waiting.appendleft(seq)

    def finish(self, seq: Sequence, reason: str) -> None:
        """Mark finished and free its blocks at once (works for waiting, running or finished)."""
        if seq.is_finished:
            return
        if seq in self.running:
            self.running.remove(seq)
        elif seq in self.waiting:
            self.waiting.remove(seq)
        self.block_manager.free(seq)
        seq.status = SequenceStatus.FINISHED
        seq.finish_reason = reason
        seq.finished_time = time.monotonic()
