"""The Triton kernels inside the engine (`engine.layers.ops.triton_ops`), on the CPU under the Triton interpreter: the
runner's CUDA path (decode rows as one-token chunks of the prefill kernel, `KernelOps.decode_by_prefill`) end to end
on a tiny fp32 model, where no GPU is at hand. On CUDA, `tests/engine/test_triton_backend.py` runs the same checks
compiled, in int8."""
from __future__ import annotations

import os

import pytest
import torch

from engine.sampling import SamplingParams
from tests.engine.engine_fixtures import make_llm
from tests.engine.test_llm_engine import TIGHT_POOL

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    os.environ.get("TRITON_INTERPRET") != "1", reason="runs the Triton kernels under the interpreter on the CPU")]


def test_greedy_tokens_equal_the_references(tiny_checkpoints, tmp_path):
    prompts = [[5, 6, 7] * k for k in (1, 7, 20)]
    params = SamplingParams(max_tokens=16, ignore_eos=True)
    outs = {}
    for backend in ("torch", "triton"):
        llm = make_llm(tiny_checkpoints["gemma3"], tmp_path, device="cpu", kernel_backend=backend)
        assert llm.engine.runner.ops.decode_by_prefill == (backend == "triton")
        outs[backend] = [o.token_ids for o in llm.generate(prompts, params)]
        assert llm.engine.num_allocated_blocks() == 0  # this directory's conftest skips the root's leak guard
    assert outs["triton"] == outs["torch"]


def test_a_request_gets_the_same_tokens_alone_and_batched(tiny_checkpoints, tmp_path):
    """With n-gram drafts cut by the step's token budget, prompts chunked, and a pool tight enough to preempt and
    recompute a sequence: the runner's CUDA path end to end, batched, against each request alone on the PyTorch
    ops (the test above holds the two backends' tokens equal; alone on the Triton kernels too took another 34 s of
    CI under the interpreter, stop 57). It does not tell the rounding apart: with the split-K decode kernel for
    decode rows (``decode_by_prefill`` off) six requests kept their tokens too (2026-12-04); the kernel tests compare
    the bits (`test_paged_prefill_attention.py`). Four requests still preempt one (six took 160 s of CI under the
    interpreter on a 2-core AMD Zen 3, stop 55)."""
    gen = torch.Generator().manual_seed(1)
    prompts = [torch.randint(3, 500, (n,), generator=gen).tolist() for n in (3, 40, 100, 9)]
    params = SamplingParams(max_tokens=12, ignore_eos=True)
    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path / "triton", device="cpu", kernel_backend="triton",
                   **TIGHT_POOL)
    batched = [o.token_ids for o in llm.generate(prompts, params)]
    assert llm.engine.scheduler.num_preemptions > 0
    assert llm.engine.num_allocated_blocks() == 0
    reference = make_llm(tiny_checkpoints["gemma3"], tmp_path / "torch", device="cpu", kernel_backend="torch",
                         **TIGHT_POOL)
    assert batched == [reference.generate([p], params)[0].token_ids for p in prompts]
