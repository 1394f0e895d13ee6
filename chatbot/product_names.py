"""A product named in a question that asks nothing of its warranty ("When will the sofa ship?", "Where is my couch?",
"When will my TV be delivered?"): the products' warranty sections list product names among their keywords, so the
name alone found them first, and the delivery the customer asks about was lost (or, "delivered" finding nothing
better, the message was refused). Such a message is searched as if it asked about "my order"."""
from __future__ import annotations

import re

from chatbot.category_overviews import PRODUCT_SECTIONS, TERM_WORDS, named_categories
from chatbot.knowledge import KnowledgeBase, ScoredSection, in_scope_bar

# What a named product, one or two words after a determiner, may be ("the sofa", "my coffee maker", "a new TV").
_NAMED_THING = re.compile(r"\b(?:the|my|a|an|this|that|our|these|those)\s+((?:[a-z-]+\s+)?[a-z-]+)\b", re.I)
# The warranty asked of without its name: how long a product lasts or is covered, its repair or protection.
_WARRANTY_ASKED = re.compile(r"\bcover(s|ed|age)?\b|\blasts?\b|\bguarant|\bprotect|\brepair|\bfix|\bdefect|"
                             r"\bbroke|\bdamage", re.I)

# Electronics and other goods named (the restocking fee is for opened electronics alone: "包装盒拆开了，但是椅子一次都没坐
# 过…还能退吗？", "Are bed sheets returnable after opening?" led with it; stop 62's sweep).
_ELECTRONICS = re.compile(r"electronic|\b(tvs?|television|laptops?|headphones?|earbuds|speakers?|cameras?|tablets?|"
                          r"phones?|monitors?|printers?|consoles?|smartwatch\w*|drones?)\b|电子|电器|耳机|电视|电脑|笔记本|"
                          r"音箱|音响|相机|平板|手机|显示器|打印机|无人机", re.I | re.A)
_OTHER_GOODS = re.compile(r"\b(sheets?|bedding|towels?|rugs?|curtains?|blankets?|pillows?|duvets?|mugs?|vases?|chairs?|"
                          r"sofas?|couch(es)?|tables?|desks?|mattress(es)?|shirts?|shoes|jackets?|dress(es)?)\b|床单|被子|"
                          r"枕头|毛巾|地毯|窗帘|毯子|椅子|沙发|桌子|书桌|床垫|花瓶|杯子|衣服|鞋", re.I | re.A)


def names_other_goods_only(text: str) -> bool:
    """Whether ``text`` names goods that are not electronics ("bed sheets", "椅子") and no electronics."""
    return bool(_OTHER_GOODS.search(text)) and not _ELECTRONICS.search(text)


def _is_a_product(kb: KnowledgeBase, words: str) -> bool:
    hits = kb.search(words, lang="en", k=1)
    return bool(hits) and hits[0].section.id in PRODUCT_SECTIONS


def as_an_order(kb: KnowledgeBase, text: str) -> str:
    """English ``text`` with each product it names (a determiner and the words that find a product's warranty first:
    "the sofa", "my coffee maker") said as "my order"; ``text`` itself where it names none."""
    def order(match: re.Match) -> str:
        first, *second = match.group(1).split()
        if _is_a_product(kb, first):  # "the sofa ship": the sofa
            return " ".join(["my order", *second])
        return "my order" if second and _is_a_product(kb, match.group(1)) else match.group()  # "my coffee maker"
    return _NAMED_THING.sub(order, text)


def order_hits(kb: KnowledgeBase, text: str, lang: str, hits: list[ScoredSection], bar: float,
               k: int) -> tuple[str, list[ScoredSection]] | None:
    """English ``text`` said as if it asked about "my order" (`as_an_order`) and its top ``k`` hits, where its best of
    ``hits`` is a product's warranty, it asks nothing of a warranty (no warranty named, no term, cover, repair or
    defect), and the order's search finds a best hit of another category over the in-scope ``bar``. None otherwise,
    the message's own hits answering."""
    if (lang != "en" or not hits or hits[0].section.id not in PRODUCT_SECTIONS or "warranty" in named_categories(text)
            or TERM_WORDS.search(text) and not re.search(r"\b(deliver|ship|arriv)", text, re.I)
            or _WARRANTY_ASKED.search(text)):
        return None
    ordered = as_an_order(kb, text)
    found = kb.search(ordered, lang=lang, k=k) if ordered != text else []
    if not found or found[0].section.category == "warranty" or found[0].score < bar:
        return None
    return ordered, found


def _order_search(kb: KnowledgeBase, text: str, lang: str, k: int) -> tuple[str, list[ScoredSection]] | None:
    """`order_hits` over ``text``'s own top ``k`` hits and in-scope bar."""
    return order_hits(kb, text, lang, kb.search(text, lang=lang, k=k), in_scope_bar(text, lang), k)


def search_as_asked(kb: KnowledgeBase, text: str, lang: str, k: int) -> list[ScoredSection]:
    """The top ``k`` hits of ``text``, searched as "my order" where it names a product in a question about its
    delivery (`order_hits`)."""
    ordered = _order_search(kb, text, lang, k)
    return ordered[1] if ordered else kb.search(text, lang=lang, k=k)


def deliveries_asked(kb: KnowledgeBase, questions: list[str], lang: str, k: int) -> list[ScoredSection]:
    """The best hit of each of ``questions`` that `order_hits` searches as "my order" ("When will my sofa arrive,"
    beside "can I return it?": the standard shipping, which the message's own search, led by the sofa's warranty
    and the return, missed): each a point the outline asks for (`outline_points.sections_asked`)."""
    return [ordered[1][0] for question in questions if (ordered := _order_search(kb, question, lang, k))]
