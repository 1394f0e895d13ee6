"""Stop 61's sweep (stop 60's leftovers; payments, accounts, returns and follow-ups in English and Chinese): the
messages the rule router answered from the wrong section or outlined without the point asked, each from its own
section now, and the neighbours that must not move (no model)."""
from __future__ import annotations

import pytest

from tests.chatbot.routing import answered_from, mode_and_reason, point_ids


@pytest.mark.parametrize(("question", "section_id"), [
    # a change of mind a week or more after ordering is a return (the cancellation, by "changed my mind")
    ("I changed my mind about the rug, it's been 10 days", "returns.time-limit"),
    ("I changed my mind, I ordered it 20 minutes ago", "orders.cancellation"),  # neighbour: minutes, as before
    ("I ordered a rug 2 weeks ago and changed my mind, can I cancel?", "orders.cancellation"),  # cancelling asked
    # a misspelling two edits away (the charge's timing)
    ("I was dubble charged", "payment.double-charge"), ("i got dubble charged for my order", "payment.double-charge"),
    # a full refund asked: the label fee deducted (the opened electronics' fee, which "full refund" alone found)
    ("Will I get a full refund?", "returns.shipping-fees"), ("能全额退款吗？", "returns.shipping-fees"),
    ("退货能拿回全款吗？", "returns.shipping-fees"),
    ("I opened the headphones, will I get a full refund?", "returns.restocking-fee"),  # neighbour: opened electronics
    ("If I cancel, do I get a full refund?", "orders.cancellation"),  # neighbour: the cancellation, as before
    # an order cancelled came on no day: no holiday returns by its date
    ("我12月3号下的单，取消了钱什么时候退回来？", "refunds.timing"),
    ("12月1日买的台灯，最晚什么时候可以退？", "returns.holiday-season"),  # neighbour: a return, as before
    # hours since ordering, asked of cancelling: the cancellation's hour (what to do after shipment, by "too late")
    ("I placed my order 3 hours ago, is it too late to cancel?", "orders.cancellation"),
    ("Is it too late to cancel?", "orders.after-shipment"),  # neighbour: as before
    ("I ordered 3 hours ago and it already shipped, can I cancel?", "orders.after-shipment"),  # neighbour: shipped
    # a pending charge of an order cancelled: the authorization hold that drops off (the charge's timing)
    ("I see a pending charge of $45 but I cancelled", "payment.double-charge"),
    ("There's a pending charge on my debit card but my order hasn't shipped yet. Why?", "payment.charge-timing"),
    # a password typed wrong too often: the lockout (the return window)
    ("I typed my password wrong too many times", "account.lockout"),
    # swimwear named beside a condition: not returnable (the return window, tied with both)
    ("Can I return swimwear if I tried it on?", "returns.non-returnable"),
    # where a return goes: the return process (the shipping address's change)
    ("What's your address for returns?", "returns.process"),
    ("Can I change my address?", "orders.address-change"),  # neighbour
    # another colour or model than the one ordered, asking no exchange: the wrong item's free return (the exchanges)
    ("The sofa delivered has a different color than the one I ordered", "returns.shipping-fees"),
    ("You delivered a different model than the one I ordered", "returns.shipping-fees"),
    ("沙发颜色和我订的不一样", "returns.shipping-fees"),
    ("You sent the wrong size, can I exchange it?", "returns.exchanges"),  # neighbour: an exchange asked
    # another size asked for, a change of mind (refused)
    ("It's too small, can I get a bigger one?", "returns.exchanges"), ("I don't like it", "returns.time-limit"),
    ("太小了，能换大一点的吗？", "returns.exchanges"), ("我不喜欢", "returns.time-limit"),
    # the express asked by its price as "快递" (refused: "快递" is also a parcel, the tracking's word)
    ("快递是9.99美元吗？", "shipping.express"), ("我的快递单号在哪？", "shipping.tracking"),  # neighbour
    # agents' terse lookups: the escalation's rules (refused), a defect in the return window (the window)
    ("escalation rules", "contact.escalation"), ("defect in return window", "warranty.early-defects"),
    # a refund asked within a span of weeks: the return window (the refund's 5 business days)
    ("A friend told me you give full refunds on anything within 90 days, is that true?", "returns.time-limit"),
    ("Can I get a refund within 60 days?", "returns.time-limit"),
    ("My refund has not arrived within 30 days", "refunds.timing"),  # neighbour: a refund awaited
    ("Will I get my refund within 5 days?", "refunds.timing"),  # neighbour: the timing's own span
    # an exchange's shipping (the standard shipping), a refund of the wrong amount (refused): the return label's fee
    ("Do I pay shipping on an exchange?", "returns.shipping-fees"),
    ("I was refunded the wrong amount", "returns.shipping-fees"),
    # a warranty claim denied: what the coverage leaves out (the claim's form; refused in Chinese)
    ("My warranty claim was denied, why?", "warranty.coverage"), ("保修被拒了，为什么？", "warranty.coverage"),
    ("How do I make a warranty claim?", "warranty.claims"),  # neighbour
    # a parcel delivered to the wrong address, in Chinese: the lost parcels (the address change)
    ("显示送到了错误的地址", "shipping.lost-damaged"),
    ("The tracking says delivered to the wrong address", "shipping.lost-damaged"),  # neighbour: as before
    # more countries by name (refused): the international shipping
    ("Do you ship to Brazil?", "shipping.international"), ("能寄到巴西吗？", "shipping.international"),
    ("Can you ship to Spain?", "shipping.international"),  # neighbour: as before
    # plain questions with a phrase of their own now (the charge's timing, refused, the e-mail change, the label fee,
    # the return window)
    ("What cards can I use?", "payment.methods"), ("能用什么卡？", "payment.methods"),
    ("发货快吗？", "shipping.dispatch"), ("送货收费吗？", "shipping.standard"),
    ("Is there an email address for support?", "contact.human-agents"),
    ("When does my return label expire?", "returns.process"), ("错过14天寄回期限怎么办？", "returns.process"),
    # Chinese plain questions that were refused
    ("我的钱呢？", "refunds.timing"), ("东西丢了怎么办？", "shipping.lost-damaged"),
    ("订单能改吗？", "orders.address-change"), ("发货后订单能改吗？", "orders.after-shipment"),
    ("发货后还能改订单吗？", "orders.after-shipment"),  # neighbour: as before
    # a refund asked faster, or after the return ships (the express, by "faster"; the label fee)
    ("Can I get my refund faster?", "refunds.timing"),
    ("Do Apple Pay users get their refund faster?", "refunds.timing"),
    ("What happens after I ship my return?", "refunds.timing")])
def test_stop_61_sweep_messages_are_answered_from_their_sections(kb, question, section_id):
    assert answered_from(kb, question) == section_id


@pytest.mark.parametrize(("question", "points"), [
    # a product's delivery asked beside its warranty's term: the product's term and its delivery (both products'
    # terms and the claims, no delivery)
    ("How long does a sofa take to deliver and how long is the warranty?",
     ["warranty.furniture", "shipping.standard", "warranty.claims"]),
    ("How long does a TV take to deliver and how long is the warranty?",
     ["warranty.electronics", "shipping.standard", "warranty.claims"]),
    # "send it back or file a claim" asks the defect's lead (the claims alone, beside the label fee)
    ("Hey so I ordered a desk last week and it came today but the drawer is cracked. Do I send it back or file a "
     "claim? And who pays shipping?", ["warranty.early-defects", "returns.shipping-fees"]),
    # a return told how long since, nothing opened: the window leads (the opened electronics' fee alone, by "it works
    # fine")
    ("I bought a lamp two weeks ago and it works fine. Can I still return it?",
     ["returns.time-limit", "returns.restocking-fee"]),
    # a defect's "charging" finds no charge (the charge's timing padded the outline); "ripped after" is a defect
    ("My headphones stopped charging after 11 months",
     ["warranty.electronics", "warranty.claims", "warranty.coverage"]),
    ("The sofa cushion ripped after 6 months of use", ["warranty.furniture", "warranty.claims", "warranty.coverage"]),
    # the warranty asked how it counts, with no product: each product's term (refused)
    ("保修怎么算？", ["warranty.electronics", "warranty.furniture", "warranty.protection-plan", "warranty.coverage"]),
    # a country abroad told, in Chinese: the international shipping alone (the dispatch and express too)
    ("我在巴西，配送时间和关税是多少？", ["shipping.international"]),
    # neighbours: as before
    ("What's your return policy and how long is the warranty?",
     ["returns.time-limit", "returns.condition", "warranty.electronics", "returns.process"]),
    ("My blender broke after 2 months. Can I still return it or do I need a warranty claim?",
     ["returns.time-limit", "warranty.electronics", "warranty.claims", "warranty.coverage"])])
def test_stop_61_outlines(kb, question, points):
    assert point_ids(kb, question) == points


@pytest.mark.parametrize("question", [
    "Will the delivery guys carry the couch upstairs?", "Do you do white glove delivery?",
    "Can you install it for me?", "Can you hold my package at the post office?"])
def test_a_service_no_policy_covers_is_refused_as_out_of_scope(kb, question):
    """Carrying, installing, holding a parcel: no policy covers them (what to do after shipment, by "delivery"; the
    authorization hold, by "hold")."""
    assert mode_and_reason(kb, question) == ("refuse", "out_of_scope")


@pytest.mark.parametrize("question", [
    "Can I talk to a support agent?", "Connect me to a customer service representative",
    "I want to speak with a customer care agent"])
def test_a_support_agent_asked_for_is_escalated(kb, question):
    """"a support agent" is a human asked for (answered from the agents' section)."""
    assert mode_and_reason(kb, question) == ("escalate", "human")


def test_an_agent_saying_who_asks_is_courtesy(kb):
    """An agent's introduction is no question of the human agents' section (which led the outline)."""
    question = "Hi, I'm a support agent. Customer asks if opened headphones can be returned and what the fee is."
    assert point_ids(kb, question)[0] == "returns.restocking-fee"
    assert "contact.human-agents" not in point_ids(kb, question)
