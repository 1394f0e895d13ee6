"""Separate requests in different categories: each part's own section, in the order told (stop 46's sweep)."""
from __future__ import annotations

import pytest

from chatbot.pruning import prune_message
from chatbot.router import RuleRouter
from chatbot.separate_requests import points_asked, request_parts, separate_requests
from tests.chatbot.routing import point_ids


@pytest.mark.parametrize(("message", "sections"), [
    # each got the second request's category alone (the password reset and e-mail change; the lockout; the
    # installments and methods; the promo codes)
    ("The headboard arrived in pieces and I also need the password reset email resent because the old one expired.",
     ["shipping.lost-damaged", "account.password-reset"]),
    ("My account got locked after too many tries, and I also want to know if you ship to Canada.",
     ["account.lockout", "shipping.international"]),
    ("I ordered the wrong color of throw pillows. Can I cancel? Also I paid with a gift card, so where would the "
     "refund go?", ["orders.cancellation", "refunds.method"]),
    ("I want to send back the headphones I opened, is there a fee? And also can I use two discount codes on my next "
     "order?", ["returns.restocking-fee", "payment.promo-codes"]),
    # a broken product told keeps the defect's section, whatever its question asks ("Return or warranty?")
    ("The kettle stopped heating and I'm still within 30 days. Return or warranty? Also, my 2FA text messages aren't "
     "arriving.", ["warranty.early-defects", "account.two-factor"]),
    ("上周退的台灯到现在还没收到退款。另外我买的沙发降价了，能退差价吗？", ["refunds.bank-processing", "payment.price-adjustment"]),
    ("笔记本充电器买了三周就充不了电了，是退货还是走保修？另外加急配送要几天？", ["warranty.early-defects", "shipping.express"]),
    # the held-out sweep's "by the way" and 对了 (direct: the last question's section alone)
    ("Lost my phone so I can't get my SMS codes. By the way, is there a deadline to report a damaged delivery?",
     ["account.two-factor", "shipping.lost-damaged"]),
    ("包裹显示已签收但我没收到。对了，退款会退到原来的信用卡吗？", ["shipping.lost-damaged", "refunds.method"]),
    # a need told without a keyword phrase, naming its topic well (the refund's bank time alone)
    ("我的退款已经一周了还没到账。另外，我想改一下账户的邮箱。", ["refunds.bank-processing", "account.email-change"]),
    # "And" opening a sentence, 而且 a clause (stop 47: the double charge and promo codes; the return window; the
    # tracking and lost parcels; the cancellation alone)
    ("I ordered twice by accident, please cancel one. And my card shows two pending charges, will one drop off?",
     ["orders.cancellation", "payment.double-charge"]),
    ("How long is the warranty on a bed frame? And can I return the mattress topper if I've slept on it once?",
     ["warranty.furniture", "returns.condition"]),
    ("订单被扣了两次款，而且一直没收到发货邮件和快递单号，怎么回事？", ["payment.double-charge", "shipping.tracking"]),
    ("我想取消订单，而且我已经付了款，钱什么时候退？", ["orders.cancellation", "refunds.timing"]),
])
def test_each_request_is_a_point_in_the_order_told(kb, message, sections):
    route = RuleRouter(kb).route(message)
    assert (route.mode, route.reason) == ("sot", "requests")
    assert point_ids(kb, message)[:len(sections)] == sections


@pytest.mark.parametrize("message", [
    "My order still hasn't shipped, can I cancel it?",  # a story and its request: one part
    "I need to change the delivery address, the order hasn't shipped yet",
    "I got a lamp as a gift, will the refund go to me or to the person who bought it?",
    "I'd like to return a rug I don't love. Also, can I return the matching cushion?",  # one category
    "退货还有几天？",  # 还有 inside a clause is "still"
    # stop 46's sweep of one-request messages: a later part that tells circumstances, or asks of an earlier request
    # (each was split: the express shipping, the dispatch, the standard shipping, the two-factor, the return window)
    "Can I cancel my order? I placed it 20 minutes ago and also added express shipping to it.",
    "I need to change my delivery address, I moved last week. Plus the order hasn't shipped yet.",
    "Can I pay in installments with Klarna? Also, is there a minimum order amount for that?",
    "The warranty on my laptop - when does it start? Also, is it one year or two?",
    "下单20分钟了，能取消吗？顺便说一下，我选的是加急配送。",
    "上周买的电水壶烧不热了。另外这是我在你们这买的第二个，第一个没问题。应该退货还是走保修？",
    "我搬家了，需要改收货地址。另外订单还没发货。",  # an order's circumstances, though 没 tells a problem
    "卡已经扣款了吗？同时我在银行App上看到一笔待处理的款项，但订单还没发货。",
])
def test_one_request_or_one_category_is_no_separate_requests(kb, message):
    lang = "zh" if any("\u4e00" <= c <= "\u9fff" for c in message) else "en"
    assert separate_requests(kb, message, lang) == []
    assert RuleRouter(kb).route(message).reason != "requests"


def test_parts_split_at_joining_words_only():
    assert request_parts("The lamp broke, and also my 2FA codes fail") == ["The lamp broke, ", " my 2FA codes fail"]
    assert request_parts("订单还没到。另外我想改邮箱") == ["订单还没到。", "我想改邮箱"]
    assert request_parts("退货还有几天？") == ["退货还有几天？"]
    assert request_parts("Cancel it. And my card was charged twice") == ["Cancel it. ", " my card was charged twice"]
    assert request_parts("I want a refund and a new one") == ["I want a refund and a new one"]  # "and" mid-sentence
    assert request_parts("包裹晚了三天，而且外箱破了") == ["包裹晚了三天，", "外箱破了"]


def test_a_pasted_thread_makes_no_separate_requests(kb):
    thread = ("Hi. " + "I bought a rug last month and it is nice but the colour is darker than the photo. " * 9
              + "Also, how long do refunds take? Also, do you ship to Canada?")
    assert len(thread) > 700 and separate_requests(kb, thread, "en") == []


def test_points_asked_are_the_requests_the_router_found(kb):
    message = "My account got locked after too many tries, and I also want to know if you ship to Canada."
    route = RuleRouter(kb).route(message)
    assert route.requests == ("account.lockout", "shipping.international")
    pruned = prune_message(message)
    assert points_asked(kb, route.requests, pruned, "en") == ({"account.lockout": 0, "shipping.international": 1}, True)
    assert points_asked(kb, (), pruned, "en") == ({}, False)  # one question: none of its own


def test_the_router_reads_a_pruned_thread_as_the_planner_does(kb, eval_questions):
    """zh-multi-17, a pasted thread pruned to 711 characters, is 678 once its contact details are read out: the router
    found separate requests there ("…还有我老公…", "另外…") that the planner, reading the pruned text, did not."""
    row = next(r for r in eval_questions if r["id"] == "zh-multi-17")
    pruned = prune_message(row["question"])
    route = RuleRouter(kb).route(pruned.text, pruned.query)
    assert (route.reason, route.requests) == ("policy", ())
