"""Stop 48's sweeps (35 order and account messages, 30 of payment, refunds and warranty, 30 of returns and shipping, in
English and Chinese): those the rule router answered from the wrong section or refused, each from its own section
now, and their neighbours that must not move (no model)."""
from __future__ import annotations

import pytest

from chatbot.router import RuleRouter
from tests.chatbot.routing import answered_from


@pytest.mark.parametrize(("question", "section_id"), [
    # the promo codes ("into the order I placed"), the bank's time ("when it shows up"), refused ("truck" was a car)
    ("Can I throw one more item into the order I placed this morning?", "orders.adding-items"),
    ("Can I refuse the package when it shows up?", "orders.after-shipment"),
    ("How do I stop an order that's already on the truck?", "orders.after-shipment"),
    ("Moved last week, order already shipped to my old place, what now?", "orders.after-shipment"),  # adding items
    ("东西已经在路上了，我不想要了怎么办？", "orders.after-shipment"),  # the cancellation, by 不想要了
    ("搬家了，但是订单已经寄到旧地址了", "orders.after-shipment"),  # the address change, by 搬家
    # what to do after shipment, by "too late", for an order that has not shipped (`order_events.NOT_SHIPPED`)
    ("Is it too late to cancel? I ordered 3 hours ago but it hasn't shipped", "orders.cancellation"),
    ("Too late to cancel? It hasn't shipped yet", "orders.cancellation"),
    ("How do I get a return label?", "returns.process"),  # the label's fee
    # neighbours
    ("Do I have to pay for the return label?", "returns.shipping-fees"),
    ("来不及取消了吗？已经发货了", "orders.after-shipment"),
    ("我下单两个小时了，还没发货，现在取消来不及了吗？", "orders.cancellation"),
    ("It's too late to cancel, it already shipped. Can I still refuse it?", "orders.after-shipment"),
    ("Is it too late to cancel? It already shipped yesterday", "orders.after-shipment"),
    ("Is it too late to cancel my order?", "orders.cancellation"),
    ("Can I add another pillow to my order?", "orders.adding-items"),
    ("I want to exchange for another item", "returns.exchanges"),
    ("The tracking says it's on the truck for delivery today", "shipping.tracking"),
    ("我还想再买一个，能加到刚才的订单里吗？", "orders.adding-items")])
def test_order_messages_are_answered_from_their_sections(kb, question, section_id):
    assert answered_from(kb, question) == section_id


@pytest.mark.parametrize("question", ["My package is on the truck, when will it arrive?"])
def test_a_parcel_on_the_truck_is_no_car(kb, question):
    route = RuleRouter(kb).route(question)
    assert route.mode == "direct" and route.hits[0].section.id.startswith("shipping.")


@pytest.mark.parametrize("question", ["Do you sell used trucks?", "How long is the warranty on a Ford truck?",
                                      "Can I return my car?"])
def test_vehicles_are_still_not_sold(kb, question):
    assert RuleRouter(kb).route(question).mode == "refuse"
