"""Stop 60's sweep (where an order is and when it comes, asked of a product by name; one question after a story
joined by "and"): the messages the rule router answered from the wrong section, refused or outlined without the
point asked, each from its own section now, and the neighbours that must not move (no model)."""
from __future__ import annotations

import pytest

from tests.chatbot.routing import answered_from, point_ids


@pytest.mark.parametrize(("question", "section_id"), [
    # a product named in a delivery question: the delivery, not the product's warranty (refused where "delivered"
    # found nothing better)
    ("When will the sofa ship?", "shipping.dispatch"), ("When will my chair ship?", "shipping.dispatch"),
    ("When will my sofa arrive?", "shipping.standard"), ("When will my TV be delivered?", "shipping.standard"),
    ("When will my chair be delivered?", "shipping.standard"), ("When is my TV coming?", "shipping.standard"),
    ("How long does it take to deliver a sofa?", "shipping.standard"),
    ("How long does delivery of a couch take?", "shipping.standard"),
    ("What day will my couch be delivered?", "shipping.standard"),
    ("Where is my couch?", "shipping.tracking"), ("Where is my sofa?", "shipping.tracking"),
    ("Is my laptop on its way?", "shipping.tracking"), ("Did my TV ship?", "shipping.tracking"),
    ("Can the sofa be delivered on Saturday?", "shipping.dispatch"),
    # neighbours: a warranty asked of the product keeps it
    ("How long is the warranty on my sofa?", "warranty.furniture"), ("Is my TV covered?", "warranty.coverage"),
    ("Does the sofa come with a warranty?", "warranty.furniture"), ("How long will my sofa last?", "warranty.furniture"),
    ("Is the frame of the bed guaranteed?", "warranty.furniture"), ("How long for the TV?", "warranty.electronics"),
    ("What if my sofa breaks?", "warranty.early-defects"),
    ("Can I buy a protection plan for my TV?", "warranty.protection-plan"),
    # neighbours: a product's other questions, as before
    ("Can I pay for my sofa in installments?", "payment.installments"),
    ("Can I return the sofa if I don't like it?", "returns.time-limit"),
    ("Can you deliver the sofa to Canada?", "shipping.international"),
    ("沙发什么时候发货？", "shipping.dispatch"), ("我的沙发到哪了？", "shipping.tracking"),
    # an order's status or arrival, asked without a product (refused, or the lost parcels, the refund timing)
    ("When will my order be delivered?", "shipping.standard"), ("When will I get my stuff?", "shipping.standard"),
    ("Can you tell me when my package arrives?", "shipping.standard"),
    ("How many days until my order arrives?", "shipping.standard"),
    ("Is my order on the way?", "shipping.tracking"), ("Is it on the way?", "shipping.tracking"),
    ("Is my package out for delivery?", "shipping.tracking"), ("Has my package been delivered?", "shipping.tracking"),
    ("I never got a shipping confirmation", "shipping.tracking"),
    ("My order still hasn't come", "shipping.lost-damaged"),
    ("Can my order be delivered on Saturday?", "shipping.dispatch"),
    ("什么时候能收到货？", "shipping.standard"), ("我的包裹在路上吗？", "shipping.tracking"),
    # neighbours: a refund coming back is not a delivery
    ("when will it come back?", None), ("Where is my refund?", "refunds.bank-processing")])
def test_stop_60_sweep_messages_are_answered_from_their_sections(kb, question, section_id):
    assert answered_from(kb, question) == section_id


@pytest.mark.parametrize(("question", "points"), [
    # one question after a story joined by "and": its own phrase leads (the shipping refund and charge timing, by
    # "charged")
    ("Hello, I ordered a bookshelf last week and it doesn't fit my room. Will I be charged for shipping it back?",
     ["returns.shipping-fees", "returns.exchanges", "returns.process"]),
    # neighbours: a question without a phrase of its own keeps the search's order
    ("I'm a teacher and ordered a bunch of classroom supplies yesterday afternoon. This morning I remembered we also "
     "need a whiteboard. The order hasn't shipped. Can I just add the whiteboard to the same order?",
     ["orders.adding-items", "shipping.dispatch", "orders.after-shipment", "orders.address-change"])])
def test_stop_60_outlines(kb, question, points):
    assert point_ids(kb, question) == points
