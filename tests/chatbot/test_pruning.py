"""Pruning of long pasted threads, and the closing question retrieval weighs (no model)."""
from __future__ import annotations

from chatbot.planner import select_points
from chatbot.pruning import closing_question, prune_message
from chatbot.router import OUT_OF_SCOPE_SECTION, RuleRouter

THREAD = ("Hi Anna, thanks for the photos from the weekend. The kids loved the beach. " * 8 +
          "Anyway, the rug arrived damaged last Tuesday. How do I return it and when will I get my refund?")


def test_long_thread_is_pruned_to_relevant_sentences():
    pruned = prune_message(THREAD, max_chars=300)
    assert pruned.was_pruned and len(pruned.text) <= 300
    assert "How do I return it and when will I get my refund?" in pruned.text
    short = prune_message("short question?")
    assert short.text == "short question?" and not short.was_pruned and short.ask == ""
    assert short.query == "short question?"


def test_closing_question_is_the_last_own_paragraph_with_a_question():
    message = ("Hello, my question is at the end.\n\n> On Monday you wrote:\n> Can we help with anything else?\n\n"
               "The parcel came back.\nWhen do I get my money?\nThanks\n\n> Old quote? Ignore me\n")
    assert closing_question(message) == "The parcel came back.\nWhen do I get my money?\nThanks"
    assert closing_question("No question here.\n\n> Or here?") == ""
    assert closing_question("问题在最后。\n\n退款什么时候到账？") == "退款什么时候到账？"


def test_a_pruned_message_is_retrieved_by_its_closing_question_too():
    pruned = prune_message(THREAD + "\n\nSo: how long until the refund reaches my card?", max_chars=300)
    assert pruned.ask == "So: how long until the refund reaches my card?"
    assert pruned.query == f"{pruned.ask}\n{pruned.text}"


def test_the_closing_question_finds_what_the_thread_buries(kb, eval_questions):
    """zh-multi-17: a pasted thread about sending a rug back, then "when is the refund made, and how long
    until it reaches my credit card?". Ranked by the kept text alone, the bank's processing time was no
    point; with the closing question counted once more, both refund sections are."""
    row = next(r for r in eval_questions if r["id"] == "zh-multi-17")
    pruned = prune_message(row["question"])
    router = RuleRouter(kb)

    def points(query: str) -> list[str]:
        hits = [h for h in router.route(pruned.text, query).hits if h.section.id != OUT_OF_SCOPE_SECTION]
        return [h.section.id for h in select_points(hits)]

    assert "refunds.bank-processing" not in points(pruned.text)
    assert set(row["expected_sections"]) <= set(points(pruned.query))
