"""`supportdesk bench sot`: skeleton-of-thought against a direct answer of the same token length,
from the same engine, on the eval questions that have several points (all of them, or the first N)."""
from __future__ import annotations

import asyncio
import itertools
import json
import statistics
import time
from collections import Counter
from pathlib import Path

from chatbot import prompts
from chatbot.evaluation import load_questions
from chatbot.knowledge import KnowledgeBase
from chatbot.planner import Planner
from chatbot.text_terms import detect_lang
from engine.sampling import SamplingParams

EVAL_SET = Path(__file__).resolve().parents[1] / "data" / "eval" / "questions.jsonl"


async def _direct_same_length(llm, question: str, answer, kb: KnowledgeBase) -> float:
    """One sequential answer over the same sections, forced to the token count of the SoT answer's points
    (the outline's JSON is not part of the answer, so it is not counted)."""
    sections = [kb.get(sid, answer.lang) for sid in answer.sources]
    policy = " ".join(s.text for s in sections)
    prompt = prompts.direct_prompt(answer.lang, question, " / ".join(s.title for s in sections), policy)
    num_tokens = max(1, answer.expansion_completion_tokens)
    start = time.perf_counter()
    async for _ in llm.generate(prompt, SamplingParams(max_tokens=num_tokens, ignore_eos=True)):
        pass
    return time.perf_counter() - start


async def _cold_question(planner: Planner, lang: str) -> None:
    """Forget every cached prefix, then prefill only the language's instructions and examples: each timed
    pipeline starts as a server's would, its instructions warm and the question cold. (Both prompts start with
    the question, so the direct answer, run second, would otherwise find it cached by the SoT answer.)"""
    await planner.llm.reset_prefix_cache()
    ids = planner.tokenizer.encode(prompts.instructions_prefix(lang)).ids[:-1]  # the last token may merge
    async for _ in planner.llm.generate(ids, SamplingParams(max_tokens=1)):
        pass


def _engine_counts(llm) -> Counter:
    """The engine's running totals of steps, prompt rows, decode rows and n-gram draft tokens (verified, accepted)."""
    s = llm.snapshot()
    return Counter(steps=s.num_steps, prompt_rows=s.num_prefill_tokens, decode_rows=s.num_decode_tokens,
                   drafted=s.num_draft_tokens, accepted=s.num_accepted_draft_tokens)


async def _counted(llm, pipeline) -> tuple:
    """``pipeline``'s result and what the engine did for it (`_engine_counts`; nothing else runs meanwhile)."""
    before = _engine_counts(llm)
    result = await pipeline
    after = _engine_counts(llm)
    after.subtract(before)
    return result, after


async def _bench(planner: Planner, rows: list[dict], warm_up: list[str]) -> dict:
    llm, kb = planner.llm, planner.kb
    # Untimed: both pipelines once per language, on questions outside the timed set (first compilations,
    # first allocations).
    for question in warm_up:
        answer = await planner.answer(question)
        await _direct_same_length(llm, question, answer, kb)
    sot_s, direct_s, prompt_tokens, cached_tokens, points = [], [], 0, 0, []
    counts: dict[str, list[Counter]] = {"sot": [], "direct": []}
    for row in rows:
        await _cold_question(planner, detect_lang(row["question"]))
        answer, sot_counts = await _counted(llm, planner.answer(row["question"]))
        if answer.mode != "sot":
            continue
        sot_s.append(answer.timings["total_s"])
        points.append(len(answer.sources))
        prompt_tokens += answer.expansion_prompt_tokens
        cached_tokens += answer.expansion_cached_tokens
        await _cold_question(planner, answer.lang)
        seconds, direct_counts = await _counted(llm, _direct_same_length(llm, row["question"], answer, kb))
        direct_s.append(seconds)
        counts["sot"].append(sot_counts)
        counts["direct"].append(direct_counts)
    sot_p50, direct_p50 = statistics.median(sot_s), statistics.median(direct_s)
    result = {"speedup": direct_p50 / sot_p50, "sot_total_s_p50": sot_p50, "direct_total_s_p50": direct_p50,
              "prefix_cache_share": cached_tokens / prompt_tokens if prompt_tokens else 0.0,
              "num_questions": len(sot_s), "points_p50": statistics.median(points)}
    # Why the speedup is what it is (README, "Why 2x is out of reach"): SoT saves steps, not rows.
    for pipeline, per_question in counts.items():
        for key in ("steps", "prompt_rows", "decode_rows"):
            result[f"{pipeline}_{key}_p50"] = statistics.median(c[key] for c in per_question)
        drafted = sum(c["drafted"] for c in per_question)
        result[f"{pipeline}_draft_acceptance"] = sum(c["accepted"] for c in per_question) / drafted if drafted else 0.0
    return result


def multi_point_rows(num_questions: int | None = None) -> list[dict]:
    """The eval set's multi-point questions, English and Chinese interleaved (English first): the first
    ``num_questions`` of them, or all."""
    rows = [r for r in load_questions(EVAL_SET) if r.get("kind") == "multi"]
    en = [r for r in rows if r.get("lang") == "en"]
    zh = [r for r in rows if r.get("lang") == "zh"]
    mixed = [r for pair in itertools.zip_longest(en, zh) for r in pair if r is not None]
    return mixed if num_questions is None else mixed[:num_questions]


def warm_up_questions(rows: list[dict]) -> list[str]:
    """One multi-point question per language of ``rows`` that the eval set does not have: the prompts' first
    few-shot example's."""
    return [prompts.example_question(lang) for lang in dict.fromkeys(row["lang"] for row in rows)]


def run_sot_bench(planner: Planner, num_questions: int | None = None, as_json: bool = False) -> dict:
    """The eval set's multi-point questions (all, or the first ``num_questions``); prints a table or one JSON
    object."""
    if num_questions is not None and num_questions < 1:
        raise ValueError(f"--num-questions must be at least 1, got {num_questions}")
    rows = multi_point_rows(num_questions)
    result = asyncio.run(_bench(planner, rows, warm_up_questions(rows)))
    if as_json:
        print(json.dumps(result))
    else:
        print(f"questions                    {result['num_questions']}")
        print(f"SoT end-to-end p50           {result['sot_total_s_p50']:.2f} s")
        print(f"direct (same length) p50     {result['direct_total_s_p50']:.2f} s")
        print(f"speedup                      {result['speedup']:.2f}x   (target >= 2x)")
        print(f"expansion prompt tokens from prefix cache  {result['prefix_cache_share']:.1%}   (target >= 80%)")
        print(f"points p50                   {result['points_p50']:g}")
        for key in ("steps", "prompt_rows", "decode_rows"):
            label = key.replace("_", " ") + " p50"
            print(f"{label:<29}SoT {result[f'sot_{key}_p50']:g}, direct {result[f'direct_{key}_p50']:g}")
        print(f"draft tokens accepted        SoT {result['sot_draft_acceptance']:.1%}, "
              f"direct {result['direct_draft_acceptance']:.1%}")
    return result
