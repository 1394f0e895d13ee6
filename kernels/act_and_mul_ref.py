"""The gated feed-forward's activation: ``act(gate) * up`` over the fused gate/up projection's output."""
from __future__ import annotations

import torch
import torch.nn.functional as F

ACTIVATIONS = ("gelu_tanh", "silu")


def act_and_mul_ref(x: torch.Tensor, activation: str) -> torch.Tensor:
    """``x`` ``[..., 2 * n]`` laid out as ``[gate | up]`` to ``[..., n]``: tanh GELU (Gemma) or SiLU (Llama, Qwen2)."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"unknown activation {activation!r}; expected one of {ACTIVATIONS}")
    gate, up = x.chunk(2, dim=-1)
    return (F.gelu(gate, approximate="tanh") if activation == "gelu_tanh" else F.silu(gate)) * up
