"""`supportdesk eval`: answer a JSONL question set with one loaded engine and score it: routing
accuracy, fact recall, hallucinated numbers, leaks, the answer language, and, where a row names the
sections that answer it, how many of the outline's points are among them and how many of them it covers."""
from __future__ import annotations

import asyncio
import json
import logging
import re
from pathlib import Path

from chatbot import prompts
from chatbot.chinese_script import is_traditional, to_simplified
from chatbot.guard import find_leaks, ground_numbers
from chatbot.knowledge import KnowledgeBase
from chatbot.planner import Answer
from chatbot.text_terms import detect_lang

log = logging.getLogger(__name__)

_DASHES = re.compile(r"\s*[-–—~～至到]\s*")


def normalize_fact_text(text: str) -> str:
    """Case, spaces and range dashes do not matter when looking for an expected fact."""
    return re.sub(r"\s+", "", _DASHES.sub("–", text.lower()))


def load_questions(path: str | Path) -> list[dict]:
    rows = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            row = json.loads(line)
            if "id" not in row or "question" not in row:
                raise ValueError(f"{path}:{n}: each line needs 'id' and 'question'")
            rows.append(row)
    return rows


def score_answer(row: dict, answer, kb: KnowledgeBase) -> dict:
    """Per-question scores; keys absent from the row (expected mode, facts, sections) are not scored.
    ``points_relevant``: the outline's points (SoT answers) whose section is one of the row's
    ``expected_sections``; ``sections_covered``: the expected sections among the answer's sources. Facts and
    numbers are looked for in simplified characters; a row with ``"script": "traditional"`` wants its answer
    in traditional ones."""
    text = to_simplified(answer.answer)
    kb_texts = [s.text for s in kb.sections()] + [row["question"]]
    facts = row.get("expected_facts") or []
    found = [f for f in facts if normalize_fact_text(f) in normalize_fact_text(text)]
    scores = {
        "routing_ok": None if "expected_mode" not in row else answer.mode == row["expected_mode"],
        "facts_expected": len(facts),
        "facts_found": len(found),
        "missing_facts": [f for f in facts if f not in found],
        "hallucinated_numbers": ground_numbers(text, kb_texts).unsupported,
        "leaks": find_leaks(text, prompts.secret_fragments()),
        "language_ok": (detect_lang(text) == row.get("lang", detect_lang(row["question"]))
                        and (row.get("script") != "traditional" or is_traditional(answer.answer))),
    }
    if row.get("expected_sections") and answer.mode == "sot":
        scores.update(point_scores(answer.sources, row["expected_sections"]))
    return scores


def point_scores(sources: list[str], expected_sections: list[str]) -> dict:
    """How an outline's points (their section ids) match the sections that answer the question."""
    return {"points": len(sources), "points_relevant": sum(source in expected_sections for source in sources),
            "sections_expected": len(expected_sections),
            "sections_covered": len(set(expected_sections) & set(sources))}


def point_precision_and_recall(scored: list[dict]) -> tuple[float | None, float | None]:
    """Over the rows with `point_scores`: the share of points that are expected sections, and the share of
    expected sections that are points; None where no row has them."""
    outlined = [s for s in scored if "points" in s]
    if not outlined:
        return None, None
    return (sum(s["points_relevant"] for s in outlined) / sum(s["points"] for s in outlined),
            sum(s["sections_covered"] for s in outlined) / sum(s["sections_expected"] for s in outlined))


async def answer_all(planner, rows: list[dict], concurrency: int = 4) -> list:
    """Answer every row, at most ``concurrency`` at a time, in input order; a row's ``previous`` is the customer's
    previous message (the row's question is a follow-up). A question the planner fails on gives its exception
    in place of an answer, and the others go on."""
    gate = asyncio.Semaphore(concurrency)

    async def one(row):
        async with gate:
            try:
                return await planner.answer(row["question"], row.get("previous"))
            except Exception as exc:
                log.error("eval question %s failed", row["id"], exc_info=exc)
                return exc

    return await asyncio.gather(*(one(row) for row in rows))


def failed_answer(row: dict, exc: BaseException) -> Answer:
    """What a question the planner failed on is scored as: an empty answer in mode "error" (wrong routing,
    no facts)."""
    timings = {"route_s": None, "outline_s": None, "expand_s": None, "ttft_s": None, "total_s": 0.0}
    return Answer("", "error", None, [], [], row.get("lang") or detect_lang(row["question"]), timings,
                  {"prompt_tokens": 0, "completion_tokens": 0, "cached_prompt_tokens": 0}, route_reason=repr(exc))


def summarize(scored: list[dict]) -> dict:
    routed = [s for s in scored if s["routing_ok"] is not None]
    facts = sum(s["facts_expected"] for s in scored)
    zh = [s for s in scored if s["lang"] == "zh"]
    point_precision, section_recall = point_precision_and_recall(scored)
    return {
        "questions": len(scored),
        "errors": sum(s["mode"] == "error" for s in scored),
        "routing_accuracy": sum(s["routing_ok"] for s in routed) / len(routed) if routed else None,
        "fact_recall": sum(s["facts_found"] for s in scored) / facts if facts else None,
        "hallucinated_numbers": sum(len(s["hallucinated_numbers"]) for s in scored),
        "leaks": sum(len(s["leaks"]) for s in scored),
        "chinese_answered_in_chinese": sum(s["language_ok"] for s in zh) / len(zh) if zh else None,
        "point_precision": point_precision,
        "section_recall": section_recall,
        "guard_firings": sum(len(s["guard_firings"]) for s in scored),
        "mean_total_s": sum(s["timings"]["total_s"] for s in scored) / len(scored) if scored else None,
    }


def run_eval(planner, kb: KnowledgeBase, questions_path: str, out_path: str, concurrency: int = 4) -> dict:
    """Answer, score, write one JSON line per question, and return the summary."""
    rows = load_questions(questions_path)
    answers = asyncio.run(answer_all(planner, rows, concurrency))
    scored = []
    with open(out_path, "w", encoding="utf-8") as out:
        for row, answer in zip(rows, answers):
            error = None if isinstance(answer, Answer) else repr(answer)
            answer = answer if error is None else failed_answer(row, answer)
            line = {"id": row["id"], **answer.as_json(), "lang": answer.lang, "guard_firings": answer.guard_firings,
                    **score_answer(row, answer, kb), **({"error": error} if error else {})}
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
            scored.append(line)
    return summarize(scored)
