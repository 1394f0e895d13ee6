"""What a message tells has happened to its order."""
from __future__ import annotations

import pytest

from chatbot.order_events import (ARRIVED_BROKEN, CHARGED, DELIVERED, NOT_SHIPPED, ORDER_TOTAL, past_cancelling,
                                  says_it_shipped)


@pytest.mark.parametrize(("text", "shipped"), [
    ("It already shipped", True), ("It was dispatched this morning", True), ("已经發貨了", True),  # traditional too
    ("显示已发出", True),  # "已发出" (stop 62's sweep: the cancellation)
    ("It hasn't shipped yet", False), ("What if it's shipped?", False), ("还没发货", False)])
def test_says_it_shipped(text, shipped):
    assert says_it_shipped(text) is shipped


@pytest.mark.parametrize(("pattern", "text", "found"), [
    (NOT_SHIPPED, "Is it too late to cancel? It hasn't shipped", True), (NOT_SHIPPED, "It shipped", False),
    (DELIVERED, "it was delivered yesterday", True), (DELIVERED, "已经签收了", True),
    (DELIVERED, "When will it be delivered?", False),
    (ARRIVED_BROKEN, "The chair arrived broken", True), (ARRIVED_BROKEN, "收到的时候就裂了", True),
    (ARRIVED_BROKEN, "the lamp I got has a dent", True), (ARRIVED_BROKEN, "收到一周后坏了", False),
    (CHARGED, "I was charged for an order I cancelled", True), (CHARGED, "Will I be charged?", False),
    (CHARGED, "I see a pending charge of $45 but I cancelled", True),
    (ORDER_TOTAL, "If my order is $49, do I pay shipping?", True), (ORDER_TOTAL, "订单只有45美元", True),
    (ORDER_TOTAL, "My order is late", False)])
def test_order_event_patterns(pattern, text, found):
    assert bool(pattern.search(text)) is found


@pytest.mark.parametrize(("text", "past"), [
    ("I changed my mind about the rug, it's been 10 days", True), ("It was delivered yesterday", True),
    ("I changed my mind, I ordered it 2 weeks ago", True),
    ("I changed my mind, I ordered it 20 minutes ago", False), ("I changed my mind, it's been 3 days", False),
    ("I ordered 2 weeks ago, can I cancel?", False),  # cancelling asked
    ("It's been 10 days and it hasn't shipped", False)])  # an order not shipped
def test_past_cancelling(text, past):
    assert past_cancelling(text) is past
