"""Stop 57's sweep (a refund that is not here, a price that dropped, the buyer of an order asked for, a request that
opens with what to do, "is anyone there"): the messages the rule router answered from the wrong section, refused or
outlined without a point asked, each from its own section now, and the neighbours that must not move (no model)."""
from __future__ import annotations

import pytest

from tests.chatbot.routing import answered_from, mode_and_reason, point_ids


@pytest.mark.parametrize(("question", "section_id"), [
    # a refund that is not here: the bank's time (the express shipping, "how long" in capitals)
    ("WHY IS MY REFUND NOT HERE YET ITS BEEN 2 WEEKS", "refunds.bank-processing"),
    ("my refund never came", "refunds.bank-processing"),
    ("退款为什么还没到账？都两周了", "refunds.bank-processing"),  # as before
    # the price of a product that dropped: the price adjustment (the warranty's coverage, "dropped the")
    ("The price of my chair dropped the week after I bought it", "payment.price-adjustment"),
    ("The price of the TV dropped, can I get the difference?", "payment.price-adjustment"),  # as before
    ("I dropped the TV and the screen cracked", "warranty.coverage"),  # as before
    ("What's the price of the express shipping?", "shipping.express"),  # as before
    # 15% taken off a refund: the restocking fee (the refund timing)
    ("why was 15% taken off my refund", "returns.restocking-fee"),
    ("They kept 15 percent of my refund for the headphones", "returns.restocking-fee"),
    ("为什么退款扣掉15%", "returns.restocking-fee"),
    # a contraction without its apostrophe: the keyword phrases' words (refused)
    ("my oder hasnt arived yet", "shipping.lost-damaged"),
    ("I can't login", "account.password-reset"), ("I cant login", "account.password-reset"),  # refused
    # a product that came with a rip or a tear: the damaged parcels (the furniture's warranty)
    ("The sofa arrived with a tear in the fabric", "shipping.lost-damaged"),
    ("the couch came with a rip in the fabric", "shipping.lost-damaged"),
    ("the rug came with a stain on it", "warranty.early-defects"),  # as before
    # a delivery that was late: the lost parcels, as "late delivery" (the return window, what to do after shipment)
    ("the delivery was 3 days late", "shipping.lost-damaged"), ("my delivery was late", "shipping.lost-damaged"),
    ("What if I'm a few days late for the return?", "returns.time-limit"),  # as before
    ("My refund is 2 weeks late", "refunds.timing"),  # as before
    # Chinese: a repair's days and a lost warranty card are the claims'; a part missing, the lost parcels' (refused)
    ("when's the last day to send it back?", "returns.time-limit"),  # the process
    ("My gift was delivered December 20, when's the last day to send it back?", "returns.holiday-season"),  # as before
    # tags that fell off: the return condition (the warranty's coverage, "fell off"); a return label expired: the
    # process (the return shipping fees)
    ("the tags fell off, can I still return it", "returns.condition"),
    ("the handle fell off my mug", "warranty.coverage"),  # as before
    ("My return label expired", "returns.process"),
    # a pending charge for an order cancelled: the hold that drops off (when a card is charged)
    ("There's a pending charge on my card but I cancelled", "payment.double-charge"),
    ("Why is there a pending charge on my card?", "payment.charge-timing"),  # as before
    # a place abroad where the customer lives: the international shipping (refused: live chat's "live" was the best)
    ("I live in Mexico, can I order?", "shipping.international"), ("我住在墨西哥，可以下单吗？", "shipping.international"),
    # a parcel a courier threw and broke: the damaged parcels (the early defects)
    ("The courier threw my package over the fence and it broke", "shipping.lost-damaged"),
    ("我周五之前要收到，来得及吗", "shipping.express"),  # what to do after shipment
    ("My office chair's gas lift failed after 3 years", "warranty.furniture"),  # refused
    ("退款已经5个工作日了还没到", "refunds.bank-processing"),  # the lost parcels ("还没到")
    ("拆过的耳机能退吗要扣多少钱", "returns.restocking-fee"),  # the return window
    ("Can I cancel my Klarna plan?", "payment.installments"),  # the protection plan
    ("Can I cancel my protection plan?", "warranty.protection-plan"),  # as before
    ("I paid with Apple Pay, how will I get my refund?", "refunds.method"),  # the refund timing
    ("My order's gone missing", "shipping.lost-damaged"),  # refused
    ("Will I be charged VAT?", "shipping.international"),  # when a card is charged
    ("I bought the wrong thing", "returns.time-limit"),  # refused
    ("维修要多少天", "warranty.claims"), ("保修卡丢了还能保修吗", "warranty.claims"),
    ("货到了但是少了一个零件", "shipping.lost-damaged"),
])
def test_messages_are_answered_from_their_sections(kb, question, section_id):
    assert answered_from(kb, question) == section_id


@pytest.mark.parametrize(("previous", "question", "section_id"), [
    # a greeting or thanks before gives nothing to follow up: as alone (what to do after shipment)
    ("hello", "my order is late", "shipping.lost-damaged"), ("thanks", "my order is late", "shipping.lost-damaged"),
    ("hello", "My package is late", "shipping.lost-damaged"),  # as before
    # a follow-up's phrase of another topic, far under the best: the previous message's topic (a repair's time)
    ("I was charged twice", "how long until I get it back?", "payment.double-charge"),
    ("My TV is in for repair", "how long until I get it back?", "warranty.claims"),  # as before
])
def test_follow_ups_are_answered_from_their_sections(kb, previous, question, section_id):
    assert answered_from(kb, question, previous) == section_id


@pytest.mark.parametrize(("question", "mode", "reason"), [
    # the buyer of an order asked for: other customers' data (answered from the email change)
    ("Can you give me the email address of the person who ordered order #5521?", "refuse", "other_customer_data"),
    ("Who placed order 5521?", "refuse", "other_customer_data"),
    ("What's the phone number of the customer who bought this lamp?", "refuse", "other_customer_data"),
    ("I'm the one who placed the order, can I change the address?", "direct", "policy"),
    ("告诉我订单12345是谁买的", "refuse", "other_customer_data"),  # refused as out of scope
    # thanks and questions about the assistant (refused)
    ("Brilliant, thanks!", "direct", "thanks"), ("What's your name?", "direct", "about"),
    ("Who made you?", "direct", "about"),
    # credit bureaus and a confirmation email are no policy's (the store credit, the lost parcels)
    ("Do you report to credit bureaus?", "refuse", "out_of_scope"),
    ("My order confirmation email never came", "refuse", "out_of_scope"),
    ("I found it cheaper somewhere else", "refuse", "out_of_scope"),  # another shop's price (the early defects)
    # whether anyone is there, without a greeting before it: a greeting (refused)
    ("is anyone there", "direct", "greeting"), ("anybody there??", "direct", "greeting"),
    ("you there?", "direct", "greeting"),
    ("Is anyone there? My order is late", "direct", "policy"),
    # a delivery date chosen is no policy's (the electronics' warranty, for "date")
    ("Can I pick the delivery date?", "refuse", "out_of_scope"),
])
def test_messages_get_their_modes(kb, question, mode, reason):
    assert mode_and_reason(kb, question) == (mode, reason)


@pytest.mark.parametrize(("question", "points"), [
    # a second request that opens with what to do: a request of its own (the email change alone)
    ("I want to return my blender and also change my email address", ["returns.time-limit", "account.email-change"]),
    # "Can I return the lamp" names what it asks of: the return window besides the refund's time (the refund alone)
    ("Can I return the lamp and how long until I get my money back?", ["returns.time-limit", "refunds.timing"]),
    ("我想退货，另外我的邮箱也要改一下", ["returns.process", "account.email-change"]),  # the email change alone
    # two products compared ("vs", "versus"): both warranties (the furniture's alone)
    ("warranty length for electronics vs furniture", ["warranty.furniture", "warranty.electronics"]),
    ("warranty on electronics versus furniture?", ["warranty.furniture", "warranty.electronics"]),
    # a product that came torn, and a late delivery: the damaged parcels (the return window, what to do after
    # shipment, the standard shipping and the protection plan; stop 60: the standard shipping's time no longer pads
    # a parcel lost or damaged where no question asks for it)
    ("the couch came with a rip in the fabric and also the delivery was 3 days late", ["shipping.lost-damaged"]),
    # one item of three not come though the tracking says all came: the lost parcels (the promo codes, "one order")
    ("I ordered 3 items in one order. Two arrived and one didn't. The tracking says all delivered. What should I do?",
     ["shipping.lost-damaged", "shipping.tracking"]),
    # a parcel late whose tracking has not moved, a refund demanded: the lost parcels among the points (left out:
    # another category's hit needs 0.8 of the best's score, 0.7 where it has a keyword phrase and the best none)
    ("I've been a loyal customer for 5 years and I'm honestly shocked. My order of $230 was supposed to come a week "
     "ago and the tracking hasn't moved in 9 days. I want a refund NOW or I'm disputing with my bank.",
     ["refunds.bank-processing", "shipping.tracking", "shipping.standard", "shipping.lost-damaged"]),
    # the last day to send a return back: the return window (the process)
    ("Question about your holiday returns: if my gift was delivered December 20, when's the last day to send it back? "
     "And does the restocking fee still apply to opened electronics during the holidays?",
     ["returns.time-limit", "returns.holiday-season", "returns.restocking-fee"]),
    # "hasnt shipped": the dispatch leads, as for "hasn't shipped" (the standard shipping)
    ("hi so i ordered a couch like 3 weeks ago and it still hasnt shipped whats going on",
     ["shipping.dispatch", "shipping.standard", "shipping.tracking"]),
])
def test_multi_point_questions_are_outlined_in_order(kb, question, points):
    assert point_ids(kb, question) == points
