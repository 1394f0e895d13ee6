"""Follow-ups: a short message read with the customer's previous one ("How much does it cost?" after "Do you offer
express shipping?"), or on its own when it names a topic of its own."""
from __future__ import annotations

import re

from chatbot.chinese_script import to_simplified
from chatbot.durations import durations
from chatbot.category_overviews import named_categories
from chatbot.intents import OUT_OF_SCOPE_SECTION, PRODUCT_SECTIONS, intent_hits
from chatbot.knowledge import KnowledgeBase, ScoredSection, Section, in_scope_bar, lead_with
from chatbot.message_shape import asking_clauses, clauses, is_open_question
from chatbot.order_events import says_it_shipped
from chatbot.text_terms import tokenize, word_terms

# A follow-up ("How much does it cost?" after "Do you offer express shipping?") is read with the customer's
# previous message when it is short and its own words point to the section the two find together.
FOLLOW_UP_MAX_WORDS = 8
FOLLOW_UP_OWN_SHARE = 0.4
# Words that ask about whatever the previous message was about: "How long does that take?", "What's the minimum?",
# "要等多久？". Alone, such a message finds the section that uses them most ("那要等多长时间？": the refund timing).
_HOW_LONG_WORDS = frozenset(word_terms("how long, how soon, how many days, take, wait, last, back, come, sorted, "
                                      "sort out, resolve, resolved; 多久 长时间 等 要 需 几天 大概 能到 回来 处理好 解决"))
# "when do I get it back?", "how long will it take to sort out?", "多久能处理好？"
_HOW_MUCH_WORDS = frozenset(word_terms("how much, cost, minimum, maximum, min, max, minimum order, pay, free, fee, "
                                      "charge, deduct; "
                                      "少 钱 最低 高 费用 付 免费 收费 扣 买 花 手续费"))
# "what do I need to include?" after a claim's question, "how long until I can try again?" after a lockout (stop 62's
# sweep: refused)
_WHAT_IT_NEEDS_WORDS = frozenset(word_terms("need, include, provide, submit, attach, until, try again; 需要 提供 提交 材料"))
_ABOUT_IT_WORDS = _HOW_LONG_WORDS | _HOW_MUCH_WORDS | _WHAT_IT_NEEDS_WORDS
# The section that says how long, of a section or of its category: "多久？" after "我想退货" asks for the return window
# (it got the return process, while "how long?" after "I want to return something" got the window), after a refund
# for its timing, after an exchange for the exchange's.
HOW_LONG_SECTIONS = {"refunds": "refunds.timing", "returns": "returns.time-limit",
                     "returns.exchanges": "returns.exchanges"}


_PRICE = re.compile(r"\$\d|\d%")  # a section that states a price or a fee
# The money of a charge the previous message tells, asked back: "多久能退回来？" after "我被扣了两次钱" asks when the
# hold drops off (it got the return window for "多久能退"), "when will I get the money back?" too (the refund's timing).
_MONEY_BACK = re.compile(r"\b(money|it|that|them)\s+back\b|退回来|钱.*回来|(钱|款).*退|退.*钱", re.I)
CHARGE_SECTIONS = frozenset({"payment.double-charge"})

# "What about X?", "And X?", "And for X?", "And a laptop?" (read without its "and", `message_shape.plain_message`),
# "What if my cart is $80?", "and if I order at noon?", "X呢？": the previous message's question, asked of X.
# "如果订单超过1000美元呢？", "那我48.5美元的订单呢？": a Chinese condition on the previous case, which counts one word a
# character and may take twice `FOLLOW_UP_MAX_WORDS` (stop 46's sweep: refused).
_ZH_WHAT_IF = re.compile(r"^\W*(那|那么)?(如果|假如|要是|万一|那)[^。！!？?]{0,20}呢\W*$")
_WHAT_ABOUT = re.compile(rf"^\W*(?i:what about|how about|what if|and|if|for|an?|the|even)\b|^\W*[^\W\d_]{{1,8}}呢\W*$|"
                         rf"{_ZH_WHAT_IF.pattern}")
_WHAT_IF = re.compile(r"^\W*(what if|and if|even if|if)\b", re.I)  # a condition on the previous case
# A question about the previous answer itself: "does that include Saturdays?" after the standard shipping's days.
_OF_THAT = re.compile(r"^\W*(does|do|did|is|was|will|would|can|could|should)\s+(that|this)\b", re.I)
# A detail told with whether the previous answer holds for it: "my order is $300, does that work?" after Klarna,
# "I bought it 20 days ago, does that still work?" after a price drop, "订单只有80美元可以吗".
_STILL_HOLDS = re.compile(r"\b(does|would|will|is) (that|this|it) (still )?(work|count|apply|qualify|be ok|be okay)\b"
                          r"\W*$|(\b(is|would|will) (that|this|it)( still)?( be)?|\bstill) (ok|okay|fine|enough)\W*$|"
                          r"\b(ok|okay|fine|enough)\s*[?？]+\s*$|"
                          r"\b(am i|are we|is it|is that|would i be) (still )?eligible\W*$|"
                          r"(这样|那)?(还)?(可以|行|算|适用|有效)吗\W*$|(这样|那)(还)?(能|可以)(退|换|退货|用)吗\W*$", re.I)


def _all_words_in(message: str, words: frozenset[str]) -> bool:
    return set(word_terms(to_simplified(message))) <= words


def asks_about_the_topic(message: str) -> bool:
    """Whether every word of ``message`` asks about a topic named elsewhere ("How much does it cost?", "多少钱？",
    "How long?"): a follow-up's previous message, or a message's other question, names it."""
    return _all_words_in(message, _ABOUT_IT_WORDS)


def asks_what_if(message: str) -> bool:
    """Whether ``message`` asks of the previous case under a condition it tells: "what if they're broken?"."""
    return bool(_WHAT_IF.match(message) or _ZH_WHAT_IF.match(to_simplified(message)))


def asks_how_long(message: str) -> bool:
    """Whether every word of ``message`` asks how long about a topic named elsewhere ("How long?", "要几天？")."""
    return _all_words_in(message, _HOW_LONG_WORDS)


def _is_short_statement(message: str) -> bool:
    """Whether ``message`` asks nothing and has at most `FOLLOW_UP_MAX_WORDS` words."""
    return not asking_clauses(message) and len(word_terms(message)) <= FOLLOW_UP_MAX_WORDS


def tells_a_duration(message: str) -> bool:
    """Whether ``message`` is a short statement of how long ago or how old (it asks nothing, at most
    `FOLLOW_UP_MAX_WORDS` words): "It's been 2 weeks", "It's 3 weeks old", "两周了"; "快递几天到" asks."""
    return bool(durations(message)) and _is_short_statement(message)


# Where the customer is: "I'm in Toronto", "We live in the UK", "我在多伦多", "我住在温哥华": a place's name, capitalized
# ("I'm in a hurry" tells none) unless the writer capitalizes nothing ("im in toronto").
_TELLS_A_PLACE = re.compile(
    r"^\W*(?i:(?:i'?m|i am|im|we'?re|we are|i live|we live)\s+(?:(?:based|located|living)\s+)?in\s+(?:the\s+)?)"
    r"(?:[A-Z]|(?P<lower>(?!an?\b)[a-z]))"
    r"|^\W*(?:我|我们)(?:住在|人在|在)[^\W\d_]{2,8}\W*$")


def tells_a_place(message: str) -> bool:
    """Whether ``message`` is a short statement of where the customer is (it asks nothing): "I'm in Toronto" after
    "Do you ship to Canada?" is read with it (it was refused: a city names no policy)."""
    told = _TELLS_A_PLACE.match(to_simplified(message))
    return bool(told) and (not told["lower"] or message == message.lower()) and _is_short_statement(message)


def names_a_place_abroad(kb: KnowledgeBase, text: str, lang: str) -> bool:
    """Whether ``text`` names a place abroad: a keyword phrase of the international shipping ("to Canada", "寄到日本"),
    or a clause that tells where the customer is (`tells_a_place`) that finds the international shipping ("Is express
    shipping available? I'm in Canada"; "I live in Australia", whose "live" finds the live chat first)."""
    if ABROAD_SECTION in kb.phrase_sections(text, lang):
        return True
    return any(tells_a_place(clause.strip()) and ABROAD_SECTION in {h.section.id for h in kb.search(clause, lang=lang)}
               for clause in clauses(text))


def tells_it_shipped(message: str) -> bool:
    """Whether ``message`` is a short statement that the order has shipped (it asks nothing): "It was dispatched this
    morning" after "Can I cancel my order?" is read with it (it got the same-day dispatch, a section its words find)."""
    return says_it_shipped(message) and _is_short_statement(message)


# An amount of money: "$80", "$1,500", "80美元", "1500块", "80 dollars".
_AMOUNT = re.compile(r"\$\s?\d|\d[\d,]*(\.\d+)?\s*(美元|美金|刀|块|元|(?i:dollars?|bucks|usd)\b)")


def tells_an_amount(message: str) -> bool:
    """Whether ``message`` is a short statement of an amount (it asks nothing): "订单80美元" after "可以用Klarna吗？" is
    read with it (it was refused: an amount names no policy), as "My order is $80" is."""
    return bool(_AMOUNT.search(message)) and _is_short_statement(message)


# A statement about the customer's own case: "It's SAVE20", "I placed it yesterday", "I don't have the receipt",
# "我昨天下的单", and a Chinese one without a subject ("摔的" after "我的电视坏了", stop 53's sweep: refused).
_OWN_CASE = re.compile(r"^\W*(?i:i|i'm|i've|it|it's|its|they|they're|we|we're|my|this|that)\b|"
                       r"^\W*(我|它|这个|那个|是|不小心|摔|掉|被)")

# A request, not a statement of the case: "I want a gift wrap" after "Where is my order?" asks for an uncovered topic.
_WANTS = re.compile(r"^\W*(?i:i (want|need|would like)|i'd like)\b|^\W*我(想|要|需要)")


def tells_its_case(kb: KnowledgeBase, message: str, previous: str, lang: str) -> bool:
    """Whether ``message`` is a short statement about the customer's own case ("It's SAVE20" after "My promo code
    isn't working", "I placed it yesterday" after "Can I cancel my order?") that finds no section alone, or only
    the uncovered topics' (`OUT_OF_SCOPE_SECTION`: "I don't have the receipt" after "How do I file a warranty
    claim?"; not a request, `_WANTS`), and is no follow-up (`follow_up_hits`): it is the end of ``previous`` (each
    was refused alone: a code, a day, an uncovered receipt name no policy)."""
    if not (_is_short_statement(message) and _OWN_CASE.match(to_simplified(message))):
        return False
    own = kb.search(message, lang=lang, k=1)
    uncovered = bool(own) and own[0].section.id == OUT_OF_SCOPE_SECTION and not _WANTS.match(to_simplified(message))
    return ((not own or own[0].score < in_scope_bar(message, lang) or uncovered)
            and follow_up_hits(kb, message, previous, lang, k=1) is None)


NEW_TOPIC_SHARE = 2.0  # a message scoring this much over the in-scope bar on another section names its own topic
OTHER_TOPIC_SHARE = 0.5  # ... where the previous message's category scores under this share of its best


def names_its_topic_well(own: list[ScoredSection], message: str, lang: str) -> bool:
    """Whether ``message``, whose own search found ``own`` (best first), names a topic well: its best section scores
    `NEW_TOPIC_SHARE` times the in-scope bar ("I want to delete my account", "I forgot my password")."""
    return bool(own) and own[0].score >= NEW_TOPIC_SHARE * in_scope_bar(message, lang)


def names_another_topic(kb: KnowledgeBase, message: str, previous: str, lang: str) -> bool:
    """Whether ``message`` names a topic of its own well (its best section scores `NEW_TOPIC_SHARE` times the
    in-scope bar) in another category than ``previous``'s best section, where it scores less than half as much:
    "Actually, I just want to cancel the order instead, I placed it 20 minutes ago" after "How do I return an
    item?" is no end of that question, though it tells how long ago; "下单半小时了 还没发货" after "我想取消订单"
    is (the dispatch's "还没发货" finds it best, and the cancellation at 0.68 of it)."""
    own, topic = kb.search(message, lang=lang, k=len(kb.sections(lang))), kb.search(previous, lang=lang, k=1)
    if not names_its_topic_well(own, message, lang):
        return False
    if not topic:
        return True
    kept = max((h.score for h in own if h.section.category == topic[0].section.category), default=0.0)
    return own[0].section.category != topic[0].section.category and kept < OTHER_TOPIC_SHARE * own[0].score


def charge_asked_back(kb: KnowledgeBase, message: str, previous: str, lang: str) -> Section | None:
    """The section of the charge ``previous`` tells (`CHARGE_SECTIONS`) where ``message`` asks for its money back
    (`_MONEY_BACK`), else None."""
    topic = kb.search(previous, lang=lang, k=1)
    if topic and topic[0].section.id in CHARGE_SECTIONS and _MONEY_BACK.search(message) and asking_clauses(message):
        return topic[0].section
    return None


def follow_up_hits(kb: KnowledgeBase, message: str, previous: str | None, lang: str,
                   k: int) -> list[ScoredSection] | None:
    """The top ``k`` sections of ``previous`` and ``message`` together, when ``message`` reads as a follow-up of
    ``previous``; else None. A follow-up is short (at most `FOLLOW_UP_MAX_WORDS` words or Chinese characters,
    stopwords aside), the two together find a section that clears the in-scope bar (or their intent's sections do,
    `intents.intent_hits`: "How do I do it?" after "My headphones broke after 3 months"; a question that names
    nothing is searched by ``previous`` alone), and ``message``'s own words
    score at least `FOLLOW_UP_OWN_SHARE` of the bar on that section, or every word of it asks about the previous
    topic ("How long does that take?", "那要等多长时间？", `_ABOUT_IT_WORDS`) or names nothing ("What do I do now?",
    `message_shape.is_open_question`), or it asks "what about" something it names too little alone to find
    ("运费呢？", `_WHAT_ABOUT`), or asks whether the answer holds for a detail it tells (`_STILL_HOLDS`: "my order is
    $300, does that work?"), or, where ``message`` alone is under
    the bar, every word of it is one the knowledge base uses ("How long do I have?", "要多久？") and it has no
    words or some score on that section, or it tells something (no clause asks) that scores as much on a section of
    that section's category ("I didn't get the email" after "How do I reset my password?"). A new topic ("What's
    the weather in Paris?", "Tell me a joke"), or one the message names well (`NEW_TOPIC_SHARE`: "I want to delete
    my account" after a password reset), stays on its own.

    Where ``message`` alone is under the in-scope bar or asks about the previous topic ("How much does that
    cost?" after "Can I return my order?": the return fees, not standard shipping), and asks more than how long,
    the sections of the previous topic (the category of ``previous``'s best section, and those it names:
    "退货要多久？" finds the refund timing best but is about returns) also get ``message``'s own score: "Who pays
    for it?" after "How do I return an item?" asks for the return fees, though the two together find the return
    process first. A price asked of a previous message whose best section states one ("多少钱？" after
    "拆封的耳机能退吗？": the restocking fee's 15%) is that section's."""
    most = 2 * FOLLOW_UP_MAX_WORDS if _ZH_WHAT_IF.match(to_simplified(message)) else FOLLOW_UP_MAX_WORDS
    if not previous or not previous.strip() or len(word_terms(message)) > most:
        return None
    query, everything = f"{previous}\n{message}", len(kb.sections(lang))
    # a question that names nothing asks of the previous message alone ("what are my options?" after a broken pair
    # of headphones: "options" found the shipping options)
    hits = kb.search(previous if is_open_question(message) else query, lang=lang, k=everything)
    pair_bar = in_scope_bar(query, lang)  # the two together's; ``bar`` below is the message's own
    if not hits or hits[0].score < pair_bar:
        # a question after a story the search misses ("How do I do it?" after "My headphones broke after 3
        # months"): the story's intent's sections, or the section its rules put first at the bar ("what now?" after
        # "You sent me a blue lamp instead of the white one": the free return of a wrong item)
        hits, intent = intent_hits(kb, query, lang, hits, pair_bar) if asking_clauses(message) else (hits, None)
        if intent is None and (not hits or hits[0].score < pair_bar):
            return None
    if charge := charge_asked_back(kb, message, previous, lang):
        return lead_with(hits[0].score, hits, charge)[:k]
    topic = kb.search(previous, lang=lang, k=1)
    own_hits = kb.search(message, lang=lang, k=everything)
    own_score = {h.section.id: h.score for h in own_hits}
    bar = in_scope_bar(message, lang)
    own, weak = own_score.get(hits[0].section.id, 0.0), not own_hits or own_hits[0].score < bar
    if (names_its_topic_well(own_hits, message, lang) and own_hits[0].section.id != hits[0].section.id
            and not _WHAT_IF.match(message)):  # "what if it's never been worn?" asks of the previous case
        return None  # a topic of its own ("I want to delete my account" after a password reset)
    about_it = asks_about_the_topic(message)
    tells_more = not asking_clauses(message) and any(  # "I didn't get the email" after a password reset
        h.section.category == hits[0].section.category and h.score >= FOLLOW_UP_OWN_SHARE * bar for h in own_hits)
    # "and for furniture?", "沙发呢？": the previous question asked of a product, which finds its warranty alone
    of_a_product = bool(own_hits) and own_hits[0].section.id in PRODUCT_SECTIONS and bool(
        _WHAT_ABOUT.match(to_simplified(message)))
    what_about = ((weak and bool(_WHAT_ABOUT.match(to_simplified(message)) or _OF_THAT.match(message)))
                  or bool(_STILL_HOLDS.search(message)) or of_a_product)  # "运费呢？", "does that include Saturdays?"
    if not (about_it or what_about or is_open_question(message) or own >= FOLLOW_UP_OWN_SHARE * bar
            or tells_more or (weak and kb.knows_words(message, lang) and (own > 0 or not tokenize(message)))
            # a bare return or refund asked of what the previous message tells ("能退吗" after "我的耳机坏了")
            or (weak and intent_hits(kb, message, lang, own_hits, bar)[1] in ("return", "refund"))):
        return None
    how_long = asks_how_long(message)
    if own_hits and (weak or about_it) and topic and not how_long:
        categories = {topic[0].section.category, *named_categories(previous)}
        hits = sorted((ScoredSection(h.section, h.score + own_score.get(h.section.id, 0.0)
                                     * (h.section.category in categories)) for h in hits), key=lambda h: -h.score)
    if topic and ((about_it and not how_long and _PRICE.search(topic[0].section.text))
                  or (weak and _STILL_HOLDS.search(message))):
        # the price of what the previous message asked about: "多少钱？" after "拆封的耳机能退吗？", the restocking fee;
        # the previous answer asked of a detail that finds no section alone: "it's unused, would that be fine?" after
        # "Can I return a personalized mug?" asks about the items no one can return, not the condition "unused" finds
        # under the bar ("吊牌已经剪掉了 还行吗" finds the condition well)
        hits = sorted(hits, key=lambda h: h.section.id != topic[0].section.id)
    how_long_section = topic and how_long and (HOW_LONG_SECTIONS.get(topic[0].section.id)
                                               or HOW_LONG_SECTIONS.get(topic[0].section.category))
    if how_long_section:  # "多久？" after "我想退货": the return window, not the process the two find
        hits = lead_with(hits[0].score, hits, kb.get(how_long_section, lang))
    if topic and of_a_product:  # the product's term after a warranty's (not the previous product's), else no
        # warranty: "How long do I have to send back a desk lamp?" then "and for furniture?" (stop 45's sweep), and
        # the previous question's section where nothing else clears the bar
        rest = [h for h in hits if h.section.id not in PRODUCT_SECTIONS]
        if topic[0].section.category == "warranty":
            hits = lead_with(hits[0].score, hits, own_hits[0].section)
        elif not rest or rest[0].score < in_scope_bar(query, lang):
            hits = lead_with(hits[0].score, rest, topic[0].section)
        else:
            hits = rest
    return hits[:k]


ABROAD_SECTION, HOME_SECTION = "shipping.international", "shipping.standard"
DOMESTIC_SECTIONS = (HOME_SECTION, "shipping.express")  # times and prices a place abroad does not get


def ships_abroad(kb: KnowledgeBase, question: str, hits: list[ScoredSection], intent: str | None, lang: str,
                 message: str | None = None, previous: str | None = None) -> bool:
    """Whether a place abroad decides the answer, which then leads with the international shipping: ``question``
    names one (`names_a_place_abroad`) and its best of ``hits`` is a shipping section, where no ``intent`` decides
    ("Can I get express to Canada?"); or ``message`` follows up ``previous``, which names one and finds the
    international shipping best, and ``message`` names too little alone, asks about the topic, or finds the
    standard shipping, which the place overrides ("How much does it cost?" after "Do you ship to Canada?", "多久能
    到？" after "能寄到日本吗？" got the standard shipping's price and days)."""
    if intent is None and hits and names_a_place_abroad(kb, question, lang) and (
            hits[0].section.category == "shipping"  # or no section found well, the international one among the hits:
            or (hits[0].score < in_scope_bar(question, lang)  # "I live in Mexico, can I order?" (live chat's "live")
                and any(h.section.id == ABROAD_SECTION for h in hits))):
        return True
    if not previous or not message:
        return False
    topic = kb.search(previous, lang=lang, k=1)
    if not topic or topic[0].section.id != ABROAD_SECTION or not names_a_place_abroad(kb, previous, lang):
        return False
    own = kb.search(message, lang=lang, k=1)
    return (not own or own[0].score < in_scope_bar(message, lang) or own[0].section.id == HOME_SECTION
            or asks_about_the_topic(message))
