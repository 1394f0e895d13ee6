"""The admin plots' DataFrames from a latency report (the dict `LatencyReport.as_dict()` returns)."""
from __future__ import annotations

from ui import latency_frames as frames


def _report(num_gauges: int = 10, window_s: float = 900.0) -> dict:
    start = 1_700_000_000.0
    gauges = [{"time": start + i, "num_running": i % 3, "num_waiting": 0, "kv_usage": 0.1, "prefix_cache_hit_rate": 0.5,
               "tokens_per_s": 100.0} for i in range(num_gauges)]
    return {
        "window_s": window_s, "num_answers": 2, "num_errors": 0, "answers_per_s": 0.01, "output_tokens_per_s": 1.0,
        "ttft_s": {"p50": 0.1, "p95": 0.2}, "tpot_s": {"p50": None, "p95": None}, "total_s": {"p50": 1.0, "p95": 2.0},
        "by_mode": {"sot": {"num_answers": 1, "total_p50": 2.0, "total_p95": 2.0, "ttft_p50": 0.2, "ttft_p95": 0.2},
                    "direct": {"num_answers": 1, "total_p50": 1.0, "total_p95": 1.0, "ttft_p50": 0.1, "ttft_p95": 0.1}},
        "guard_firings": {"grounding": 1, "incomplete": 3},
        "slowest": [{"request_id": "r1", "created_at": "2026-01-01T00:00:00+00:00", "mode": "sot", "lang": "en",
                     "completion_tokens": 10, "queue_s": 0.01, "route_s": 0.001, "outline_s": 0.3, "expand_s": 1.5,
                     "ttft_s": 0.2, "tpot_s": 0.01, "total_s": 2.0}],
        "series": [{"time": start, "mode": "sot", "ttft_s": 0.2, "tpot_s": None, "total_s": 2.0}],
        "gauges": gauges,
        "engine": {"num_running": 0, "num_waiting": 0, "kv_usage": 0.0, "prefix_cache_hit_rate": 0.5},
    }


def test_percentiles_and_modes_in_plot_order():
    percentiles = frames.percentile_frame(_report())
    assert percentiles["metric"].tolist() == frames.PERCENTILE_ORDER
    assert percentiles.loc[percentiles.metric == "TPOT p50", "seconds"].item() == 0.0  # no data: a zero bar
    modes = frames.mode_frame(_report())
    assert set(modes["stat"]) <= set(frames.MODE_ORDER) and set(modes["mode"]) == {"sot", "direct"}


def test_series_skip_missing_values():
    series = frames.latency_series_frame(_report())
    assert sorted(series["metric"]) == ["TTFT", "end-to-end"]  # TPOT is None for this answer
    assert str(series["time"].dtype).startswith("datetime64")


def test_gauges_are_binned_for_long_windows():
    short = frames.gauge_frames(_report(num_gauges=10, window_s=300.0))  # 1 s bins
    assert len(short["throughput"]) == 10 and sorted(set(short["requests"]["series"])) == ["running", "waiting"]
    long = frames.gauge_frames(_report(num_gauges=3000, window_s=86400.0))
    assert len(long["kv_usage"]) <= frames.MAX_POINTS_PER_SERIES


def test_empty_report_gives_empty_frames():
    report = {**_report(num_gauges=0), "series": [], "slowest": [], "guard_firings": {}, "by_mode": {}}
    assert all(df.empty for df in frames.gauge_frames(report).values())
    assert frames.latency_series_frame(report).empty and frames.guard_frame(report).empty
    assert frames.slowest_frame(report).empty and frames.mode_frame(report).empty


def test_slowest_rows_keep_their_stage_breakdown():
    slowest = frames.slowest_frame(_report())
    assert slowest.columns.tolist() == frames.STAGE_COLUMNS
    assert slowest.iloc[0]["expand_s"] == 1.5 and slowest.iloc[0]["created_at"] == "2026-01-01 00:00:00"
