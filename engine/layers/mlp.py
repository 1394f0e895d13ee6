"""Gated feed-forward: ``down(act(gate(x)) * up(x))`` with one fused gate/up projection."""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


class GatedMLP(nn.Module):
    """GeGLU (tanh GELU, Gemma) or SwiGLU (SiLU, Llama/Qwen2)."""

    def __init__(self, hidden_size: int, intermediate_size: int, activation: str) -> None:
        super().__init__()
        if activation not in ("gelu_tanh", "silu"):
            raise ValueError(f"unknown activation {activation!r}")
        self.gate_up_proj = nn.Linear(hidden_size, 2 * intermediate_size, bias=False)
        self.down_proj = nn.Linear(intermediate_size, hidden_size, bias=False)
        self.activation = activation

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        gate, up = self.gate_up_proj(x).chunk(2, dim=-1)
        gate = F.gelu(gate, approximate="tanh") if self.activation == "gelu_tanh" else F.silu(gate)
        return self.down_proj(gate * up)
