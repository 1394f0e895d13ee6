"""Customer chat in a real browser: outline first, then the points stream in together, then sources;
escalations show the phone number and chat hours; Chinese works."""
from __future__ import annotations

import asyncio
import concurrent.futures

import pytest

from tests.ui import harness
from tests.ui.pages import ask_in_chat, open_app
from ui.chat_tab import stream_view

MULTI_POINT_QUESTION = "How do I return an item, and who pays for return shipping?"


def _run(coroutine):
    """``coroutine`` run to its end on a thread of its own: Playwright's sync API keeps an event loop running on
    this one once a browser test has started."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.fixture(scope="module")
def service(tiny_checkpoints, tmp_path_factory):
    service = harness.tiny_service(tiny_checkpoints["gemma3"], tmp_path_factory.mktemp("stream-view"))
    _run(service.start())
    yield service
    service.close()


def test_stream_view_redraws_each_point_as_it_starts_so_the_points_show_streaming_together(service):
    async def point_states():
        return [list(view.point_states) async for view in stream_view(service, MULTI_POINT_QUESTION)]

    frames = _run(point_states())
    assert frames[0] == [] and len(frames[1]) >= 2 and set(frames[1]) == {"pending"}, frames[:2]
    for before, after in zip(frames[1:], frames[2:]):  # each point's start is a frame of its own
        started = [i for i, (a, b) in enumerate(zip(before, after)) if a == "pending" and b != "pending"]
        assert len(started) <= 1, (before, after)
    both_streaming = [i for i, states in enumerate(frames) if states.count("streaming") >= 2]
    first_done = next(i for i, states in enumerate(frames) if "done" in states)
    assert both_streaming and both_streaming[0] < first_done, frames
    assert set(frames[-1]) == {"done"}


def test_question_shows_the_outline_then_the_streamed_answer(page, server_url):
    open_app(page, server_url)
    answer, frames = ask_in_chat(page, MULTI_POINT_QUESTION, record=True)

    assert answer.get_attribute("data-mode") == "sot"
    outline_first = next(i for i, f in enumerate(frames) if f["num_titles"] >= 2)
    # The outline is on the page before any point has text: every point still pending.
    assert set(frames[outline_first]["point_states"]) == {"pending"}, frames[outline_first]
    assert frames[outline_first]["state"] == "streaming"
    # Then the points fill in concurrently: some frame shows two or more points streaming at once.
    concurrent = [i for i, f in enumerate(frames) if f["point_states"].count("streaming") >= 2]
    assert concurrent and concurrent[0] > outline_first, frames
    done = next(i for i, f in enumerate(frames) if f["state"] == "done")
    assert done > concurrent[0]
    # The finished answer cites its sources under it.
    assert answer.locator(".sd-point[data-state=done]").count() == frames[outline_first]["num_titles"]
    sources = answer.locator(".sd-source")
    assert sources.count() == frames[outline_first]["num_titles"]
    assert "returns." in sources.first.inner_text()
    assert "Return shipping" in answer.inner_text()


def test_escalation_shows_the_phone_number_and_chat_hours(page, server_url):
    open_app(page, server_url)
    answer = ask_in_chat(page, "I want to talk to a human agent.")
    assert answer.get_attribute("data-mode") == "escalate"
    text = answer.inner_text()
    assert "1-800-555-0199" in text and "8 a.m.–8 p.m. ET" in text, text
    assert answer.locator(".sd-escalate").is_visible()
    assert "contact.human-agents" in answer.locator(".sd-source").inner_text()


def test_chinese_question_is_answered_in_chinese_and_follow_ups_keep_the_conversation(page, server_url):
    open_app(page, server_url)
    first = ask_in_chat(page, "退货运费谁来付？退款多久到账？")
    text = first.inner_text()
    assert "来源" in text and "要点" in text, text
    assert first.locator(".sd-source").count() >= 2
    ask_in_chat(page, "保修期多长？")
    turns = page.locator("#sd-chat-transcript .sd-turn")
    assert turns.count() == 2 and "退货运费谁来付" in turns.first.inner_text()


def test_a_follow_up_is_answered_on_the_previous_questions_topic(page, server_url):
    open_app(page, server_url)
    ask_in_chat(page, "Do you offer express shipping?")
    follow_up = ask_in_chat(page, "How much does it cost?")  # alone: standard shipping
    assert "shipping.express" in follow_up.locator(".sd-source").inner_text()
