"""The OpenAI-style stream's text: released point by point in outline order, ending as the final answer."""
from __future__ import annotations

import asyncio
import json

import pytest

from chatbot.api_openai import openai_stream
from chatbot.planner import Answer, AnswerDone, OutlineReady, PointDone, assemble_answer


def _streamed_content(events: list) -> str:
    async def source():
        for event in events:
            yield event

    async def collect() -> list[str]:
        return [line async for line in openai_stream(source(), "m", 0)]

    content = ""
    for line in asyncio.run(collect()):
        payload = line.removeprefix("data: ").strip()
        if payload != "[DONE]":
            content += json.loads(payload)["choices"][0]["delta"].get("content", "")
    return content


@pytest.mark.parametrize("titles, texts", [(["Account lockout"], ["Locked for 15 minutes."]),
                                           (["A", "B", "C"], ["One.", "Two.", "Three."])])
def test_stream_ends_as_the_final_answer_with_points_done_out_of_order(titles, texts):
    final = assemble_answer("sot", "en", titles, texts)
    answer = Answer(final, "sot", "account", titles, [f"s{i}" for i in range(len(titles))], "en", {"total_s": 1.0},
                    {"prompt_tokens": 1, "completion_tokens": 2, "cached_prompt_tokens": 0})
    done = [PointDone(i, texts[i], None) for i in reversed(range(len(titles)))]
    events = [OutlineReady("sot", "account", titles, answer.sources, "en"), *done, AnswerDone(answer)]
    assert _streamed_content(events) == final
