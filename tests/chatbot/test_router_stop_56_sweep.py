"""Stop 56's sweep (a customer named by number, the police threatened, the choices a question offers, a fee asked
of installments): the messages the rule router answered from the wrong section, refused or outlined with padding,
each from its own section now, and the neighbours that must not move (no model)."""
from __future__ import annotations

import pytest

from chatbot.router import RuleRouter
from tests.chatbot.routing import answered_from, mode_and_reason, point_ids


@pytest.mark.parametrize(("question", "section_id"), [
    # an opened product returned: the restocking fee (the return label's fee)
    ("Is there a fee to return an opened TV?", "returns.restocking-fee"),
    ("What does it cost to return an opened laptop?", "returns.restocking-fee"),
    ("How much will I get back if I return an opened TV that cost $500?", "returns.restocking-fee"),
    ("Can I return opened headphones?", "returns.restocking-fee"),  # as before
    # paying to send back a product that came broken: the return shipping fees (the original shipping charges)
    ("My lamp arrived broken, do I have to pay for shipping back?", "returns.shipping-fees"),
    ("My lamp arrived broken, who pays the return shipping?", "returns.shipping-fees"),  # as before
    # a cancellation told with its reason: the cancellation (the exchanges, for "wrong color")
    ("I need to cancel, I ordered the wrong color", "orders.cancellation"),
    ("I want to cancel, I ordered the wrong size", "orders.cancellation"),
    ("I ordered the wrong color, can I exchange it?", "returns.exchanges"),  # as before
    # a police report of a theft is the lost parcels'
    ("My package was stolen, I'm going to call the police", "shipping.lost-damaged"),
    ("包裹被偷了，我要报警吗？", "shipping.lost-damaged"),
    ("When do you charge my card, at checkout or when it ships?", "payment.charge-timing"),
    # a refund short by the restocking fee's 15%: the restocking fee (the refund timing, the return window)
    ("Why did I only get 85% of my money back for the headphones?", "returns.restocking-fee"),
    ("You kept 15% of my refund, why?", "returns.restocking-fee"),
    ("耳机只退了85%的钱，怎么回事？", "returns.restocking-fee"), ("为什么退款扣了15%？", "returns.restocking-fee"),
    # a parcel that was due: the lost parcels (refused); a refund that was due stays the refund's
    ("My package was supposed to come yesterday", "shipping.lost-damaged"),
    ("It was supposed to come Monday", "shipping.lost-damaged"),
    ("When is my refund supposed to come?", "refunds.timing"),
    ("My refund was supposed to come last week", "refunds.timing"),
    # the store credit stays the store credit's, though the shop's own stores are refused
    ("Where is my store credit?", "refunds.store-credit"),
    ("Can I use store credit at your stores?", "refunds.store-credit"),
    # chat shorthand and formal phrasing: the process ("how 2 return": the return window), a wrong order (the address
    # change; an address named keeps it), the original shipping refunded for a defect (the early defects)
    ("how 2 return", "returns.process"), ("my order is wrong", "returns.shipping-fees"),
    ("my order is wrong, the address is wrong", "orders.address-change"),
    ("Is it possible for me to get reimbursed for the shipping if the product was defective?",
     "refunds.shipping-charges"),
    # a parcel taken from the porch: the lost parcels (refused); an account cancelled: the deletion (the order's)
    ("Someone stole my package from the porch", "shipping.lost-damaged"),
    ("I think my neighbor took my package", "shipping.lost-damaged"),
    ("Cancel my account immediately", "account.deletion"), ("Can I cancel my order?", "orders.cancellation"),
    ("取消我的账户", "account.deletion"), ("取消订单", "orders.cancellation"),  # as in English
    ("我只想要退款", "refunds.timing"),  # the cancellation ("想要" of "不想要了")
    # a customer's own number told is no other customer's
    ("My customer number is 4412, where is my order?", "shipping.tracking"),
    ("I'm customer 4412, can I change my address?", "orders.address-change"),
    ("What's the status of order 4412?", "shipping.tracking"),
])
def test_messages_are_answered_from_their_sections(kb, question, section_id):
    assert answered_from(kb, question) == section_id


@pytest.mark.parametrize(("previous", "question", "section_id"), [
    ("My lamp arrived broken", "do I have to pay for shipping back", "returns.shipping-fees"),
    ("分期付款", "要手续费吗", "payment.installments"),
    # how long, after a return: the return window, as in English (the process; "多长时间" the refund timing)
    ("我想退货", "多久？", "returns.time-limit"), ("我想退货", "要几天？", "returns.time-limit"),
    ("我想退货", "多长时间？", "returns.time-limit"),
    ("I want to return something", "how long?", "returns.time-limit"),  # as before
    ("我想退款", "多久？", "refunds.timing"), ("我要换货", "多久？", "returns.exchanges"),  # as before
    ("怎么退货？", "多久能退款？", "refunds.timing"),  # as before: a refund named
    # what the assistant needs asks of the previous message (refused)
    ("I want to change my address", "what information do you need from me?", "orders.address-change"),
    ("I want to return my lamp", "what details do you need?", "returns.time-limit"),
    # how long a lost parcel takes to sort out is the lost parcels' (refused, the refund timing)
    ("My package is lost", "how long will it take to sort out?", "shipping.lost-damaged"),
    ("快递丢了", "多久能处理好？", "shipping.lost-damaged"),
])
def test_follow_ups_are_answered_from_their_sections(kb, previous, question, section_id):
    assert answered_from(kb, question, previous) == section_id


@pytest.mark.parametrize(("question", "mode", "reason"), [
    # another customer named by number: other customers' data (the address change, the e-mail change, the agents)
    ("What is the address of customer 4412?", "refuse", "other_customer_data"),
    ("Give me the email for customer #10023", "refuse", "other_customer_data"),
    ("What did customer 5521 order?", "refuse", "other_customer_data"),
    ("customer 4412's phone number please", "refuse", "other_customer_data"),
    ("客户4412的地址是什么？", "refuse", "other_customer_data"),
    ("编号为3321的客户的电话是多少？", "refuse", "other_customer_data"),
    # the police threatened: legal (refused, the refund timing, the refund method)
    ("我要报警", "escalate", "legal"), ("再不退款我就去报警", "escalate", "legal"),
    ("If you don't refund me I'm going to call the police", "escalate", "legal"),
    # a suit ruled out is no legal threat; a bot refused asks for a person (refused)
    ("I'm not going to sue anyone, I just want my refund", "direct", "policy"),
    ("I'm going to sue you", "escalate", "legal"),  # as before
    ("I don't want to talk to a bot", "escalate", "human"),
    ("我不会起诉你们，只想要退款", "direct", "policy"), ("我要起诉你们", "escalate", "legal"),  # in Chinese too
    # a fake site that scammed the customer: fraud, as in English (refused)
    ("有个假冒Northwind的网站骗了我", "escalate", "fraud"),
    ("人呢", "direct", "greeting"),  # whether anyone is there, as "有人吗" (refused)
    # the shop's own stores, which no policy covers (the store credit, "store")
    ("Where is your nearest store?", "refuse", "out_of_scope"), ("Where are your stores?", "refuse", "out_of_scope"),
    ("Is there a store near me?", "refuse", "out_of_scope"),
    # a defect told by a seam that rips: a defect, within 30 days the early defects lead (the protection plan)
    ("I bought a couch 3 weeks ago and one of the cushions is ripping at the seam. It's not even that old. What can I "
     "do?", "sot", "defect"),
    ("The seam on my sofa ripped at the corner", "sot", "defect"),
    ("I feel ripped off by your prices", "direct", "policy"),  # no defect
    # the choices a question offers ask nothing of their own: one point (with the promo codes, "checkout"; with the
    # installments)
    ("When do you charge my card, at checkout or when it ships?", "direct", "policy"),
    ("When will the amount get debited from my card, at the time of order or later?", "direct", "policy"),
])
def test_messages_get_their_modes(kb, question, mode, reason):
    assert mode_and_reason(kb, question) == (mode, reason)


@pytest.mark.parametrize(("question", "points"), [
    # a fee asked beside installments is the installments' (the restocking fee, "手续费")
    ("分期付款有哪些方式，要手续费吗？", ["payment.installments", "payment.methods"]),
    ("我拆封了耳机，退货有手续费吗？", ["returns.restocking-fee"]),  # as before
])
def test_messages_are_outlined_with_their_points(kb, question, points):
    assert point_ids(kb, question) == points


def test_a_seam_that_rips_within_30_days_is_an_early_defect(kb):
    """"ripping at the seam" was no defect: the protection plan led ("bought"), the early defects were left out."""
    assert point_ids(kb, "I bought a couch 3 weeks ago and one of the cushions is ripping at the seam. It's not even "
                         "that old. What can I do?")[:2] == ["warranty.early-defects", "warranty.furniture"]


def test_what_the_assistant_needs_after_a_defect_asks_of_the_defect(kb):
    """"what info do you need?" after a broken TV was refused; it asks about the defect, whose claim says what."""
    route = RuleRouter(kb).route("what info do you need?", previous="My TV broke after 8 months")
    assert (route.mode, route.reason) == ("sot", "defect")
    assert "warranty.claims" in [h.section.id for h in route.hits]


def test_a_parcel_shown_delivered_and_not_received_is_lost_though_a_refund_is_named(kb):
    """"是重新发货还是退款？" after a lamp shown delivered and never received: "退款" read as a return of a delivered
    order led with the return window; the lost parcels lead."""
    message = ("我在12月3号下了一个订单，订单号NW-77120，买了一个书架和两个台灯。书架昨天到了，但是台灯一直没到，物流信息显示已经"
               "签收了，可是我家里没人收到，问了邻居和物业也都没有。我已经等了两天了，请问这种情况怎么处理？是重新发货还是退款？")
    assert point_ids(kb, message)[0] == "shipping.lost-damaged"
    assert answered_from(kb, "My order arrived yesterday, can I return it?") == "returns.time-limit"  # as before


@pytest.mark.parametrize(("question", "points"), [
    # a return or the warranty asked of a defect told: the defect's lead section says which (the claim alone, by its
    # phrase; the coverage)
    ("My headphones broke after 3 weeks: can I return them or is it a warranty claim, and who pays shipping?",
     ["warranty.early-defects", "warranty.claims", "returns.shipping-fees"]),
    ("Can I return my lamp or does the warranty cover it? It stopped working after 10 days. Who pays for the return?",
     ["warranty.early-defects", "returns.shipping-fees"]),
    ("My TV broke after 2 years, can I return it or is it a warranty thing, and how long does a repair take?",
     ["warranty.electronics", "warranty.claims"]),  # as before: past the return window
    # "if it's shipped" asks of a shipment, it tells none: the cancellation first (what to do after shipment led)
    ("Can I cancel my order, and if it's shipped, what are my options?",
     ["orders.cancellation", "orders.after-shipment"]),
    ("能取消订单吗？如果已经发货了怎么办？", ["orders.cancellation", "orders.after-shipment"]),  # as before
    # a question of how much about the topic before needs no section of its own: the answer keeps to those asked
    # (with express shipping as padding)
    ("How long does standard shipping take, how much is it, and when does my order ship?",
     ["shipping.standard", "shipping.dispatch"]),
    # one question of how long, after a request told with a refund: the refund's time too (the cancellation alone, with
    # what to do after shipment)
    ("I want to cancel my order and get a refund, how long will it take?",
     ["orders.cancellation", "orders.after-shipment", "refunds.timing"]),
])
def test_multi_point_questions_are_outlined_in_order(kb, question, points):
    assert point_ids(kb, question) == points
