"""The gated activation for the CPU: the C++ kernel of `kernels.cpu_extension` (``csrc/act_and_mul_cpu.cpp``),
with the reference's contract. One pass instead of three ops; PyTorch's tanh GELU alone took 7 ms of a
169-token prefill step (18 layers), the kernel well under 1 ms."""
from __future__ import annotations

import torch

from kernels import cpu_extension
from kernels.act_and_mul_ref import ACTIVATIONS, act_and_mul_ref


def act_and_mul_cpu(x: torch.Tensor, activation: str) -> torch.Tensor:
    """Same contract as `act_and_mul_ref`; inputs the kernel does not take go to the reference."""
    kernels = cpu_extension.load()
    if kernels is None or not x.is_cpu or x.dtype != torch.float32 or activation not in ACTIVATIONS:
        return act_and_mul_ref(x, activation)
    x2 = x if x.dim() == 2 and x.is_contiguous() else x.reshape(-1, x.shape[-1]).contiguous()
    out = kernels.act_and_mul(x2, ACTIVATIONS.index(activation))
    return out if x2 is x else out.view(*x.shape[:-1], -1)
