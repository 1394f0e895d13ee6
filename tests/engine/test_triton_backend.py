"""The Triton backend end to end: greedy output equals the PyTorch backend's (needs a CUDA GPU)."""
from __future__ import annotations

import pytest
import torch

from engine.sampling import SamplingParams
from tests.engine.engine_fixtures import make_llm

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="the compiled Triton kernels need a CUDA GPU")


@pytest.mark.parametrize("dtype", ["fp32", "int8"])
def test_triton_greedy_equals_torch(dtype, tiny_checkpoints, tmp_path):
    prompts = [[5, 6, 7] * k for k in (1, 7, 20)]
    params = SamplingParams(max_tokens=32, ignore_eos=True)
    outs = {}
    for backend in ("torch", "triton"):
        llm = make_llm(tiny_checkpoints["gemma3"], tmp_path, dtype=dtype, device="cuda", kernel_backend=backend)
        outs[backend] = [o.token_ids for o in llm.generate(prompts, params)]
    assert outs["triton"] == outs["torch"]
