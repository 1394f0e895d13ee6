"""SoT-R routing: each message gets one of sot, direct, escalate, refuse.

Two routers share one interface: `RuleRouter` (guard rules, retrieval scores and question shape)
and `ModelRouter` (a constrained choice by the model). `supportdesk eval --router` compares them.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from chatbot.guard import escalation_reason, refusal_reason
from chatbot.knowledge import KnowledgeBase, ScoredSection, detect_lang, is_cjk, tokenize

_GREETING = re.compile(
    r"^\s*(hi|hello|hey|good (morning|afternoon|evening)|thanks?( you)?|你好|您好|嗨|谢谢)( there| all)?\W*$", re.I)
_OTHER_SHOPS = re.compile(r"\b(walmart|amazon|target|ebay|best ?buy|costco|ikea|wayfair)\b|京东|淘宝|天猫|拼多多|苏宁", re.I)
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


class Route(NamedTuple):
    mode: str  # sot | direct | escalate | refuse
    reason: str
    lang: str
    hits: list[ScoredSection]


class RuleRouter:
    """Cheap rules: guard patterns first, then retrieval confidence, then the question's shape."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb

    def route(self, question: str, query: str | None = None) -> Route:
        """Route ``question``; sections are retrieved by ``query`` (default: the question itself)."""
        lang = detect_lang(question)
        hits = self.kb.search(query or question, lang=lang, k=8)
        reason = escalation_reason(question)
        if reason:
            return Route("escalate", reason, lang, hits)
        reason = refusal_reason(question)
        if reason:
            return Route("refuse", reason, lang, hits)
        if _GREETING.match(question):
            return Route("direct", "greeting", lang, [])
        if (not hits or hits[0].score < in_scope_bar(query or question, lang)
                or hits[0].section.id == OUT_OF_SCOPE_SECTION or _OTHER_SHOPS.search(question)):
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

    async def route(self, question: str, query: str | None = None) -> Route:
        """The model's mode for ``question``; sections are retrieved by ``query`` (default: the question)."""
        import json

        from chatbot.prompts import ROUTER_MODES, router_prompt
        from engine.sampling import SamplingParams

        lang = detect_lang(question)
        hits = self.kb.search(query or question, lang=lang, k=8)
        params = SamplingParams(max_tokens=8, json_schema={"type": "string", "enum": list(ROUTER_MODES)})
        final = None
        async for out in self.llm.generate(router_prompt(question), params):
            final = out
        mode = json.loads(final.text)
        if mode in ("sot", "direct") and not hits:
            return Route("refuse", "out_of_scope", lang, hits)
        reason = {"escalate": "model", "refuse": "out_of_scope"}.get(mode, "policy")
        return Route(mode, reason, lang, hits)
