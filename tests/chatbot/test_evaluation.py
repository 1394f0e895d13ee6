"""`supportdesk eval`'s runner: every question gets a line, and one the planner fails on is scored, not lost."""
from __future__ import annotations

import json

from chatbot.evaluation import run_eval
from chatbot.planner import Answer


class _PlannerThatFailsOnce:
    """Answers from the knowledge base's own text, and raises for one question (a unit test of the runner:
    the planner end to end is tested on the real model in test_planner.py)."""

    def __init__(self, kb, failing: str) -> None:
        self.kb, self.failing = kb, failing

    async def answer(self, question: str, previous: str | None = None) -> Answer:
        if question == self.failing:
            raise IndexError("list index out of range")
        section = self.kb.search(question, lang="en", k=1)[0].section
        timings = {"route_s": 0.0, "outline_s": None, "expand_s": 0.0, "ttft_s": 0.0, "total_s": 0.1}
        return Answer(section.text, "direct", section.category, [], [section.id], "en", timings,
                      {"prompt_tokens": 1, "completion_tokens": 1, "cached_prompt_tokens": 0})


def test_a_failed_question_is_scored_as_an_error_and_the_rest_are_answered(kb, tmp_path):
    rows = [{"id": "ok", "question": "How long is the warranty on electronics?", "lang": "en",
             "expected_mode": "direct", "expected_facts": ["1-year"]},
            {"id": "fails", "question": "Do you sell used cars?", "lang": "en", "expected_mode": "refuse",
             "expected_facts": []}]
    questions = tmp_path / "q.jsonl"
    questions.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    summary = run_eval(_PlannerThatFailsOnce(kb, "Do you sell used cars?"), kb, str(questions), str(out))
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["id"] for line in lines] == ["ok", "fails"]
    assert "error" not in lines[0] and lines[0]["facts_found"] == 1
    assert lines[1]["mode"] == "error" and "IndexError" in lines[1]["error"] and not lines[1]["routing_ok"]
    assert summary["errors"] == 1 and summary["routing_accuracy"] == 0.5 and summary["fact_recall"] == 1.0
