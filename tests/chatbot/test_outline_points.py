"""The outline's points: the sections each message's points come from, against the eval set's labels."""
from __future__ import annotations

import pytest

from chatbot.evaluation import point_precision_and_recall, point_scores
from chatbot.outline_points import (answers_each_question, how_to_section, points_phrased, sections_asked,
                                     select_points)
from chatbot.router import RuleRouter
from tests.chatbot.routing import point_ids


def _points_against_expected(kb, eval_questions):
    """(point precision, section recall) of the planner's points over the eval set's multi-point questions, as
    `supportdesk eval` scores them."""
    return point_precision_and_recall([
        point_scores(point_ids(kb, q["question"]), q["expected_sections"])
        for q in eval_questions if q["kind"] == "multi"])


@pytest.mark.parametrize("question", [
    "I ordered a sofa yesterday and need to change the address",
    "My order shipped to the wrong address. Can I change it, and what if it's already delivered?"])
def test_changing_an_address_is_not_adding_items(kb, question):
    """"change order" was a keyword of adding items ("Items cannot be added to an order…"), a point of both."""
    assert "orders.adding-items" not in point_ids(kb, question)


def test_a_polite_return_question_outlines_the_return_process(kb):
    """The story and the courtesy around it ("from your store", "Thank you so much for your time", "possible")
    outlined the refund method, the store credit and the bank's time, without the return process."""
    ids = point_ids(kb, (
        "Hello, I hope you're doing well. I recently purchased a lamp from your store and unfortunately it does not "
        "match my decor. I was wondering if it would be possible to return it, and if so, what the process would be. "
        "Thank you so much for your time."))
    assert ids[0] == "returns.process" and not {"refunds.store-credit", "refunds.bank-processing"} & set(ids), ids


@pytest.mark.parametrize("question, products", [
    ("How long is the TV warranty and what does it cover?", ["warranty.electronics"]),  # and the furniture's
    ("Is there a physical store? How long is the warranty on a TV?", ["warranty.electronics"]),
    ("How long is the warranty on a coffee maker and what does it cover?", ["warranty.electronics"]),  # an appliance
    ("保修多久？怎么申请？", ["warranty.electronics", "warranty.furniture"]),  # an overview: both lead
    ("What's the warranty on TVs and sofas?", ["warranty.electronics", "warranty.furniture"]),
    # The TV of the story outscores the furniture (9.5 against 5.6): it had the furniture's frames (sweep 78).
    ("I'd like to buy a TV but I'm worried about the warranty. How long is it and can I extend it?",
     ["warranty.electronics"])])
def test_a_question_for_one_product_s_warranty_keeps_to_it(kb, question, products):
    ids = point_ids(kb, question)
    assert sorted(i for i in ids if i in ("warranty.electronics", "warranty.furniture")) == products, ids


def test_a_product_s_name_brings_no_warranty_into_another_category_s_outline(kb):
    """"headphones" and "speaker" are the electronics' keywords: an exchange question had its warranty as a point."""
    ids = point_ids(kb, (
        "My husband bought me headphones for my birthday but I already have a pair. Can I exchange them for a "
        "speaker instead, or do I have to return them and buy the speaker separately?"))
    assert ids[0] == "returns.exchanges" and "warranty.electronics" not in ids


@pytest.mark.parametrize("question, wanted", [
    ("Can I add an item to my order or change the delivery address?", ["orders.adding-items", "orders.address-change"]),
    ("Can I cancel my order or change the address?", ["orders.cancellation", "orders.address-change"]),
    ("Can I change my email or reset my password?", ["account.email-change", "account.password-reset"])])
def test_each_action_an_or_joins_gets_its_point(kb, question, wanted):
    """"or" before a second action asked nothing of its own: the second action had no point (2026-12-03); the points
    come in the order asked (stop 44)."""
    ids = point_ids(kb, question)
    assert ids[:2] == wanted, ids


def test_a_parcel_crushed_with_the_product_broken_outlines_the_damaged_parcels_too(kb):
    """"arrived crushed" found no phrase of the damaged parcels, which then stayed out of the outline beside the
    early defects' "is broken" (2026-12-03)."""
    ids = point_ids(kb, "The box arrived crushed and the vase inside is broken")
    assert set(ids) == {"shipping.lost-damaged", "warranty.early-defects"}, ids


@pytest.mark.parametrize("question, wanted", [
    ("How long is the return window during the holidays and how do I start a return?", "returns.holiday-season"),
    ("能用PayPal吗？可以用优惠码吗？", "payment.methods")])
def test_a_phrase_brings_in_the_section_a_question_found_second(kb, question, wanted):
    """Each question found its own section, and those were the whole outline: the 30-day window and the process,
    the promo codes alone ("能用PayPal吗？" scored 9.1 against its bar of 10); their phrases now name the holiday
    season and the payment methods (sweep 81)."""
    assert wanted in point_ids(kb, question)


@pytest.mark.parametrize("question, wanted", [
    ("I bought a TV 20 days ago and it already stopped working. Can I return it or do I need a warranty claim?",
     "warranty.early-defects"),  # the claim, the TV's term and the plan: no word of a defect in the window
    ("Hi, I'd like to know how long I have to return a rug and whether I can get store credit instead of a refund.",
     "returns.time-limit")])  # the store credit, the refund method and timing: the window scored 1.21x the next
def test_sweep_86_messages_outline_what_they_ask(kb, question, wanted):
    assert wanted in point_ids(kb, question)


def test_a_charge_twice_with_its_amount_leads_with_the_double_charge(kb):
    """"charged $120 twice" is no "charged twice": the refund timing led ("money back"), no double charge (sweep 78)."""
    ids = point_ids(kb, (
        "Good morning. I was charged $120 twice for one order. Can you help me understand why and when I'll get the "
        "money back?"))
    assert ids[0] == "payment.double-charge", ids


@pytest.mark.parametrize("question, wanted, unwanted", [
    ("I lost my phone and can't get my 2FA code", ["account.two-factor"], "payment.promo-codes"),  # "code"
    ("被扣了两次钱，订单还没发货，怎么回事？", ["payment.double-charge", "payment.charge-timing"], "shipping.lost-damaged"),
    ("Can I split my payment for a $1,200 sofa?", ["payment.installments"], "warranty.furniture")])  # "sofa"
def test_another_category_s_hit_without_a_phrase_stays_out_where_the_best_has_one(kb, question, wanted, unwanted):
    ids = point_ids(kb, question)
    assert ids[:len(wanted)] == wanted and unwanted not in ids, ids


def test_points_keep_to_the_question(kb, eval_questions):
    """Measured on the 40 multi-point questions: 74.1% of the points answer the question and 93.5% of the
    expected sections are points (without `sections_asked` 73.7% and 91.3%: it finds the second category's
    section of "Who pays for return shipping? And how long until I get my refund?"). On the 36 questions
    before the four that span two categories: 77.5% and 94.0% (without it 77.2% and 92.9%). The rule before
    `select_points` (one point per thing asked, padded with the next hits whatever their category) had 65%
    and 88% there. On the 58 of stop 39 (2026-12-03): 90.6% and 95.7%, 91.4% and 95.5% without the four; in stop 40
    90.0% and 95.7%, 90.7% and 95.5% (zh-multi-18 gains the coverage: a defect whose claim was found by a word);
    in stop 41 92.5% and 95.7%, 92.0% and 95.5% (zh-multi-19 and en-multi-05 keep to their two questions'
    sections)."""
    precision, recall = _points_against_expected(kb, eval_questions)
    assert precision >= 0.92 and recall >= 0.95, (precision, recall)
    one_category = [q for q in eval_questions if not q["id"].endswith(("-multi-19", "-multi-20"))]
    precision, recall = _points_against_expected(kb, one_category)
    assert precision >= 0.915 and recall >= 0.95, (precision, recall)
    assert len(select_points(kb.search("return refund shipping warranty payment", "en", k=8))) <= 4


@pytest.mark.parametrize("question, wanted", [
    ("Who pays for return shipping? How long until I get my refund?", {"returns.shipping-fees", "refunds.timing"}),
    ("退货运费谁出？多久退款？", {"returns.shipping-fees", "refunds.timing"}),
    ("Do you ship to other countries? Which payment methods do you accept?",
     {"shipping.international", "payment.methods"}),
    ("可以寄到国外吗？你们接受哪些付款方式？", {"shipping.international", "payment.methods"}),
    ("How long is the warranty on electronics? Can I cancel my order?",
     {"warranty.electronics", "orders.cancellation"}),
    ("电子产品保修多久？订单可以取消吗？", {"warranty.electronics", "orders.cancellation"}),
    ("How long does standard shipping take? How many days do I have to return something?",
     {"shipping.standard", "returns.time-limit"}),
    ("标准配送要几天？退货期限是多久？", {"shipping.standard", "returns.time-limit"}),
    ("Can I pay with PayPal? How do I reset my password?", {"payment.methods", "account.password-reset"}),
    ("可以用PayPal付款吗？怎么重置密码？", {"payment.methods", "account.password-reset"}),
    ("Who pays customs? And can I pay with PayPal?", {"shipping.international", "payment.methods"}),
    # A product named in the question is a warranty's word: the electronics' warranty, not the return window.
    ("How long do I have to return a TV, and is there a fee if I opened it?",
     {"returns.time-limit", "returns.restocking-fee"}),
    # Who pays to ship it back: the return fees by 1.16x over the refund of shipping charges, under the margin.
    ("I ordered a desk last week and it arrived with a scratch. Can I get a replacement, and do I have to pay for "
     "shipping it back?", {"shipping.lost-damaged", "returns.shipping-fees"}),
    # "需要自己付运费吗？" after "我想退货" found standard shipping ("运费") for its own question.
    ("我想退货，需要自己付运费吗？多久能退款？", {"returns.shipping-fees", "refunds.timing"}),
])
def test_each_question_of_another_category_gets_its_section(kb, question, wanted):
    """Two questions in one message, each answered by a section of its own category: the second category's
    section used to fall under the other-category bar (9 of these 10 lost it)."""
    assert wanted <= set(point_ids(kb, question))


@pytest.mark.parametrize("question, points", [
    ("Who pays for return shipping? And how long until I get my refund?", ["returns.shipping-fees", "refunds.timing"]),
    ("How long is the TV warranty and what does it cover?", ["warranty.electronics", "warranty.coverage"]),
    ("你们支持哪些付款方式？$400的订单可以分期付款吗？", ["payment.methods", "payment.installments"]),
    ("When will my refund arrive? Will it go back to my PayPal?", ["refunds.timing", "refunds.method"]),  # "arrive":
    # the lost parcels for the first question alone, so the refund's shipping charges padded the outline
    ("我20分钟前下了单，地址写错了，还漏买了一件东西。能取消或改地址吗？能加商品吗？",
     ["orders.cancellation", "orders.address-change", "orders.adding-items"])])
def test_a_section_for_each_question_is_the_whole_outline(kb, question, points):
    """Each had a third point of the best hit's category that no question asked: the 30-day window, the warranty
    claim, the refund method (stop 39: point precision 86.5% -> 90.6% on the eval, section recall 95.7% as before).
    The points come in the order asked (stop 44: in score order, the coverage led the TV's term)."""
    assert point_ids(kb, question) == points


@pytest.mark.parametrize("question, points", [
    ("I want to return a lamp. How do I do it and when do I get my money?", {"returns.process", "refunds.timing"}),
    ("我想退货，怎么操作？退款多久到账？", {"returns.process", "refunds.bank-processing"})])
def test_how_to_do_what_the_message_wants_is_its_how_to_section(kb, question, points):
    """"How do I do it" names nothing, so the refund timing was the whole outline; it asks how to return."""
    assert set(point_ids(kb, question)) == points


@pytest.mark.parametrize("question, points", [
    ("退款是退到原支付方式吗？要几天？", ["refunds.method", "refunds.timing"]),  # the refund method alone
    ("Will my refund go to my card? How long?", ["refunds.method", "refunds.timing"]),  # and the bank's time
    ("换货要付运费吗？换货需要多久？", ["returns.shipping-fees", "returns.exchanges"]),  # standard and express first
    ("We'd like to return the headphones. How do we return them and how will we get the money back? Will it go "
     "back on the gift card?", ["returns.process", "refunds.timing", "refunds.method"])])  # no return process
def test_sweep_91_messages_outline_what_they_ask(kb, question, points):
    """"要几天？" beside a refund's question asks for the refund timing (`_HOW_LONG_SECTIONS`); "换货运费" and
    "换货要多久" are phrases of the return fees and the exchanges ("运费" found the standard shipping)."""
    assert point_ids(kb, question) == points


@pytest.mark.parametrize("question, points", [
    ("退货的话运费谁出 多久能退款", ["returns.shipping-fees", "refunds.timing"]),
    ("下单能用apple pay吗 加急几天到", ["payment.methods", "shipping.express"]),
    ("耳机进水了保修吗 能不能买延保", ["warranty.coverage", "warranty.protection-plan"]),
    ("仓库已经签收我的退货了 多久退款 银行那边又要多久", ["refunds.timing", "refunds.bank-processing"])])
def test_questions_parted_by_spaces_each_get_their_section(kb, question, points):
    """Each was answered from its first question's section alone (stop 42's sweep of Chinese chat)."""
    assert point_ids(kb, question) == points


@pytest.mark.parametrize("question, points", [
    ("How long do I have to return a lamp, who pays the return shipping, and when do I get my money?",
     ["returns.time-limit", "returns.shipping-fees", "refunds.timing"]),  # the fees first
    ("Can I pay with Klarna and is shipping free over $50?", ["payment.installments", "shipping.standard"]),
    ("我想退货，运费谁出？钱退到哪里？多久到账？", ["returns.shipping-fees", "refunds.method", "refunds.bank-processing"]),
    # phrases: each question's own section was missing (the standard shipping, the store credit, the charge's timing)
    ("Can I exchange shoes for another size, and who pays shipping on the exchange?",
     ["returns.exchanges", "returns.shipping-fees"]),
    ("Can I cancel my order placed 3 hours ago, and if it's shipped what are my options?",
     ["orders.cancellation", "orders.after-shipment"]),
    ("When does an order placed at 3 pm ship and how much is express", ["shipping.dispatch", "shipping.express"]),
    ("退款什么时候发出？银行处理要几天？", ["refunds.timing", "refunds.bank-processing"])])
def test_the_points_of_separate_questions_come_in_the_order_asked(kb, question, points):
    """Stop 44's sweep of questions asked together: 30 of 83 outlines led with a later question's section."""
    assert point_ids(kb, question) == points


def test_when_the_money_comes_out_is_the_charge_timing(kb):
    """It had the account lockout first ("account") and no charge timing (stop 42's sweep); in the order asked, the
    phrase "come out of my account" asks for it in the first question (stop 44)."""
    points = point_ids(
        kb, "When exactly does the money come out of my account, when I order or when it ships?")
    assert points[0] == "payment.charge-timing"


def test_when_it_arrives_beside_when_it_ships_is_the_standard_shipping(kb):
    """"几号能到" (which day will it arrive) got the tracking number (stop 42's sweep)."""
    points = point_ids(kb, "我周五晚上下的单，什么时候发货，大概几号能到？")
    assert points == ["shipping.dispatch", "shipping.standard"]


def test_when_the_card_is_charged_is_a_point_of_its_own(kb):
    """"When will I be charged" was no phrase of the charge timing: the outline had the price adjustment and the
    double charge (stop 41's weak spot)."""
    points = point_ids(
        kb, "When will I be charged, and can I get a price adjustment if the price drops?")
    assert {"payment.charge-timing", "payment.price-adjustment"} <= set(points)


def test_how_to_section_of_what_the_message_tells(kb):
    assert how_to_section(kb, "I want to return a lamp. How do I do it?", "en") == "returns.process"
    assert how_to_section(kb, "我想申请保修，怎么申请？", "zh") == "warranty.claims"
    assert how_to_section(kb, "I want to change my email address. How do I do that?", "en") == "account.email-change"
    assert how_to_section(kb, "How do I return a lamp?", "en") is None  # it names what it asks
    assert how_to_section(kb, "I love lamps. How do I do it?", "en") is None  # what it tells names no policy
    route = RuleRouter(kb).route("I want to return a lamp. How do I do it?")  # one question: it leads (the window)
    assert (route.mode, route.hits[0].section.id) == ("direct", "returns.process")


def _answers_each(kb, message: str, lang: str) -> bool:
    return answers_each_question(message, sections_asked(kb, message, lang))  # as the planner asks


def test_an_overview_or_an_uncovered_question_keeps_the_other_hits(kb):
    assert not _answers_each(kb, "What's your return policy? Also, how long do refunds take?", "en")
    assert not _answers_each(kb, "Can I pick up in store, or how much is shipping?", "en")
    assert not _answers_each(kb, "How long do I have to return a lamp?", "en")  # one question
    # Each question finds its own section ("多久能到账" is the bank's phrase since stop 42; the two found one before,
    # and the other hits kept the bank's processing time in the outline, as they still do where that happens).
    assert _answers_each(kb, "退货寄回去以后什么时候给我退款？钱多久能到账？", "zh")
    assert _answers_each(kb, "Who pays for return shipping? And how long until I get my refund?", "en")


def test_sections_asked_needs_separate_questions_with_a_clear_best(kb):
    assert sections_asked(kb, "If I return a lamp, who pays for return shipping?", "en") == {}  # one question
    # Asking clauses are questions, with or without their own question mark ("and how long ..." too).
    assert sections_asked(kb, "How long do I have to return a lamp, and who pays for return shipping?", "en") == {
        "returns.time-limit": 0, "returns.shipping-fees": 1}  # the window by its phrase (no clear best before 12-02)
    assert "refunds.timing" in sections_asked(kb, "How do I return an item and how long until I get my refund?", "en")
    # A best section of the second-best's category counts (the refund timing over the bank's time, under the
    # margin); a question for an overview has none.
    assert "refunds.timing" in sections_asked(
        kb, "If I return an opened laptop, is there a fee, and how long will the refund take?", "en")
    assert sections_asked(kb, "退货政策是什么？退款要多久？", "zh").keys() == {"returns.time-limit", "refunds.timing"}
    assert sections_asked(kb, "买完还能买延保吗？多少钱？", "zh").keys() == {"warranty.protection-plan"}  # not shipping's
    assert "shipping.standard" not in sections_asked(kb, "我用PayPal付的款，退货以后钱退到哪里？多久能到？", "zh")  # "能到"
    assert sections_asked(kb, "退款多久、退到哪、运费退不退？", "zh").keys() >= {"refunds.timing", "refunds.method"}
    # A question for a category's overview among others asks for its lead section (it asked for none).
    assert sections_asked(kb, "I bought a couch for $800. Can I pay with Klarna, and if I return it later, how does "
                              "the refund work?", "en").keys() == {"payment.installments", "refunds.timing"}
    assert sections_asked(kb, "Hi? Hello? Hey? What? Why?", "en") == {}  # five questions: more than the points
    assert sections_asked(kb, "What's the weather? Who won the game?", "en") == {}  # below the in-scope bar
    assert sections_asked(kb, "Can I pay with PayPal? How do I reset my password?", "en") == {
        "payment.methods": 0, "account.password-reset": 1}


def test_select_points_in_rank_order_with_the_category_rule(kb):
    hits = kb.search("How long do I have to return a lamp, and who pays for return shipping?", "en", k=8)
    chosen = select_points(hits)
    assert chosen[0] == hits[0] and chosen == sorted(chosen, key=hits.index)
    # A section of another category among the top three ("pays" matched "Apple Pay" before the payment section
    # had more keywords; now "long" finds the order cancellation), well below the best hit: not a point.
    assert {h.section.category for h in hits[:3]} != {"returns"}
    ids = [h.section.id for h in chosen]
    assert ids[:2] == ["returns.time-limit", "returns.shipping-fees"]  # "how long do I have to return": the window
    assert {h.section.category for h in chosen} == {"returns"}
    assert select_points([]) == []


def test_points_phrased_leaves_out_what_only_a_how_long_question_names(kb):
    """"多久能到？" beside a refund asks how long the refund takes: standard shipping's phrase "多久能到" names no point
    there, while a shipping question's "多久能到" and the message's other phrases still do."""
    assert "shipping.standard" in kb.phrase_sections("退款如何申请？多久能到？", "zh")
    assert "shipping.standard" not in points_phrased(kb, "退款如何申请？多久能到？", "zh")
    assert "shipping.standard" in points_phrased(kb, "订单什么时候发货？多久能到？", "zh")
    assert points_phrased(kb, "Where is my order?", "en") == kb.phrase_sections("Where is my order?", "en")
