"""Admin latency panel, behind an admin login: latency percentiles, throughput, engine gauges, SoT against
direct, guard firings and the slowest requests over a selectable window, refreshed automatically."""
from __future__ import annotations

from html import escape

import gradio as gr

from ui import latency_frames as frames
from ui.login import bind_login, build_login, is_logged_in, require_role

REFRESH_INTERVAL_S = 5.0
WINDOWS_S = [("Last 5 minutes", 300), ("Last 15 minutes", 900), ("Last hour", 3600), ("Last 6 hours", 21600),
             ("Last 24 hours", 86400), ("Last 7 days", 604800)]
SUMMARY_CSS = """
.sd-summary { display: flex; flex-wrap: wrap; gap: .5rem; }
.sd-stat { border: 1px solid var(--border-color-primary); border-radius: 6px; padding: .3rem .6rem; }
.sd-stat b { display: block; font-size: 1.1rem; }
"""


def _line(label: str, y_title: str, color: str | None = None, y_lim: list | None = None) -> gr.LinePlot:
    """A time series; no fixed height, so Vega has room for the legend."""
    return gr.LinePlot(x="time", y="value", color=color, label=label, x_title="time", y_title=y_title,
                       color_title="", y_lim=y_lim or [0, None], elem_classes=["sd-plot"])


def _bar(label: str, x: str, y: str, color: str | None, sort: list[str] | None = None) -> gr.BarPlot:
    """Bars labelled on the x axis; the color only groups them, so no legend."""
    return gr.BarPlot(x=x, y=y, color=color, label=label, y_lim=[0, None], x_label_angle=-30, x_title="",
                      colors_in_legend=[] if color else None, sort=sort, elem_classes=["sd-plot"])


def _time_format(window_s: float) -> str:
    return "%H:%M:%S" if window_s <= 3600 else "%H:%M" if window_s <= 86400 else "%m-%d %H:%M"


def build_admin_tab(service) -> dict:
    """Components: the login's, plus content, logout, window, auto_refresh, refresh, timer, summary,
    percentiles, latency, throughput, requests, kv_usage, prefix_hit_rate, modes, guards, slowest."""
    c = build_login("admin")
    c["timer"] = gr.Timer(REFRESH_INTERVAL_S, active=False)
    with gr.Column(visible=False, elem_id="sd-admin-content") as c["content"]:
        with gr.Row():
            c["window"] = gr.Dropdown(WINDOWS_S, value=900, label="Window", scale=2, elem_id="sd-admin-window")
            c["auto_refresh"] = gr.Checkbox(True, label=f"Auto-refresh every {REFRESH_INTERVAL_S:.0f} s", scale=1)
            with gr.Column(scale=1, min_width=120):
                c["refresh"] = gr.Button("Refresh", size="sm")
                c["logout"] = gr.Button("Log out", size="sm")
        c["summary"] = gr.HTML("", css_template=SUMMARY_CSS, js_on_load=None, elem_id="sd-admin-summary")
        with gr.Row():
            c["percentiles"] = _bar("TTFT, TPOT and end-to-end p50/p95", "metric", "seconds", "percentile",
                                    frames.PERCENTILE_ORDER)
            c["latency"] = _line("Latency per answer", "seconds", "metric")
        with gr.Row():
            c["throughput"] = _line("Throughput", "tokens/s")
            c["requests"] = _line("Running and waiting requests", "requests", "series")
        with gr.Row():
            c["kv_usage"] = _line("KV-cache usage", "share of blocks", y_lim=[0, 1])
            c["prefix_hit_rate"] = _line("Prefix-cache hit rate", "hit rate", y_lim=[0, 1])
        with gr.Row():
            c["modes"] = _bar("SoT against direct: latency by mode", "stat", "seconds", "mode", frames.MODE_ORDER)
            c["guards"] = _bar("Guard firings", "reason", "count", None)
        c["slowest"] = gr.Dataframe(frames.slowest_frame({"slowest": []}), label="Slowest requests (stage times in s)",
                                    interactive=False, elem_id="sd-admin-slowest")
    login_event, logout_event = bind_login(service, c, "admin")
    _bind(service, c, login_event, logout_event)
    return c


def _bind(service, c: dict, login_event, logout_event) -> None:
    report_outputs = [c[name] for name in ("summary", "percentiles", "latency", "throughput", "requests", "kv_usage",
                                           "prefix_hit_rate", "modes", "guards", "slowest")]

    def refresh(key: str | None, window_s: float) -> dict:
        """Inputs: the session key and the window in seconds. Outputs: the summary, every plot and the
        slowest-requests table, from one `service.latency_report(window_s)`."""
        require_role(service, key, "admin")
        report = service.latency_report(float(window_s)).as_dict()
        gauges = frames.gauge_frames(report)
        stats = "".join(f'<div class="sd-stat">{escape(name)}<b>{escape(value)}</b></div>'
                        for name, value in frames.summary_rows(report).items())
        time_format = _time_format(float(window_s))

        def series(frame):
            return gr.LinePlot(frame, x_axis_format=time_format)

        return {c["summary"]: f'<div class="sd-summary">{stats}</div>',
                c["percentiles"]: frames.percentile_frame(report),
                c["latency"]: series(frames.latency_series_frame(report)),
                c["throughput"]: series(gauges["throughput"]), c["requests"]: series(gauges["requests"]),
                c["kv_usage"]: series(gauges["kv_usage"]), c["prefix_hit_rate"]: series(gauges["prefix_hit_rate"]),
                c["modes"]: frames.mode_frame(report), c["guards"]: frames.guard_frame(report),
                c["slowest"]: frames.slowest_frame(report)}

    def after_login(key: str | None, window_s: float, auto_refresh: bool) -> dict:
        """Inputs: the session key, the window, the auto-refresh box. Outputs: nothing after a failed
        login; else the first report and the timer started (when auto-refresh is on)."""
        if not is_logged_in(service, key, "admin"):
            return {component: gr.skip() for component in [*report_outputs, c["timer"]]}
        return {**refresh(key, window_s), c["timer"]: gr.Timer(active=auto_refresh)}

    def set_auto_refresh(enabled: bool) -> gr.Timer:
        """Input: the checkbox. Output: the timer, ticking or not."""
        return gr.Timer(active=enabled)

    inputs = [c["key_state"], c["window"]]
    options = {"inputs": inputs, "outputs": report_outputs, "api_visibility": "private", "show_progress": "hidden"}
    login_event.then(after_login, inputs=[*inputs, c["auto_refresh"]], outputs=[*report_outputs, c["timer"]],
                     api_visibility="private", show_progress="hidden")
    gr.on([c["refresh"].click, c["window"].change, c["timer"].tick], refresh, **options)
    c["auto_refresh"].change(set_auto_refresh, inputs=c["auto_refresh"], outputs=c["timer"], api_visibility="private")
    logout_event.then(lambda: gr.Timer(active=False), outputs=c["timer"], api_visibility="private")
