"""Rule routing on the project's eval set (no model)."""
from __future__ import annotations

from chatbot.pruning import prune_message
from chatbot.router import RuleRouter, shape_mode


def test_rule_router_accuracy_on_eval_set(kb, eval_questions):
    router = RuleRouter(kb)
    rows = eval_questions
    pruned = [prune_message(r["question"]) for r in rows]
    correct = sum(router.route(p.text, p.query).mode == r["expected_mode"] for p, r in zip(pruned, rows))
    assert correct / len(rows) >= 0.95


def test_shape_mode():
    assert shape_mode("How long is the warranty on electronics?") == "direct"
    assert shape_mode("How long do I have, and who pays for shipping?") == "sot"
    assert shape_mode("你们能寄到加拿大吗？要多久？") == "sot"
