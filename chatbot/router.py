"""SoT-R routing: each message gets one of sot, direct, escalate, refuse.

Two routers share one interface: `RuleRouter` (guard rules, retrieval scores and question shape)
and `ModelRouter` (a constrained choice by the model). `supportdesk eval --router` compares them.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from chatbot.chinese_script import to_simplified
from chatbot.guard import escalation_reason, refusal_reason
from chatbot.knowledge import KnowledgeBase, ScoredSection, detect_lang, is_cjk, tokenize, word_terms

_GREETING = re.compile(
    r"^\s*(hi|hello|hey|good (morning|afternoon|evening)|thanks?( you)?|你好|您好|嗨|谢谢)( there| all)?\W*$", re.I)
_OTHER_SHOPS = re.compile(r"\b(walmart|amazon|target|ebay|best ?buy|costco|ikea|wayfair)\b|京东|淘宝|天猫|拼多多|苏宁", re.I)
# Questions about the catalogue (what is sold, stock, prices of products), which no policy answers; a priced policy
# (shipping, fees, the protection plan, installments, refunds, price adjustments) keeps a price question in scope.
_CATALOG = re.compile(
    r"\bdo you (sell|carry|stock)\b|\b(in|out of|back in) stock\b|\bhow much (is|are|does|do) (the|a|an|this|that|these|"
    r"those|your)\b|\bprice of\b|\bwhat does (the|a|an|this|that) [\w ]+ cost\b|"
    r"你们卖|有没有卖|卖不卖|有卖|有货|没货|库存|缺货|补货|多少钱|价格|价钱|售价", re.I)
_PRICED_POLICY = re.compile(
    r"ship|deliver|express|postage|label|fee|restock|warrant|protection|install|klarna|gift card|refund|return|drop|"
    r"differen|adjust|cheap|sale|match|运|配送|快递|邮|标签|费|保修|延保|保障|分期|礼品卡|退|降|差价|价保|保价|便宜|打折", re.I)
_QUESTION_MARKS = re.compile(r"[?？]")
_CLAUSE_SEPARATORS = re.compile(r"[,，、;；]|\b(and|also|plus|as well as)\b|以及|还有|并且|另外|同时", re.I)
OUT_OF_SCOPE_SECTION = "contact.scope"
# Below these BM25 scores the best section does not answer the message: between the best score of an
# out-of-scope question that no other rule refuses and the lowest of an in-scope one (English 3.0 and 4.2,
# "Who pays customs?"; Chinese 9.3 and 13.0, "关税谁付？", with "今天几号？", what's the date, at 11.7).
# Chinese bigram queries score higher than English words.
MIN_TOP_SCORE = {"en": 4.0, "zh": 12.0}


def in_scope_bar(message: str, lang: str) -> float:
    """The in-scope bar for ``message``: `MIN_TOP_SCORE` weighted by its index terms. The Chinese bar is higher
    because Chinese text gives more terms (characters and bigrams) than English words; a Chinese message
    that names a Latin brand ("可以用Apple Pay吗？") has fewer CJK terms, and a bar between the two."""
    tokens = tokenize(message)
    if lang != "zh" or not tokens:
        return MIN_TOP_SCORE.get(lang, MIN_TOP_SCORE["en"])
    num_cjk = sum(1 for t in tokens if is_cjk(t))
    return (num_cjk * MIN_TOP_SCORE["zh"] + (len(tokens) - num_cjk) * MIN_TOP_SCORE["en"]) / len(tokens)


# A follow-up ("How much does it cost?" after "Do you offer express shipping?") is read with the customer's
# previous message when it is short and its own words point to the section the two find together.
FOLLOW_UP_MAX_WORDS = 8
FOLLOW_UP_OWN_SHARE = 0.4


def follow_up_query(kb: KnowledgeBase, message: str, previous: str | None, lang: str) -> str | None:
    """``previous`` and ``message`` together, when ``message`` reads as a follow-up of ``previous``: it is short
    (at most `FOLLOW_UP_MAX_WORDS` words or Chinese characters, stopwords aside), the two together find a
    section that clears the in-scope bar, and ``message``'s own words score at least `FOLLOW_UP_OWN_SHARE` of
    the bar on that section, or, where ``message`` alone is under the bar, every word of it is one the
    knowledge base uses ("How long do I have?", "要多久？") and it has no words or some score on that section.
    A new topic ("What's the weather in Paris?", "Tell me a joke") stays on its own. Else None."""
    if not previous or not previous.strip() or len(word_terms(message)) > FOLLOW_UP_MAX_WORDS:
        return None
    query = f"{previous}\n{message}"
    hits = kb.search(query, lang=lang, k=1)
    if not hits or hits[0].score < in_scope_bar(query, lang):
        return None
    own_hits = kb.search(message, lang=lang, k=len(kb.sections(lang)))
    own = next((h.score for h in own_hits if h.section.id == hits[0].section.id), 0.0)
    bar = in_scope_bar(message, lang)
    if own >= FOLLOW_UP_OWN_SHARE * bar:
        return query
    weak = not own_hits or own_hits[0].score < bar
    return query if weak and kb.knows_words(message, lang) and (own > 0 or not tokenize(message)) else None


# A message that asks to return something or for a refund and says nothing more specific ("Can I return a lamp?",
# "I want a refund", "床垫能退吗？", "我想退款") scores under the bar: "return" and "refund" are in most sections of
# their category. A product name can find the warranty section of its kind ("chair": furniture frames). Such a
# message gets its category's lead section: the return window, the refund timing.
PRODUCT_SECTIONS = frozenset({"warranty.electronics", "warranty.furniture"})  # their keywords name products
_INTENT_SECTIONS = (
    (re.compile(r"\brefund|\bmoney back\b|退款|退钱", re.I), "refunds.timing"),
    (re.compile(r"\breturn|\bsend (it|them|this|that) back\b|退(?![订出休])", re.I), "returns.time-limit"),
)


def intent_hits(kb: KnowledgeBase, question: str, lang: str, hits: list[ScoredSection],
                bar: float) -> list[ScoredSection]:
    """``hits`` with the lead section of the intent ``question`` names (`_INTENT_SECTIONS`) first, at the
    in-scope ``bar``, when the best hit is under the bar or one of the `PRODUCT_SECTIONS`. A best hit over the
    bar otherwise answers it better: the non-returnable items for "Can I return a gift card?", the shipping
    charges for "运费能退吗？", the warranty claims for "Can I get a replacement instead of a refund?"."""
    if hits and hits[0].score >= bar and hits[0].section.id not in PRODUCT_SECTIONS:
        return hits
    text = to_simplified(question)
    section_id = next((section_id for pattern, section_id in _INTENT_SECTIONS if pattern.search(text)), None)
    if section_id is None:
        return hits
    lead = ScoredSection(kb.get(section_id, lang), bar)
    return [lead] + [h for h in hits if h.section.id != section_id]


# A message that names a category and asks nothing more ("What's your return policy?", "How does shipping work?",
# "保修政策", "退货和退款政策是什么？") asks for its overview: the category's lead sections, the first of its file.
_CATEGORY_NAMES = {
    "returns": r"\breturns?\b|退货", "refunds": r"\brefunds?\b|退款", "shipping": r"\bshipping\b|\bdelivery\b|配送|发货",
    "payment": r"\bpayments?\b|支付|付款", "warranty": r"\bwarrant(y|ies)\b|\bguarantees?\b|保修",
    "account": r"\baccounts?\b|账户|账号", "orders": r"\borders?\b|订单"}
_OVERVIEW_WORDS = re.compile(
    r"\bpolic(y|ies)\b|\bworks?\b|\btell me\b|\bexplain\b|\brules?\b|\bterms\b|\boverview\b|\binfo(rmation)?\b|"
    r"\bwhat(?:'s| is| are) (your|the)\b|"
    r"政策|规定|规则|制度|介绍|说明|是什么|是怎样|怎样|有哪些|条款", re.I)
OVERVIEW_POINTS = 4


def overview_categories(question: str) -> list[str]:
    """The categories (one or two) ``question`` asks for the overview of: it names them (`_CATEGORY_NAMES`) and
    has words that ask in general ("policy", "how does … work", "政策") and no word of its own, or nothing but
    the names ("Returns?"). "Where's my refund?" and "我的退款呢？" ask something."""
    text = to_simplified(question)
    named = [c for c, pattern in _CATEGORY_NAMES.items() if re.search(pattern, text, re.I)]
    if not 1 <= len(named) <= 2:
        return []
    rest = re.sub("|".join(_CATEGORY_NAMES[c] for c in named), " ", text, flags=re.I)
    general = _OVERVIEW_WORDS.sub(" ", rest)
    if general == rest and re.search(r"\w", rest):
        return []
    return [] if word_terms(general) else named


def overview_hits(kb: KnowledgeBase, categories: list[str], lang: str, bar: float) -> list[ScoredSection]:
    """The lead sections of ``categories``, `OVERVIEW_POINTS` in all, shared out, each at the in-scope ``bar``."""
    share = OVERVIEW_POINTS // len(categories)
    return [ScoredSection(section, bar) for c in categories for section in kb.sections(lang, c)[:share]]


def retrieve(kb: KnowledgeBase, question: str, query: str | None, previous: str | None) -> tuple[str, str, list]:
    """The question's language, the query its sections are retrieved by (``query``, default the question, or
    the `follow_up_query` with ``previous``) and its top 8 sections (`intent_hits`), or for a question that
    asks for an overview, its categories' lead sections (`overview_hits`): what both routers route on."""
    lang = detect_lang(question)
    query = follow_up_query(kb, query or question, previous, lang) or query or question
    bar = in_scope_bar(query, lang)
    if categories := overview_categories(question):
        return lang, query, overview_hits(kb, categories, lang, bar)
    return lang, query, intent_hits(kb, question, lang, kb.search(query, lang=lang, k=8), bar)


class Route(NamedTuple):
    mode: str  # sot | direct | escalate | refuse
    reason: str
    lang: str
    hits: list[ScoredSection]


class RuleRouter:
    """Cheap rules: guard patterns first, then retrieval confidence, then the question's shape."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb

    def route(self, question: str, query: str | None = None, previous: str | None = None) -> Route:
        """Route ``question``; sections are retrieved by ``query`` (default: the question itself), or, for a
        follow-up of the customer's ``previous`` message (`follow_up_query`), by the two together."""
        lang, query, hits = retrieve(self.kb, question, query, previous)
        reason = escalation_reason(question)
        if reason:
            return Route("escalate", reason, lang, hits)
        reason = refusal_reason(question)
        if reason:
            return Route("refuse", reason, lang, hits)
        simplified = to_simplified(question)  # the Chinese rules are written in simplified characters
        if _GREETING.match(simplified):
            return Route("direct", "greeting", lang, [])
        if _CATALOG.search(simplified) and not _PRICED_POLICY.search(to_simplified(query)):
            return Route("refuse", "catalog", lang, hits)
        if overview_categories(question):
            return Route("sot", "overview", lang, hits)
        if (not hits or hits[0].score < in_scope_bar(query, lang)
                or hits[0].section.id == OUT_OF_SCOPE_SECTION or _OTHER_SHOPS.search(simplified)):
            return Route("refuse", "out_of_scope", lang, hits)
        return Route(shape_mode(question), "policy", lang, hits)


def shape_mode(question: str) -> str:
    """sot when the message asks several things (several questions, or clauses joined up), else direct."""
    if len(_QUESTION_MARKS.findall(question)) >= 2 or _CLAUSE_SEPARATORS.search(question):
        return "sot"
    return "direct"


class ModelRouter:
    """The model picks the mode (a constrained choice among the four); retrieval still supplies sections."""

    def __init__(self, llm, kb: KnowledgeBase) -> None:
        self.llm, self.kb = llm, kb

    async def route(self, question: str, query: str | None = None, previous: str | None = None) -> Route:
        """The model's mode for ``question``; sections are retrieved as `RuleRouter.route` retrieves them."""
        import json

        from chatbot.prompts import ROUTER_MODES, router_prompt
        from engine.sampling import SamplingParams

        lang, _, hits = retrieve(self.kb, question, query, previous)
        params = SamplingParams(max_tokens=8, json_schema={"type": "string", "enum": list(ROUTER_MODES)})
        final = None
        async for out in self.llm.generate(router_prompt(question), params):
            final = out
        mode = json.loads(final.text)
        # An answer needs a policy section: none found, or only the one that describes the assistant, is out of scope.
        if mode in ("sot", "direct") and (not hits or hits[0].section.id == OUT_OF_SCOPE_SECTION):
            return Route("refuse", "out_of_scope", lang, hits)
        reason = {"escalate": "model", "refuse": "out_of_scope"}.get(mode, "policy")
        return Route(mode, reason, lang, hits)
