"""The admin latency report: percentiles, throughput, engine gauges over time, SoT against direct,
guard firings and the slowest answers, computed from stored answer metrics and sampled gauges."""
from __future__ import annotations

import threading
from collections import Counter, deque
from dataclasses import asdict, dataclass, field

STAGES = ("queue_s", "route_s", "outline_s", "expand_s", "ttft_s", "tpot_s", "total_s")


class GaugeHistory:
    """Engine gauges sampled over time (bounded); throughput is derived from token counters."""

    def __init__(self, max_samples: int = 7 * 24 * 3600) -> None:
        self._samples: deque[dict] = deque(maxlen=max_samples)
        self._lock = threading.Lock()
        self._last: tuple[float, int] | None = None

    def add(self, now: float, snapshot) -> None:
        """Record one engine snapshot taken at wall-clock time `now` (seconds)."""
        tokens = snapshot.num_prefill_tokens + snapshot.num_decode_tokens
        rate = 0.0
        if self._last is not None and now > self._last[0]:
            rate = (tokens - self._last[1]) / (now - self._last[0])
        self._last = (now, tokens)
        with self._lock:
            self._samples.append({"time": now, "num_running": snapshot.num_running,
                                  "num_waiting": snapshot.num_waiting, "kv_usage": snapshot.kv_usage,
                                  "prefix_cache_hit_rate": snapshot.prefix_cache_hit_rate,
                                  "tokens_per_s": rate})

    def since(self, start: float) -> list[dict]:
        with self._lock:
            return [s for s in self._samples if s["time"] >= start]


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100) of the non-missing values, or None if there are none."""
    values = sorted(v for v in values if v is not None)
    if not values:
        return None
    rank = max(1, -(-len(values) * q // 100))
    return values[int(rank) - 1]


def _p50_p95(rows: list[dict], key: str) -> dict[str, float | None]:
    values = [r.get(key) for r in rows]
    return {"p50": percentile(values, 50), "p95": percentile(values, 95)}


@dataclass
class LatencyReport:
    """Everything the admin panel plots; `as_dict()` is what the API returns."""

    window_s: float
    num_answers: int
    num_errors: int
    ttft_s: dict
    tpot_s: dict
    total_s: dict
    answers_per_s: float
    output_tokens_per_s: float
    by_mode: dict = field(default_factory=dict)
    guard_firings: dict = field(default_factory=dict)
    slowest: list = field(default_factory=list)
    series: list = field(default_factory=list)
    gauges: list = field(default_factory=list)
    engine: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)


def _jsonable(row: dict) -> dict:
    out = dict(row)
    created = out.get("created_at")
    if created is not None and hasattr(created, "timestamp"):
        out["time"] = created.timestamp()
        out["created_at"] = created.isoformat()
    return out


def build_latency_report(rows: list[dict], gauges: list[dict], window_s: float, snapshot) -> LatencyReport:
    """Summarise answer metric rows (as the store returns them) and gauge samples over one window."""
    ok = [r for r in rows if not r.get("error")]
    by_mode = {}
    for mode in sorted({r["mode"] for r in ok}):
        subset = [r for r in ok if r["mode"] == mode]
        by_mode[mode] = {"num_answers": len(subset), **{f"total_{k}": v for k, v in _p50_p95(subset, "total_s").items()},
                         **{f"ttft_{k}": v for k, v in _p50_p95(subset, "ttft_s").items()}}
    firings = Counter(f.split(":")[0] for r in rows for f in (r.get("guard_firings") or []))
    slowest = sorted(ok, key=lambda r: r.get("total_s") or 0.0, reverse=True)[:10]
    output_tokens = sum(r.get("completion_tokens") or 0 for r in ok)
    return LatencyReport(
        window_s=window_s,
        num_answers=len(ok),
        num_errors=len(rows) - len(ok),
        ttft_s=_p50_p95(ok, "ttft_s"),
        tpot_s=_p50_p95(ok, "tpot_s"),
        total_s=_p50_p95(ok, "total_s"),
        answers_per_s=len(ok) / window_s,
        output_tokens_per_s=output_tokens / window_s,
        by_mode=by_mode,
        guard_firings=dict(firings),
        slowest=[{k: v for k, v in _jsonable(r).items() if k in ("request_id", "created_at", "mode", "lang",
                                                                   "completion_tokens", *STAGES)} for r in slowest],
        series=[{k: v for k, v in _jsonable(r).items() if k in ("request_id", "time", "mode", "ttft_s", "tpot_s", "total_s")}
                for r in ok],
        gauges=gauges,
        engine={"num_running": snapshot.num_running, "num_waiting": snapshot.num_waiting,
                "kv_usage": snapshot.kv_usage, "prefix_cache_hit_rate": snapshot.prefix_cache_hit_rate,
                "num_preemptions": snapshot.num_preemptions},
    )
