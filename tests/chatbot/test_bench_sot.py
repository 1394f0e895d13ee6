"""`supportdesk bench sot`'s question sets and cache state (the timing itself is a benchmark, not a test)."""
import asyncio
import json

import pytest

from chatbot import prompts
from chatbot.bench_sot import _cold_question, multi_point_rows, run_sot_bench, warm_up_questions
from chatbot.text_terms import detect_lang
from engine.sampling import SamplingParams


def test_multi_point_rows_are_all_of_them_english_and_chinese_interleaved(eval_questions):
    every = [q for q in eval_questions if q["kind"] == "multi"]
    rows = multi_point_rows()
    assert sorted(r["id"] for r in rows) == sorted(q["id"] for q in every)
    assert [r["lang"] for r in rows[:12]] == ["en", "zh"] * 6 and multi_point_rows(12) == rows[:12]


def test_warm_up_questions_are_one_per_language_and_never_timed(eval_questions):
    warm_up = warm_up_questions(multi_point_rows())
    assert [detect_lang(q) for q in warm_up] == ["en", "zh"]
    assert not set(warm_up) & {q["question"] for q in eval_questions}
    assert [detect_lang(q) for q in warm_up_questions(multi_point_rows(1))] == ["en"]


def test_no_questions_is_an_error():
    with pytest.raises(ValueError, match="at least 1"):
        run_sot_bench(None, num_questions=0)


@pytest.mark.real_model
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_pipeline_starts_with_the_instructions_warm_and_the_question_cold(planner, lang):
    question = "How long do I have to return a lamp, and who pays?" if lang == "en" else "台灯退货有多长时间？运费谁出？"
    prompt = prompts.direct_prompt(lang, question, "x", "y")

    async def cached_tokens() -> int:
        outs = [out async for out in planner.llm.generate(prompt, SamplingParams(max_tokens=1))]
        return outs[-1].num_cached_tokens

    async def main():
        await planner.answer(question)  # the SoT answer caches the question, which the direct prompt shares
        warm = await cached_tokens()
        await _cold_question(planner, lang)
        return warm, await cached_tokens()

    warm, cold = asyncio.run(main())
    block = planner.llm.engine.config.block_size
    instructions = len(planner.tokenizer.encode(prompts.instructions_prefix(lang)).ids)
    assert cold == (instructions - 1) // block * block > 0
    assert warm > cold


@pytest.mark.real_model
def test_the_bench_counts_each_pipelines_steps_and_rows(planner, capsys):
    """The JSON carries why the speedup is what it is: SoT's points decode side by side, in fewer steps than the
    direct answer of the same length, over more prompt rows (the outline and each point's header)."""
    result = run_sot_bench(planner, num_questions=2, as_json=True)
    assert json.loads(capsys.readouterr().out) == result and result["num_questions"] == 2
    assert result["points_p50"] >= 2
    assert 0 < result["sot_steps_p50"] < result["direct_steps_p50"]
    assert result["sot_prompt_rows_p50"] > result["direct_prompt_rows_p50"] > 0
    assert result["sot_decode_rows_p50"] > 0 and result["direct_decode_rows_p50"] > 0
    assert 0 < result["sot_draft_acceptance"] <= 1 and 0 < result["direct_draft_acceptance"] <= 1
