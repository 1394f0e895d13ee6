"""A product named in a question that asks nothing of its warranty is searched as "my order"."""
from __future__ import annotations

import pytest

from chatbot.knowledge import in_scope_bar
from chatbot.product_names import as_an_order, deliveries_asked, names_other_goods_only, order_hits, search_as_asked


@pytest.mark.parametrize(("text", "said"), [
    ("When will the sofa ship?", "When will my order ship?"),
    ("Where is my new couch?", "Where is my order?"),
    ("When will my coffee maker arrive?", "When will my order arrive?"),
    ("When will my order arrive?", "When will my order arrive?"),  # no product
    ("Can I return the item?", "Can I return the item?")])
def test_a_named_product_is_said_as_my_order(kb, text, said):
    assert as_an_order(kb, text) == said


def test_order_hits_replace_a_warranty_found_by_the_product_alone(kb):
    text = "When will my TV be delivered?"
    hits = kb.search(text, lang="en", k=8)
    assert hits[0].section.id == "warranty.electronics"
    said, found = order_hits(kb, text, "en", hits, in_scope_bar(text, "en"), 8)
    assert said == "When will my order be delivered?" and found[0].section.id == "shipping.standard"


def test_deliveries_asked_are_the_questions_said_of_an_order(kb):
    questions = ["When will my sofa arrive,", "can I return it if I don't like it?"]
    assert [h.section.id for h in deliveries_asked(kb, questions, "en", 8)] == ["shipping.standard"]


@pytest.mark.parametrize("text", ["How long is the warranty on my TV?", "Is my sofa covered?",
                                  "How long will my sofa last?", "沙发什么时候发货？"])
def test_a_warranty_asked_or_chinese_keeps_its_hits(kb, text):
    lang = "zh" if "沙发" in text else "en"
    hits = kb.search(text, lang=lang, k=8)
    assert order_hits(kb, text, lang, hits, in_scope_bar(text, lang), 8) is None


def test_search_as_asked_reads_a_delivery_question_of_a_product_as_of_an_order(kb):
    assert search_as_asked(kb, "When will the sofa ship?", "en", 4)[0].section.id == "shipping.dispatch"
    assert search_as_asked(kb, "How long is the sofa's warranty?", "en", 4)[0].section.id == "warranty.furniture"


@pytest.mark.parametrize(("text", "other_only"), [
    ("Are bed sheets returnable after opening?", True), ("椅子的包装盒拆开了", True),
    ("I opened the headphones", False), ("a chair and a TV", False), ("Can I return it if I opened it?", False)])
def test_names_other_goods_only(text, other_only):
    """Goods named that are not electronics, the restocking fee's (stop 62)."""
    assert names_other_goods_only(text) is other_only
