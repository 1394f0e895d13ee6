"""What a message asks of a category as a whole: the categories it names by name, and whether it asks for their
overview ("What's your return policy?", "How does shipping work?", "保修政策"), which `intents` answers with each
category's lead sections, and the product whose warranty a message tells of (`product_told`)."""
from __future__ import annotations

import re
from collections.abc import Sequence

from chatbot.chinese_script import to_simplified
from chatbot.knowledge import KnowledgeBase
from chatbot.message_shape import asking_clauses, clauses
from chatbot.text_terms import word_terms

OVERVIEW_POINTS = 4
PRODUCT_SECTIONS = ("warranty.electronics", "warranty.furniture")  # their keywords name products ("chair", "TV")
# The patterns are ASCII (re.A): an English word's \b then holds next to a Chinese character ("warranty多久？").

_CATEGORY_NAMES = {
    "returns": r"\breturns?\b|退货", "refunds": r"\brefunds?\b|退款",
    "shipping": r"\b(shipping|delivery)\b(?!\s+address)|配送|发货|运费",  # a shipping address is the order's
    "payment": r"\bpayments?\b|支付|付款", "warranty": r"\bwarrant(y|ies)\b|\bguarantees?\b|保修",
    "account": r"\baccounts?\b|账户|账号", "orders": r"\borders?\b|订单"}
_OVERVIEW_WORDS = re.compile(
    r"\bwhat(?:'s| is) the deal( with)?\b|\bpolic(y|ies)\b|\bworks?\b|\btell me\b|\bexplain\b|\brules?\b|\bterms\b|\boverview\b|\binfo(rmation)?\b|"
    r"\bwhat(?:'s| is| are) (your|the)\b|\bunder\b|\bstill\b|"
    r"\bhelp\b|\bneed\b|\bquestions?\b|\bhello\b|"  # "I need help with my account", "a question about my order"
    r"\b(a |some )?(problems?|issues?|trouble)\b|有点|出了点?|"  # "I have a problem with my account", "我的账号有点问题"
    r"\b(do|does) (you|northwind) (have|offer|provide|give)\b|\boffers?\b|"  # "Do you have a warranty?" was refused
    r"政策|规定|规则|制度|介绍|说明|是什么|是怎样|怎样|有哪些|条款|你好|您好|想问问|想问|问问|问一下|请问|问题|关于|咨询|帮忙|帮助|一下|"
    r"有没有|提供|有", re.I | re.A)
# The warranty's term depends on the product: asked without one ("How long is the warranty?", "保修多久", "When does my
# warranty run out?", "保修怎么算？": how the term counts, refused before stop 61), it asks for each product's term, the
# overview; the return window or a refund's time is one answer.
TERM_WORDS = re.compile(r"\bhow long\b|\bperiod\b|\bterms?\b|\blength\b|\b(expire[sd]?|runs? out|ends?)\b|多久|多长|期限|期|"
                        r"多少年|几年|(什么时候|何时)?(到期|过期)|怎么算", re.I | re.A)
# A class of products an overview asks about ("What's your return policy for electronics?", "家具的退货政策"): the
# overview's lead sections, with the best hit of its category for the last point (the opened electronics' fee).
PRODUCT_CLASS = re.compile(r"\b(for|on|of|with) (the |your )?(electronics?|electronic (items|products|devices|goods)|"
                            r"furniture)\b|电子产品的?|电器的?|家具的?", re.I | re.A)
_CONJUNCTION = re.compile(r"\band\b|&|[,，、和与及]", re.I | re.A)


def named_categories(text: str) -> list[str]:
    """The categories ``text`` names by name ("returns", "退款", `_CATEGORY_NAMES`), in the knowledge base's order."""
    text = to_simplified(text)
    return [c for c, pattern in _CATEGORY_NAMES.items() if re.search(pattern, text, re.I | re.A)]


def overview_categories(question: str) -> list[str]:
    """The categories (one, or up to `OVERVIEW_POINTS` joined by "and", "和" …) ``question`` asks for the overview
    of: it names them (`_CATEGORY_NAMES`) and has words that ask in general ("policy", "how does … work", "政策")
    and no word of its own, or nothing but the names ("Returns?"). "Where's my refund?" and "我的退款呢？" ask
    something."""
    text = to_simplified(question)
    named = named_categories(text)
    if not 1 <= len(named) <= OVERVIEW_POINTS or (len(named) >= 2 and not _CONJUNCTION.search(text)):
        return []  # two names not joined name one thing: "return shipping" is the return label's fee
    rest = re.sub("|".join(_CATEGORY_NAMES[c] for c in named), " ", text, flags=re.I | re.A)
    general = _OVERVIEW_WORDS.sub(" ", rest)
    if named == ["warranty"]:  # a product class's warranty is its own section
        general = TERM_WORDS.sub(" ", general)
    else:
        general = PRODUCT_CLASS.sub(" ", general)
    if general == rest and re.search(r"\w", rest):
        return []
    return [] if word_terms(general) else named


def product_told(kb: KnowledgeBase, text: str, lang: str) -> str | None:
    """The product's warranty (`PRODUCT_SECTIONS`) that the told part of ``text`` (its clauses that ask nothing) finds
    among its top hits ("I want to buy a $500 couch": the furniture's), else None."""
    told = " ".join(c for c in clauses(text) if c not in asking_clauses(text))
    hits = kb.search(told, lang=lang, k=OVERVIEW_POINTS) if told.strip() else []
    return next((h.section.id for h in hits if h.section.id in PRODUCT_SECTIONS), None)


def product_meant(kb: KnowledgeBase, text: str, lang: str, others: Sequence[str]) -> str | None:
    """The product's warranty that ``text`` tells of (`product_told`) or that one of the ``others``, the questions
    beside the one that asks for the warranty, finds first: "How long does a sofa take to deliver and how long is the
    warranty?" asks the furniture's term (stop 61's sweep: both terms and the claims, and no delivery)."""
    return product_told(kb, text, lang) or next((hits[0].section.id for other in others if (
        hits := kb.search(other, lang=lang, k=1)) and hits[0].section.id in PRODUCT_SECTIONS), None)
