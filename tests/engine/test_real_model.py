"""The real Gemma 3 270M: our fp32 against transformers, int8 against our fp32, long sliding contexts."""
from __future__ import annotations

import math
from functools import lru_cache

import pytest
import torch

from engine.config import EngineConfig
from engine.llm_engine import LLM
from engine.quant import Int8Linear
from engine.sampling import SamplingParams
from tests.conftest import track_engine
from tests.engine.real_model import hf_reference, policy_text, real_llm

pytestmark = pytest.mark.real_model


def _ids(num_tokens: int) -> list[int]:
    llm = real_llm("fp32")
    ids = llm.tokenizer.encode(policy_text() * 3).ids[:num_tokens]
    assert len(ids) == num_tokens
    return ids


def test_fp32_logits_match_transformers_on_200_tokens():
    llm = real_llm("fp32")
    track_engine(llm.engine)
    ids = _ids(200)
    ours = llm.prompt_logits(ids)
    with torch.no_grad():
        ref = hf_reference()(torch.tensor([ids])).logits[0]
    assert (ours - ref).abs().max().item() < 1e-3


def test_fp32_greedy_32_tokens_match_transformers():
    llm = real_llm("fp32")
    prompt = llm.tokenizer.encode("Northwind's return policy: items can be returned within").ids
    ours = llm.generate([prompt], SamplingParams(max_tokens=32, ignore_eos=True))[0].token_ids
    with torch.no_grad():
        ref = hf_reference().generate(torch.tensor([prompt]), max_new_tokens=32, min_new_tokens=32, do_sample=False)
    assert ours == ref[0, len(prompt):].tolist()


def test_sliding_window_matches_transformers_up_to_1440_tokens():
    """A 1,400-token prompt, prefilled in 512-token chunks with sliding blocks released, then 40 greedy tokens, whose
    window slides past three more 16-token blocks (100 tokens took 35 s of CI on a 2-core AMD Zen 3, 40 take 12 s)."""
    llm = real_llm("fp32")
    prompt = _ids(1400)
    ours = llm.generate([prompt], SamplingParams(max_tokens=40, ignore_eos=True))[0].token_ids
    with torch.no_grad():
        ref = hf_reference().generate(torch.tensor([prompt]), max_new_tokens=40, min_new_tokens=40, do_sample=False)
    ref_ids = ref[0, len(prompt):].tolist()
    assert ours == ref_ids


def _perplexity(logits: torch.Tensor, ids: list[int]) -> float:
    nll = torch.nn.functional.cross_entropy(logits[:-1].float(), torch.tensor(ids[1:]))
    return math.exp(nll.item())


def _amx_linears(llm) -> list[Int8Linear]:
    """The int8 linears that run prompt rows on AMX tiles (none where the CPU has no AMX)."""
    return [m for m in llm.engine.runner.model.modules() if isinstance(m, Int8Linear) and m.amx_prompt_rows]


@pytest.mark.parametrize("amx", [True, False], ids=["prompt-path", "decode-path"])
def test_int8_agrees_with_fp32_on_1000_policy_tokens(amx):
    """Both int8 paths: prompt rows on AMX tiles where the CPU has them (bf16 activations), and the VNNI
    kernel (int8 activations) that computes every generated token."""
    ids = _ids(1000)
    fp32 = real_llm("fp32").prompt_logits(ids)
    int8_llm = real_llm("int8")
    track_engine(int8_llm.engine)
    with_amx = _amx_linears(int8_llm)
    if amx and not with_amx:
        pytest.skip("no AMX on this machine: the prompt rows take the VNNI kernel, measured by decode-path")
    try:
        for layer in with_amx:
            layer.amx_prompt_rows = amx
        int8 = int8_llm.prompt_logits(ids)
    finally:
        for layer in with_amx:
            layer.amx_prompt_rows = True
    agreement = (fp32.argmax(-1) == int8.argmax(-1)).float().mean().item()
    ppl32, ppl8 = _perplexity(fp32, ids), _perplexity(int8, ids)
    print(f"top-1 agreement {agreement:.4f}, perplexity fp32 {ppl32:.3f} int8 {ppl8:.3f}")
    # Issue 2 asks for 97%: int8 weights and activations in groups (32 and 16 inputs) with an fp16 KV cache
    # measure 97.3% here (97.3% over 34,400 tokens), the AMX prompt path 98.0% (per-channel weights with
    # per-token activations: 93.9%); README.
    assert agreement >= 0.97
    assert ppl8 <= ppl32 * 1.03


def test_int8_batched_equals_unbatched():
    """Activations quantized per token and group: a request's greedy text never depends on its batch."""
    llm = real_llm("int8")
    prompts = ["Returns are accepted within", "The warranty on electronics covers", "To reset your password, you",
               "Shipping to Canada takes", "Our store hours are", "A refund is issued when",
               "Gift cards can be used for", "If your parcel arrives damaged,"]
    params = SamplingParams(max_tokens=32)
    batched = [out.token_ids for out in llm.generate(prompts, params)]
    assert batched == [llm.generate([prompt], params)[0].token_ids for prompt in prompts]


def _looping_and_policy_prompts(llm) -> list[list[int]]:
    """Three 200-token stretches of policy text and five of the bench's random-token prompts (which loop)."""
    import random

    ids = llm.tokenizer.encode(policy_text()).ids
    rng = random.Random(0)
    return [ids[i:i + 200] for i in (0, 700, 1400)] + [rng.choices(ids, k=rng.randint(32, 300)) for _ in range(5)]


@lru_cache(maxsize=2)
def _one_token_a_step(max_tokens: int = 64) -> list[list[int]]:
    """The prompts' greedy tokens from an engine without drafts and with room for every sequence."""
    llm = real_llm("int8")
    plain = LLM(EngineConfig(dtype="int8", max_num_batched_tokens=512, max_model_len=2048, num_speculative_tokens=0))
    track_engine(plain.engine)
    params = SamplingParams(max_tokens=max_tokens, ignore_eos=True)
    return [o.token_ids for o in plain.generate(_looping_and_policy_prompts(llm), params)]


_PARAMS = SamplingParams(max_tokens=64, ignore_eos=True)


def test_int8_drafts_change_nothing():
    """N-gram drafts on Gemma int8, against one token a step: the same greedy tokens. A drafted row attends
    through the prefill kernel and a one-token decode through the decode kernel; the two give a row the same
    bits (attention_span.h). Until they did, 2 of these 8 prompts parted at near ties."""
    llm = real_llm("int8")
    before = llm.engine.snapshot()
    got = [o.token_ids for o in llm.generate(_looping_and_policy_prompts(llm), _PARAMS)]
    after = llm.engine.snapshot()
    assert got == _one_token_a_step()
    drafted = after.num_draft_tokens - before.num_draft_tokens
    accepted = after.num_accepted_draft_tokens - before.num_accepted_draft_tokens
    assert 0 < accepted < drafted


def test_int8_preemption_changes_nothing():
    """A pool too small for the batch preempts sequences, which recompute their generated tokens as a prompt
    (the prefill kernel): their greedy tokens stay those of an engine with room for all, drafts on or off."""
    llm = real_llm("int8")
    block = 2 * 16 * 256 * 2  # K and V of one 16-token block of one layer, fp16
    tight = LLM(EngineConfig(dtype="int8", max_num_batched_tokens=512, max_model_len=512,
                             kv_cache_bytes=66 * 15 * block + 32 * 3 * block))  # the least pools max_model_len allows
    track_engine(tight.engine)
    # 128 tokens each: with 64, whether the pool ran out depended on the policy text the prompts are cut from
    # (the drafts finish the looping sequences early); with 128 it runs out 6 times on either text.
    params = SamplingParams(max_tokens=128, ignore_eos=True)
    got = [o.token_ids for o in tight.generate(_looping_and_policy_prompts(llm), params)]
    assert tight.engine.snapshot().num_preemptions > 0
    assert got == _one_token_a_step(128)
