"""Which categories a message names, whether it asks for their overview (no knowledge base needed), and the product
whose warranty it means."""
from __future__ import annotations

import pytest

from chatbot.category_overviews import named_categories, overview_categories, product_meant


@pytest.mark.parametrize(("question", "categories"), [
    ("What's your return policy?", ["returns"]), ("How does shipping work?", ["shipping"]), ("保修政策", ["warranty"]),
    ("Returns?", ["returns"]),  # nothing but the name
    ("What are your return and refund policies?", ["returns", "refunds"]),  # two, joined
    ("How long is the warranty?", ["warranty"]), ("保修多久", ["warranty"]),  # each product's term
    ("What's your return policy for electronics?", ["returns"]),  # a product class
    # something of their own
    ("Where's my refund?", []), ("我的退款呢？", []), ("Is my chair under warranty?", []),
    ("How much is return shipping?", [])])  # two names not joined name one thing: the return label's fee
def test_overview_categories(question, categories):
    assert overview_categories(question) == categories


def test_named_categories_come_in_the_knowledge_base_s_order():
    assert named_categories("退款和配送") == ["refunds", "shipping"]
    assert named_categories("I want to change my order and my account email") == ["account", "orders"]
    assert named_categories("退貨") == ["returns"]  # traditional characters


@pytest.mark.parametrize(("text", "others", "product"), [
    ("I want to buy a $500 couch. Does it have a warranty?", [], "warranty.furniture"),  # told
    ("How long does a sofa take to deliver and how long is the warranty?", ["How long does a sofa take to deliver"],
     "warranty.furniture"),  # asked of in another question
    ("How long is the warranty?", [], None),
    ("How long does shipping take and how long is the warranty?", ["How long does shipping take"], None)])
def test_product_meant(kb, text, others, product):
    assert product_meant(kb, text, "en", others) == product
