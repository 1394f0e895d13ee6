"""The real Gemma 3 270M: our fp32 against transformers, int8 against our fp32, long sliding contexts."""
from __future__ import annotations

import math

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


def test_sliding_window_matches_transformers_up_to_1500_tokens():
    """A 1,400-token prompt, prefilled in 512-token chunks with sliding blocks released, then 100 greedy tokens."""
    llm = real_llm("fp32")
    prompt = _ids(1400)
    ours = llm.generate([prompt], SamplingParams(max_tokens=100, ignore_eos=True))[0].token_ids
    with torch.no_grad():
        ref = hf_reference().generate(torch.tensor([prompt]), max_new_tokens=100, min_new_tokens=100, do_sample=False)
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


def test_int8_drafts_change_nothing_but_near_ties():
    """N-gram drafts on Gemma, against one token a step, on policy text and on the bench's random-token prompts
    (which loop): the same greedy tokens until a near-tie, if any. A drafted row attends through the prefill
    kernel and a one-token decode through the decode kernel, which sum in different orders, and int8
    activations can round the difference up: where the outputs part, the two tokens must be the top two of
    the teacher-forced logits, within 0.5 of each other (measured 2026-12-01: 2 of the 8 prompts part, both
    random-token ones, at gaps of 0.015 and 0.21)."""
    import random

    llm = real_llm("int8")
    plain = LLM(EngineConfig(dtype="int8", max_num_batched_tokens=512, max_model_len=2048, num_speculative_tokens=0))
    track_engine(plain.engine)
    ids = llm.tokenizer.encode(policy_text()).ids
    rng = random.Random(0)
    policy = [ids[i:i + 200] for i in (0, 700, 1400)]
    looping = [rng.choices(ids, k=rng.randint(32, 300)) for _ in range(5)]
    params = SamplingParams(max_tokens=48, ignore_eos=True)
    before = llm.engine.snapshot()
    got = [o.token_ids for o in llm.generate(policy + looping, params)]
    after = llm.engine.snapshot()
    want = [o.token_ids for o in plain.generate(policy + looping, params)]
    num_parted = 0
    for prompt, drafted, stepped in zip(policy + looping, got, want):
        if drafted == stepped:
            continue
        num_parted += 1
        at = next(i for i, (a, b) in enumerate(zip(drafted, stepped)) if a != b)
        logits = llm.prompt_logits(prompt + drafted[:at])[-1].float()
        assert set(logits.topk(2).indices.tolist()) == {drafted[at], stepped[at]}
        assert abs(float(logits[drafted[at]] - logits[stepped[at]])) < 0.5
    assert num_parted <= 2
    drafted = after.num_draft_tokens - before.num_draft_tokens
    accepted = after.num_accepted_draft_tokens - before.num_accepted_draft_tokens
    assert 0 < accepted < drafted
