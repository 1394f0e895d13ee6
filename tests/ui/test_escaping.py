"""Model and KB text is shown as text, never run as HTML: an answer that contains `<script>` (here from
a policy section the guard quotes) renders literally, and nothing in it executes."""
from __future__ import annotations

import pytest

from tests.ui import harness
from tests.ui.pages import ask_in_chat, fill, log_in, open_app

PAYLOAD = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"><b>bold</b>'


@pytest.fixture(scope="module")
def poisoned_url(tiny_checkpoints, tmp_path_factory):
    """The app over policies whose English returns sections end in an HTML payload (no mocks: the real
    planner and a tiny engine; the guard replaces the tiny model's text with the section's)."""
    kb_root = harness.poisoned_kb(tmp_path_factory.mktemp("kb") / "policies", PAYLOAD)
    service = harness.tiny_service(tiny_checkpoints["gemma3"], tmp_path_factory.mktemp("ui-cache"), kb_root)
    with harness.serve(service) as url:
        yield url


def _assert_inert(page, container: str) -> None:
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator(f"{container} script").count() == 0
    assert page.locator(f"{container} img").count() == 0
    assert page.locator(f"{container} b").count() == 0


def test_an_answer_that_contains_script_renders_as_text(page, poisoned_url):
    open_app(page, poisoned_url)
    answer = ask_in_chat(page, "How do I start a return?")
    assert PAYLOAD in answer.inner_text()  # visible, literally
    _assert_inert(page, "#sd-chat-transcript")


def test_agent_desk_shows_the_payload_as_text(page, poisoned_url):
    open_app(page, poisoned_url)
    log_in(page, "Agent desk", harness.AGENT_KEY)
    fill(page, "sd-agent-query", "start a return")
    page.locator("#sd-agent-search").click()
    hits = page.locator("#sd-agent-hits")
    hits.get_by_text("returns.process").wait_for()
    assert "<script>window.__pwned=1</script>" in hits.inner_text()
    _assert_inert(page, "#sd-agent-hits")

    fill(page, "sd-agent-question", "How do I start a return?")
    page.locator("#sd-agent-ask").click()
    answer = page.locator("#sd-agent-answer .sd-answer[data-state=done]")
    answer.wait_for()
    assert PAYLOAD in answer.inner_text()
    assert PAYLOAD in page.locator("#sd-agent-answer-text textarea").input_value()
    _assert_inert(page, "#sd-agent-content")
