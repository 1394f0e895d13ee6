"""AsyncLLM: concurrent streams, early exit aborts and frees blocks, clean shutdown."""
from __future__ import annotations

import asyncio
import time

import pytest

from engine.async_llm import AsyncLLM, EngineDeadError
from engine.config import EngineConfig
from engine.sampling import SamplingParams
from tests.conftest import track_engine
from tests.engine.engine_fixtures import TINY_ENGINE


@pytest.fixture
def async_llm(tiny_checkpoints, tmp_path):
    llm = AsyncLLM(EngineConfig(model=str(tiny_checkpoints["gemma3"]), cache_dir=str(tmp_path), dtype="fp32", **TINY_ENGINE))
    track_engine(llm.engine)
    yield llm
    llm.shutdown()


async def _collect(llm, prompt, params, request_id=None):
    outs = [out async for out in llm.generate(prompt, params, request_id)]
    return outs


def test_streams_match_offline_generation(async_llm):
    params = SamplingParams(max_tokens=12, ignore_eos=True)
    prompts = [[5, 6, 7, 8], [9] * 30, [11, 12]]

    async def main():
        return await asyncio.gather(*(_collect(async_llm, p, params) for p in prompts))

    streams = asyncio.run(main())
    for prompt, outs in zip(prompts, streams):
        assert outs[-1].finished and outs[-1].finish_reason == "length"
        assert [t for o in outs for t in o.new_token_ids] == outs[-1].token_ids
        assert "".join(o.delta_text for o in outs) == outs[-1].text
        assert outs[-1].metrics.ttft_s is not None and outs[-1].metrics.ttft_s > 0


def test_leaving_the_stream_aborts_and_frees_blocks(async_llm):
    async def main():
        async for out in async_llm.generate([5] * 40, SamplingParams(max_tokens=200, ignore_eos=True), "leaver"):
            if len(out.token_ids) >= 3:
                break
        deadline = time.monotonic() + 5
        while async_llm.engine.has_unfinished and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    asyncio.run(main())
    assert not async_llm.engine.has_unfinished
    assert async_llm.engine.num_allocated_blocks() == 0


def test_cancelled_consumer_aborts(async_llm):
    async def main():
        started = asyncio.Event()

        async def consume():
            async for _ in async_llm.generate([7] * 20, SamplingParams(max_tokens=480, ignore_eos=True)):
                started.set()

        task = asyncio.create_task(consume())
        await started.wait()  # cancelled mid-stream: 480 tokens take dozens of steps, even with drafts
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        deadline = time.monotonic() + 5
        while async_llm.engine.has_unfinished and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    asyncio.run(main())
    assert async_llm.engine.num_allocated_blocks() == 0


def test_bad_input_raises_in_caller(async_llm):
    async def main():
        with pytest.raises(ValueError, match="empty"):
            await _collect(async_llm, "", SamplingParams())

    asyncio.run(main())


def test_shutdown_is_clean_and_rejects_new_work(async_llm):
    async_llm.shutdown()
    assert not async_llm.is_running

    async def main():
        with pytest.raises(EngineDeadError):
            await _collect(async_llm, [5, 6], SamplingParams(max_tokens=2))

    asyncio.run(main())


def test_reset_prefix_cache_makes_the_next_prompt_cold(async_llm):
    params = SamplingParams(max_tokens=2, ignore_eos=True)
    prompt = list(range(5, 45))

    async def main():
        first = (await _collect(async_llm, prompt, params))[-1]
        warm = (await _collect(async_llm, prompt, params))[-1]
        forgotten = await async_llm.reset_prefix_cache()
        cold = (await _collect(async_llm, prompt, params))[-1]
        return first, warm, forgotten, cold

    first, warm, forgotten, cold = asyncio.run(main())
    assert first.num_cached_tokens == 0 and warm.num_cached_tokens > 0 and forgotten > 0
    assert cold.num_cached_tokens == 0 and cold.token_ids == first.token_ids
    async_llm.shutdown()

    async def after_shutdown():
        with pytest.raises(EngineDeadError):
            await asyncio.wait_for(async_llm.reset_prefix_cache(), 5)

    asyncio.run(after_shutdown())


def test_requests_submitted_together_start_in_the_same_step(async_llm):
    """Adds made on one event-loop pass reach the engine as one command: no request misses the first step."""
    params = SamplingParams(max_tokens=1, ignore_eos=True)
    prompts = [[5, 6, 7, 8], [9] * 30, [11, 12], [13] * 17]

    async def submit_after_work(prompt):
        time.sleep(0.005)  # noqa: ASYNC251 -- blocking work before each add (a planner tokenizing its point)
        return await _collect(async_llm, prompt, params)

    async def main():
        return await asyncio.gather(*(submit_after_work(p) for p in prompts))

    steps_before = async_llm.snapshot().num_steps
    streams = asyncio.run(main())
    assert all(outs[-1].finish_reason == "length" for outs in streams)
    assert async_llm.snapshot().num_steps - steps_before == 1


def test_abort_before_the_add_reaches_the_engine(async_llm):
    """An abort issued while the add is still pending is applied after it: the stream ends, nothing leaks."""
    async def main():
        task = asyncio.create_task(_collect(async_llm, [7] * 20, SamplingParams(max_tokens=300, ignore_eos=True), "early"))
        await asyncio.sleep(0)  # the task has queued its add; the flush has not run yet
        async_llm.abort("early")
        return await asyncio.wait_for(task, 10)

    outs = asyncio.run(main())
    assert outs[-1].finished and outs[-1].finish_reason == "abort"
    assert not async_llm.engine.has_unfinished
    assert async_llm.engine.num_allocated_blocks() == 0
