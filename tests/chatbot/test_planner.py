"""The SoT planner end to end on the real Gemma 3 270M (int8): routing, outline, parallel expansion
over the shared prefix, grounding, language, and the `ask --json` contract."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

from chatbot.bench_sot import _cold_question
from chatbot.evaluation import score_answer
from chatbot.planner import assemble_answer, guard_point
from chatbot.router import OUT_OF_SCOPE_SECTION, RuleRouter
from tests.chatbot.routing import point_ids

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
        assert answer.sources == point_ids(planner.kb, row["question"])
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


# Stop 43's sweep: pruning kept the question and the dining set's story, and left the lawyer out (refused).
_PRUNED_THREAT = (
    "I am writing this message calmly, but please understand how frustrated I am. We bought the set for my parents' "
    "fiftieth wedding anniversary dinner, which we had to hold on folding chairs from the church basement because of "
    "you. This is the third time I am writing about the dining set I ordered in August. The chairs arrived with two "
    "legs of different lengths, the table top had a deep scratch, and your agent promised me a replacement that never "
    "came. I have been patient for two months, I have sent photos, I have spent hours on hold. At this point I have "
    "spoken to a lawyer and unless I get a full refund of $1,450 within seven days, I will file a claim in small "
    "claims court and also report you to the state attorney general for deceptive business practices. How do you "
    "intend to resolve this?")


@pytest.mark.real_model
def test_a_threat_that_pruning_leaves_out_still_goes_to_a_human(planner):
    from chatbot.pruning import prune_message

    pruned = prune_message(_PRUNED_THREAT)
    assert pruned.was_pruned and "lawyer" not in pruned.text  # what the router reads
    answer = asyncio.run(planner.answer(_PRUNED_THREAT))
    assert (answer.mode, answer.route_reason) == ("escalate", "legal") and "1-800-555-0199" in answer.answer


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
                                                     ("zh-multi-10", False), ("zh-multi-20", True)])
def test_an_outline_the_schema_forces_takes_no_model_step(planner, eval_questions, qid, outline_request):
    """en-multi-01's and zh-multi-06's points are of one category (zh-multi-06's top hits spanned refunds and
    warranty, whose categories the schema offered until 2026-12-02 17:24): the schema admits one outline, written
    without a request; zh-multi-10's too since stop 39 (its refund method, a padding point, spanned refunds).
    zh-multi-20's span shipping and payment: the model picks the category under the schema."""
    row = next(r for r in eval_questions if r["id"] == qid)
    asyncio.run(_cold_question(planner, row["lang"]))
    answer = asyncio.run(planner.answer(row["question"]))
    assert answer.mode == "sot" and answer.category == row["expected_category"]
    assert (answer.usage["prompt_tokens"] > answer.expansion_prompt_tokens) == outline_request
    assert answer.expansion_cached_tokens >= 0.8 * answer.expansion_prompt_tokens
