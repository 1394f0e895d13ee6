"""Continuous batching end to end on tiny models: batched equals unbatched, preemption, prefix
sharing, aborts at any moment, no request mixing, and bad input."""
from __future__ import annotations

import json
import random

import pytest
import torch

from engine.sampling import SamplingParams
from tests.engine.engine_fixtures import make_llm

GREEDY = SamplingParams(max_tokens=24, ignore_eos=True)
# Tiny Gemma (1 KB per block and layer): the sliding pool gets its floor of 24 blocks x 5 layers (120 KB),
# the full pool the remaining 60 blocks (240 tokens): both run out with 4 sequences of up to 100 tokens.
TIGHT_POOL = dict(kv_cache_bytes=184_320, max_model_len=160, max_num_seqs=4)


def _prompts(n: int, seed: int = 0, lo: int = 2, hi: int = 90) -> list[list[int]]:
    gen = torch.Generator().manual_seed(seed)
    lengths = torch.randint(lo, hi, (n,), generator=gen).tolist()
    return [torch.randint(3, 500, (length,), generator=gen).tolist() for length in lengths]


@pytest.mark.parametrize("arch", ["gemma3", "llama"])
@pytest.mark.parametrize("prefix_caching", [True, False])
def test_batched_equals_unbatched(arch, prefix_caching, tiny_checkpoints, tmp_path):
    llm = make_llm(tiny_checkpoints[arch], tmp_path, enable_prefix_caching=prefix_caching)
    prompts = _prompts(12, seed=3)
    prompts += [prompts[0][:10] + p for p in _prompts(3, seed=4)]  # shared prefixes
    batched = llm.generate(prompts, GREEDY)
    for prompt, out in zip(prompts, batched):
        assert llm.generate([prompt], GREEDY)[0].token_ids == out.token_ids


@pytest.mark.parametrize("prefix_caching", [True, False])
def test_tiny_kv_pool_forces_preemption_and_matches(prefix_caching, tiny_checkpoints, tmp_path):
    roomy = make_llm(tiny_checkpoints["gemma3"], tmp_path)
    tight = make_llm(tiny_checkpoints["gemma3"], tmp_path, enable_prefix_caching=prefix_caching, **TIGHT_POOL)
    prompts = _prompts(16, seed=5, hi=60)
    params = SamplingParams(max_tokens=40, ignore_eos=True)
    expected = [o.token_ids for o in roomy.generate(prompts, params)]
    got = [o.token_ids for o in tight.generate(prompts, params)]
    assert tight.engine.scheduler.num_preemptions > 0
    assert got == expected


def test_shared_prefix_is_prefilled_once(tiny_checkpoints, tmp_path):
    llm = make_llm(tiny_checkpoints["llama"], tmp_path, max_num_batched_tokens=512)
    prefix = _prompts(1, seed=6, lo=300, hi=301)[0]
    suffixes = _prompts(4, seed=7, lo=5, hi=12)
    prompts = [prefix + s for s in suffixes]
    before, steps_before = llm.engine.metrics.num_prefill_tokens, llm.engine.metrics.num_steps
    outs = llm.generate(prompts, SamplingParams(max_tokens=4, ignore_eos=True))
    computed = llm.engine.metrics.num_prefill_tokens - before
    block = llm.engine.config.block_size
    # The prefix once, then each request only its suffix (plus the prefix's partial last block).
    assert computed <= len(prefix) + sum(len(s) + block for s in suffixes)
    assert sum(o.num_cached_tokens for o in outs) >= 3 * (len(prefix) - block)
    # The three sharers read the prefix blocks in the very step that computes them; same tokens as without sharing.
    assert llm.engine.metrics.num_steps - steps_before == 4  # one step prefills all four, three decode
    plain = make_llm(tiny_checkpoints["llama"], tmp_path, enable_prefix_caching=False)
    expected = plain.generate(prompts, SamplingParams(max_tokens=4, ignore_eos=True))
    assert [o.token_ids for o in outs] == [o.token_ids for o in expected]


def test_sliding_window_blocks_are_released(tiny_checkpoints, tmp_path):
    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path)
    engine = llm.engine
    engine.add_request(_prompts(1, seed=8, lo=200, hi=201)[0], SamplingParams(max_tokens=50, ignore_eos=True), "long")
    window_blocks = -(-engine.model_config.sliding_window // engine.config.block_size) + 1
    chunk_blocks = engine.config.max_num_batched_tokens // engine.config.block_size
    while engine.has_unfinished:
        engine.step()
        seq = engine.scheduler.running[0] if engine.scheduler.running else None
        if seq is not None:
            live = [b for b in seq.block_tables["sliding"] if b >= 0]
            assert len(live) <= window_blocks + chunk_blocks
            assert len(seq.block_tables["full"]) == -(-seq.num_computed_tokens // engine.config.block_size)


def test_requests_never_mix(tiny_checkpoints, tmp_path):
    """64 concurrent prompts, each with a unique nonce, each get their own continuation."""
    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path, max_num_seqs=64, max_num_batched_tokens=256)
    prompts = [[5 + (i % 7)] * 3 + [100 + i, 200 + (i * 7) % 250] + [9, 10, 11] for i in range(64)]
    params = SamplingParams(max_tokens=8, ignore_eos=True)
    together = llm.generate(prompts, params)
    for i in random.Random(0).sample(range(64), 12):
        assert llm.generate([prompts[i]], params)[0].token_ids == together[i].token_ids


def test_aborts_at_any_moment_never_leak(tiny_checkpoints, tmp_path):
    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path, max_num_batched_tokens=32, max_num_seqs=4)
    engine = llm.engine
    rng = random.Random(1)
    for round_ in range(4):
        ids = [engine.add_request(p, SamplingParams(max_tokens=20, ignore_eos=True)) for p in _prompts(8, seed=round_, lo=20, hi=80)]
        engine.abort(ids[-1])  # while queued
        steps = 0
        while engine.has_unfinished:
            engine.step()
            steps += 1
            if steps % 3 == 0:
                victim = rng.choice(ids)
                engine.abort(victim)  # mid-prefill, mid-decode, or already finished
                engine.abort(victim)  # twice
        for rid in ids:
            engine.abort(rid)  # after finishing
        assert engine.num_allocated_blocks() == 0


def test_bad_input_is_rejected_before_allocation(tiny_checkpoints, tmp_path):
    llm = make_llm(tiny_checkpoints["llama"], tmp_path)
    engine = llm.engine
    with pytest.raises(ValueError, match="empty"):
        engine.add_request("", GREEDY)
    with pytest.raises(ValueError, match="empty"):
        engine.add_request([], GREEDY)
    with pytest.raises(ValueError, match="exceeds the context"):
        engine.add_request([5] * 500, SamplingParams(max_tokens=100))
    with pytest.raises(ValueError, match="max_tokens"):
        engine.add_request([5, 6], SamplingParams(max_tokens=0))
    with pytest.raises(ValueError, match="unknown sampling parameter"):
        engine.add_request([5, 6], {"max_tokens": 4, "beam_width": 3})
    with pytest.raises(ValueError, match="outside the vocabulary"):
        engine.add_request([5, 10**6], GREEDY)
    assert not engine.has_unfinished and engine.num_allocated_blocks() == 0


def test_request_larger_than_kv_pool_is_rejected(tiny_checkpoints, tmp_path):
    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path, **TIGHT_POOL)
    capacity = llm.engine.runner.layout.num_full_blocks * llm.engine.config.block_size
    with pytest.raises(ValueError, match="exceeds the context"):
        llm.engine.add_request([5] * 100, SamplingParams(max_tokens=capacity))
    assert not llm.engine.has_unfinished


def test_bounded_waiting_queue(tiny_checkpoints, tmp_path):
    from engine.scheduler import QueueFullError

    llm = make_llm(tiny_checkpoints["llama"], tmp_path, max_waiting_requests=3)
    for _ in range(3):
        llm.engine.add_request([5, 6, 7], GREEDY)
    with pytest.raises(QueueFullError, match="full"):
        llm.engine.add_request([5, 6, 7], GREEDY)
    while llm.engine.has_unfinished:
        llm.engine.step()


def test_stop_strings_eos_and_text(tiny_checkpoints, tmp_path):
    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path)
    free = llm.generate(["Items can be returned"], SamplingParams(max_tokens=30, ignore_eos=True))[0]
    assert free.text and len(free.token_ids) == 30
    stop = free.text[len(free.text) // 2: len(free.text) // 2 + 2]
    cut = llm.generate(["Items can be returned"], SamplingParams(max_tokens=30, ignore_eos=True, stop=[stop]))[0]
    assert cut.finish_reason == "stop" and stop not in cut.text and free.text.startswith(cut.text)


def test_grammar_forced_text_is_jumped_over_not_decoded(tiny_checkpoints, tmp_path):
    """Once the first token picks the enum value, the rest is appended at once and computed as one chunk."""
    value = "Store credit or a refund to the original payment method"
    schema = {"type": "object", "properties": {"answer": {"enum": [value]}}, "required": ["answer"],
              "additionalProperties": False}
    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path)
    engine = llm.engine
    engine.add_request([5, 6, 7], SamplingParams(max_tokens=64, json_schema=schema))
    num_steps, outputs = 0, []
    while engine.has_unfinished:
        outputs += engine.step()
        num_steps += 1
    final = outputs[-1]
    assert json.loads(final.text) == {"answer": value} and final.finish_reason == "stop"
    assert len(final.token_ids) > 8 and num_steps <= 4, (num_steps, len(final.token_ids))
    assert [t for out in outputs for t in out.new_token_ids] == final.token_ids
    batched = llm.generate([[5, 6, 7], [8, 9]], SamplingParams(max_tokens=64, json_schema=schema))
    assert [out.text for out in batched] == [final.text] * 2
