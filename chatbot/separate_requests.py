"""Messages that make separate requests in different categories ("The headboard arrived in pieces and I also need
the password reset email resent"): each part's own section, in the order told, is the outline.

A part is the text between joining words ("also", "plus", "另外", "还有", "顺便"). It makes a
request of its own where its best section is found by a keyword phrase of that part (`KnowledgeBase.phrase_sections`)
and clears the in-scope bar, or where it tells a broken product (the defect's lead section, `intents.intent_hits`).
Retrieval over the whole message keeps to the category its strongest words find and loses the other request (stop 46's
sweep of 113 mixed messages: 48 right).
"""
from __future__ import annotations

import re

from chatbot.intents import OUT_OF_SCOPE_SECTION, intent_hits
from chatbot.knowledge import KnowledgeBase, Section, in_scope_bar
from chatbot.message_shape import GREETING, asked_part, plain_message
from chatbot.outline_points import MAX_POINTS, answers_each_question, sections_asked
from chatbot.pruning import PRUNE_OVER_CHARS, PrunedMessage

# A word that starts another request: "also", "plus", "on top of that", or 另外, 还有, 顺便 opening a clause (还有 inside
# one is "still": "退货还有几天").
_JOINER = re.compile(r"\b(?:and\s+)?(?:also|plus|on\s+top\s+of\s+that|another\s+thing|separately|besides)\b|"
                     r"(?:^|(?<=[，,。.!！?？；;\s]))(?:另外|还有|顺便|此外|同时)", re.I)


def request_parts(message: str) -> list[str]:
    """The parts of ``message`` that may each make a request: its text split at the joining words (`_JOINER`)."""
    return [part for part in _JOINER.split(plain_message(message)) if part.strip(" ,，.。!！?？;；")
            and not GREETING.match(part)]


def _own_section(kb: KnowledgeBase, part: str, lang: str, asked: bool = False) -> tuple[Section | None, bool]:
    """The section ``part`` asks or tells a request of its own for: its best, where it is ``asked`` (a question) or a
    keyword phrase of the part finds it, over the in-scope bar, or where the part tells a broken product (the
    defect's lead section); None otherwise. With whether the part tells a defect or a warranty's case."""
    hits = kb.search(part, lang=lang, k=MAX_POINTS)
    if not hits:
        return None, False
    bar = in_scope_bar(part, lang)
    lead, intent = intent_hits(kb, part, lang, hits, bar)
    best = lead[0]
    found = asked or best.section.id in kb.phrase_sections(part, lang)
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
    for part in parts:
        told, defect = _own_section(kb, part, lang)
        question = asked_part(part)
        asked = _own_section(kb, question, lang, asked=True)[0] if question != part and not defect else None
        section = asked or told  # a broken product told is the warranty's, whatever its question asks
        if section and section not in found:
            found.append(section)
    return found[:MAX_POINTS] if len({s.category for s in found}) >= 2 else []


def points_asked(kb: KnowledgeBase, reason: str, pruned: PrunedMessage, lang: str) -> tuple[dict[str, int], bool]:
    """The sections a routed message asks for, each with the place it is asked in, and whether they are the whole
    outline (`outline_points.select_points`' ``asked`` and ``only_asked``): its separate requests where the router
    found them (``reason`` "requests"), else its separate questions' (`outline_points.sections_asked`)."""
    if reason == "requests" and (requests := separate_requests(kb, pruned.text, lang)):
        return {s.id: n for n, s in enumerate(requests)}, True
    asked = sections_asked(kb, pruned.asking, lang)
    return asked, answers_each_question(pruned.asking, asked)

