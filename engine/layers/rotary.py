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


class RopeTable:
    """`rope_cos_sin` of every position up to the largest seen so far, computed once and then looked up.

    A row of the table has the same bits as the row computed alone (``tests/engine/layers/test_rotary.py``),
    so looking positions up changes nothing but the cost: recomputing both tables for every step took
    about 4% of a one-sequence decode step. The table grows by doubling.
    """

    def __init__(self, head_dim: int, base: float) -> None:
        self.head_dim, self.base = head_dim, base
        self._cos = self._sin = torch.empty(0)

    def __call__(self, positions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """cos and signed sin ``[num_tokens, 1, head_dim]`` for ``positions`` (int64)."""
        needed = int(positions.max()) + 1 if positions.numel() else 0
        if needed > self._cos.shape[0] or self._cos.device != positions.device:
            size = max(needed, 2 * self._cos.shape[0], 256)
            self._cos, self._sin = rope_cos_sin(torch.arange(size, device=positions.device), self.head_dim, self.base)
        return self._cos[positions], self._sin[positions]
