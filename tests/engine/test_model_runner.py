"""The model runner: a prompt's logits are the same bits whole or in chunks, alone or batched (CPU kernels)."""
from __future__ import annotations

import pytest
import torch

from engine.sampling import SamplingParams
from engine.scheduler import ScheduledBatch
from engine.sequence import Sequence
from tests.engine.engine_fixtures import make_llm


def _chunked_logits(engine, prompt: list[int], cuts: list[int], other: list[int]) -> torch.Tensor:
    """The prompt's logits computed chunk by chunk, each chunk batched after a prefill of ``other``."""
    seq, companion = Sequence("chunked", list(prompt), SamplingParams()), Sequence("other", list(other), SamplingParams())
    engine.block_manager.allocate(seq, len(prompt), {})
    engine.block_manager.allocate(companion, len(other), {})
    try:
        rows = []
        for lo, hi in zip([0, *cuts], [*cuts, len(prompt)]):
            seq.num_computed_tokens, companion.num_computed_tokens = lo, 0
            logits = engine.runner.prompt_logits(ScheduledBatch([companion, seq], [len(other), hi - lo], 0))
            rows.append(logits[len(other):])
        return torch.cat(rows)
    finally:
        engine.block_manager.free(seq)
        engine.block_manager.free(companion)


@pytest.mark.parametrize("dtype", ["fp32", "int8"])
def test_prompt_logits_are_the_same_bits_in_chunks_and_batched(dtype, tiny_checkpoints, tmp_path):
    """Every row's computation depends only on its own token and position (row-invariant linears, attention
    with a fixed order of sums per row), so chunking and batch neighbours never change a bit."""
    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path, dtype=dtype, max_num_batched_tokens=256, device="cpu")
    gen = torch.Generator().manual_seed(0)
    prompt, other = torch.randint(3, 500, (150,), generator=gen).tolist(), torch.randint(3, 500, (23,), generator=gen).tolist()
    whole = llm.prompt_logits(prompt)
    assert torch.equal(_chunked_logits(llm.engine, prompt, [17, 64, 130], other), whole)


def test_cpu_kv_cache_pools_of_a_huge_page_or_more_start_on_one(tiny_checkpoints, tmp_path):
    from engine.huge_pages import HUGE_PAGE_BYTES

    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path, dtype="int8", device="cpu")
    big = [t for pair in llm.engine.runner.kv_caches for t in pair
           if t.numel() * t.element_size() >= HUGE_PAGE_BYTES]
    assert big, "the tiny model's pools are all under one huge page: the test checks nothing"
    assert all(t.data_ptr() % HUGE_PAGE_BYTES == 0 and not t.any() for t in big)


def test_int8_logits_go_to_one_reused_buffer_that_grows(tiny_checkpoints, tmp_path):
    """The CPU int8 head writes every step's logits into the runner's buffer (no new pages per step), which
    grows when a step samples more rows; the tokens are the same without it."""
    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path, dtype="int8", device="cpu")
    runner = llm.engine.runner
    params = SamplingParams(max_tokens=12, ignore_eos=True)
    prompts = [[5 + i, 6, 7, 8 + i] * 3 for i in range(20)]
    expected = [o.token_ids for o in llm.generate(prompts[:1], params)]
    first = runner._logits
    assert first is not None and first.shape[1] == llm.engine.model_config.vocab_size
    assert [o.token_ids for o in llm.generate(prompts[:1], params)] == expected
    assert runner._logits.data_ptr() == first.data_ptr()  # reused, not reallocated
    together = [o.token_ids for o in llm.generate(prompts, params)]
    assert first.shape[0] < 20 <= runner._logits.shape[0]  # grew: the 20 prompts' last rows in one step
    runner._logits_out = lambda rows: None  # fresh tensors per step, as before the buffer
    assert [o.token_ids for o in llm.generate(prompts, params)] == together


def test_decode_rows_go_through_the_prefill_kernel_when_the_backend_says(tiny_checkpoints, tmp_path):
    """The Triton backend's ``decode_by_prefill``: the runner gives the step no decode part, so every row is a chunk of
    the prefill kernel; on the CPU, whose kernels give decode and prefill rows the same bits, the tokens are the same."""
    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path, device="cpu")
    prompts = [[5 + i, 6, 7, 8 + i] * (i + 1) for i in range(6)]
    params = SamplingParams(max_tokens=16, ignore_eos=True)
    expected = [o.token_ids for o in llm.generate(prompts, params)]
    runner = llm.engine.runner
    runner.ops = runner.ops._replace(decode_by_prefill=True)  # the layers keep their kernels; the runner reads the flag
    decode_parts, prepare = [], runner.prepare

    def spy(batch):
        prepared = prepare(batch)
        decode_parts.append((batch.num_decode_seqs, prepared[2].num_decode_seqs))
        return prepared

    runner.prepare = spy
    assert [o.token_ids for o in llm.generate(prompts, params)] == expected
    assert any(scheduled for scheduled, _ in decode_parts) and all(meta == 0 for _, meta in decode_parts)
