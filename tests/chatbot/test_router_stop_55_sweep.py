"""Stop 55's sweep (a product bought that went on sale, whether a product is on sale, a defect told by when it
works): the messages the rule router refused or answered from the wrong section, each from its own section now, and
the neighbours that must not move (no model)."""
from __future__ import annotations

import pytest

from tests.chatbot.routing import answered_from, mode_and_reason, planner_points, point_ids


@pytest.mark.parametrize(("question", "section_id"), [
    # a product bought that is on sale now: the price adjustment (the furniture's warranty, the protection plan,
    # refused)
    ("The sofa I bought last week is now on sale", "payment.price-adjustment"),
    ("The lamp I bought 5 days ago is now on sale", "payment.price-adjustment"),
    ("I just bought a desk and now it's on sale for less", "payment.price-adjustment"),
    ("我昨天买的沙发现在打折吗？", "payment.price-adjustment"),
    # neighbours, as before
    ("my rug went on sale two days after i ordered it", "payment.price-adjustment"),
    ("我买的台灯现在打折了", "payment.price-adjustment"),
    ("Can I return a sale item?", "returns.non-returnable"), ("Are sale items final sale?", "returns.non-returnable"),
    # a pending charge is the card's authorization (the bank's time for a refund)
    ("My bank says the charge is pending", "payment.charge-timing"),
    ("There's a pending charge on my card", "payment.charge-timing"),  # as before
    # a garment washed asks the return's condition (what to do after shipment)
    ("I washed the shirt once, can I still return it?", "returns.condition"),
    ("Can I return jeans I washed?", "returns.condition"),
    ("Can I return without the tags?", "returns.condition"),  # as before
    # a return asked how to do of a gift: the process (the gift cards, which no one can return)
    ("How do I return an item I got as a gift?", "returns.process"),
    ("How do I return a gift card?", "returns.non-returnable"),  # as before
    ("I bought a software download code by mistake, can I get my money back?", "returns.non-returnable"),  # as before
    # a product that does not fit, another colour asked in Chinese: the exchanges (refused)
    ("The gift I received doesn't fit", "returns.exchanges"), ("My new shoes don't fit", "returns.exchanges"),
    ("能换成蓝色的吗？", "returns.exchanges"), ("能换成别的颜色吗？", "returns.exchanges"),  # as before
    # a gift card for cash: the non-returnable items (the accepted payment methods); paying with one: the methods
    # (the refund method)
    ("礼品卡能换成现金吗？", "returns.non-returnable"), ("礼品卡怎么用？", "payment.methods"),
    # a product taken back: the return window (the furniture's warranty)
    ("Do you take back furniture?", "returns.time-limit"),
    ("Can you take it back if I don't like it?", "returns.time-limit"),
    # a carrier that lost, damaged or misdelivered the parcel: the lost parcels (refused); one returned to sender
    # (the return window)
    ("FedEx lost my package", "shipping.lost-damaged"), ("DHL damaged the parcel", "shipping.lost-damaged"),
    ("USPS left my package at the wrong house", "shipping.lost-damaged"), ("顺丰把我的包裹弄丢了", "shipping.lost-damaged"),
    ("My package was returned to sender", "shipping.lost-damaged"),
    # a warranty cancelled: the protection plan (the order's cancellation)
    ("Can I cancel my warranty?", "warranty.protection-plan"),
    # coupons and codes on sale items: the promo codes (the email change, the store credit, the final-sale items)
    ("I have a coupon from your email, how do I use it?", "payment.promo-codes"),
    ("Do coupons expire?", "payment.promo-codes"), ("Do promo codes work on sale items?", "payment.promo-codes"),
    # waiting on hold on the phone: the agents (the card's authorization hold); the card's hold, as before
    ("I've been waiting on hold for an hour", "contact.human-agents"),
    ("I was on hold for 40 minutes", "contact.human-agents"),
    ("Why is there a hold on my card?", "payment.double-charge"),
    ("How long does the hold last?", "payment.double-charge"),
    # Chinese: a password reset whose email never came (the tracking number's email), a return sent with no money
    # since (the return window), two gift cards paying one order (the refund method)
    ("重置密码试了三次都没收到邮件，垃圾箱也看了", "account.password-reset"),
    ("一个多月前退了个搅拌机，钱还没到，到底怎么回事？", "refunds.timing"), ("能用两张礼品卡一起付吗？", "payment.methods"),
    # "intl" (refused, standard shipping)
    ("do u ship intl", "shipping.international"), ("intl shipping cost?", "shipping.international"),
    # how long for a refund paid with PayPal (the refund method); store credit on sale items (the final-sale items); a
    # refund shown as issued and not seen, in Chinese (the refund's timing)
    ("I paid with PayPal, how long for the refund?", "refunds.timing"),
    ("Can I use store credit on sale items?", "refunds.store-credit"),
    ("显示已退款但是我没看到钱", "refunds.bank-processing"),
    ("It says refund issued but I don't see it", "refunds.bank-processing"),  # as before
    # return shipping's cost, who pays it for a defect: the return shipping fees (standard shipping)
    ("How much does return shipping cost?", "returns.shipping-fees"),
    ("Who pays for return shipping on a defective item?", "returns.shipping-fees"),
    ("Is return shipping free?", "returns.shipping-fees"),  # as before
    # sending back a gift, returning in person: the process (the refund method, the final-sale items); a replacement
    # for a refund: the exchanges (the warranty claims)
    ("How do I send back a gift?", "returns.process"), ("Can I return in person?", "returns.process"),
    ("Can I get a replacement instead of a refund?", "returns.exchanges"),
    # a box of the order missing, a delivery attempted: the lost parcels (the promo codes, the lockout)
    ("My order came in two boxes, one is missing", "shipping.lost-damaged"),
    ("Delivery was attempted but I was home", "shipping.lost-damaged")])
def test_messages_are_answered_from_their_sections(kb, question, section_id):
    assert answered_from(kb, question) == section_id


@pytest.mark.parametrize(("question", "mode", "reason"), [
    # whether a product is on sale, where none is bought: the catalogue, which the assistant cannot look up (the
    # furniture's warranty)
    ("Is the sofa on sale?", "refuse", "catalog"), ("Is there a sale on furniture?", "refuse", "catalog"),
    ("Are these chairs on sale?", "refuse", "catalog"), ("沙发打折吗？", "refuse", "catalog"),
    ("最近有促销吗？", "refuse", "catalog"),
    # a defect told by when it works: the defect's sections (the original shipping charges)
    ("my headphones only charge when the cable is held at an angle", "sot", "defect"),
    ("The speaker only works if I hold the cable", "sot", "defect"),
    # someone else logged into the account: fraud (the privacy section)
    ("Someone else is logged into my account", "escalate", "fraud"),
    ("someone logged into my account", "escalate", "fraud"),  # as before
    # a dispute with the bank threatened: legal (the bank's time); an order on the customer's card or account by
    # someone else: fraud (the refund method, the two-factor)
    ("I'm going to dispute this with my bank", "escalate", "legal"),
    ("Someone ordered with my credit card", "escalate", "fraud"),
    ("Someone bought stuff using my account", "escalate", "fraud"),
    # someone, somebody, "sum1" to talk to: a human (refused)
    ("i need to talk to sum1", "escalate", "human"), ("can I speak to somebody", "escalate", "human"),
    # a carrier's own service is still not ours, as before
    ("What's the shipping time for a letter with USPS?", "refuse", "out_of_scope"),
    ("顺丰快递寄到北京要几天？", "refuse", "out_of_scope"), ("What's FedEx's phone number?", "refuse", "out_of_scope")])
def test_messages_get_their_modes(kb, question, mode, reason):
    assert mode_and_reason(kb, question) == (mode, reason)


def test_cancelling_with_the_shipping_refunded_asks_both(kb):
    """"运费退吗？" asks for the original shipping charges beside the cancellation (the cancellation alone)."""
    points = planner_points(kb, "取消订单后钱什么时候退回？运费退吗？")
    assert [h.section.id for h in points] == ["orders.cancellation", "refunds.shipping-charges"]


@pytest.mark.parametrize(("question", "wanted", "unwanted"), [
    # a tracking that has not moved in Chinese: the lost parcels too, as in English
    ("订单号NW-55821，说好周一到，现在周四了，物流从周六就没更新，怎么办？", "shipping.lost-damaged", None),
    # "要花多少钱？" beside a return asks about the return, not for standard shipping's price
    ("黑五买的沙发12月2号到的，颜色不喜欢，多久之内能退？要花多少钱？", "returns.time-limit", "shipping.standard")])
def test_multi_point_messages_get_their_sections(kb, question, wanted, unwanted):
    points = point_ids(kb, question)
    assert wanted in points and unwanted not in points


@pytest.mark.parametrize(("previous", "question"), [
    ("我的电视坏了", "上周买的"), ("我的电视坏了", "上个月买的"),
    ("My TV stopped working", "I bought it last week")])  # the last as before
def test_a_defect_bought_last_week_is_an_early_defect(kb, previous, question):
    """"上周买的" after a defect tells how long ago (the electronics' warranty alone)."""
    assert mode_and_reason(kb, question, previous) == ("sot", "defect")
    assert answered_from(kb, question, previous) == "warranty.early-defects"
