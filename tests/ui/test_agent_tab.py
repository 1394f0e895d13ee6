"""Agent desk in a real browser: key login, policy search, asking as a customer with outline, sources,
timings and tokens, and the answer text to copy."""
from __future__ import annotations

from tests.ui.harness import AGENT_KEY
from tests.ui.pages import fill, log_in, open_app


def test_agent_login_search_and_ask(page, server_url):
    open_app(page, server_url)
    log_in(page, "Agent desk", "not-a-key")
    page.get_by_text("That is not an agent key.").wait_for()
    assert not page.locator("#sd-agent-content").is_visible()

    log_in(page, "Agent desk", AGENT_KEY)
    content = page.locator("#sd-agent-content")
    content.wait_for()
    fill(page, "sd-agent-query", "return shipping fee")
    page.locator("#sd-agent-search").click()
    hits = page.locator("#sd-agent-hits")
    hits.get_by_text("returns.shipping-fees").wait_for()
    assert "$5.99 label fee" in hits.inner_text()

    fill(page, "sd-agent-question", "How do I return an item, and who pays for return shipping?")
    page.locator("#sd-agent-ask").click()
    page.locator("#sd-agent-answer .sd-answer[data-state=done]").wait_for()
    assert page.locator("#sd-agent-answer .sd-point-title").count() >= 2  # the outline
    details = page.locator("#sd-agent-details")
    details.get_by_text("timings_s").wait_for()
    for key in ("outline", "sources", "ttft_s", "total_s", "prompt_tokens", "completion_tokens", "returns."):
        assert key in details.inner_text(), key
    answer_text = page.locator("#sd-agent-answer-text textarea").input_value()
    assert answer_text.startswith("- ") and "Return shipping" in answer_text
    assert page.locator("#sd-agent-answer-text button[aria-label*=opy], #sd-agent-answer-text button[title*=opy]").count()

    page.get_by_role("button", name="Log out").first.click()
    page.locator("#sd-agent-content").wait_for(state="hidden")
