"""Gated feed-forward: ``down(act(gate(x)) * up(x))`` with one fused gate/up projection."""
from __future__ import annotations

import torch
from torch import nn

from engine.layers.ops import KernelOps
from kernels.act_and_mul_ref import ACTIVATIONS


class GatedMLP(nn.Module):
    """GeGLU (tanh GELU, Gemma) or SwiGLU (SiLU, Llama/Qwen2); the activation and product are one kernel."""

    def __init__(self, hidden_size: int, intermediate_size: int, activation: str, ops: KernelOps) -> None:
        super().__init__()
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}")
        self.gate_up_proj = nn.Linear(hidden_size, 2 * intermediate_size, bias=False)
        self.down_proj = nn.Linear(intermediate_size, hidden_size, bias=False)
        self.activation, self.ops = activation, ops

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down_proj(self.ops.act_and_mul(self.gate_up_proj(x), self.activation))
