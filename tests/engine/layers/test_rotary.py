"""RoPE against transformers' rotate-half implementation on the same angles; the cached table against
computing the rows alone."""
import pytest
import torch

from engine.layers.rotary import RopeTable, rope_cos_sin
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


@pytest.mark.parametrize("base", [10_000.0, 1_000_000.0])
def test_table_rows_have_the_bits_of_rows_computed_alone(base):
    table = RopeTable(256, base)
    g = torch.Generator().manual_seed(0)
    for num_tokens, high in [(1, 10), (3, 300), (17, 5000), (1, 40000), (100, 40000), (0, 10)]:  # the table grows
        positions = torch.randint(0, high, (num_tokens,), generator=g)
        cos, sin = table(positions)
        ref_cos, ref_sin = rope_cos_sin(positions, 256, base)
        assert cos.shape == ref_cos.shape == (num_tokens, 1, 256)
        assert torch.equal(cos, ref_cos) and torch.equal(sin, ref_sin)
