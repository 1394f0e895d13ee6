"""The SoT planner end to end on the real Gemma 3 270M (int8): routing, outline, parallel expansion
over the shared prefix, grounding, language, and the `ask --json` contract."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

from chatbot.bench_sot import _cold_question
from chatbot.evaluation import point_precision_and_recall, point_scores, score_answer
from chatbot.knowledge import detect_lang
from chatbot.planner import assemble_answer, guard_point, sections_asked, select_points
from chatbot.pruning import prune_message
from chatbot.router import OUT_OF_SCOPE_SECTION, RuleRouter

ASK_KEYS = {"answer", "mode", "category", "outline", "sources", "timings", "usage"}


def test_guard_point_falls_back_to_the_section(kb):
    section = kb.get("returns.shipping-fees", "en")
    assert guard_point("The label costs $7.99.", section, "who pays?", "en") == (section.text, "grounding")
    assert guard_point("", section, "q", "en")[1] == "empty"
    ok_text = section.text.replace("Return shipping", "Shipping back")
    assert guard_point(ok_text, section, "q", "en") == (ok_text, None)


def test_a_point_that_drops_a_sentence_of_its_section_is_incomplete(kb):
    """The model kept the exchange's shipping and dropped its condition, the answer to "可以换成别的尺码吗？"
    (2026-12-02, zh-multi-04; the point kept 63% of the section's terms, over the whole-section bar of before)."""
    section = kb.get("returns.exchanges", "zh")
    dropped = "承运商扫描您的退货包裹后，替换商品会立即寄出。"
    assert guard_point(dropped, section, "能换尺码吗？", "zh") == (section.text, "incomplete")
    express = kb.get("shipping.express", "en")
    assert guard_point("Express shipping takes 1–2 business days and costs $14.99.", express, "q", "en")[1] == "incomplete"
    assert guard_point("Good news: " + express.text, express, "q", "en")[1] is None


def test_a_point_that_drops_the_words_of_the_question_is_incomplete(kb):
    """The model wrote "non-returnable items" for the section's "final-sale items" (2026-12-02, "Is a final sale item
    returnable?"), 95% of its terms kept: the answer no longer named what was asked."""
    section = kb.get("returns.non-returnable", "en")
    dropped = section.text.replace("final-sale items", "non-returnable items")
    assert guard_point(dropped, section, "Is a final sale item returnable?", "en") == (section.text, "incomplete")
    assert guard_point(dropped, section, "Can I return a gift card?", "en") == (dropped, None)  # not what was asked


def test_a_point_that_takes_the_question_s_words_the_section_lacks_is_unsupported(kb):
    """"Can I get a refund in cash?" got "Cash refunds go back to the original payment method" (2026-12-02): every
    number grounded, every term of the section kept, and a claim the policy does not make."""
    section = kb.get("refunds.method", "en")
    echoed = "Cash r" + section.text[1:]
    assert guard_point(echoed, section, "Can I get a refund in cash?", "en") == (section.text, "unsupported")
    assert guard_point(section.text, section, "Can I get a refund in cash?", "en") == (section.text, None)


def _planner_hits(kb, question: str):
    """The hits the planner chooses points from: `RuleRouter` on the pruned message, the scope section left out."""
    pruned = prune_message(question)
    return [h for h in RuleRouter(kb).route(pruned.text, pruned.query).hits if h.section.id != OUT_OF_SCOPE_SECTION]


def _planner_points(kb, question: str):
    """The points the planner outlines for ``question`` (`Planner.stream`: a pasted thread is split at its closing
    question)."""
    pruned = prune_message(question)
    lang = detect_lang(question)
    asked = sections_asked(kb, pruned.asking, lang)
    return select_points(_planner_hits(kb, question), asked, kb.phrase_sections(pruned.text, lang))


def _points_against_expected(kb, eval_questions):
    """(point precision, section recall) of the planner's points over the eval set's multi-point questions, as
    `supportdesk eval` scores them."""
    return point_precision_and_recall([
        point_scores([h.section.id for h in _planner_points(kb, q["question"])], q["expected_sections"])
        for q in eval_questions if q["kind"] == "multi"])


@pytest.mark.parametrize("question", [
    "I ordered a sofa yesterday and need to change the address",
    "My order shipped to the wrong address. Can I change it, and what if it's already delivered?"])
def test_changing_an_address_is_not_adding_items(kb, question):
    """"change order" was a keyword of adding items ("Items cannot be added to an order…"), a point of both."""
    assert "orders.adding-items" not in [h.section.id for h in _planner_points(kb, question)]


def test_a_polite_return_question_outlines_the_return_process(kb):
    """The story and the courtesy around it ("from your store", "Thank you so much for your time", "possible")
    outlined the refund method, the store credit and the bank's time, without the return process."""
    ids = [h.section.id for h in _planner_points(kb, (
        "Hello, I hope you're doing well. I recently purchased a lamp from your store and unfortunately it does not "
        "match my decor. I was wondering if it would be possible to return it, and if so, what the process would be. "
        "Thank you so much for your time."))]
    assert ids[0] == "returns.process" and not {"refunds.store-credit", "refunds.bank-processing"} & set(ids), ids


@pytest.mark.parametrize("question, products", [
    ("How long is the TV warranty and what does it cover?", ["warranty.electronics"]),  # and the furniture's
    ("Is there a physical store? How long is the warranty on a TV?", ["warranty.electronics"]),
    ("How long is the warranty on a coffee maker and what does it cover?", ["warranty.electronics"]),  # an appliance
    ("保修多久？怎么申请？", ["warranty.electronics", "warranty.furniture"]),  # an overview: both lead
    ("What's the warranty on TVs and sofas?", ["warranty.electronics", "warranty.furniture"])])
def test_a_question_for_one_product_s_warranty_keeps_to_it(kb, question, products):
    ids = [h.section.id for h in _planner_points(kb, question)]
    assert sorted(i for i in ids if i in ("warranty.electronics", "warranty.furniture")) == products, ids


def test_a_product_s_name_brings_no_warranty_into_another_category_s_outline(kb):
    """"headphones" and "speaker" are the electronics' keywords: an exchange question had its warranty as a point."""
    ids = [h.section.id for h in _planner_points(kb, (
        "My husband bought me headphones for my birthday but I already have a pair. Can I exchange them for a "
        "speaker instead, or do I have to return them and buy the speaker separately?"))]
    assert ids[0] == "returns.exchanges" and "warranty.electronics" not in ids


@pytest.mark.parametrize("question, wanted", [
    ("Can I add an item to my order or change the delivery address?", ["orders.address-change", "orders.adding-items"]),
    ("Can I cancel my order or change the address?", ["orders.cancellation", "orders.address-change"]),
    ("Can I change my email or reset my password?", ["account.password-reset", "account.email-change"])])
def test_each_action_an_or_joins_gets_its_point(kb, question, wanted):
    """"or" before a second action asked nothing of its own: the second action had no point (2026-12-03)."""
    ids = [h.section.id for h in _planner_points(kb, question)]
    assert ids[:2] == wanted, ids


def test_a_parcel_crushed_with_the_product_broken_outlines_the_damaged_parcels_too(kb):
    """"arrived crushed" found no phrase of the damaged parcels, which then stayed out of the outline beside the
    early defects' "is broken" (2026-12-03)."""
    ids = [h.section.id for h in _planner_points(kb, "The box arrived crushed and the vase inside is broken")]
    assert set(ids) == {"shipping.lost-damaged", "warranty.early-defects"}, ids


@pytest.mark.parametrize("question, wanted, unwanted", [
    ("I lost my phone and can't get my 2FA code", ["account.two-factor"], "payment.promo-codes"),  # "code"
    ("被扣了两次钱，订单还没发货，怎么回事？", ["payment.double-charge", "payment.charge-timing"], "shipping.lost-damaged"),
    ("Can I split my payment for a $1,200 sofa?", ["payment.installments"], "warranty.furniture")])  # "sofa"
def test_another_category_s_hit_without_a_phrase_stays_out_where_the_best_has_one(kb, question, wanted, unwanted):
    ids = [h.section.id for h in _planner_points(kb, question)]
    assert ids[:len(wanted)] == wanted and unwanted not in ids, ids


def test_points_keep_to_the_question(kb, eval_questions):
    """Measured on the 40 multi-point questions: 74.1% of the points answer the question and 93.5% of the
    expected sections are points (without `sections_asked` 73.7% and 91.3%: it finds the second category's
    section of "Who pays for return shipping? And how long until I get my refund?"). On the 36 questions
    before the four that span two categories: 77.5% and 94.0% (without it 77.2% and 92.9%). The rule before
    `select_points` (one point per thing asked, padded with the next hits whatever their category) had 65%
    and 88% there."""
    precision, recall = _points_against_expected(kb, eval_questions)
    assert precision >= 0.73 and recall >= 0.92, (precision, recall)
    one_category = [q for q in eval_questions if not q["id"].endswith(("-multi-19", "-multi-20"))]
    precision, recall = _points_against_expected(kb, one_category)
    assert precision >= 0.77 and recall >= 0.92, (precision, recall)
    assert len(select_points(kb.search("return refund shipping warranty payment", "en", k=8))) <= 4


@pytest.mark.parametrize("question, wanted", [
    ("Who pays for return shipping? How long until I get my refund?", {"returns.shipping-fees", "refunds.timing"}),
    ("退货运费谁出？多久退款？", {"returns.shipping-fees", "refunds.timing"}),
    ("Do you ship to other countries? Which payment methods do you accept?",
     {"shipping.international", "payment.methods"}),
    ("可以寄到国外吗？你们接受哪些付款方式？", {"shipping.international", "payment.methods"}),
    ("How long is the warranty on electronics? Can I cancel my order?",
     {"warranty.electronics", "orders.cancellation"}),
    ("电子产品保修多久？订单可以取消吗？", {"warranty.electronics", "orders.cancellation"}),
    ("How long does standard shipping take? How many days do I have to return something?",
     {"shipping.standard", "returns.time-limit"}),
    ("标准配送要几天？退货期限是多久？", {"shipping.standard", "returns.time-limit"}),
    ("Can I pay with PayPal? How do I reset my password?", {"payment.methods", "account.password-reset"}),
    ("可以用PayPal付款吗？怎么重置密码？", {"payment.methods", "account.password-reset"}),
    ("Who pays customs? And can I pay with PayPal?", {"shipping.international", "payment.methods"}),
    # A product named in the question is a warranty's word: the electronics' warranty, not the return window.
    ("How long do I have to return a TV, and is there a fee if I opened it?",
     {"returns.time-limit", "returns.restocking-fee"}),
    # Who pays to ship it back: the return fees by 1.16x over the refund of shipping charges, under the margin.
    ("I ordered a desk last week and it arrived with a scratch. Can I get a replacement, and do I have to pay for "
     "shipping it back?", {"shipping.lost-damaged", "returns.shipping-fees"}),
    # "需要自己付运费吗？" after "我想退货" found standard shipping ("运费") for its own question.
    ("我想退货，需要自己付运费吗？多久能退款？", {"returns.shipping-fees", "refunds.timing"}),
])
def test_each_question_of_another_category_gets_its_section(kb, question, wanted):
    """Two questions in one message, each answered by a section of its own category: the second category's
    section used to fall under the other-category bar (9 of these 10 lost it)."""
    assert wanted <= {h.section.id for h in _planner_points(kb, question)}


def test_sections_asked_needs_separate_questions_with_a_clear_best(kb):
    assert sections_asked(kb, "If I return a lamp, who pays for return shipping?", "en") == set()  # one question
    # Asking clauses are questions, with or without their own question mark ("and how long ..." too).
    assert sections_asked(kb, "How long do I have to return a lamp, and who pays for return shipping?", "en") == {
        "returns.shipping-fees", "returns.time-limit"}  # the window by its phrase (no clear best before 2026-12-02)
    assert "refunds.timing" in sections_asked(kb, "How do I return an item and how long until I get my refund?", "en")
    # A best section of the second-best's category counts (the refund timing over the bank's time, under the
    # margin); a question for an overview has none.
    assert "refunds.timing" in sections_asked(
        kb, "If I return an opened laptop, is there a fee, and how long will the refund take?", "en")
    assert sections_asked(kb, "退货政策是什么？退款要多久？", "zh") == {"returns.time-limit", "refunds.timing"}
    assert sections_asked(kb, "买完还能买延保吗？多少钱？", "zh") == {"warranty.protection-plan"}  # not standard shipping's
    assert "shipping.standard" not in sections_asked(kb, "我用PayPal付的款，退货以后钱退到哪里？多久能到？", "zh")  # "能到"
    assert sections_asked(kb, "退款多久、退到哪、运费退不退？", "zh") >= {"refunds.timing", "refunds.method"}  # one question
    # A question for a category's overview among others asks for its lead section (it asked for none).
    assert sections_asked(kb, "I bought a couch for $800. Can I pay with Klarna, and if I return it later, how does "
                              "the refund work?", "en") == {"payment.installments", "refunds.timing"}
    assert sections_asked(kb, "Hi? Hello? Hey? What? Why?", "en") == set()  # five questions: more than the points
    assert sections_asked(kb, "What's the weather? Who won the game?", "en") == set()  # below the in-scope bar
    assert sections_asked(kb, "Can I pay with PayPal? How do I reset my password?", "en") == {
        "payment.methods", "account.password-reset"}


def test_select_points_in_rank_order_with_the_category_rule(kb):
    hits = kb.search("How long do I have to return a lamp, and who pays for return shipping?", "en", k=8)
    chosen = select_points(hits)
    assert chosen[0] == hits[0] and chosen == sorted(chosen, key=hits.index)
    # A section of another category among the top three ("pays" matched "Apple Pay" before the payment section
    # had more keywords; now "long" finds the order cancellation), well below the best hit: not a point.
    assert {h.section.category for h in hits[:3]} != {"returns"}
    ids = [h.section.id for h in chosen]
    assert ids[:2] == ["returns.time-limit", "returns.shipping-fees"]  # "how long do I have to return": the window
    assert {h.section.category for h in chosen} == {"returns"}
    assert select_points([]) == []


@pytest.mark.real_model
@pytest.mark.parametrize("qid", ["en-multi-02", "en-multi-21", "zh-multi-22", "zh-multi-04", "zh-multi-01", "en-single-05", "zh-escalation-01",
                                 "en-out-of-scope-01", "zh-out-of-scope-06", "zh-trad-01", "zh-trad-04", "en-followup-01", "zh-followup-02"])
def test_eval_questions_answered_correctly(planner, eval_questions, qid):
    row = next(r for r in eval_questions if r["id"] == qid)
    asyncio.run(_cold_question(planner, row["lang"]))  # a server's steady state: its instructions warm
    answer = asyncio.run(planner.answer(row["question"], row.get("previous")))
    scores = score_answer(row, answer, planner.kb)
    assert scores["routing_ok"], (answer.mode, row["expected_mode"])
    assert scores["facts_found"] == scores["facts_expected"], scores["missing_facts"]
    assert not scores["hallucinated_numbers"] and not scores["leaks"] and scores["language_ok"]
    if answer.mode in ("refuse", "escalate"):  # how to reach a human agent
        assert "1-800-555-0199" in answer.answer
    if answer.route_reason == "catalog":
        assert "products" in answer.answer or "商品" in answer.answer
    if answer.mode == "sot":
        assert answer.sources == [h.section.id for h in _planner_points(planner.kb, row["question"])]
        assert len(answer.outline) == len(answer.sources) >= 2
        assert answer.category == row["expected_category"]
        # The expansions share one prefix, prefilled once: by the outline request, or, where the outline is
        # written without one, by the first expansion in the step that runs them all.
        assert answer.expansion_cached_tokens >= 0.8 * answer.expansion_prompt_tokens


@pytest.mark.real_model
@pytest.mark.parametrize("question, reason, words", [
    ("Hi there!", "greeting", "Hello!"), ("thx", "thanks", "Glad to help"), ("好的，谢谢", "thanks", "不客气"),
    ("bye", "goodbye", "Goodbye"), ("再见", "goodbye", "再见"), ("what can you do?", "about", "1-800-555-0199"),
    ("你是机器人吗？", "about", "自动客服助手")])
def test_small_talk_gets_its_own_reply_without_a_model_step(planner, question, reason, words):
    """"thx", "bye", "what can you do?" were refused ("Sorry, I can't help with that"), and "thanks" was greeted."""
    answer = asyncio.run(planner.answer(question))
    assert (answer.mode, answer.route_reason, answer.sources) == ("direct", reason, [])
    assert words in answer.answer and answer.usage["completion_tokens"] == 0


@pytest.mark.real_model
@pytest.mark.parametrize("question", ["¿Puedo devolver un producto?", "返品できますか？"])
def test_a_message_in_another_language_gets_the_languages_it_is_answered_in(planner, question):
    answer = asyncio.run(planner.answer(question))
    assert (answer.mode, answer.route_reason, answer.usage["completion_tokens"]) == ("refuse", "language", 0)
    assert "English or Chinese" in answer.answer and "英文或中文" in answer.answer and "1-800-555-0199" in answer.answer


@pytest.mark.real_model
def test_ask_json_contract():
    proc = subprocess.run([sys.executable, "-m", "chatbot.cli", "ask", "How long is the warranty on electronics?",
                           "--json"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert ASK_KEYS <= set(out) and out["mode"] == "direct" and out["category"] == "warranty"
    assert set(out["timings"]) >= {"route_s", "outline_s", "expand_s", "ttft_s", "total_s"}
    assert set(out["usage"]) == {"prompt_tokens", "completion_tokens", "cached_prompt_tokens"}
    assert "1-year" in out["answer"] or "1 year" in out["answer"]


def test_cli_bad_input_is_one_error_line(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "chatbot.cli", "convert", "--model", str(tmp_path / "missing.gguf")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "missing.gguf" in lines[0] and "error" in lines[0]


def test_assembled_answers():
    """Several points are listed with their titles; one point, as a direct answer, is just its text."""
    assert assemble_answer("sot", "en", ["A", "B"], ["One.", "Two."]) == "- A: One.\n- B: Two."
    assert assemble_answer("sot", "zh", ["甲", "乙"], ["一。", "二。"]) == "- 甲：一。\n- 乙：二。"
    assert assemble_answer("sot", "en", ["A", "B"], ["One."]) == "- A: One."  # a stream, one point done so far
    assert assemble_answer("sot", "en", ["Account lockout"], ["Locked for 15 minutes."]) == "Locked for 15 minutes."
    assert assemble_answer("direct", "en", ["A"], ["One."]) == "One."


@pytest.mark.real_model
def test_model_router_refuses_what_only_the_assistant_s_own_section_matches(planner):
    """A message whose best section describes the assistant (no policy to outline) is refused, whatever
    mode the model picks: 'Do you sell used cars?' was routed to sot and the outline had no points."""
    from chatbot.router import ModelRouter

    router = ModelRouter(planner.llm, planner.kb)
    for question in ("Do you sell used cars?", "Can you write me a short poem about my cat?", "明天上海天气怎么样？"):
        assert planner.kb.search(question, k=1)[0].section.id == OUT_OF_SCOPE_SECTION
        route = asyncio.run(router.route(question))
        assert route.mode == "refuse", (question, route.mode)


@pytest.mark.real_model
def test_hybrid_router_keeps_the_rules_and_asks_the_model_only_sot_or_direct(planner):
    """Escalation, refusal and small talk are the rules'; a policy question gets the model's sot or direct, with
    the rules' sections."""
    from chatbot.router import HybridRouter

    router = HybridRouter(planner.llm, planner.kb)
    for question, mode, reason in (("My charger is smoking!", "escalate", "safety"), ("thanks", "direct", "thanks"),
                                   ("What's the weather in Paris?", "refuse", "out_of_scope")):
        assert asyncio.run(router.route(question))[:2] == (mode, reason)
    question = "How long do I have to return a lamp, and who pays for return shipping?"
    route = asyncio.run(router.route(question))
    assert route.mode in ("sot", "direct") and route.reason == "policy"
    assert route.hits == RuleRouter(planner.kb).route(question).hits


@pytest.mark.real_model
@pytest.mark.parametrize(("qid", "outline_request"), [("en-multi-01", False), ("zh-multi-06", False),
                                                     ("zh-multi-10", True)])
def test_an_outline_the_schema_forces_takes_no_model_step(planner, eval_questions, qid, outline_request):
    """en-multi-01's and zh-multi-06's points are of one category (zh-multi-06's top hits spanned refunds and
    warranty, whose categories the schema offered until 2026-12-02 17:24): the schema admits one outline, written
    without a request. zh-multi-10's span payment and refunds: the model picks the category under the schema."""
    row = next(r for r in eval_questions if r["id"] == qid)
    asyncio.run(_cold_question(planner, row["lang"]))
    answer = asyncio.run(planner.answer(row["question"]))
    assert answer.mode == "sot" and answer.category == row["expected_category"]
    assert (answer.usage["prompt_tokens"] > answer.expansion_prompt_tokens) == outline_request
    assert answer.expansion_cached_tokens >= 0.8 * answer.expansion_prompt_tokens
