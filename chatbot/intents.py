"""Intents that retrieval misses, and the sections that answer them.

BM25 finds a section by the words a message shares with it. Some of the commonest messages share only the
words that every section of a category has, or a product name that a warranty section lists:

- a category's overview ("What's your return policy?", "How does shipping work?", "保修政策"): the
  category's lead sections, the first of its file;
- a broken product ("My TV doesn't turn on", "椅子腿断了"): a defect in the return window, the warranty's
  coverage and claims, and the product's own warranty where the message names one;
- a bare return or refund request ("Can I return a lamp?", "I want a refund", "床垫能退吗？"): the return
  window, the refund timing.
"""
from __future__ import annotations

import re

from chatbot.category_overviews import (OVERVIEW_POINTS, PRODUCT_CLASS, PRODUCT_SECTIONS, TERM_WORDS,
                                        overview_categories, product_meant)
from chatbot.chinese_script import to_simplified
from chatbot.durations import durations, past_the_return_window
from chatbot.knowledge import KnowledgeBase, ScoredSection, lead_with
from chatbot.message_shape import asking_clauses, questions_asked
from chatbot.order_events import (ARRIVED_BROKEN, CANCEL, CHARGED, DELIVERED, NOT_SHIPPED, ORDER_TOTAL, SHIPPED,
                                  past_cancelling)
from chatbot.product_names import names_other_goods_only, search_as_asked
from chatbot.product_problems import (ACCIDENT_DENIED, CLAIM_ASKED, DEFECT, DEFECT_SUPPOSED, LOST_PART, PHONE,
                                      WRONG_ITEM)
from chatbot.return_words import RETURN_WORDS, UNOPENED, WINDOW_ASKED
from chatbot.text_terms import split_sentences, word_terms

PURCHASE_SECTION = "warranty.protection-plan"  # "bought within 30 days": any story of a purchase finds it
OUT_OF_SCOPE_SECTION = "contact.scope"  # describes the assistant; its keywords are topics no policy covers
SEVERAL_POINTS = frozenset({"overview", "defect"})  # intents answered by SoT over their sections
INTENT_LEAD = 1.25  # an intent's sections score this much over the best hit: others join its outline only as high
# A product's warranty scoring this share of a payment's or account's best hit names a product a defect is about ("My
# laptop is not charging": the electronics' 3.91 against the double charge's 5.96); "My promo code doesn't work" none.
PRODUCT_NAMED_SHARE = 0.5
_DEFECT_SECTIONS = ("warranty.early-defects", "warranty.claims", "warranty.coverage")
TRANSIT_DAMAGE_SECTION = "shipping.lost-damaged"
RETURN_WINDOW_SECTION = "returns.time-limit"
CANCELLATION_SECTION = "orders.cancellation"
NON_RETURNABLE_SECTION = "returns.non-returnable"
# What a return or refund of an item no one can return finds by its other words: "get my money back" the refund timing,
# "by mistake" or "changed my mind" the cancellation, "send it back" the return process.
_ASKED_OF_A_FINAL_ITEM = frozenset({"refunds.timing", CANCELLATION_SECTION, "returns.process"})
FINAL_ITEM_SHARE = 0.7  # the non-returnable items scoring this share of such a best hit name one; tied atop a ranking
_TIED = 0.99  # by score (a follow-up's may put its topic first), "Can I return this item?" names none ("item" alone)
AFTER_SHIPMENT_SECTION = "orders.after-shipment"
HOLD_SECTION = "payment.double-charge"
_CHARGE_TIMING = "payment.charge-timing"  # "pending charge" finds it: of an order cancelled, the hold answers
HOME_SHIPPING_SECTION = "shipping.standard"
_BY_COMMON_WORDS = frozenset({HOME_SHIPPING_SECTION, "shipping.express", _CHARGE_TIMING, HOLD_SECTION})
_NOT_YET_CANCELLING = frozenset({AFTER_SHIPMENT_SECTION, "shipping.dispatch", CANCELLATION_SECTION,
                                 "returns.exchanges"})


def mentions_a_return(text: str) -> bool:
    """Whether ``text`` speaks of returning something ("I want to return it", "想退", "寄回")."""
    return bool(RETURN_WORDS.search(to_simplified(text)))


_SINCE_BOUGHT = re.compile(r"买了|收到|到货|签收|送达|用了|过了|\b(bought|got it|received|had it|delivered|it'?s been|it has "
                           r"been|ordered)\b", re.I)
# A return the customer has sent, and no refund or word since ("I returned something a month ago and haven't heard
# anything", "我两周前就退货了，到现在还没消息"): the refund's timing, then the bank's.
_RETURN_SENT = re.compile(r"\b(i|we)( have|'ve)? (already )?(returned|sent (\w+ )?back|mailed (\w+ )?(return|back)|"
                          r"shipped (\w+ )?(return )?back|dropped off (\w+ )?return)|"
                          r"退货了|退回去|退回了|寄回去|寄回了|寄回给你们|退货(包裹)?寄出|退了一?[个件台张]", re.I | re.A)
_NO_WORD_SINCE = re.compile(r"\bhaven'?t (heard|gotten|got|received|seen)\b|"
                            r"\bstill (nothing|no|waiting|haven'?t|don'?t|do not)\b|"
                            r"\bno (refund|update|word|news)\b|\bany (update|news)\b|\bnothing yet\b|(退款|钱)还没(到|收到|退)|"
                            r"还没(消息|动静|退款|收到钱|到账|收到退款|退)|没(消息|动静|到账)", re.I | re.A)
# or a refund awaited that has not come ("my refund for a rug hasn't arrived": the lost parcels, by "hasn't arrived")
_REFUND_AWAITED = re.compile(r"\b(my|the) refund\b[^.?!]{0,25}\b(hasn'?t|has not|never|didn'?t|did not)\s+"
                             r"(arrived|come|shown up|posted|come through)\b|退款[^。！？!?]{0,8}还没(到|收到|到账)", re.I | re.A)
# or a refund told issued ("Your email says my refund was issued 4 days ago but my Visa still doesn't show it",
# "退款已经处理了，卡里还没看到"): the bank's time, not the refund's (stop 62's sweep)
_REFUND_ISSUED = re.compile(r"\brefund (was|has been|got) (issued|processed|sent)\b|\b(issued|processed|sent) (my|the) "
                            r"refund\b|已经?退款了|退款(已经|已)(发出|处理|退回|完成|成功|到了?银行)", re.I | re.A)
REFUND_SECTIONS = ("refunds.timing", "refunds.bank-processing")
# The shipping paid on the order asked back ("Will I get back the $4.99 shipping I paid on the order too?", "当初下单付的
# 4.99运费会一起退吗？", "运费没退"): the original shipping's refund, not the shipping's price (stop 62's sweep)
_SHIPPING_PAID_BACK = re.compile(
    r"\b(get|getting|have|had)\b[^.?!]{0,12}\bback\b[^.?!]{0,30}\b(paid|pay)\b[^.?!]{0,20}\b"
    r"(shipping|delivery|postage)\b|"
    r"\bback\b[^?!]{0,20}\b(shipping|delivery|postage)\b[^.?!]{0,20}\b(i|we) paid\b|"
    r"\bbut not (the )?[^?!]{0,12}\b(i|we) paid for (the )?(express |standard )?(shipping|delivery|postage)\b|"
    r"(付的|交的|花的|当时的|当初的|原来的)[^。！？!?]{0,10}(运费|邮费|加急费)[^。！？!?]{0,4}(退|返还)|"
    r"(运费|邮费|加急费)[^。！？!?]{0,2}(没退|没有退|会退|能退|退吗|退不退|也退|一起退)", re.I | re.A)
SHIPPING_CHARGES_SECTION = "refunds.shipping-charges"
_RESTOCKING_SECTION = "returns.restocking-fee"  # opened electronics in working condition
WRONG_ITEM_SECTION = "returns.shipping-fees"
_WRONG_ITEM_ANSWERS = frozenset({WRONG_ITEM_SECTION, "returns.exchanges", "returns.process",
                                 "refunds.shipping-charges"})
_EXCHANGE = re.compile(r"\bexchang|\bswap|换", re.I)  # an exchange asked
_BROKEN_GOODS_CATEGORIES = ("warranty", "returns")  # the other sections a product broken on arrival may lead with
REFUND_WORDS = re.compile(r"\brefund|\bmoney back\b|退款|退钱", re.I | re.A)  # a refund named
_ONE_SECTION_INTENTS = (  # the first that matches
    ("refund", REFUND_WORDS, "refunds.timing"),
    ("return", RETURN_WORDS, RETURN_WINDOW_SECTION),
)

ONE_SECTION_INTENTS = frozenset(intent for intent, _, _ in _ONE_SECTION_INTENTS)
_REQUEST_SECTIONS = frozenset(section_id for _, _, section_id in _ONE_SECTION_INTENTS)
# When a refund or return comes, asked beside a defect ("My TV broke, how long will the refund take?"), is the question.
_WHEN_WORDS = re.compile(r"\bhow (long|soon)\b|\bwhen\b|多久|多长|什么时候|几天", re.I | re.A)


def one_section_intent(kb: KnowledgeBase, question: str, lang: str, hits: list[ScoredSection],
                       bar: float) -> str | None:
    """The section of the return or refund intent (`intent_hits`, over the question's own ``hits`` and in-scope
    ``bar``) of one of a message's questions that names what it asks of besides the intent's word: "Can I return the
    shoes I bought for my son," asks for the return window, where its best hit was the protection plan ("bought");
    "能退吗？" and "can I return it then?" name nothing, and the message's other words decide."""
    rest = to_simplified(question)
    for _, pattern, _ in _ONE_SECTION_INTENTS:
        rest = pattern.sub(" ", rest)
    if len(word_terms(rest)) < (1 if lang == "en" else 2):  # "Can I return the lamp" names one; "能吗" a character
        return None
    lead, intent = intent_hits(kb, question, lang, hits, bar)
    if intent == "return" and hits and hits[0].section.id == _DEFECT_SECTIONS[0]:
        return hits[0].section.id  # "Can I return them or is it a warranty thing?": a defect's return (stop 50)
    return lead[0].section.id if intent in ONE_SECTION_INTENTS else None


def _overview_among_questions(kb: KnowledgeBase, text: str, lang: str, bar: float) -> list:
    """Where one of several questions asks for an overview ("What's your return policy? Also, how long do refunds
    take?"): its categories' lead sections, half the points, and the other questions' best sections, their intent's
    first (`intent_hits`: the return window for "Can I return a chair I bought 40 days ago, and if not, is it under
    warranty?", whose best hit was the protection plan), where they clear the ``bar``; one sentence's questions
    (`questions_asked`: "What's your return policy and how long do refunds take?") too. A statement among them ("I
    have a question about my order. Can I change the address?") leads up to one question: none."""
    sentences = split_sentences(text)
    if len(sentences) < 2 or not all(re.search(r"[?？]\s*$", sentence) for sentence in sentences):
        sentences = questions_asked(text) if len(sentences) == 1 else []
        if len(sentences) < 2:
            return []
    for i, sentence in enumerate(sentences):
        if categories := overview_categories(sentence):
            share = max(1, OVERVIEW_POINTS // 2 // len(categories))
            lead = [s for c in categories for s in kb.sections(lang, c)[:share]]
            rest = sentences[:i] + sentences[i + 1:]  # a product told ("我想买个800美元的沙发，可以分期吗？有保修吗？") or
            if categories == ["warranty"] and (product := product_meant(kb, text, lang, rest)):  # asked of
                lead = [kb.get(product, lang)]  # ("How long does a sofa take to deliver?"): its term, not both
            others = [intent_hits(kb, other, lang, search_as_asked(kb, other, lang, OVERVIEW_POINTS), bar)[0]
                      for other in rest]
            asked = [found[0].section for found in others if found and found[0].score >= bar]
            return list(dict.fromkeys(lead + asked))
    return []


def _intent_sections(kb: KnowledgeBase, text: str, lang: str, hits: list[ScoredSection], bar: float,
                     past_the_window: bool) -> tuple[str | None, list]:
    if categories := overview_categories(text):
        share = OVERVIEW_POINTS // len(categories)
        lead = [s for c in categories for s in kb.sections(lang, c)[:share]]
        if (len(categories) == 1 and PRODUCT_CLASS.search(text) and hits  # the class's own section last, where it
                and hits[0].section.category == categories[0] and hits[0].section not in lead):  # is the best hit
            lead = lead[:-1] + [hits[0].section]
        return "overview", lead
    if DEFECT.search(text) or DEFECT_SUPPOSED.search(text):
        product = tuple(h.section.id for h in hits if h.section.id in PRODUCT_SECTIONS)[:1] or (
            PRODUCT_SECTIONS[:1] if PHONE.search(text) else ())  # a phone: the electronics'
        asked = asking_clauses(text)
        if not past_the_window:
            early = _DEFECT_SECTIONS[:1]
        elif any(RETURN_WORDS.search(c) for c in asked):  # a return asked past the window: the window first ("My
            early = (RETURN_WINDOW_SECTION,)  # blender broke after 2 months. Can I still return it or do I need a
        else:  # warranty claim?" got the warranty alone)
            early = ()
        # the term leads where asked how long ("My laptop screen broke, how long is the warranty?"), else the defects
        asks_the_term = any(TERM_WORDS.search(c) and not CLAIM_ASKED.search(c) for c in asked)
        ids = (product + early if asks_the_term else early + product) + _DEFECT_SECTIONS[1:]
        if past_the_window and not asks_the_term and (questions := questions_asked(text)) and all(
                CLAIM_ASKED.search(q) for q in questions):  # only the claim asked: its form leads
            ids = (_DEFECT_SECTIONS[1],) + tuple(i for i in ids if i != _DEFECT_SECTIONS[1])
        return "defect", [kb.get(section_id, lang) for section_id in ids]
    if sections := _overview_among_questions(kb, text, lang, bar):
        return "overview", sections
    for intent, pattern, section_id in _ONE_SECTION_INTENTS:
        if pattern.search(text):
            return intent, [kb.get(section_id, lang)]
    return None, []


def intent_hits(kb: KnowledgeBase, question: str, lang: str, hits: list[ScoredSection],
                bar: float) -> tuple[list[ScoredSection], str | None]:
    """``hits`` with the sections of ``question``'s intent first, each a quarter over the in-scope ``bar`` or the
    best hit's score if higher, and the intent ("overview", "defect", "return", "refund", "cancel"); or ``hits`` and
    None. An overview always; another intent when the best hit is under the bar, one of the `PRODUCT_SECTIONS`, the
    `PURCHASE_SECTION` ("I bought a sofa 3 weeks ago and one of the legs broke") or the `OUT_OF_SCOPE_SECTION`
    for a topic mentioned on the way ("I have the receipt, can I return it?"), or, for a defect, the exchanges, which
    are for another size or colour ("My headphones broke, can I exchange them?"): a best hit over the bar otherwise
    answers better (the non-returnable items for "Can I return a gift card?", the shipping charges for
    "运费能退吗？", the parcels damaged in transit for "It arrived broken"). Another category's section joins
    the outline only where it scores as well as the best hit (`select_points`): Chinese bigrams of a story
    ("我收到一个搅拌机作为礼物，不想要…") brought the bank's processing time and cancellation in. A product broken when
    it came (`ARRIVED_BROKEN`) puts the damaged parcels next to the best hit, at its score, or, where they are the
    best hit, at least at the ``bar`` ("收到的杯子碎了"); a cancellation of an order that was delivered, or ordered a
    week ago or more (`past_cancelling`), is past cancelling: the return window and what to do after shipment; a
    return of an order that arrived ("My order arrived yesterday, can I return it?") is the return window's; a return
    sent with no word since (`_RETURN_SENT`, `_NO_WORD_SINCE`: "I returned it two weeks ago and still no refund") is
    the refund's: its timing, then the bank's, and a refund told issued (`_REFUND_ISSUED`) the bank's; a cancellation
    of an order that has not shipped (`NOT_SHIPPED`) is the cancellation's; the shipping paid on the order asked back
    (`_SHIPPING_PAID_BACK`), as the one question, is the original shipping's refund; nothing opened (`UNOPENED`) puts
    the restocking fee last, and an accident denied (`ACCIDENT_DENIED`) the coverage it alone found second."""
    text = to_simplified(question)
    past_the_window = past_the_return_window(text)
    if past_the_window:  # a product two months old or more: no hit brings the early defects in
        hits = [h for h in hits if h.section.id != _DEFECT_SECTIONS[0]]
    undenied = ACCIDENT_DENIED.sub(" ", text)  # an accident denied names none ("从来没摔过")
    if (hits[1:] and hits[0].section.id == _DEFECT_SECTIONS[2] and undenied != text
            and _DEFECT_SECTIONS[2] not in kb.phrase_sections(undenied, lang)):
        hits = [hits[1], hits[0]] + hits[2:]  # the coverage found by an accident denied only ("从来没摔过") follows
    if hits[1:] and hits[0].section.id == _RESTOCKING_SECTION and UNOPENED.search(text):
        # nothing opened, no fee: "Can I return a smoke detector I haven't opened?" is the return window's (stop 62)
        top, hits = hits[0].score, hits[1:] + hits[:1]
        if RETURN_WORDS.search(text):
            hits = lead_with(top, hits, kb.get(RETURN_WINDOW_SECTION, lang))
    if hits[1:] and hits[0].section.id == _RESTOCKING_SECTION and names_other_goods_only(text):
        hits = lead_with(hits[0].score, hits, kb.get("returns.condition", lang))  # no electronics: the condition's
    hits, intent = _intent_first(kb, text, lang, hits, bar, past_the_window)
    if intent == "defect" and (named := kb.phrase_sections(undenied, lang) & {_DEFECT_SECTIONS[2], PURCHASE_SECTION}):
        # an accident the coverage names ("孩子把平板摔了"), a protection plan bought ("买了延保之后坏了怎么申请？": early defects led)
        hits = lead_with(hits[0].score, hits, *(kb.get(i, lang) for i in sorted(named)))
    if (intent is None and hits and hits[0].section.id in _ASKED_OF_A_FINAL_ITEM | {NON_RETURNABLE_SECTION}
            and not _WHEN_WORDS.search(text) and (RETURN_WORDS.search(text) or _ONE_SECTION_INTENTS[0][1].search(text))
            and (NON_RETURNABLE_SECTION in (phrased := kb.phrase_sections(text, lang)) or "returns.process" not in
                 phrased and any(h.section.id == NON_RETURNABLE_SECTION and h.score >= FINAL_ITEM_SHARE * hits[0].score
                                 for h in hits))):
        # "I bought a software download code by mistake, can I get my money back?" (the refund timing before); by
        # score, not where "how do I return" asks the process ("…an item I got as a gift?" got the gift cards, stop 55)
        top, final = sorted(h.score for h in hits)[-2:], NON_RETURNABLE_SECTION  # tied atop a ranking by score
        tied = hits[0].section.id == final and top[-1] == hits[0].score and top[0] >= _TIED * top[-1]
        hits, intent = lead_with(hits[0].score, hits, kb.get(RETURN_WINDOW_SECTION if tied else final, lang)), "return"
    if intent not in SEVERAL_POINTS and hits and (_RETURN_SENT.search(text) and _NO_WORD_SINCE.search(text) or (
            _REFUND_AWAITED.search(text) and hits[0].section.category != "refunds")):
        lead = lead_with(INTENT_LEAD * max(hits[0].score, bar), hits, *(kb.get(i, lang) for i in REFUND_SECTIONS))
        # other categories' words ("two weeks" found the two-factor) left out
        hits, intent = [h for h in lead if h.section.category in ("refunds", "returns")], "refund"
    elif hits and hits[0].section.category == "refunds" and _REFUND_AWAITED.search(text):  # no parcel: "退款10天了还没到"
        hits = [h for h in hits if h.section.id != TRANSIT_DAMAGE_SECTION]  # (the lost parcels by "还没到", stop 60)
    if intent is None and hits and hits[0].section.id == REFUND_SECTIONS[0] and _REFUND_ISSUED.search(text):
        hits, intent = lead_with(hits[0].score, hits, kb.get(REFUND_SECTIONS[1], lang)), "refund"
    if (intent is None and hits and hits[0].section.category == "returns"  # "…send the trainers back after 31 days…"
            and hits[0].section.id != RETURN_WINDOW_SECTION and RETURN_WORDS.search(text) and past_the_window):
        hits, intent = lead_with(hits[0].score, hits, kb.get(RETURN_WINDOW_SECTION, lang)), "return"
    if (intent is None and hits and (hits[0].section.id not in _WRONG_ITEM_ANSWERS or hits[0].score < bar
                                     or hits[0].section.id == "returns.exchanges" and not _EXCHANGE.search(text))
            and WRONG_ITEM.search(text)):  # "You sent me a blue toaster instead of the red one": the electronics'
        # term, by "toaster"; "You sent me a blue lamp, I ordered white. What now?" refused; "The sofa delivered has
        # a different color than the one I ordered" got the exchanges, by "color", though it asks for none (stop 61)
        hits = lead_with(max(hits[0].score, bar), hits, kb.get(WRONG_ITEM_SECTION, lang))
    if (intent is None and hits and (hits[0].section.id == _DEFECT_SECTIONS[0] or hits[0].section.id ==
                                     _RESTOCKING_SECTION and not re.search(r"\bopen|\bunbox|拆|开封", text, re.I))
            and RETURN_WORDS.search(text) and durations(text)
            and not (DEFECT.search(text) or ARRIVED_BROKEN.search(text))):
        # a return told how long since and no defect: "It's been about a month since delivery, can I still return my
        # shoes?" (stop 46's sweep: the early defects, by "month"), nor anything opened ("I bought a lamp two weeks
        # ago and it works fine. Can I still return it?": the opened electronics' fee, by "it works fine"; stop 61)
        hits, intent = lead_with(hits[0].score, hits, kb.get(RETURN_WINDOW_SECTION, lang)), "return"
    if (intent in (None, "refund") and hits and hits[0].section.id == REFUND_SECTIONS[0] and WINDOW_ASKED.search(text)
            and not (_REFUND_AWAITED.search(text) or _RETURN_SENT.search(text))):  # "…full refunds on anything
        hits, intent = lead_with(hits[0].score, hits, kb.get(RETURN_WINDOW_SECTION, lang)), "return"  # within 90 days?"
    if intent is None and hits and _tells_how_long_since(text) and hits[0].section.category == "returns":
        hits, intent = lead_with(hits[0].score, hits, kb.get(RETURN_WINDOW_SECTION, lang)), "return"  # "我想退货，已经过了一个月了"
    if (intent is None and hits and hits[0].section.category not in ("returns", "refunds") and DELIVERED.search(text)
            and RETURN_WORDS.search(text) and not (DEFECT.search(text) or ARRIVED_BROKEN.search(text))
            and TRANSIT_DAMAGE_SECTION not in kb.phrase_sections(text, lang)):  # "显示签收…没收到…还是退款？" (stop 56)
        # "My order arrived yesterday, can I return it?": the return window, not what to do after shipment
        hits, intent = lead_with(hits[0].score, hits, kb.get(RETURN_WINDOW_SECTION, lang)), "return"
    if (intent is None and hits and hits[0].section.id in (CANCELLATION_SECTION, "refunds.timing", _CHARGE_TIMING)
            and CANCEL.search(text) and CHARGED.search(text)):  # charged for an order cancelled: the hold, and
        # not the refund timing of a return that "money back" names
        hits = [h for h in lead_with(hits[0].score, hits, kb.get(HOLD_SECTION, lang))
                if h.section.id != "refunds.timing"]
    if intent is None and hits and hits[0].section.id == CANCELLATION_SECTION and past_cancelling(text):
        # past cancelling: the return window, and what to do after shipment, in the cancellation's place
        lead = lead_with(hits[0].score, hits, kb.get(RETURN_WINDOW_SECTION, lang), kb.get(AFTER_SHIPMENT_SECTION, lang))
        hits, intent = [h for h in lead if h.section.id != CANCELLATION_SECTION], "return"
    elif intent is None and hits and hits[0].section.id == CANCELLATION_SECTION and SHIPPED.search(text):
        # shipped, not yet delivered: what to do after shipment leads, the cancellation's "has not shipped" next
        hits, intent = lead_with(hits[0].score, hits, kb.get(AFTER_SHIPMENT_SECTION, lang)), "return"
    elif (intent is None and hits and hits[0].section.id in _NOT_YET_CANCELLING and CANCEL.search(text)
          and (NOT_SHIPPED.search(text) or any(d.unit in ("minute", "hour") for d in durations(text)))
          and not SHIPPED.search(text)):  # or hours since: "I placed my order 3 hours ago, is it too late to cancel?",
        # "ordered the wrong size sheets 5 min ago pls cancel" (stop 62's sweep: the exchanges, by "wrong size")
        # not shipped yet ("too late" found what to do after shipment, "shipped" the dispatch): the cancellation leads,
        # ahead of the dispatch's keyword phrase ("Is it too late to cancel if the order has not shipped?")
        hits, intent = lead_with(hits[0].score, hits, kb.get(CANCELLATION_SECTION, lang)), "cancel"
    if (hits and hits[0].section.id != TRANSIT_DAMAGE_SECTION and ARRIVED_BROKEN.search(text)
            and not past_the_window):  # the damaged parcels join, second
        damaged = ScoredSection(kb.get(TRANSIT_DAMAGE_SECTION, lang), hits[0].score)
        rest = [h for h in hits[1:] if h.section.id != TRANSIT_DAMAGE_SECTION]
        # A product's defect or its return leads; another best hit ("时候" found the refund timing, "bookshelf" the
        # furniture's warranty) follows, and the damaged parcels at least at the bar ("台灯到货时灯罩碎了，怎么办？": 9.3 < 12),
        # `INTENT_LEAD` over it where that hit is under it ("the lamp I got has a dent": the email change, by "new")
        ours = hits[0].section.category in _BROKEN_GOODS_CATEGORIES and hits[0].section.id not in PRODUCT_SECTIONS
        lead = max(damaged.score, bar) if hits[0].score >= bar else INTENT_LEAD * bar
        hits = [hits[0], damaged] + rest if ours else [damaged._replace(score=lead), hits[0]] + rest
    elif hits and hits[0].section.id == TRANSIT_DAMAGE_SECTION and hits[0].score < bar and ARRIVED_BROKEN.search(text):
        hits = [ScoredSection(hits[0].section, bar)] + hits[1:]  # "收到的杯子碎了" (refused: 10.3 against 12.0)
    if (intent is None and hits and hits[0].section.category != "shipping" and ORDER_TOTAL.search(text)
            and re.search(r"\bshipping\b|运费", text, re.I) and not RETURN_WORDS.search(text)):
        hits = lead_with(hits[0].score, hits, kb.get(HOME_SHIPPING_SECTION, lang))  # the free-shipping threshold
    if (intent not in SEVERAL_POINTS and hits and _SHIPPING_PAID_BACK.search(text)
            and len(asking_clauses(text)) < 2):  # one question: of several, the first leads
        hits, intent = lead_with(hits[0].score, hits, kb.get(SHIPPING_CHARGES_SECTION, lang)), "refund"
    return hits, intent


def _by_common_words(kb: KnowledgeBase, text: str, lang: str, hits: list[ScoredSection]) -> set[str]:
    """The delivery times and charges (`_BY_COMMON_WORDS`) among ``hits`` that no keyword phrase of ``text`` finds:
    their common words did ("My TV stopped working after 2 months. … how long does a repair take?" found the express
    shipping by "how long", stop 49's sweep; "My headphones stopped charging after 11 months" the charge's timing,
    stop 61's), so a defect's best hit among them is no answer, nor a point of it."""
    found = {h.section.id for h in hits} & _BY_COMMON_WORDS
    return found - kb.phrase_sections(text, lang) if found else set()


def _asks_money_back(text: str, best: ScoredSection) -> bool:
    """Whether ``text`` asks for a refund or a return and not when it comes, and that request found the ``best``
    hit ("I want my money back for the broken chair" finds the refund timing by "money back"), or found the
    restocking fee, which is for electronics in working condition ("My headphones stopped working after 2 weeks,
    can I return them?"): beside a defect, the defect's handling answers it, as it answers "I want a refund for the
    broken chair"."""
    restocking = best.section.id == _RESTOCKING_SECTION and bool(RETURN_WORDS.search(text))
    return (best.section.id in _REQUEST_SECTIONS or restocking) and not _WHEN_WORDS.search(text)


def _tells_how_long_since(text: str) -> bool:
    """Whether ``text`` asks nothing and says how long ago the product was bought or came ("我想退货，已经过了一个月了",
    "买了一个多月了"): about a return, that is the return window's question; a return sent ten days ago is not."""
    return (not asking_clauses(text) and bool(_SINCE_BOUGHT.search(text))
            and any(d.unit not in ("minute", "hour") for d in durations(text)))


def _found_by_a_word(kb: KnowledgeBase, text: str, lang: str, hits: list[ScoredSection]) -> bool:
    """Whether the best of ``hits`` is the warranty's claims or coverage, sections of the defect's own outline, or a
    payment's, an account's or a shipping section where a product's warranty scores `PRODUCT_NAMED_SHARE` of it, found
    by a word of ``text`` and no keyword phrase: "My coffee maker leaks water" finds the water damage, a word of the
    leak, "My laptop battery died, is that covered?" the word "covered", "I'm writing about … a grinding noise" the
    claim's form by "writing", "My laptop is not charging" the double charge, "… makes a grinding noise. I've only used
    it twice" the promo codes ("only", "use"), "The dresser drawer came off the track" the tracking; all are defects.
    "My promo code doesn't work" names no product. "狗把椅子腿咬坏了" names the accidental damage ("咬坏") that the
    coverage answers. The early defects keep their answer ("我上周买的沙发今天到了，但是一条腿断了")."""
    best = hits[0]
    product_named = (any(h.section.id in PRODUCT_SECTIONS and h.score >= PRODUCT_NAMED_SHARE * best.score for h in hits)
                     or PHONE.search(text))  # "my phone keeps crashing" (stop 58's sweep: the human agents' phone)
    # "phone", "charge", "free" ("… stopped charging, can I get it fixed for free?" found the cancellation's "free")
    found_by_its_words = best.section.category in ("payment", "account", "refunds", "contact", "orders", "shipping")
    return ((best.section.id in _DEFECT_SECTIONS[1:] or (found_by_its_words and product_named))  # not a parcel damaged
            and best.section.id not in kb.phrase_sections(text, lang)
            and (best.section.id != TRANSIT_DAMAGE_SECTION or LOST_PART.search(text)))


def _claim_and_coverage(text: str, hits: list[ScoredSection], bar: float) -> bool:
    """Whether ``text`` asks for the warranty claim, its best of ``hits``, and more, and the coverage clears the
    in-scope ``bar``: the defect's outline answers both ("My coffee table's frame cracked after 2 years. Is it covered,
    and how do I make a claim?" lost the furniture's 5 years on frames; stop 50's sweep)."""
    return (hits[0].section.id == _DEFECT_SECTIONS[1] and len(asking_clauses(text)) >= 2
            and any(h.section.id == _DEFECT_SECTIONS[2] and h.score >= bar for h in hits))


def _dated_defect(text: str, best: ScoredSection, past_the_window: bool) -> bool:
    """Whether ``text`` tells how long ago the defective product was bought or came (``past_the_window`` or not,
    `past_the_return_window`), and its ``best`` hit answers
    for the other side of the 30-day window: the warranty's claims or coverage within it ("I received a defective
    vacuum 10 days ago. Should I return it or make a warranty claim?" got the claim alone, where the early defects
    say it is a return), a return's section past it ("My kettle stopped working, I bought it last Christmas" got
    the holiday returns). The defect's outline answers by the time. Past the window a claim asked is the claim's
    ("… two months ago. How do I make a warranty claim?"), and within it a return's section the return's ("it broke
    after 2 weeks, do I pay the return postage?")."""
    if past_the_window:
        return best.section.category == "returns"
    return best.section.id in _DEFECT_SECTIONS[1:] and bool(durations(text))


def _intent_first(kb: KnowledgeBase, text: str, lang: str, hits: list[ScoredSection], bar: float,
                  past_the_window: bool) -> tuple[list[ScoredSection], str | None]:
    """``hits`` with the intent's sections first, and the intent, as `intent_hits` describes; or ``hits`` and None."""
    intent, sections = _intent_sections(kb, text, lang, hits, bar, past_the_window)
    by_common_words = _by_common_words(kb, text, lang, hits) if intent == "defect" else set()
    specific = (bool(hits) and hits[0].score >= bar
                and hits[0].section.id not in (*PRODUCT_SECTIONS, PURCHASE_SECTION, OUT_OF_SCOPE_SECTION)
                and not (intent == "defect" and (_asks_money_back(text, hits[0])
                                                 or _found_by_a_word(kb, text, lang, hits)
                                                 or _claim_and_coverage(text, hits, bar)
                                                 or _dated_defect(text, hits[0], past_the_window)
                                                 or DEFECT_SUPPOSED.search(text) and not ARRIVED_BROKEN.search(text)
                                                 or hits[0].section.id in by_common_words | {"returns.exchanges"})))
    if intent is None or (specific and intent != "overview"):
        return hits, None
    left_out = {s.id for s in sections} | by_common_words  # they lead; a defect's delivery times by common words: none
    score = INTENT_LEAD * max([bar] + [h.score for h in hits[:1]])  # `select_points` takes others near it
    return [ScoredSection(s, score) for s in sections] + [h for h in hits if h.section.id not in left_out], intent
