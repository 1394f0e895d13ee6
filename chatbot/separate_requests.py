"""Messages that make separate requests in different categories ("The headboard arrived in pieces and I also need
the password reset email resent"): each part's own section, in the order told, is the outline.

A part is the text between joining words ("also", "plus", "另外", "还有", "顺便"). It makes a request of its own where
its question's best section, or a keyword phrase of the part (`KnowledgeBase.phrase_sections`), or a need it says in
words that name a topic well, finds a section over the in-scope bar, or where it tells a broken product (the defect's
lead section, `intents.intent_hits`); a later part that only tells an earlier request's circumstances or asks of it
makes none. Retrieval over the whole message keeps to the category its strongest words find and loses the other
request (stop 46's sweep of 113 mixed messages: 48 right; 66 with separate requests; 68 since stop 47).
"""
from __future__ import annotations

import re

from chatbot.follow_ups import NEW_TOPIC_SHARE
from chatbot.intents import OUT_OF_SCOPE_SECTION, intent_hits
from chatbot.knowledge import KnowledgeBase, Section, in_scope_bar
from chatbot.message_shape import GREETING, asked_part, asking_clauses, plain_message
from chatbot.outline_points import MAX_POINTS, answers_each_question, sections_asked
from chatbot.pruning import PRUNE_OVER_CHARS, PrunedMessage

# A word that starts another request: "also", "plus", "on top of that", "by the way", "P.S.", "And" opening a sentence,
# or 另外, 还有, 顺便, 对了, 而且 opening a clause (还有 inside one is "still": "退货还有几天").
_JOINER = re.compile(r"\b(?:and\s+)?(?:also|plus|on\s+top\s+of\s+that|another\s+thing|separately|besides|"
                     r"by\s+the\s+way|btw|oh\s+and|p\.?s\.?(?=\s))\b|(?<=[.!?]\s)and\b|"
                     r"(?:^|(?<=[，,。.!！?？；;\s]))(?:另外|还有|顺便|此外|同时|对了|再问一下|而且)", re.I)
# A later part that asks nothing is a request where it says a need or a problem ("I also need the password reset
# email resent", "Also, my 2FA text messages aren't arriving", "on top of that I got billed twice"); otherwise it
# tells the first request's circumstances ("Can I cancel my order? I placed it 20 minutes ago and also added express
# shipping to it", "顺便说一下，我选的是加急配送"; stop 46's sweep of one-request messages), or a part that opens with
# what to do ("I want to return my blender and also change my email address", stop 57's sweep).
_NEED_OR_PROBLEM = re.compile(r"\b(need|want|would\s+like|please|help|can'?t|cannot|won'?t|doesn'?t|don'?t|didn'?t|"
                              r"isn'?t|aren'?t|hasn'?t|haven'?t|never|twice|again|broken|damaged|lost|missing|expired|"
                              r"locked|wrong|late)\b|"
                              r"^\W*(change|update|cancel|reset|delete|close|return|send|resend|exchange|track)\b|"
                              r"想|要|请|帮|麻烦|希望|没|不能|不了|坏|丢|错|两次|过期|锁", re.I)
# A later question about what an earlier part named ("Also, is it one year or two?" after a laptop's warranty, "另外
# 12月20号送到的也算吗？") asks of that request, unless a keyword phrase names its own.
_REFERS_BACK = re.compile(r"\b(it|that|this|them|those|these)\b|这个|那个|它|也算|也可以|也能|也是", re.I)
# Categories whose sections one request's parts find: an order's circumstances told with its shipping ("Plus the
# order hasn't shipped yet" after an address change), a return asked of a defect told ("上周买的电水壶烧不热了。另外…
# 应该退货还是走保修？"); a later question of the other category is a request of its own where a keyword phrase names it.
_RELATED_CATEGORIES = (frozenset({"orders", "shipping"}), frozenset({"returns", "warranty"}),
                       frozenset({"returns", "refunds"}), frozenset({"payment", "refunds"}))


# A message that announces a list of problems ("I have three problems: …", "Two issues:") tells them between commas
# too ("… my password reset link expired, my order is late, and I was charged twice" was the password reset alone;
# stop 59's sweep); a list of questions is `outline_points.sections_asked`'s.
_LIST_ANNOUNCED = re.compile(r"\b(two|three|four|2|3|4|a few|several|some|multiple|couple of)\s+(problems|issues)\s*:",
                             re.I)
_LIST_COMMA = re.compile(r"[,;]\s*(?:and\s+)?|:\s*")


def request_parts(message: str) -> list[str]:
    """The parts of ``message`` that may each make a request: its text split at the joining words (`_JOINER`), and
    at commas after a list it announces (`_LIST_ANNOUNCED`)."""
    plain = plain_message(message)
    parts = _JOINER.split(plain)
    if _LIST_ANNOUNCED.search(plain):
        parts = [piece for part in parts for piece in _LIST_COMMA.split(part)]
    return [part for part in parts if part.strip(" ,，.。!！?？;；") and not GREETING.match(part)]


def _own_section(kb: KnowledgeBase, part: str, lang: str, asked: bool = False) -> tuple[Section | None, bool]:
    """The section ``part`` asks or tells a request of its own for: its best, where it is ``asked`` (a question), a
    keyword phrase of the part finds it, or the part says a need or a problem and names its topic well
    (`NEW_TOPIC_SHARE` times the bar), over the in-scope bar, or where the part tells a broken product (the defect's
    lead section); None otherwise. With whether the part tells a defect or a warranty's case."""
    hits = kb.search(part, lang=lang, k=MAX_POINTS)
    if not hits:
        return None, False
    bar = in_scope_bar(part, lang)
    lead, intent = intent_hits(kb, part, lang, hits, bar)
    best = lead[0]
    found = asked or best.section.id in kb.phrase_sections(part, lang) or (
        best.score >= NEW_TOPIC_SHARE * bar and bool(_NEED_OR_PROBLEM.search(part)))  # "另外，我想改一下账户的邮箱"
    own = intent == "defect" or (found and best.score >= bar)
    section = best.section if own and best.section.id != OUT_OF_SCOPE_SECTION else None
    return section, intent == "defect" or (section is not None and section.category == "warranty")


def separate_requests(kb: KnowledgeBase, message: str, lang: str) -> list[Section]:
    """The sections of the separate requests ``message`` makes, one per part in the order told, where they span two
    categories or more; otherwise none, and none for a message of more than `MAX_POINTS` parts or one long enough to
    be pruned (a pasted thread's parts are mostly its story). A part's question names its request
    before its story ("I ordered the wrong color of throw pillows. Can I cancel?" asks for the cancellation), but not
    before a broken product it tells ("The kettle stopped heating. Return or warranty?": the early defects)."""
    parts = request_parts(message)
    if not 2 <= len(parts) <= MAX_POINTS or len(message) > PRUNE_OVER_CHARS:  # a pasted thread's parts are its story
        return []
    found: list[Section] = []
    for n, part in enumerate(parts):
        told, defect = _own_section(kb, part, lang)
        question = asked_part(part)
        later = n > 0 and bool(found)
        if later and _REFERS_BACK.search(question) and not kb.phrase_sections(question, lang):
            continue  # asked of an earlier request
        asked = _own_section(kb, question, lang, asked=True)[0] if question != part and not defect else None
        section = asked or told  # a broken product told is the warranty's, whatever its question asks
        statement = not asking_clauses(part)
        if section and later and (
                (statement and not defect and not _NEED_OR_PROBLEM.search(part))
                or (any({section.category, found[-1].category} <= pair for pair in _RELATED_CATEGORIES)
                    and (statement or section.id not in kb.phrase_sections(part, lang)))):
            continue  # the circumstances of an earlier request, or a question of its own asked of it
        if section and section not in found:
            found.append(section)
    return found[:MAX_POINTS] if len({s.category for s in found}) >= 2 else []


def points_asked(kb: KnowledgeBase, requests: tuple[str, ...], pruned: PrunedMessage,
                 lang: str) -> tuple[dict[str, int], bool]:
    """The sections a routed message asks for, each with the place it is asked in, and whether they are the whole
    outline (`outline_points.select_points`' ``asked`` and ``only_asked``): the separate ``requests`` the router
    found (`router.Route.requests`, the ids of `separate_requests`), else its separate questions'
    (`outline_points.sections_asked`)."""
    if requests:
        return {section_id: n for n, section_id in enumerate(requests)}, True
    asked = sections_asked(kb, pruned.asking, lang)
    return asked, answers_each_question(pruned.asking, asked)
