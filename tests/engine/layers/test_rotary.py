"""RoPE against transformers' rotate-half implementation on the same angles."""
import pytest
import torch

from engine.layers.rotary import rope_cos_sin
from kernels.qk_norm_rope_ref import apply_rope


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_apply_rope_matches_transformers(dtype):
    # Imported here, not at collection: it imports triton, which must come after tests/kernels' conftest
    # has set TRITON_INTERPRET.
    from transformers.models.gemma3.modeling_gemma3 import apply_rotary_pos_emb

    torch.manual_seed(0)
    num_tokens, num_heads, head_dim, base = 7, 4, 64, 10_000.0
    positions = torch.tensor([0, 1, 2, 5, 100, 511, 4096])
    q = torch.randn(num_tokens, num_heads, head_dim).to(dtype)
    k = torch.randn(num_tokens, 1, head_dim).to(dtype)
    cos, sin = rope_cos_sin(positions, head_dim, base)
    inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))
    angles = torch.cat([positions.float()[:, None] * inv_freq] * 2, dim=-1)
    # transformers: [batch, heads, tokens, dim] with [batch, tokens, dim] tables
    q_ref, k_ref = apply_rotary_pos_emb(q.float().transpose(0, 1)[None], k.float().transpose(0, 1)[None],
                                        angles.cos()[None], angles.sin()[None])
    tol = 0 if dtype == torch.float32 else 1e-2
    torch.testing.assert_close(apply_rope(q, cos, sin).float(), q_ref[0].transpose(0, 1), atol=tol, rtol=tol)
    torch.testing.assert_close(apply_rope(k, cos, sin).float(), k_ref[0].transpose(0, 1), atol=tol, rtol=tol)
    assert apply_rope(q, cos, sin).dtype == dtype
