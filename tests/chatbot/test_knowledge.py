"""Knowledge base: parsing, layout invariants and retrieval quality."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chatbot.knowledge import (
    DEFAULT_ROOT,
    MIN_TOP_SCORE,
    PHRASE_BONUS,
    KnowledgeBase,
    ScoredSection,
    Section,
    in_scope_bar,
)
from chatbot.router import RuleRouter
from chatbot.text_terms import phrase_text, split_sentences

CATEGORIES = {"returns", "refunds", "shipping", "payment", "warranty", "account", "orders", "contact"}


def test_default_root_is_repo_data():
    assert DEFAULT_ROOT == Path(__file__).resolve().parents[2] / "data" / "policies"


def test_categories_and_languages(kb):
    assert set(kb.categories) == CATEGORIES
    assert list(kb.categories) == sorted(kb.categories)  # file order
    assert set(kb.langs) == {"en", "zh"}
    assert kb.category_label("returns", "zh") == "退货政策"
    assert kb.category_label("contact", "en") == "Contact and escalation"
    assert kb.category_key("退货政策") == kb.category_key("Returns") == kb.category_key("returns") == "returns"
    with pytest.raises(KeyError):
        kb.category_label("weather", "en")


def test_same_section_ids_in_both_languages(kb):
    for category in kb.categories:
        en_ids = [s.id for s in kb.sections("en", category)]
        zh_ids = [s.id for s in kb.sections("zh", category)]
        assert en_ids == zh_ids and len(en_ids) >= 4
        assert all(i.startswith(category + ".") for i in en_ids)


def test_sections_are_small_and_clean(kb):
    for section in kb.sections():
        assert isinstance(section, Section)
        num_sentences = sum(1 for part in split_sentences(section.text) if part.strip())
        assert 1 <= num_sentences <= 4, section.id
        assert "<!--" not in section.text and "#" not in section.text
        assert section.title and section.lang in ("en", "zh")


def test_get(kb):
    section = kb.get("shipping.express", "zh")
    assert section.lang == "zh" and section.category == "shipping" and "$14.99" in section.text
    with pytest.raises(KeyError):
        kb.get("shipping.teleport", "en")


def test_sections_filters(kb):
    assert len(kb.sections()) == len(kb.sections("en")) + len(kb.sections("zh"))
    assert {s.category for s in kb.sections(category="orders")} == {"orders"}


RETRIEVAL_CASES = [
    ("how long do I have to return a lamp", "en", "returns.time-limit"),
    ("I opened the box of my new speaker, can I still send it back?", "en", "returns.restocking-fee"),
    ("can I return swimwear?", "en", "returns.non-returnable"),
    ("who pays for the return label?", "en", "returns.shipping-fees"),
    ("I want the same shirt in a different color", "en", "returns.exchanges"),
    ("my refund hasn't shown up on my bank statement yet", "en", "refunds.bank-processing"),
    ("does store credit expire?", "en", "refunds.store-credit"),
    ("what time do I need to order by for it to ship today?", "en", "shipping.dispatch"),
    ("can express delivery go to my PO box?", "en", "shipping.express"),
    ("my package says delivered but it never arrived", "en", "shipping.lost-damaged"),
    ("why was I charged twice for one order?", "en", "payment.double-charge"),
    ("can I use Klarna to pay later?", "en", "payment.installments"),
    ("the price went down a week after I bought it", "en", "payment.price-adjustment"),
    ("I spilled water on my laptop, is that covered?", "en", "warranty.coverage"),
    ("how long is the warranty on a sofa frame?", "en", "warranty.furniture"),
    ("I'm locked out after entering the wrong password", "en", "account.lockout"),
    ("I typed the wrong delivery address, can I fix it?", "en", "orders.address-change"),
    ("what is your phone number?", "en", "contact.human-agents"),
    ("我的退款什么时候到账", "zh", "refunds.bank-processing"),
    ("退货期限是多久？", "zh", "returns.time-limit"),
    ("圣诞节收到的礼物什么时候之前可以退？", "zh", "returns.holiday-season"),
    ("退货要怎么操作？", "zh", "returns.process"),
    ("礼品卡买的东西退款退到哪里？", "zh", "refunds.method"),
    ("满多少钱包邮？", "zh", "shipping.standard"),
    ("能寄到加拿大吗？关税谁付？", "zh", "shipping.international"),
    ("包裹一直没到怎么办", "zh", "shipping.lost-damaged"),
    ("可以用两个优惠码吗？", "zh", "payment.promo-codes"),
    ("什么时候从我的卡上扣钱？", "zh", "payment.charge-timing"),
    ("延保可以什么时候买？", "zh", "warranty.protection-plan"),
    ("怎么申请保修？需要什么材料？", "zh", "warranty.claims"),
    ("密码重置链接过期了", "zh", "account.password-reset"),
    ("我想注销账户", "zh", "account.deletion"),
    ("下单后还能取消吗？", "zh", "orders.cancellation"),
    ("订单已经下了，还能再加一件商品吗？", "zh", "orders.adding-items"),
]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_retrieval_top3(kb, lang):
    misses = []
    for query, query_lang, expected_id in RETRIEVAL_CASES:
        if query_lang != lang:
            continue
        hits = kb.search(query, lang=lang, k=3)
        assert all(h.section.lang == lang for h in hits)
        if expected_id not in [h.section.id for h in hits]:
            misses.append((query, expected_id, [(h.section.id, round(h.score, 2)) for h in hits]))
    assert not misses



# Questions that share their wording with a neighbouring section: the right one must come first, since a
# single-fact question is answered from the top hit alone.
TOP1_CASES = [
    ("How long do I have to return a lamp?", "en", "returns.time-limit"),
    ("How many days do I have to send it back?", "en", "returns.time-limit"),
    ("How long does a refund take?", "en", "refunds.timing"),
    ("我有多长时间可以退货？", "zh", "returns.time-limit"),
    ("东西买了多长时间还能退？", "zh", "returns.time-limit"),
    ("退款要多长时间？", "zh", "refunds.timing"),
    ("多久能收到退款？", "zh", "refunds.timing"),
]


@pytest.mark.parametrize(("query", "lang", "expected_id"), TOP1_CASES)
def test_retrieval_top1_between_look_alike_sections(kb, query, lang, expected_id):
    assert kb.search(query, lang=lang, k=1)[0].section.id == expected_id

def test_search_results_sorted_and_typed(kb):
    hits = kb.search("return shipping label fee refund", k=5)
    assert 0 < len(hits) <= 5
    assert all(isinstance(h, ScoredSection) and h.score > 0 for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_scores_are_the_same_bits_in_every_process():
    """BM25 summed a query's terms in a set's order, which changes with the process's string hashing: a score
    moved by its last bit, and the fourth point of "Tell me about your shipping, returns and warranty policies",
    scored at exactly 80% of the best hit, changed from one run to the next."""
    script = ("from chatbot.knowledge import KnowledgeBase; kb = KnowledgeBase.load(); "
              "print([repr(h.score) for h in kb.search('Tell me about your shipping, returns and warranty policies "
              "and the refund time for an opened laptop', lang='en', k=8)])")
    runs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in range(6)}
    assert len(runs) == 1, runs


def test_search_category_filter_and_errors(kb):
    hits = kb.search("how long", lang="en", k=10, category="warranty")
    assert hits and {h.section.category for h in hits} == {"warranty"}
    with pytest.raises(ValueError):
        kb.search("x", lang="fr")
    with pytest.raises(ValueError):
        kb.search("x", category="weather")


def test_search_without_lang_uses_both_indexes(kb):
    assert {h.section.lang for h in kb.search("return window", k=3)} == {"en"}
    assert {h.section.lang for h in kb.search("退货期限", k=3)} == {"zh"}
    assert {h.section.lang for h in kb.search("Klarna 分期", k=10)} == {"en", "zh"}


def test_unrelated_queries_score_low(kb):
    assert kb.search("", lang="en") == []
    assert kb.search("the and of to", lang="en") == []
    in_scope = kb.search("how much does express shipping cost", lang="en", k=1)[0].score
    for query in ("tell me a joke about penguins", "who won the football match"):
        hits = kb.search(query, lang="en", k=1)
        assert not hits or hits[0].score < in_scope / 2


def test_mixed_language_query(kb):
    hits = kb.search("我用PayPal付款，退款退到哪里？", lang="zh", k=3)
    assert "refunds.method" in [h.section.id for h in hits]


def test_still_names_no_topic(kb):
    """"still" is a complaint's word, not the restocking fee's ("can still be returned"): "I returned it last week
    and still have no refund" outlined the restocking fee, the return window and the return fees first (2026-12-02)."""
    ids = [h.section.id for h in kb.search("I returned it last week and still have no refund", lang="en", k=4)]
    assert ids[:2] == ["refunds.bank-processing", "refunds.timing"] and "returns.restocking-fee" not in ids, ids


def test_until_names_no_topic(kb):
    """"How long until" asks how long: "until" matched the holiday season's "until January 31", whose section then
    ranked second for "How do I return an item and how long until I get my refund?" (2026-12-02)."""
    hits = kb.search("How do I return an item and how long until I get my refund?", lang="en", k=4)
    assert "returns.holiday-season" not in [h.section.id for h in hits]


def test_an_american_canceled_matches_the_policies_cancelled(kb):
    """The phrases spell "cancelled"; "I was charged but my order was canceled" found the cancellation (BM25 stems
    both spellings alike, the phrases did not)."""
    assert phrase_text("Canceled, canceling; cancel") == " cancelled cancelling cancel "
    assert kb.phrase_sections("I was charged but my order was canceled", "en") == {"payment.double-charge"}


@pytest.mark.parametrize("question", ["I placed the order 2 hours ago and want to cancel",
                                      "I placed an order 10 minutes ago and want to cancel it. How?"])
def test_placed_names_no_topic(kb, question):
    """Every order was placed: "placed" matched adding items' "an order that has already been placed", which then
    outlined a cancellation (2026-12-02)."""
    hits = kb.search(question, lang="en", k=4)
    assert hits[0].section.id == "orders.cancellation" and "orders.adding-items" not in [h.section.id for h in hits]


@pytest.mark.parametrize("question, lang, section_id", [
    ("What does it cost to ship to Canada?", "en", "shipping.international"),
    ("国际运费多少钱？", "zh", "shipping.international"),
    ("Do you ship to Hong Kong?", "en", "shipping.international"),  # refused; "香港" found it
    ("my order # is NW-55120, when does it ship?", "en", "shipping.dispatch"),
    ("When will my order be shipped?", "en", "shipping.dispatch")])
def test_shipping_abroad_and_dispatch_phrasings_find_their_section(kb, question, lang, section_id):
    """The thirty-fourth sweep (2026-12-02): standard shipping's $4.99 answered the cost of shipping abroad,
    and refusing a shipped order when an order ships."""
    assert kb.search(question, lang=lang, k=1)[0].section.id == section_id


@pytest.mark.parametrize("question, lang, section_id", [
    ("do they need the box?", "en", "returns.condition"),  # express shipping ("PO boxes")
    ("Can I get the difference?", "en", "payment.price-adjustment"),  # the exchanges
    ("多久能退款？", "zh", "refunds.timing"),  # the return window ("多久能退")
    ("can i exchange for a cheaper item and get the difference back", "en", "returns.exchanges")])
def test_the_questions_of_multi_point_messages_find_their_section(kb, question, lang, section_id):
    """One question each of the thirty-fifth sweep's messages (2026-12-02): "How long do I have to return shoes
    and do they need the box?", "I used a promo code but the price dropped after. Can I get the difference?",
    "取消订单要手续费吗？多久能退款？"."""
    assert kb.search(question, lang=lang, k=1)[0].section.id == section_id


@pytest.mark.parametrize("question, section_id", [
    ("东西不想要了咋退", "returns.process"), ("退货的话邮费我出还是你们出", "returns.shipping-fees"),
    ("我买的裤子小了能换大一码不", "returns.exchanges"), ("衣服洗过一次还能退不", "returns.condition")])
def test_colloquial_chinese_finds_its_section(kb, question, section_id):
    """The fortieth sweep (2026-12-02): the cancellation ("不想要了"), the refund of shipping charges, refused, the
    non-returnable items answered these. The keyword phrase of a one-question message decides (`retrieve`)."""
    assert RuleRouter(kb).route(question).hits[0].section.id == section_id


@pytest.mark.parametrize("question, section_id", [
    ("wheres my money", "refunds.timing"), ("my stuff never showed", "shipping.lost-damaged"),
    ("can i get my $$ back", "refunds.timing"), ("thing came busted", "shipping.lost-damaged"),
    ("refund status?", "refunds.timing"), ("card got charged 2x wtf", "payment.double-charge"),
    ("cant login help", "account.password-reset"), ("forgot pw", "account.password-reset"),
    ("warranty on tvs?", "warranty.electronics"), ("when does my stuff ship", "shipping.dispatch"),
    # The forty-third (payment and accounts): refused, refused, the dispatch times, refused.
    ("Do you take Discover?", "payment.methods"),
    ("Will you keep my data after I delete my account?", "account.deletion"),
    ("为什么还没发货就扣款了？", "payment.charge-timing"), ("注销后我的数据会保留吗？", "account.deletion")])
def test_terse_english_finds_its_section(kb, question, section_id):
    """The forty-first sweep (2026-12-02): eight were refused, "refund status?" got tracking and "charged 2x" the
    charge timing."""
    assert RuleRouter(kb).route(question).hits[0].section.id == section_id


def _write_policies(root, lang: str, sections: list[tuple[str, str, str]]) -> None:
    """One category file, `shipping`, of (id, keywords, text) sections."""
    (root / lang).mkdir()
    body = "".join(f"## {sid}\n<!-- id: {sid} -->\n<!-- keywords: {kw} -->\n{text}\n\n" for sid, kw, text in sections)
    (root / lang / "shipping.md").write_text(f"# Shipping\n\n{body}", encoding="utf-8")


def test_quoted_keywords_match_as_whole_phrases_only(tmp_path):
    _write_policies(tmp_path, "en", [
        ("shipping.tracking", 'track, "where is my order"', "We email a tracking number."),
        ("shipping.lost", 'lost, "hasn\'t arrived"', "Report a lost parcel within 30 days."),
        ("shipping.refund", 'bank, "refund hasn\'t arrived"', "Banks take 3 days."),
        ("shipping.other", "order, gift", "Gift orders ship in a box."),
    ])
    kb = KnowledgeBase.load(tmp_path)
    top = kb.search("Where is my order?", lang="en")
    assert top[0].section.id == "shipping.tracking" and top[0].score >= PHRASE_BONUS["en"]
    # The phrase's words are not indexed: out of order, or apart, they find nothing.
    assert not [h for h in kb.search("my order is where", lang="en") if h.section.id == "shipping.tracking"]
    assert [h.section.id for h in kb.search("My parcel hasn’t arrived!", lang="en")] == ["shipping.lost"]
    # Overlapping matches: only the longest counts; two phrases side by side share no word, and both count.
    assert [h.section.id for h in kb.search("The refund hasn't arrived", lang="en")] == ["shipping.refund"]
    assert kb.phrase_sections("Where is my order? Hasn't arrived", "en") == {"shipping.tracking", "shipping.lost"}


def test_chinese_phrases_match_inside_a_sentence(tmp_path):
    _write_policies(tmp_path, "zh", [("shipping.lost", '丢失, "订单还没到"', "请在30天内报告。"),
                                     ("shipping.other", "礼品", "礼品订单用盒子寄出。")])
    kb = KnowledgeBase.load(tmp_path)
    assert kb.search("我的订单还没到，怎么办？", lang="zh")[0].section.id == "shipping.lost"
    assert kb.search("订单 还没到", lang="zh")[0].section.id == "shipping.lost"  # spaces between CJK ignored
    assert kb.search("订单还没有到", lang="zh")[0].section.id == "shipping.other"  # "订单" scores, no phrase


def test_an_amount_a_section_states_is_its_phrase(tmp_path):
    """A customer who quotes an amount with cents asks about the section that states it; a whole number or another
    amount that contains it does not count."""
    _write_policies(tmp_path, "en", [("shipping.standard", "standard", "Standard shipping costs $4.99."),
                                     ("shipping.express", "express", "Express costs $14.99 and takes 4 days.")])
    kb = KnowledgeBase.load(tmp_path)
    assert [h.section.id for h in kb.search("Why did I pay 4.99?", lang="en")] == ["shipping.standard"]
    assert kb.phrase_sections("I was charged $14.99", "en") == {"shipping.express"}
    assert kb.phrase_sections("It took 4 days, I paid 99 cents", "en") == set()
    assert kb.phrase_sections("I paid 114.99", "en") == set()


def test_load_rejects_mismatched_languages(tmp_path):
    for lang, section_id in (("en", "returns.time-limit"), ("zh", "returns.other")):
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "returns.md").write_text(f"# R\n\n## T\n<!-- id: {section_id} -->\nText.\n")
    with pytest.raises(ValueError, match="differ"):
        KnowledgeBase.load(tmp_path)


def test_load_rejects_missing_id(tmp_path):
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "returns.md").write_text("# Returns\n\n## Time limit\nNo id here.\n")
    with pytest.raises(ValueError, match="id"):
        KnowledgeBase.load(tmp_path)


def test_load_missing_root(tmp_path):
    with pytest.raises(FileNotFoundError):
        KnowledgeBase.load(tmp_path / "nowhere")


def test_traditional_chinese_queries_find_what_simplified_ones_do(kb):
    for simplified, traditional in [("我想退货，运费谁付？", "我想退貨，運費誰付？"), ("我的快递到哪了？", "我的快遞到哪了？"),
                                    ("可以用支付宝吗？", "可以用支付寶嗎？")]:
        assert ([(h.section.id, h.score) for h in kb.search(traditional, lang="zh")]
                == [(h.section.id, h.score) for h in kb.search(simplified, lang="zh")])


def test_the_in_scope_bar_follows_the_message_s_terms():
    assert in_scope_bar("Where is my order?", "en") == MIN_TOP_SCORE["en"]
    assert in_scope_bar("退货要多久？", "zh") == MIN_TOP_SCORE["zh"]
    assert MIN_TOP_SCORE["en"] < in_scope_bar("可以用Apple Pay吗？", "zh") < MIN_TOP_SCORE["zh"]


def test_search_results_are_the_caller_s_own(kb):
    """`search` keeps each query's ranking (routing one message searches the same text several times); a caller
    that changes its list changes no later search."""
    first = kb.search("How long do I have to return a lamp?", lang="en", k=3)
    first.clear()
    again = kb.search("How long do I have to return a lamp?", lang="en", k=3)
    assert len(again) == 3 and again[0].section.id == "returns.time-limit"
    assert kb.search("How long do I have to return a lamp?", lang="en", k=1) == again[:1]
