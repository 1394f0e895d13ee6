"""Save the README's screenshots of the three tabs: docs/ui-chat.png, docs/ui-agent.png, docs/ui-admin.png.

    python -m tests.ui.make_screenshots           # the real default model (Gemma 3 270M, ~1 min)
    python -m tests.ui.make_screenshots --tiny    # a tiny random-weight model (answers are KB text)

Installs Debian's chromium, and a small CJK font so Chinese text is legible, when they are missing."""
from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path

from tests.ui import harness
from tests.ui.pages import ask_in_chat, fill, log_in, open_app, open_tab

DOCS = Path(__file__).resolve().parents[2] / "docs"
CJK_FONT_PACKAGE, CJK_FONT = "fonts-wqy-microhei", "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
MAX_PNG_BYTES = 300_000
QUESTIONS = ["How do I return an item, and who pays for return shipping?", "How long is the warranty on electronics?",
             "I want to talk to a human agent.", "退货运费谁来付？退款多久到账？"]


def ensure_cjk_font() -> None:
    if not os.path.exists(CJK_FONT):
        subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", CJK_FONT_PACKAGE], check=True,
                       capture_output=True, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def save_small_png(page, path: Path) -> None:
    """A full-page screenshot, palette-quantized (256 colours) to stay well under MAX_PNG_BYTES."""
    from PIL import Image

    page.screenshot(path=str(path), full_page=True)
    Image.open(path).convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    size = path.stat().st_size
    print(f"{path}: {size / 1000:.0f} KB")
    assert size < MAX_PNG_BYTES, f"{path} is {size} bytes"


def take_screenshots(url: str) -> None:
    from playwright.sync_api import sync_playwright

    DOCS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = harness.launch_browser(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(180_000)
        open_app(page, url)
        for question in QUESTIONS[1:]:  # data for the admin panel, in a page of its own
            ask_in_chat(page, question, timeout_ms=180_000)
        open_app(page, url)  # a fresh session: the chat shows one English question
        ask_in_chat(page, QUESTIONS[0], timeout_ms=180_000)
        save_small_png(page, DOCS / "ui-chat.png")

        log_in(page, "Agent desk", harness.AGENT_KEY)
        fill(page, "sd-agent-query", "return shipping fee")
        page.locator("#sd-agent-search").click()
        page.locator("#sd-agent-hits").get_by_text("returns.shipping-fees").first.wait_for()
        fill(page, "sd-agent-question", "Can I return a used item, and is there a restocking fee?")
        page.locator("#sd-agent-ask").click()
        page.locator("#sd-agent-answer .sd-answer[data-state=done]").wait_for()
        page.locator("#sd-agent-details").get_by_text("timings_s").wait_for()
        save_small_png(page, DOCS / "ui-agent.png")

        log_in(page, "Admin latency", harness.ADMIN_KEY)
        plots = page.locator("#sd-admin-content .sd-plot")
        plots.first.wait_for()
        for i in range(plots.count()):
            plots.nth(i).locator(".vega-embed svg.marks").wait_for()
        time.sleep(1.0)  # let Vega finish laying out the legends
        open_tab(page, "Admin latency")
        save_small_png(page, DOCS / "ui-admin.png")
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny", action="store_true", help="use a tiny random-weight model instead of the real one")
    args = parser.parse_args()
    harness.ensure_chromium()
    ensure_cjk_font()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        if args.tiny:
            from tests.tiny_models import write_tiny_checkpoint

            service = harness.tiny_service(write_tiny_checkpoint("gemma3", Path(tmp) / "tiny"), Path(tmp) / "cache")
        else:
            service = harness.real_service()
        with harness.serve(service, startup_timeout_s=600) as url:
            take_screenshots(url)
    print(f"screenshots saved in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
