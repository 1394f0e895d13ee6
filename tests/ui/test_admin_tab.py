"""Admin latency panel in a real browser: login by admin key only, every plot rendered, the slowest
requests with their stages, and auto-refresh."""
from __future__ import annotations

import re

from tests.ui.harness import ADMIN_KEY, AGENT_KEY
from tests.ui.pages import ask_in_chat, log_in, open_app, open_tab

NUM_PLOTS = 8


def test_admin_login_shows_the_plots_rendered(page, server_url):
    open_app(page, server_url)
    ask_in_chat(page, "How do I return an item, and who pays for return shipping?")
    ask_in_chat(page, "How long is the warranty on electronics?")

    log_in(page, "Admin latency", AGENT_KEY)  # agents may not see the latency panel
    page.get_by_text("That is not an admin key.").wait_for()
    assert not page.locator("#sd-admin-content").is_visible()

    log_in(page, "Admin latency", ADMIN_KEY)
    content = page.locator("#sd-admin-content")
    content.wait_for()
    plots = content.locator(".sd-plot")
    assert plots.count() == NUM_PLOTS
    for i in range(NUM_PLOTS):  # Vega draws each plot as an SVG with marks
        plots.nth(i).locator(".vega-embed svg.marks").wait_for()
    labels = content.inner_text()
    for label in ("TTFT, TPOT and end-to-end p50/p95", "Throughput", "Running and waiting requests", "KV-cache usage",
                  "Prefix-cache hit rate", "SoT against direct", "Guard firings", "Slowest requests"):
        assert label in labels
    bars = plots.nth(0).locator(".vega-embed").get_attribute("aria-label") or ""
    assert "visualization" in bars.lower()
    slowest = content.locator("#sd-admin-slowest")
    assert "sot" in slowest.inner_text() and "direct" in slowest.inner_text()


def test_admin_panel_refreshes_itself(page, server_url):
    open_app(page, server_url)
    log_in(page, "Admin latency", ADMIN_KEY)
    summary = page.locator("#sd-admin-summary")
    summary.get_by_text("answers").first.wait_for()

    def num_answers() -> int:
        return int(re.search(r"answers\s+(\d+)", summary.inner_text()).group(1))

    before = num_answers()
    open_tab(page, "Customer chat")
    ask_in_chat(page, "I want to talk to a human agent.")
    open_tab(page, "Admin latency")
    page.wait_for_function(
        "([before]) => { const m = document.querySelector('#sd-admin-summary').innerText.match(/answers\\s+(\\d+)/);"
        " return m && Number(m[1]) > before; }", arg=[before], timeout=20_000)  # the 5 s timer, no click
    assert num_answers() > before
