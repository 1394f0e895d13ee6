"""Rotary position embedding (rotate-half layout, as in HF Gemma and Llama)."""
from __future__ import annotations

import torch


def rope_cos_sin(positions: torch.Tensor, head_dim: int, base: float) -> tuple[torch.Tensor, torch.Tensor]:
    """cos and signed sin tables ``[num_tokens, 1, head_dim]`` for the given positions, in fp32.

    The sin table's first half is negated, so that `apply_rope` rotates by a roll instead of
    building ``cat(-x2, x1)``: ``cat(x2, x1) * cat(-s, s) == cat(-x2, x1) * cat(s, s)`` bit for bit.
    """
    inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.int64, device=positions.device).float() / head_dim))
    freqs = positions.float()[:, None] * inv_freq[None, :]
    cos, sin = freqs.cos(), freqs.sin()
    return torch.cat((cos, cos), dim=-1)[:, None, :], torch.cat((-sin, sin), dim=-1)[:, None, :]


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotate ``x`` ``[num_tokens, num_heads, head_dim]`` by per-token angles (tables from `rope_cos_sin`)."""
    half = x.shape[-1] // 2
    if x.dtype == torch.float32:
        return x * cos + x.roll(half, -1) * sin
    xf = x.float()
    return (xf * cos + xf.roll(half, -1) * sin).to(x.dtype)
