"""Our model code against transformers on the same tiny random weights: logits and greedy text."""
from __future__ import annotations

import pytest
import torch

from engine.sampling import SamplingParams
from tests.engine.engine_fixtures import make_llm
from tests.tiny_models import TINY_SLIDING_WINDOW


def _hf_model(path):
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()


@pytest.mark.parametrize("arch", ["gemma3", "llama", "qwen2"])
def test_prompt_logits_match_transformers(arch, tiny_checkpoints, tmp_path):
    llm = make_llm(tiny_checkpoints[arch], tmp_path)
    ids = torch.randint(3, 500, (3 * TINY_SLIDING_WINDOW,), generator=torch.Generator().manual_seed(0)).tolist()
    ours = llm.prompt_logits(ids)
    with torch.no_grad():
        ref = _hf_model(tiny_checkpoints[arch])(torch.tensor([ids])).logits[0]
    assert ours.shape == ref.shape
    assert (ours - ref).abs().max().item() < 1e-3


@pytest.mark.parametrize("arch", ["gemma3", "llama", "qwen2"])
def test_greedy_continuations_match_transformers(arch, tiny_checkpoints, tmp_path):
    """Decoding runs past the sliding window (24 tokens) through paged decode attention."""
    llm = make_llm(tiny_checkpoints[arch], tmp_path)
    gen = torch.Generator().manual_seed(1)
    prompts = [torch.randint(3, 500, (n,), generator=gen).tolist() for n in (3, 17, 40)]
    outs = llm.generate(prompts, SamplingParams(max_tokens=32, ignore_eos=True))
    hf = _hf_model(tiny_checkpoints[arch])
    for prompt, out in zip(prompts, outs):
        with torch.no_grad():
            ref = hf.generate(torch.tensor([prompt]), max_new_tokens=32, min_new_tokens=32, do_sample=False)
        assert out.token_ids == ref[0, len(prompt):].tolist()
        assert out.finish_reason == "length"


def test_mqa_cache_holds_one_kv_head(tiny_checkpoints, tmp_path):
    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path)
    k_cache, v_cache = llm.engine.runner.kv_caches[0]
    assert k_cache.shape[2] == 1 and v_cache.shape[2] == 1
    attn = llm.engine.runner.model.layers[0].self_attn
    assert attn.qkv_proj.out_features == (4 + 2 * 1) * 32
