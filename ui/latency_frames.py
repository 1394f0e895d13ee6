"""`LatencyReport.as_dict()` as the tidy DataFrames the admin plots take (one row per point, a column
naming the series). Pure functions of the report, so they are tested without a browser."""
from __future__ import annotations

import pandas as pd

MAX_POINTS_PER_SERIES = 300  # gauges are sampled every second; longer windows are averaged into bins
STAGE_COLUMNS = ["created_at", "mode", "lang", "total_s", "ttft_s", "tpot_s", "queue_s", "route_s", "outline_s",
                 "expand_s", "completion_tokens", "request_id"]
LATENCY_METRICS = {"ttft_s": "TTFT", "tpot_s": "TPOT", "total_s": "end-to-end"}
MODES = ("sot", "direct", "escalate", "refuse")
MODE_STATS = (("ttft", "TTFT"), ("total", "end-to-end"))
PERCENTILE_ORDER = [f"{label} {q}" for label in LATENCY_METRICS.values() for q in ("p50", "p95")]
MODE_ORDER = [f"{mode} {label} {q}" for mode in MODES for _, label in MODE_STATS for q in ("p50", "p95")]


def _times(epoch_s: pd.Series) -> pd.Series:
    return pd.to_datetime(epoch_s, unit="s")  # naive UTC; Vega shows it in the browser's time zone


def _binned(rows: list[dict], columns: list[str], window_s: float) -> pd.DataFrame:
    """Gauge samples averaged into at most MAX_POINTS_PER_SERIES time bins."""
    df = pd.DataFrame(rows, columns=["time", *columns])
    if df.empty:
        return df
    bin_s = max(1.0, window_s / MAX_POINTS_PER_SERIES)
    df["time"] = (df["time"] // bin_s) * bin_s
    return df.groupby("time", as_index=False)[columns].mean()


def _long(df: pd.DataFrame, columns: dict[str, str], var_name: str) -> pd.DataFrame:
    """Wide columns to (time, var_name, value) rows, renaming the series for the legend."""
    if df.empty:
        return pd.DataFrame({"time": pd.Series(dtype="datetime64[ns]"), var_name: pd.Series(dtype=str),
                             "value": pd.Series(dtype=float)})
    out = df.melt(id_vars="time", value_vars=list(columns), var_name=var_name, value_name="value")
    out[var_name] = out[var_name].map(columns)
    out["time"] = _times(out["time"])
    return out.dropna(subset=["value"])


def percentile_frame(report: dict) -> pd.DataFrame:
    """TTFT, TPOT and end-to-end p50/p95, one bar each."""
    rows = [{"metric": f"{label} {q}", "percentile": q, "seconds": report[key][q]}
            for key, label in LATENCY_METRICS.items() for q in ("p50", "p95")]
    return pd.DataFrame(rows).fillna({"seconds": 0.0})


def latency_series_frame(report: dict) -> pd.DataFrame:
    """Each answer's TTFT, TPOT and end-to-end latency over time."""
    return _long(pd.DataFrame(report["series"], columns=["time", *LATENCY_METRICS]), LATENCY_METRICS, "metric")


def gauge_frames(report: dict) -> dict[str, pd.DataFrame]:
    """throughput (tokens/s), requests (running, waiting), kv_usage and prefix_hit_rate, over time."""
    gauges = _binned(report["gauges"], ["tokens_per_s", "num_running", "num_waiting", "kv_usage",
                                        "prefix_cache_hit_rate"], report["window_s"])
    return {
        "throughput": _long(gauges, {"tokens_per_s": "tokens/s"}, "series"),
        "requests": _long(gauges, {"num_running": "running", "num_waiting": "waiting"}, "series"),
        "kv_usage": _long(gauges, {"kv_usage": "KV-cache usage"}, "series"),
        "prefix_hit_rate": _long(gauges, {"prefix_cache_hit_rate": "prefix-cache hit rate"}, "series"),
    }


def mode_frame(report: dict) -> pd.DataFrame:
    """SoT against direct (and the other modes): TTFT and end-to-end p50/p95 per mode."""
    rows = [{"stat": f"{mode} {label} {q}", "mode": mode, "seconds": stats[f"{key}_{q}"]}
            for mode, stats in report["by_mode"].items() for key, label in MODE_STATS for q in ("p50", "p95")]
    return pd.DataFrame(rows, columns=["stat", "mode", "seconds"]).fillna({"seconds": 0.0})


def guard_frame(report: dict) -> pd.DataFrame:
    """Guard firings by reason over the window."""
    rows = sorted(report["guard_firings"].items(), key=lambda item: -item[1])
    return pd.DataFrame(rows, columns=["reason", "count"])


def slowest_frame(report: dict) -> pd.DataFrame:
    """The slowest answers with their stage breakdown (seconds, 3 decimals)."""
    df = pd.DataFrame(report["slowest"], columns=STAGE_COLUMNS)
    df["created_at"] = pd.to_datetime(df["created_at"], utc=True, format="ISO8601").dt.strftime("%Y-%m-%d %H:%M:%S")
    stages = [c for c in STAGE_COLUMNS if c.endswith("_s")]
    df[stages] = df[stages].astype(float).round(3)
    return df


def summary_rows(report: dict) -> dict[str, str]:
    """Headline numbers for the summary line."""
    engine = report["engine"]

    def seconds(value):
        return "–" if value is None else f"{value:.3f} s"

    return {
        "answers": str(report["num_answers"]), "errors": str(report["num_errors"]),
        "answers/s": f"{report['answers_per_s']:.3f}", "output tokens/s": f"{report['output_tokens_per_s']:.1f}",
        "TTFT p50": seconds(report["ttft_s"]["p50"]), "end-to-end p95": seconds(report["total_s"]["p95"]),
        "running now": str(engine.get("num_running", "–")), "waiting now": str(engine.get("num_waiting", "–")),
        "KV usage now": f"{engine.get('kv_usage', 0.0):.0%}",
    }
