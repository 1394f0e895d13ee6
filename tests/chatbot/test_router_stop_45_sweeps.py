"""Rule routing of stop 45's sweep messages (no model): each was routed or answered from a wrong section before."""
from __future__ import annotations

import pytest

from chatbot.router import RuleRouter


@pytest.mark.parametrize(("question", "mode", "section_id"), [
    # a story about an uncovered topic before a covered question (refused whole)
    ("Money's a bit tight this month because of car repairs. Can I split the payment into installments?",
     "direct", "payment.installments"),
    # food melted or wilted on its way, a parcel that "showed up" damaged (escalated, refused, the bank's time)
    ("The box of chocolates I ordered arrived completely melted", "direct", "shipping.lost-damaged"),
    ("The vase showed up broken", "direct", "shipping.lost-damaged"),
    ("鲜花送到的时候已经枯萎了", "direct", "shipping.lost-damaged"),
    ("The courier is showing delivered but I did not receive anything, kindly look into the matter",
     "direct", "shipping.lost-damaged"),
    ("您好，物流显示敝人的包裹已签收，但敝人并未收到，请问应如何处理？", "direct", "shipping.lost-damaged"),
    # words that name no topic where they stand (the two-factor authentication, the same-day dispatch)
    ("Can I return a lamp I bought two weeks ago?", "direct", "returns.time-limit"),
    ("I'm a teacher and ordered a bunch of classroom supplies yesterday afternoon. This morning I remembered we also "
     "need a whiteboard. The order hasn't shipped. Can I just add the whiteboard to the same order?",
     "sot", "orders.adding-items"),
])
def test_a_sweep_message_gets_its_route_and_section(kb, question, mode, section_id):
    route = RuleRouter(kb).route(question)
    assert route.mode == mode and route.hits[0].section.id == section_id


def test_a_story_about_an_uncovered_topic_keeps_an_uncovered_question_refused(kb):
    """The story's uncovered words still refuse a question about them: the bank's fee, a game's winner."""
    router = RuleRouter(kb)
    assert router.route("My bank charged a foreign transaction fee on my order. Will you refund it?").mode == "refuse"
    assert router.route("今天天气不错，和同事在争论足球。想问问你觉得今年世界杯谁会赢？").mode == "refuse"
