"""The C++ Q/K norm + RoPE against its PyTorch reference, and against the unfused C++ RMSNorm path bit for bit."""
import pytest
import torch

from engine.layers.rotary import rope_cos_sin
from kernels import cpu_extension
from kernels.qk_norm_rope_cpu import qk_norm_rope_cpu
from kernels.qk_norm_rope_ref import apply_rope, qk_norm_rope_ref
from kernels.rms_norm_cpu import rms_norm_cpu

pytestmark = pytest.mark.skipif(cpu_extension.load() is None, reason="no C++ compiler to build the CPU kernel")


def _inputs(tokens, heads, kv_heads, dim, seed=0):
    gen = torch.Generator().manual_seed(seed)
    qkv = torch.randn(tokens, (heads + 2 * kv_heads) * dim, generator=gen) * 3
    scales = torch.randn(dim, generator=gen) * 0.2 + 1, torch.randn(dim, generator=gen) * 0.2 + 1
    cos, sin = rope_cos_sin(torch.arange(tokens) * 37 + 5, dim, 10_000.0)
    return qkv, scales, cos, sin


@pytest.mark.parametrize(("tokens", "heads", "kv_heads", "dim"), [(1, 4, 1, 256), (7, 4, 1, 256), (33, 8, 2, 64),
                                                                   (5, 4, 4, 32)])
@pytest.mark.parametrize("normed", [True, False])
def test_matches_reference(tokens, heads, kv_heads, dim, normed):
    qkv, (qs, ks), cos, sin = _inputs(tokens, heads, kv_heads, dim)
    scales = (qs, ks) if normed else (None, None)
    got = qk_norm_rope_cpu(qkv, heads, kv_heads, *scales, 1e-6, cos, sin)
    want = qk_norm_rope_ref(qkv, heads, kv_heads, *scales, 1e-6, cos, sin)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        torch.testing.assert_close(g, w, rtol=2e-6, atol=2e-6)
    assert torch.equal(got[2], want[2])  # v is passed through


def test_same_bits_as_the_unfused_cpu_path():
    """The engine's numbers do not move: C++ RMSNorm, then PyTorch's RoPE, gives the same bits."""
    qkv, (qs, ks), cos, sin = _inputs(9, 4, 1, 256, seed=3)
    q, k, _ = qk_norm_rope_cpu(qkv, 4, 1, qs, ks, 1e-6, cos, sin)
    q_ref = apply_rope(rms_norm_cpu(qkv[:, :1024].reshape(9, 4, 256), qs, 1e-6), cos, sin)
    k_ref = apply_rope(rms_norm_cpu(qkv[:, 1024:1280].reshape(9, 1, 256), ks, 1e-6), cos, sin)
    assert torch.equal(q, q_ref) and torch.equal(k, k_ref)


def test_a_token_gets_the_same_bits_in_any_batch():
    qkv, (qs, ks), cos, sin = _inputs(12, 4, 1, 256, seed=4)
    q, k, _ = qk_norm_rope_cpu(qkv, 4, 1, qs, ks, 1e-6, cos, sin)
    q1, k1, _ = qk_norm_rope_cpu(qkv[5:6], 4, 1, qs, ks, 1e-6, cos[5:6], sin[5:6])
    assert torch.equal(q[5:6], q1) and torch.equal(k[5:6], k1)


def test_other_inputs_go_to_the_reference():
    qkv, (qs, ks), cos, sin = _inputs(3, 4, 1, 32)
    got = qk_norm_rope_cpu(qkv.bfloat16(), 4, 1, qs, ks, 1e-6, cos, sin)
    want = qk_norm_rope_ref(qkv.bfloat16(), 4, 1, qs, ks, 1e-6, cos, sin)
    assert all(torch.equal(g, w) for g, w in zip(got, want))


def test_backends_pick_their_norm():
    """The CPU backend takes the fused kernel; the Triton backend keeps its own RMSNorm kernel inside the reference."""
    from engine.layers.ops import select_ops
    from kernels.rms_norm import rms_norm

    assert select_ops(torch.device("cpu")).qk_norm_rope is qk_norm_rope_cpu
    triton = select_ops(torch.device("cpu"), "triton").qk_norm_rope
    assert triton.func is qk_norm_rope_ref and triton.keywords == {"rms_norm": rms_norm}
    qkv, (qs, ks), cos, sin = _inputs(3, 4, 1, 32)  # under the Triton interpreter on this machine
    for got, want in zip(triton(qkv, 4, 1, qs, ks, 1e-6, cos, sin), qk_norm_rope_ref(qkv, 4, 1, qs, ks, 1e-6, cos, sin)):
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
