"""The outline's key points: which retrieved sections answer a message (`select_points`), and the sections
its separate questions ask for one by one (`sections_asked`)."""
from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType

from chatbot.follow_ups import (ABROAD_SECTION, DOMESTIC_SECTIONS, HOW_LONG_SECTIONS, asks_about_the_topic,
                                asks_how_long)
from chatbot.category_overviews import (OVERVIEW_POINTS, PRODUCT_SECTIONS, named_categories, overview_categories,
                                        product_meant, product_told)
from chatbot.intents import (ONE_SECTION_INTENTS, OUT_OF_SCOPE_SECTION, REFUND_WORDS, TRANSIT_DAMAGE_SECTION,
                             intent_hits, mentions_a_return, one_section_intent)
from chatbot.chinese_script import to_simplified
from chatbot.knowledge import KnowledgeBase, ScoredSection, in_scope_bar
from chatbot.message_shape import asking_clauses, clauses, plain_message, questions_asked
from chatbot.product_names import order_hits

MAX_POINTS = 4
# The shipping sections of a delivery's time and price, which a parcel lost or damaged finds by its shipping words ("订了3
# 把椅子只到了2把…" had the express, standard and international shipping; stop 60's sweep): points only where asked.
_DELIVERY_TERMS = frozenset({*DOMESTIC_SECTIONS, ABROAD_SECTION, "shipping.dispatch"})
# A key point's section needs this share of the best section's retrieval score: a lower bar in the best
# section's category, a high one in another (set on data/eval's expected sections, see README).
SAME_CATEGORY_SHARE = 0.35
OTHER_CATEGORY_SHARE = 0.8
# another category's hit with a keyword phrase where the best hit has none ("…the tracking hasn't moved in 9 days. I
# want a refund NOW or I'm disputing with my bank." lost the lost parcels, at 0.73 of the bank's time; stop 57)
PHRASED_OTHER_SHARE = 0.7
# A separately asked question's own best section is a point when it beats that question's second-best section
# by this factor (and clears the in-scope bar): "Who pays for return shipping? How long until my refund?"
ASKED_MARGIN = 1.25
# A product's warranty scoring under this share of the other product's is not the one the message is about ("I'd
# like to buy a TV … How long is it?": the furniture's 5.6 against the electronics' 9.5; both name 7.6 each).
OTHER_PRODUCT_SHARE = 0.7

# "How do I do it?", "怎么操作？": a question for how to do what the message tells it wants ("I want to return a lamp.
# How do I do it and when do I get my money?"), answered by its category's how-to section, or by the best section
# of what it tells.
_HOW_TO_DO_IT = re.compile(r"^\W*(?:and\s+)?how\s+(?:do|can|should|would)\s+(?:i|we)\s+(?:do|go\s+about|start)\s+"
                           r"(?:it|that|this|both|them|these)\W*$|"
                           r"^\W*(?:那|我)?(?:要|该|应该)?(?:怎么|如何)(?:操作|申请|做|弄|办理)呢?\W*$|"
                           # "I want to return back the shoes …, what is the process?" (stop 45's sweep: the window)
                           r"^\W*(?:and\s+|so\s+)?(?:what\s+is|what's|whats)\s+the\s+(?:process|procedure|steps)\W*$|"
                           r"^\W*(?:那)?(?:流程|手续|步骤)是(?:什么|怎样的?)\W*$", re.I)
# How to send it back, which a return says: "how do I send it back?" after "I want to return a lamp" (stop 58's sweep:
# the return window).
_SEND_IT_BACK = re.compile(r"^\W*(?:and\s+)?how\s+(?:do|can|should)\s+i\s+(?:send|ship|mail|post)\s+"
                           r"(?:it|them|this|that)\s+back\W*$|^\W*(?:那|我)?(?:要|该)?(?:怎么|如何)寄回(?:去|来)?(?:呢)?\W*$", re.I)
_HOW_TO_SECTIONS = {"returns": "returns.process", "refunds": "returns.process",  # a refund comes of a return
                    "warranty": "warranty.claims"}
# A defect within the return window is handled as a return: where the message tells of returning it, the return
# process says how (stop 51: "我买的台灯有点问题，想退，流程是什么？" got the warranty claim).
_EARLY_DEFECTS = "warranty.early-defects"
# "要几天？" beside a question about a refund asks when the refund comes ("退款是退到原支付方式吗？要几天？" was
# outlined with the refund method alone): the how-long section of the other questions' best section, or of its
# category ("How long do I have" beside a return's questions: the return window; `follow_ups.HOW_LONG_SECTIONS`).
# "can I return them or is it a warranty claim?" asked of a defect told asks which: the defect's lead section says (the
# early defects within the return window; stop 56's sweep: the claim alone, by its phrase)
_RETURN_OR_WARRANTY = re.compile(r"\b(return|send (it |them )?back)[^.?!]{0,40}\bor\b[^.?!]{0,30}\b(warrant|claim)|"
                                 r"\b(warrant|claim)[^.?!]{0,30}\bor\b[^.?!]{0,30}\b(return|send (it |them )?back)|"
                                 r"退[^。？！?!]{0,8}还是[^。？！?!]{0,6}保修|保修[^。？！?!]{0,8}还是[^。？！?!]{0,6}退", re.I)


def _clauses_without(message: str, left_out: list[str]) -> str:
    """``message``'s clauses (`message_shape.clauses`) without those in ``left_out``, joined by spaces."""
    return " ".join(clause for clause in clauses(message) if clause not in left_out)


def _best_section_without(kb: KnowledgeBase, message: str, lang: str, left_out: list[str]) -> str | None:
    """The id of the best section of ``message`` without the clauses ``left_out``: its defect's lead section where
    it tells of a defect (`intents.intent_hits`), else its best hit where that clears the in-scope bar, else that
    part's return or refund intent's (`intents.one_section_intent`: "我想退一条两周前买的地毯" is a return, which its
    bigrams did not find)."""
    rest = _clauses_without(message, left_out)
    if not rest.strip():
        return None
    hits, bar = kb.search(rest, lang=lang, k=OVERVIEW_POINTS), in_scope_bar(rest, lang)
    lead, intent = intent_hits(kb, rest, lang, hits, bar)
    if intent == "defect":  # "My blender broke after 10 days.": the defect's, not the bank's time ("10 days")
        return lead[0].section.id
    if hits and hits[0].score >= bar:
        return hits[0].section.id
    # a told part that is its intent alone is that intent's too ("我要退款", which names nothing besides)
    return one_section_intent(kb, rest, lang, hits, bar) or (lead[0].section.id if intent in ONE_SECTION_INTENTS
                                                             else None)


def how_to_section(kb: KnowledgeBase, message: str, lang: str, previous: str | None = None) -> str | None:
    """Where a question of ``message`` asks how to do what it tells it wants ("How do I do it?", `_HOW_TO_DO_IT`),
    or, told nothing, what the conversation's ``previous`` message was about ("怎么申请？" after "我想退一条地毯"), the
    section that says how: the how-to section of the told request's category (`_HOW_TO_SECTIONS`: "I want to return
    a lamp" finds the return window best, and the return process says how), or the told part's best section; None
    where no question asks that or what it tells clears no in-scope bar."""
    if any(_SEND_IT_BACK.match(question) for question in questions_asked(message)):
        return _HOW_TO_SECTIONS["returns"]
    if not any(_HOW_TO_DO_IT.match(question) for question in questions_asked(message)):
        return None
    told = _best_section_without(kb, message, lang, asking_clauses(message))
    if told is None and previous:
        told = _best_section_without(kb, previous, lang, [])
    if told == _EARLY_DEFECTS and mentions_a_return(f"{previous or ''} {message}"):
        return _HOW_TO_SECTIONS["returns"]
    return _HOW_TO_SECTIONS.get(kb.get(told, lang).category, told) if told else None


def sections_asked(kb: KnowledgeBase, message: str, lang: str) -> dict[str, int]:
    """Ids of the sections that answer a message's separate questions (2 to `MAX_POINTS` of them,
    `message_shape.questions_asked`) one by one: each question's best section, where it clears the in-scope bar
    and beats the question's second-best by `ASKED_MARGIN` or shares its category ("how long will the refund
    take?": the refund timing, a little over the bank's time). A question for a category's overview ("how does
    the refund work?", "退货政策是什么？") asks for the category's lead section; one that asks about a topic another
    names ("多少钱？") for none. Each maps to the first question that asks it or names it by a keyword phrase (the
    order the outline keeps: "When exactly does the money come out of my account, when I order or when it ships?"
    names the charge's timing first, though its first question finds the lockout). A question whose best section is
    under the bar asks for its return or refund intent's section where it names what it asks of
    (`intents.one_section_intent`), else for the one section a keyword phrase of it names, if one does."""
    questions = questions_asked(plain_message(message))
    if len(questions) == 1 and asks_how_long(questions[0]) and REFUND_WORDS.search(to_simplified(message)):
        # "I want to cancel my order and get a refund, how long will it take?": what it tells, then the refund's time
        told = _best_section_without(kb, message, lang, questions)
        if told and (how_long := _how_long_section(kb, message, lang, questions[0])) and told != how_long:
            return {told: 0, how_long: 1}
    if len(questions) == 1 and _HOW_TO_DO_IT.match(questions[0]) and (how_to := how_to_section(kb, message, lang)):
        # "I need to return a lamp and also exchange a chair for a different color. How do I do both?": what it tells,
        # then how (stop 58's sweep: the exchanges alone)
        told = _best_section_without(kb, message, lang, questions)
        if told and told != how_to:
            return {told: 0, how_to: 1}
    if not 2 <= len(questions) <= MAX_POINTS:
        return {}
    asked: dict[str, int] = {}
    for n, question in enumerate(questions):
        if categories := overview_categories(question):  # "how does the refund work?": its category's lead section
            others = questions[:n] + questions[n + 1:]  # (the warranty's: the product's term the message tells or
            for category in categories:  # the others ask of, `_product_named`)
                asked.setdefault(_product_named(kb, message, lang, kb.sections(lang, category)[0].id, others), n)
            continue
        if _HOW_TO_DO_IT.match(question) and (how_to := how_to_section(kb, message, lang)):
            asked.setdefault(how_to, n)  # "How do I do it?" after "I want to return a lamp.": the return process
            continue
        if _RETURN_OR_WARRANTY.search(question) and (defect := _defect_lead(kb, message, lang)):
            asked.setdefault(defect, n)
            continue
        if asks_how_long(question) and (how_long := _how_long_section(kb, message, lang, question)):
            asked.setdefault(how_long, n)  # "要几天？" beside a refund
            continue
        hits, bar = kb.search(question, lang=lang, k=OVERVIEW_POINTS), in_scope_bar(question, lang)
        if ordered := order_hits(kb, question, lang, hits, bar, OVERVIEW_POINTS):  # "When will my TV be delivered?"
            question, hits = ordered  # asks of the delivery, not of the TV's warranty (stop 60's sweep)
            if hits[0].section.category == "shipping":  # however near the next ("How long does a sofa take to
                asked.setdefault(hits[0].section.id, n)  # deliver": the cancellation's "how long", stop 61)
                continue
        under_bar = not hits or hits[0].score < bar
        if under_bar and (intent_section := one_section_intent(kb, question, lang, hits, bar)):
            asked.setdefault(intent_section, n)  # "Can I return the shoes I bought for my son,": the return window
            continue
        if under_bar and len(named := kb.phrase_sections(question, lang)) == 1:
            asked.setdefault(*named, n)  # "还是要走保修？" after a defect told: the early defects its phrase names
            continue
        if under_bar and _asks_a_products_term(kb, message, lang, question) and (
                product := product_told(kb, message, lang)):
            asked.setdefault(product, n)  # "Does it have a warranty?" after "I want to buy an $800 couch, can I pay
            continue  # in installments?": the couch's term (stop 59's sweep: the installments alone)
        if under_bar or asks_about_the_topic(question):
            continue
        clear = (len(hits) == 1 or hits[0].score >= ASKED_MARGIN * hits[1].score
                 or hits[0].section.category == hits[1].section.category)
        named = None if clear else _named_alone(kb, question, lang, hits)  # read only where the scores do not decide
        if clear or named == hits[0].section.id:
            asked.setdefault(_product_named(kb, message, lang, hits[0].section.id), n)
        elif named and lang == "zh" and hits[1].score >= bar:  # "退款怎么申请？": the return process its phrase
            # names, though the bigram "申请" finds the warranty claim a little better (an English phrase names less:
            # "can I add the missing item?" asks to add it, not about the lost parcels)
            asked.setdefault(named, n)
    for n, question in enumerate(questions):  # a question that names an asked section by a phrase asks it there
        for section_id in kb.phrase_sections(question, lang) & asked.keys():
            asked[section_id] = min(asked[section_id], n)
    return asked


def _product_named(kb: KnowledgeBase, message: str, lang: str, section_id: str, others: Sequence[str] = ()) -> str:
    """Where ``section_id`` is a product's warranty, the one the told part of ``message`` (its clauses that ask
    nothing) or one of the ``others`` questions finds: "does it come with a warranty?" after "I want to buy a $500
    couch" asks the furniture's term (stop 58's sweep: the electronics', which "warranty" finds first)."""
    return (product_meant(kb, message, lang, others) or section_id) if section_id in PRODUCT_SECTIONS else section_id


def _asks_a_products_term(kb: KnowledgeBase, message: str, lang: str, question: str) -> bool:
    """Whether ``question`` asks for the warranty by name, in ``message`` that tells no defect (a defect's questions
    ask about the defect: "手机买了两个月坏了，保修吗？" is also whether the coverage holds)."""
    return "warranty" in named_categories(question) and _defect_lead(kb, message, lang) is None


def _defect_lead(kb: KnowledgeBase, message: str, lang: str) -> str | None:
    """The id of the lead section of the defect ``message`` tells (`intents.intent_hits`), else None."""
    lead, intent = intent_hits(kb, message, lang, kb.search(message, lang=lang, k=OVERVIEW_POINTS),
                               in_scope_bar(message, lang))
    return lead[0].section.id if intent == "defect" else None


def _how_long_section(kb: KnowledgeBase, message: str, lang: str, question: str) -> str | None:
    """The section that says how long, for ``question`` ("要几天？") asked beside the other questions of ``message``:
    their best section's own (`HOW_LONG_SECTIONS`: an exchange's), the refund's where they name a refund
    ("怎么申请退款？要多久？": the bigram "申请" finds the warranty claim best), else their best section's category's
    ("I want to return a jacket. How long do I have, …": the return window); else None."""
    topic = _best_section_without(kb, message, lang, [question])
    category = kb.get(topic, lang).category if topic else None
    if topic in HOW_LONG_SECTIONS:
        return HOW_LONG_SECTIONS[topic]
    if category == "refunds" or REFUND_WORDS.search(to_simplified(_clauses_without(message, [question]))):
        return HOW_LONG_SECTIONS["refunds"]
    return HOW_LONG_SECTIONS.get(category)


def phrased_besides(kb: KnowledgeBase, message: str, lang: str, how_long: list[str]) -> set[str]:
    """Ids of the sections a keyword phrase of ``message`` names, but for those that only one of its questions for
    how long (``how_long``, `asks_how_long`) names: such a question asks how long something named elsewhere takes."""
    named = kb.phrase_sections(message, lang)
    for question in how_long:
        named -= kb.phrase_sections(question, lang) - kb.phrase_sections(_clauses_without(message, [question]), lang)
    return named


def points_phrased(kb: KnowledgeBase, message: str, lang: str) -> set[str]:
    """Ids of the sections a keyword phrase of ``message`` names (`select_points`'s ``phrased``), but for those that
    only a question for how long names where the message's other questions say what takes that long
    (`_how_long_section`): "退款如何申请？多久能到？" asks how long the refund takes, not standard shipping's "多久能到"."""
    questions = questions_asked(plain_message(message))
    return phrased_besides(kb, message, lang, [
        q for q in questions if len(questions) >= 2 and asks_how_long(q) and _how_long_section(kb, message, lang, q)])


def _named_alone(kb: KnowledgeBase, question: str, lang: str, hits: list[ScoredSection]) -> str | None:
    """The one of ``question``'s two best hits that a keyword phrase of it names, where it names one of them and not
    the other ("退货怎么申请？": the return process, though "申请" finds the warranty claim nearly as well), else None."""
    named = kb.phrase_sections(question, lang)
    phrased = [h.section.id for h in hits[:2] if h.section.id in named]
    return phrased[0] if len(phrased) == 1 else None


def answers_each_question(message: str, asked: Collection[str]) -> bool:
    """Whether ``asked`` (`sections_asked` of ``message``) holds a section of its own for each separate question,
    none asking for a category's overview or about an uncovered topic: then the asked sections, with any a
    keyword phrase names, are the whole outline ("Who pays for return shipping? And how long until I get my
    refund?" had the 30-day window too, a hit of the best one's category). Two questions that find one section do
    not count: "退货寄回去以后什么时候给我退款？钱多久能到账？" finds the refund timing twice, and the bank's time is a
    point only as the timing's padding. A question of how much about a topic another names ("how much is it," after
    "How long does standard shipping take,") asks of that one's section, and needs none of its own (one of how long
    has its own, `_how_long_section`). Read from the set, without searching each question again."""
    questions = questions_asked(plain_message(message))
    own = [q for q in questions if not asks_about_the_topic(q) or asks_how_long(q)]
    return (2 <= len(own) == len(asked) and OUT_OF_SCOPE_SECTION not in asked
            and not any(overview_categories(q) for q in questions))


def select_points(hits: list[ScoredSection], asked: Mapping[str, int] = MappingProxyType({}),
                  phrased: set[str] = frozenset(), only_asked: bool = False) -> list[ScoredSection]:
    """The outline's key points, in rank order: the best hit, then the hits of its category scoring at least
    `SAME_CATEGORY_SHARE` of it and those of other categories scoring at least `OTHER_CATEGORY_SHARE` (one with a
    keyword phrase where the best has none, `PHRASED_OTHER_SHARE`), and the
    hits of ``asked`` (`sections_asked`) whatever their score; at most `MAX_POINTS`, the asked ones kept first.
    An answer keeps to one category unless another section matches about as well or answers a question of
    its own (where the best hit has a keyword phrase in the message, ``phrased``, `KnowledgeBase.phrase_sections`,
    another category's hit needs one too: "I lost my phone and can't get my 2FA code" is not about promo codes,
    which share only the word "code"), and to the product's warranty a question asks for, where one does ("How
    long is the TV warranty and what does it cover?" is not about furniture), or scores well over the other
    (`OTHER_PRODUCT_SHARE`: "I'd like to buy a TV … How long is it?"). With ``only_asked``
    (`answers_each_question`) it keeps to the sections asked and phrased, the asked ones in the order asked, in the
    places the asked ones take (they came in score order: "How long do I have to return a lamp, who pays the return
    shipping, and when do I get my money?" led with the fees, stop 44's sweep; a phrased section keeps its place:
    "我12月5日收到的圣诞礼物，1月中旬还能退吗？" leads with the holiday returns its date holds)."""
    if not hits:
        return []
    best = hits[0]
    chosen = [h for h in hits if h.section.id in asked or h.score >= best.score * (
        SAME_CATEGORY_SHARE if h.section.category == best.section.category else
        PHRASED_OTHER_SHARE if h.section.id in phrased and best.section.id not in phrased else OTHER_CATEGORY_SHARE)
        and (h.section.category == best.section.category or best.section.id not in phrased
             or h.section.id in phrased)]
    # A product's warranty that no question asks for stays only over one bar: `OTHER_PRODUCT_SHARE` of the best
    # product's score; the asked product's score where one is asked (an overview scores both alike); the best hit's
    # score in another category, where a product's name finds its warranty (an overview of several categories puts
    # the warranty's lead section level with the best).
    products = [h for h in chosen if h.section.id in PRODUCT_SECTIONS]
    asked_products = [h for h in products if h.section.id in asked]
    bars = [OTHER_PRODUCT_SHARE * h.score for h in products]
    if len(asked_products) == 1:
        bars.append(asked_products[0].score)
    if best.section.category != "warranty":
        bars.append(best.score)
    product_bar = max(bars, default=0.0)
    chosen = [h for h in chosen if h.section.id not in PRODUCT_SECTIONS or h.section.id in asked
              or h.score >= product_bar]
    if best.section.id == TRANSIT_DAMAGE_SECTION:  # a parcel lost or damaged: no delivery's time or price pads it
        named = asked.keys() | phrased
        chosen = [h for h in chosen if h.section.id not in _DELIVERY_TERMS or h.section.id in named]
    if only_asked:  # the product's term a defect leads with stays ("My sofa frame cracked after 2 years. Is that
        # covered and how do I claim?" lost the 5 years on frames; stop 49's sweep)
        # nor the damaged parcels that a product broken when it came puts level with the best hit (`intent_hits`):
        # "…it came with a cracked base. can i send it back and who pays postage?" (stop 51's sweep)
        chosen = [h for h in chosen if h.section.id in asked or h.section.id in phrased
                  or (h is best and h.section.id in PRODUCT_SECTIONS)
                  or (h.section.id == TRANSIT_DAMAGE_SECTION and h.score >= best.score)]
        in_order = iter(sorted((h for h in chosen if h.section.id in asked), key=lambda h: asked[h.section.id]))
        chosen = [next(in_order) if h.section.id in asked else h for h in chosen]  # a phrased one keeps its place
    required = [h for h in chosen if h.section.id in asked][:MAX_POINTS]
    rest = [h for h in chosen if h.section.id not in asked][:MAX_POINTS - len(required)]
    return [h for h in chosen if h in required or h in rest]
