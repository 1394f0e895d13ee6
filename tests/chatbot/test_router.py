"""Rule routing on the project's eval set, and the pruning of long pasted threads (no model)."""
from __future__ import annotations

from chatbot.pruning import prune_message
from chatbot.router import RuleRouter, shape_mode


def test_rule_router_accuracy_on_eval_set(kb, eval_questions):
    router = RuleRouter(kb)
    rows = eval_questions
    correct = sum(router.route(prune_message(r["question"]).text).mode == r["expected_mode"] for r in rows)
    assert correct / len(rows) >= 0.95


def test_shape_mode():
    assert shape_mode("How long is the warranty on electronics?") == "direct"
    assert shape_mode("How long do I have, and who pays for shipping?") == "sot"
    assert shape_mode("你们能寄到加拿大吗？要多久？") == "sot"


def test_long_thread_is_pruned_to_relevant_sentences():
    thread = ("Hi Anna, thanks for the photos from the weekend. The kids loved the beach. " * 8 +
              "Anyway, the rug arrived damaged last Tuesday. How do I return it and when will I get my refund?")
    pruned = prune_message(thread, max_chars=300)
    assert pruned.was_pruned and len(pruned.text) <= 300
    assert "How do I return it and when will I get my refund?" in pruned.text
    assert prune_message("short question?").text == "short question?"
