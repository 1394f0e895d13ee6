"""Rotary position embedding tables (rotate-half layout, as in HF Gemma and Llama); the rotation itself is
`kernels.qk_norm_rope_ref.apply_rope`, fused with the Q/K norms in the CPU kernel."""
from __future__ import annotations

import torch


def rope_cos_sin(positions: torch.Tensor, head_dim: int, base: float) -> tuple[torch.Tensor, torch.Tensor]:
    """cos and signed sin tables ``[num_tokens, 1, head_dim]`` for the given positions, in fp32.

    The sin table's first half is negated, so that RoPE (`kernels.qk_norm_rope_ref.apply_rope` and its C++
    kernel) rotates by a roll instead of
    building ``cat(-x2, x1)``: ``cat(x2, x1) * cat(-s, s) == cat(-x2, x1) * cat(s, s)`` bit for bit.
    """
    inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.int64, device=positions.device).float() / head_dim))
    freqs = positions.float()[:, None] * inv_freq[None, :]
    cos, sin = freqs.cos(), freqs.sin()
    return torch.cat((cos, cos), dim=-1)[:, None, :], torch.cat((-sin, sin), dim=-1)[:, None, :]
