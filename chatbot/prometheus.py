"""Prometheus metrics with vLLM-style names (`supportdesk:` instead of `vllm:`), in a registry of our own.

Engine-request histograms are fed by the engine's request-finished listener; gauges are read from an
engine snapshot at scrape time; SoT stage histograms and guard counters are fed per answer.
"""
from __future__ import annotations

from typing import Callable

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

PREFIX = "supportdesk:"
LATENCY_BUCKETS_S = (0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0,
                     40.0, 80.0)
TOKEN_LATENCY_BUCKETS_S = (0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4,
                           0.5, 0.75, 1.0, 2.5)


class _SnapshotCollector:
    """Gauges and counters read from the engine at scrape time."""

    def __init__(self, snapshot: Callable, num_dropped_writes: Callable[[], int]) -> None:
        self.snapshot, self.num_dropped_writes = snapshot, num_dropped_writes

    def collect(self):
        snap = self.snapshot()
        for name, doc, value in (
            ("num_requests_running", "Engine requests in the running batch.", snap.num_running),
            ("num_requests_waiting", "Engine requests waiting to be scheduled.", snap.num_waiting),
            ("kv_cache_usage_perc", "Share of KV-cache blocks in use (0 to 1).", snap.kv_usage),
            ("prefix_cache_hit_rate", "Share of prompt blocks served by the prefix cache (0 to 1).",
             snap.prefix_cache_hit_rate),
        ):
            yield GaugeMetricFamily(PREFIX + name, doc, value=value)
        for name, doc, value in (
            ("num_preemptions", "Sequences preempted for KV space.", snap.num_preemptions),
            ("prompt_tokens", "Prefilled prompt tokens.", snap.num_prefill_tokens),
            ("generation_tokens", "Generated tokens.", snap.num_decode_tokens),
            ("spec_decode_num_draft_tokens", "N-gram draft tokens verified.", snap.num_draft_tokens),
            ("spec_decode_num_accepted_tokens", "N-gram draft tokens accepted.", snap.num_accepted_draft_tokens),
            ("store_dropped_writes", "Conversation writes dropped because the database failed.",
             self.num_dropped_writes()),
        ):
            yield CounterMetricFamily(PREFIX + name, doc, value=value)


class ServiceMetrics:
    """All of the service's Prometheus metrics; `render()` is the `/metrics` body."""

    def __init__(self, snapshot: Callable, num_dropped_writes: Callable[[], int]) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        reg = self.registry
        self.ttft = Histogram(PREFIX + "time_to_first_token_seconds", "Engine request time to first token.",
                              buckets=LATENCY_BUCKETS_S, registry=reg)
        self.inter_token = Histogram(PREFIX + "inter_token_latency_seconds", "Time between output tokens.",
                                     buckets=TOKEN_LATENCY_BUCKETS_S, registry=reg)
        self.queue = Histogram(PREFIX + "request_queue_time_seconds", "Engine request time in the waiting queue.",
                               buckets=LATENCY_BUCKETS_S, registry=reg)
        self.e2e = Histogram(PREFIX + "e2e_request_latency_seconds", "Engine request latency, end to end.",
                             buckets=LATENCY_BUCKETS_S, registry=reg)
        self.finished = Counter(PREFIX + "request_success", "Finished engine requests.", ["finished_reason"],
                                registry=reg)
        self.sot_stage = Histogram(PREFIX + "sot_stage_seconds", "Answer stages: route, outline, expand, total.",
                                   ["stage", "mode"], buckets=LATENCY_BUCKETS_S, registry=reg)
        self.answer_ttft = Histogram(PREFIX + "answer_time_to_first_token_seconds",
                                     "Answer time to the first streamed point text.", ["mode"],
                                     buckets=LATENCY_BUCKETS_S, registry=reg)
        self.guard_firings = Counter(PREFIX + "guard_firings", "Points replaced by a guard.", ["reason"], registry=reg)
        self.rejected = Counter(PREFIX + "rejected_requests", "Requests refused before they started.", ["reason"],
                                registry=reg)
        reg.register(_SnapshotCollector(snapshot, num_dropped_writes))

    def observe_engine_request(self, metrics) -> None:
        """Engine-thread listener: one finished engine request's `RequestMetrics`."""
        if metrics.ttft_s is not None:
            self.ttft.observe(metrics.ttft_s)
        if metrics.queue_s is not None:
            self.queue.observe(metrics.queue_s)
        for gap in metrics.inter_token_s:
            self.inter_token.observe(gap)
        self.e2e.observe(metrics.e2e_s)
        self.finished.labels(metrics.finish_reason or "unknown").inc()

    def observe_answer(self, mode: str, timings: dict, guard_firings: list[str]) -> None:
        """One finished answer: its SoT stage timings and guard firings."""
        for stage in ("route", "outline", "expand", "total"):
            value = timings.get(f"{stage}_s")
            if value is not None:
                self.sot_stage.labels(stage, mode).observe(value)
        if timings.get("ttft_s") is not None:
            self.answer_ttft.labels(mode).observe(timings["ttft_s"])
        for reason in guard_firings:
            self.guard_firings.labels(reason.split(":")[0]).inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)
