"""The C++ K/V store against `store_kv_ref`: the same bits in fp32, fp16 and bf16 caches, skipped slots,
strided value rows, and slots out of range rejected."""
import pytest
import torch

from kernels import cpu_extension
from kernels.attention_ref import store_kv_ref
from kernels.store_kv_cpu import store_kv_cpu

pytestmark = pytest.mark.skipif(cpu_extension.load() is None, reason="no C++ compiler to build the CPU kernel")


def caches(dtype, num_blocks=6, block_size=4, kv_heads=2, head_dim=32):
    shape = (num_blocks, block_size, kv_heads, head_dim)
    return torch.full(shape, 7.0, dtype=dtype), torch.full(shape, -7.0, dtype=dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("slot_dtype", [torch.int64, torch.int32])
def test_matches_reference(dtype, slot_dtype):
    g = torch.Generator().manual_seed(0)
    qkv = torch.randn(5, 3 * 2 * 32, generator=g) * 3
    k = qkv[:, 64:128].view(5, 2, 32)  # strided rows, as the model's views of the fused projection
    v = qkv[:, 128:].view(5, 2, 32)
    slots = torch.tensor([3, -1, 0, 23, 9], dtype=slot_dtype)
    ours, ref = caches(dtype), caches(dtype)
    store_kv_cpu(k, v, *ours, slots)
    store_kv_ref(k, v, *ref, slots)
    assert torch.equal(ours[0], ref[0]) and torch.equal(ours[1], ref[1])
    assert torch.equal(ours[0].view(-1, 2, 32)[1], torch.full((2, 32), 7.0, dtype=dtype))  # untouched


def test_rounding_and_extremes_as_tensor_to():
    k = torch.tensor([[[1 + 2**-11, 65520.0, -1e-8, float("nan")]]])  # ties to even, overflow, underflow, NaN
    v = torch.tensor([[[float("inf"), -0.0, 3.14159, 1e-5]]])
    for dtype in (torch.float16, torch.bfloat16):
        ours = (torch.zeros(1, 2, 1, 4, dtype=dtype), torch.zeros(1, 2, 1, 4, dtype=dtype))
        ref = (torch.zeros(1, 2, 1, 4, dtype=dtype), torch.zeros(1, 2, 1, 4, dtype=dtype))
        store_kv_cpu(k, v, *ours, torch.tensor([1]))
        store_kv_ref(k, v, *ref, torch.tensor([1]))
        for a, b in zip(ours, ref):
            assert torch.equal(a.isnan(), b.isnan())  # NaN stays NaN (torch's bf16 NaN sets the sign bit)
            assert torch.equal(a.view(torch.int16)[~a.isnan()], b.view(torch.int16)[~b.isnan()])  # the rest bitwise


def test_slot_out_of_range_is_rejected():
    k = torch.zeros(1, 2, 32)
    with pytest.raises(RuntimeError, match="out of range"):
        store_kv_cpu(k, k, *caches(torch.float16), torch.tensor([24]))
