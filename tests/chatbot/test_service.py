"""ChatService over a real engine (tiny random-weight Gemma 3) and a real SQLite store."""
from __future__ import annotations

import asyncio

import pytest

from chatbot.guard import InputRejected
from chatbot.service import (AnswerDone, ChatError, NotReady, OutlineReady, Overloaded, PointDelta, PointDone,
                             ServiceConfig)
from chatbot.store import Store
from tests.chatbot.service_fixtures import ADMIN_KEY, AGENT_KEY, make_service

MULTI_POINT_QUESTION = "I want to return a lamp: how long do I have, and who pays for the return shipping?"


@pytest.fixture(scope="module")
def service(tiny_checkpoints, tmp_path_factory):
    root = tmp_path_factory.mktemp("service")
    store = Store(f"sqlite:///{root / 'store.db'}")
    service = make_service(tiny_checkpoints["gemma3"], root, store)
    asyncio.run(service.start())
    yield service
    service.close()


async def _events(service, question, conversation_id=None) -> list:
    return [event async for event in service.answer(question, conversation_id)]


def test_answer_streams_outline_then_points_then_answer(service):
    events = asyncio.run(_events(service, MULTI_POINT_QUESTION, "conv-1"))
    assert isinstance(events[0], OutlineReady) and events[0].mode == "sot" and len(events[0].points) >= 2
    done = [e for e in events if isinstance(e, PointDone)]
    assert sorted(e.index for e in done) == list(range(len(events[0].points)))
    assert all(isinstance(e, (PointDelta, PointDone)) for e in events[1:-1])
    answer = events[-1].answer
    assert isinstance(events[-1], AnswerDone) and answer.conversation_id == "conv-1" and answer.request_id
    assert answer.sources == events[0].sources and answer.outline == events[0].points
    assert answer.timings["total_s"] > 0 and answer.usage["completion_tokens"] > 0
    assert service._num_in_flight == 0


def test_answers_are_stored_masked_and_reported(service):
    question = "Can I return a lamp? My card is 4111 1111 1111 1111 and my e-mail is jo@example.com"
    answer = asyncio.run(_events(service, question, "conv-pii"))[-1].answer
    service.store.flush()
    messages = service.conversation("conv-pii")
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert "4111" not in messages[0]["text"] and "jo@example.com" not in messages[0]["text"]
    assert "[card]" in messages[0]["text"] and "[email]" in messages[0]["text"]
    assert messages[1]["text"] == answer.answer and messages[1]["sources"] == answer.sources
    report = service.latency_report(3600)
    assert report.num_answers >= 1 and report.total_s["p50"] > 0
    assert answer.request_id in {row["request_id"] for row in report.series} | {r["request_id"] for r in report.slowest}
    assert answer.mode in report.by_mode
    assert service.conversation("no-such-conversation") is None


def test_bad_questions_are_rejected_before_any_work(service):
    for bad in ("", "   ", "x" * 5000, "bad\x00byte"):
        with pytest.raises(InputRejected):
            service.answer(bad)
    assert service._num_in_flight == 0


def test_admission_is_bounded_and_slots_are_released(tiny_checkpoints, tmp_path):
    service = make_service(tiny_checkpoints["gemma3"], tmp_path, config=ServiceConfig(max_concurrent_answers=1))
    try:
        with pytest.raises(NotReady):
            service.answer("hello")
        asyncio.run(service.start())
        held = service.answer(MULTI_POINT_QUESTION)
        with pytest.raises(Overloaded) as info:
            service.answer(MULTI_POINT_QUESTION)
        assert info.value.retry_after_s > 0
        asyncio.run(held.aclose())  # never iterated: the slot still comes back
        events = asyncio.run(_events(service, MULTI_POINT_QUESTION))
        assert isinstance(events[-1], AnswerDone)
        asyncio.run(service.drain(timeout_s=1))
        assert not service.is_ready
        with pytest.raises(NotReady):
            service.answer("hello")
    finally:
        service.close()


def test_engine_failure_is_an_error_event_not_a_hang(tiny_checkpoints, tmp_path):
    service = make_service(tiny_checkpoints["gemma3"], tmp_path)
    asyncio.run(service.start())
    stream = service.answer(MULTI_POINT_QUESTION)
    service.llm.shutdown()
    events = asyncio.run(asyncio.wait_for(_collect(stream), timeout=30))
    assert isinstance(events[-1], (ChatError, AnswerDone))
    if isinstance(events[-1], ChatError):
        assert events[-1].code in ("engine", "internal")
    service.close()


async def _collect(stream) -> list:
    return [event async for event in stream]


def test_lookup_policy_finds_sections_in_both_languages(service):
    hits = service.lookup_policy("how many days do I have to return an item", "en", limit=3)
    assert hits and hits[0].id.startswith("returns.") and hits[0].lang == "en" and hits[0].text
    zh = service.lookup_policy("退货需要多少天")
    assert zh and zh[0].lang == "zh"
    with pytest.raises(ValueError):
        service.lookup_policy("returns", limit=0)
    with pytest.raises(ValueError):
        service.lookup_policy("returns", lang="fr")


def test_lookup_policy_puts_an_intent_s_sections_first(service):
    """An agent's "return policy" found the assistant's own section first (for "policies"), "shipping" the
    refund of shipping charges."""
    hits = service.lookup_policy("return policy", "en", limit=4)
    assert [h.id for h in hits] == ["returns.time-limit", "returns.condition", "returns.process", "returns.shipping-fees"]
    assert [h.id for h in service.lookup_policy("shipping", limit=2)] == ["shipping.dispatch", "shipping.standard"]
    assert [h.id for h in service.lookup_policy("my tv is broken", limit=2)] == ["warranty.early-defects",
                                                                                   "warranty.electronics"]
    # The chat's retrieval: a one-question message's phrase first (the lookup found the account lockout for
    # "sign", the uncovered topics' section for the receipt), typos read.
    assert service.lookup_policy("Will someone need to sign for the package?", limit=1)[0].id == "contact.scope"
    assert service.lookup_policy("I lost my receipt, can I still return the lamp?", limit=1)[0].id == "returns.time-limit"
    assert service.lookup_policy("can i retrun this", limit=1)[0].id == "returns.time-limit"
    # An agent's keywords: "delivery time" is standard shipping's phrase, "international delivery" longer.
    assert service.lookup_policy("international delivery time", limit=1)[0].id == "shipping.international"
    # 2026-12-02: 80 agents' keyword lookups (English and Chinese) find their sections; this one found the window.
    assert service.lookup_policy("holiday return window", limit=1)[0].id == "returns.holiday-season"
    # A forty-eighth sweep (58 lookups): these found the electronics' term, the refund timing, the return window.
    for query, section_id in (("warranty exclusions", "warranty.coverage"), ("保修处理时间", "warranty.claims"),
                              ("节假日退货截止", "returns.holiday-season")):
        assert service.lookup_policy(query, limit=1)[0].id == section_id, query


def test_roles_and_metrics(service):
    assert service.role_for_key(AGENT_KEY) == "agent" and service.role_for_key(ADMIN_KEY) == "admin"
    assert service.role_for_key("wrong") is None and service.role_for_key(None) is None
    user_key = service.store.add_user("dana", "admin")
    assert service.role_for_key(user_key) == "admin"
    asyncio.run(_events(service, MULTI_POINT_QUESTION))
    text = service.metrics.render().decode()
    for name in ("time_to_first_token_seconds_count", "inter_token_latency_seconds_count",
                 "request_queue_time_seconds_count", "kv_cache_usage_perc", "prefix_cache_hit_rate",
                 "num_requests_running", "num_requests_waiting", 'sot_stage_seconds_count{mode="sot",stage="outline"}'):
        assert f"supportdesk:{name}" in text, name


def test_stream_may_be_advanced_from_different_tasks(service):
    """UIs and servers step a stream from several tasks; the answer's context must not care."""

    async def main() -> list:
        stream, events = service.answer(MULTI_POINT_QUESTION), []
        while True:
            try:
                events.append(await asyncio.create_task(stream.__anext__()))
            except StopAsyncIteration:
                return events

    events = asyncio.run(main())
    assert isinstance(events[0], OutlineReady) and isinstance(events[-1], AnswerDone)
    assert service._num_in_flight == 0


def test_chats_work_while_the_database_is_down(tiny_checkpoints, tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'no-such-dir' / 'store.db'}")  # cannot be opened: the database is down
    service = make_service(tiny_checkpoints["gemma3"], tmp_path, store)
    try:
        asyncio.run(service.start())
        events = asyncio.run(_events(service, MULTI_POINT_QUESTION))
        assert isinstance(events[-1], AnswerDone) and events[-1].answer.answer
        store.flush()
        assert store.num_dropped_writes == 1
        assert "supportdesk:store_dropped_writes_total 1.0" in service.metrics.render().decode()
        assert service.latency_report(3600).num_answers == 1  # reported from memory meanwhile
    finally:
        service.close()
