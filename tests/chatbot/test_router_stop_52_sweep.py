"""Stop 52's sweep (follow-ups after a story, and the charge after a cancellation): the messages the rule router
refused or answered from the wrong section, each from its own section now, and the neighbours that must not move
(no model)."""
from __future__ import annotations

import pytest

from chatbot.router import RuleRouter
from tests.chatbot.routing import answered_from, point_ids


@pytest.mark.parametrize(("previous", "question", "section_id"), [
    # a defect the search alone finds under the bar (its intent finds it), then a question that names nothing
    ("My headphones broke after 3 months", "How do I do it?", "warranty.claims"),  # refused
    ("My headphones broke after 3 months", "what are my options?", "warranty.electronics"),  # the shipping options
    ("My headphones broke after 3 months", "can you help?", "warranty.electronics"),  # refused
    ("My laptop stopped working after 2 months", "what should I do?", "warranty.electronics"),  # refused
    ("My chair arrived with a broken leg", "How do I get it fixed?", "warranty.early-defects"),  # refused
    ("The mug arrived cracked", "How do I get it replaced?", "shipping.lost-damaged"),  # the warranty claim
    ("椅子收到的时候腿就断了", "怎么办？", "warranty.early-defects"),  # the refund timing (收到)
    ("我的耳机用了半年坏了", "怎么办？", "warranty.electronics"),
    # "can you help?" after a request asks for help with it (refused: "help" is the scope's word)
    ("My order never arrived", "can you help?", "shipping.lost-damaged"),
    ("I was double charged", "can you help?", "payment.double-charge"),
    ("My package says delivered but it isn't here", "can you help me?", "shipping.lost-damaged"),
    ("I want to cancel my order", "could you help me with that?", "orders.cancellation"),
    # a parcel damaged or opened, told after a return's question: the damaged parcels (the return window)
    ("Can I return a lamp?", "It arrived open and something is missing. Help?", "shipping.lost-damaged"),
    ("Can I return a lamp?", "It arrived damaged", "shipping.lost-damaged"),
    ("Can I return a lamp?", "I paid with PayPal", "returns.time-limit"),  # a detail of the return: as before
    # neighbours: a how-to follow-up keeps the section that says how
    ("My TV stopped working.", "How do I claim?", "warranty.claims"),
    ("沙发腿断了，保修吗？", "怎么申请？", "warranty.claims"),
    ("I want to return a lamp", "How do I do it?", "returns.process"),
    # charged for an order cancelled: the hold that drops off, not a return's refund timing ("money back")
    (None, "I cancelled my order but I was still charged. When do I get my money back?", "payment.double-charge"),
    (None, "I cancelled my order. When will I get a refund?", "orders.cancellation"),  # not charged: as before
    (None, "Can you help me track my order?", "shipping.tracking"),
    # two pending charges for one order: the hold that drops off (the charge's timing, by "pending charge")
    (None, "I see two pending charges of $62.40 for one order. How many days until the extra one falls off?",
     "payment.double-charge"),
    (None, "There are 2 pending charges on my card for one order", "payment.double-charge"),
    (None, "When does the pending charge go away?", "payment.charge-timing"),  # one: as before
    # an order that came without a part: the lost parcels (the return condition's "missing the charger")
    (None, "Order 55123 arrived missing the charger. What should I do?", "shipping.lost-damaged"),
    (None, "I am missing the charger, can I still return the laptop?", "returns.condition"),  # a return's: as before
    # an accident told with a defect: the coverage, which excludes it, leads (the early defects)
    (None, "My kid dropped the tablet and the screen cracked. Warranty?", "warranty.coverage"),
    (None, "孩子把平板摔了，屏幕裂了", "warranty.coverage"),
    (None, "My tablet screen cracked on its own after 2 weeks", "warranty.early-defects"),  # no accident: as before
    # a return sent with no refund since, in Chinese: the refund's timing first (the bank's time)
    (None, "退货寄回去一周了，退款还没到，正常吗？", "refunds.timing"), (None, "东西寄回去十天了，钱还没收到", "refunds.timing"),
    # a refund or an exchange, then how to apply: the return process, the exchanges (the warranty claim, by "申请")
    (None, "我要退款，怎么申请？", "returns.process"), (None, "换货怎么申请？", "returns.exchanges")])
def test_messages_are_answered_from_their_sections(kb, previous, question, section_id):
    assert answered_from(kb, question, previous) == section_id


def test_a_how_to_follow_up_stays_one_point(kb):
    """A follow-up that asks how ("How do I claim?") is answered by the section that says how alone."""
    assert RuleRouter(kb).route("How do I claim?", previous="My TV stopped working.").mode == "direct"


@pytest.mark.parametrize(("question", "mode"), [("can you help?", "direct"), ("Could you help me?", "direct"),
                                              ("How do I get it fixed?", "refuse")])
def test_a_plea_with_nothing_before_it_is_greeted_or_refused(kb, question, mode):
    """With nothing before it, a plea for help is greeted with what the assistant helps with (stop 59; refused before),
    and a question of "it" that names nothing is refused."""
    assert RuleRouter(kb).route(question).mode == mode


@pytest.mark.parametrize(("question", "wanted", "unwanted"), [
    # "怎么申请？" (how do I apply?) asked of a refund or an exchange: the return process or the exchanges its phrase
    # names, not the warranty claim that the bigram "申请" finds a little better
    ("退款怎么申请？多久到账？", {"returns.process", "refunds.bank-processing"}, {"warranty.claims"}),  # no process
    ("退款怎么申请？钱退到哪里？", {"returns.process", "refunds.method"}, {"warranty.claims"}),  # no process
    ("换货怎么申请？要多久？", {"returns.exchanges"}, {"warranty.claims"}),  # the claim alone
    ("怎么申请换货？有没有费用？", {"returns.exchanges"}, {"warranty.claims"}),  # the claim alone
    # a product that came broken, then a return's questions: the damaged parcels too (the return process alone)
    ("hi, i ordered a desk lamp last week and it came with a cracked base. can i send it back and who pays postage?",
     {"returns.process", "returns.shipping-fees", "shipping.lost-damaged"}, set()),
    # neighbours: the warranty's own claim, and an English question that names a lost item
    ("保修怎么申请？需要什么材料？", {"warranty.claims"}, set()),
    ("I placed an order 20 minutes ago with the wrong address and forgot an item. Can I cancel or fix the address, "
     "and can I add the missing item?", {"orders.adding-items", "orders.address-change"}, {"shipping.lost-damaged"})])
def test_multi_point_messages_get_their_sections(kb, question, wanted, unwanted):
    ids = set(point_ids(kb, question))
    assert wanted <= ids and not ids & unwanted
