"""Per-request timings and engine gauges, collected on the engine thread and read as snapshots."""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import NamedTuple

from engine.sequence import Sequence

log = logging.getLogger(__name__)


class RequestMetrics(NamedTuple):
    """Timings of one finished request, in seconds (monotonic clock)."""

    request_id: str
    arrival_time: float
    queue_s: float | None
    ttft_s: float | None
    inter_token_s: tuple[float, ...]
    e2e_s: float
    num_prompt_tokens: int
    num_output_tokens: int
    num_cached_tokens: int
    finish_reason: str | None

    @property
    def tpot_s(self) -> float | None:
        """Mean time per output token after the first."""
        return sum(self.inter_token_s) / len(self.inter_token_s) if self.inter_token_s else None

    @staticmethod
    def of(seq: Sequence) -> "RequestMetrics":
        end = seq.finished_time or time.monotonic()
        times = seq.token_times
        return RequestMetrics(
            request_id=seq.request_id,
            arrival_time=seq.arrival_time,
            queue_s=None if seq.first_scheduled_time is None else seq.first_scheduled_time - seq.arrival_time,
            ttft_s=None if seq.first_token_time is None else seq.first_token_time - seq.arrival_time,
            inter_token_s=tuple(b - a for a, b in zip(times, times[1:])),
            e2e_s=end - seq.arrival_time,
            num_prompt_tokens=seq.num_prompt_tokens,
            num_output_tokens=seq.num_output_tokens,
            num_cached_tokens=seq.num_cached_tokens,
            finish_reason=seq.finish_reason,
        )


class StepStats(NamedTuple):
    time: float
    duration_s: float
    batch_size: int
    num_prefill_tokens: int
    num_decode_tokens: int


@dataclass(frozen=True)
class EngineSnapshot:
    """Everything the API turns into Prometheus metrics."""

    num_running: int
    num_waiting: int
    kv_blocks_used: int
    kv_blocks_total: int
    kv_usage: float
    prefix_cache_hit_rate: float
    num_preemptions: int
    num_steps: int
    num_prefill_tokens: int
    num_decode_tokens: int
    num_finished: int
    num_draft_tokens: int = 0  # n-gram draft tokens verified (`engine.ngram_proposer`)
    num_accepted_draft_tokens: int = 0
    recent_steps: tuple[StepStats, ...] = field(default_factory=tuple)
    recent_requests: tuple[RequestMetrics, ...] = field(default_factory=tuple)


def notify_listeners(listeners: list, metrics: RequestMetrics) -> None:
    """Call every request-finished listener; a broken one is logged and never stops the caller."""
    for listener in listeners:
        try:
            listener(metrics)
        except Exception:
            log.exception("request-finished listener failed")


class EngineMetrics:
    """Counters and bounded histories; written by the engine thread, snapshotted by anyone."""

    def __init__(self, history: int = 1024) -> None:
        self._lock = threading.Lock()
        self.steps: deque[StepStats] = deque(maxlen=history)
        self.requests: deque[RequestMetrics] = deque(maxlen=history)
        self.num_steps = self.num_prefill_tokens = self.num_decode_tokens = self.num_finished = 0
        self.num_draft_tokens = self.num_accepted_draft_tokens = 0
        self.listeners: list = []  # called with each finished request's RequestMetrics

    def record_step(self, duration_s: float, batch_size: int, num_prefill: int, num_decode: int,
                    num_drafted: int = 0, num_accepted: int = 0) -> None:
        with self._lock:
            self.num_draft_tokens += num_drafted
            self.num_accepted_draft_tokens += num_accepted
            self.steps.append(StepStats(time.monotonic(), duration_s, batch_size, num_prefill, num_decode))
            self.num_steps += 1
            self.num_prefill_tokens += num_prefill
            self.num_decode_tokens += num_decode

    def record_finished(self, seq: Sequence) -> RequestMetrics:
        metrics = RequestMetrics.of(seq)
        with self._lock:
            self.requests.append(metrics)
            self.num_finished += 1
        notify_listeners(self.listeners, metrics)
        return metrics

    def snapshot(self, scheduler, block_manager) -> EngineSnapshot:
        with self._lock:
            total = sum(p.num_blocks for p in block_manager.pools.values())
            used = block_manager.num_referenced_blocks()
            return EngineSnapshot(
                num_running=len(scheduler.running), num_waiting=len(scheduler.waiting),
                kv_blocks_used=used, kv_blocks_total=total, kv_usage=used / total if total else 0.0,
                prefix_cache_hit_rate=block_manager.prefix_hit_rate, num_preemptions=scheduler.num_preemptions,
                num_steps=self.num_steps, num_prefill_tokens=self.num_prefill_tokens,
                num_decode_tokens=self.num_decode_tokens, num_finished=self.num_finished,
                num_draft_tokens=self.num_draft_tokens, num_accepted_draft_tokens=self.num_accepted_draft_tokens,
                recent_steps=tuple(self.steps), recent_requests=tuple(self.requests))
