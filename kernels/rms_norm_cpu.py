"""RMSNorm for the CPU: the C++ kernel of `kernels.cpu_extension`, with the reference's contract.

The reference (`kernels.rms_norm_ref`) takes five or six PyTorch ops per call, and the model calls it
six times per layer; the kernel (``csrc/rms_norm_cpu.cpp``) is one pass per row, residual add included.
"""
from __future__ import annotations

import torch

from kernels import cpu_extension
from kernels.rms_norm_ref import norm_scale, rms_norm_ref


def rms_norm_cpu(x: torch.Tensor, weight: torch.Tensor, eps: float, weight_offset: float = 0.0,
                 residual: torch.Tensor | None = None):
    """Same contract as `rms_norm_ref`; inputs the kernel does not take go to the reference."""
    kernels = cpu_extension.load()
    if (kernels is None or not x.is_cpu or x.dtype != torch.float32
            or (residual is not None and residual.dtype != torch.float32)):
        return rms_norm_ref(x, weight, eps, weight_offset, residual)
    scale = norm_scale(weight, weight_offset) if weight_offset or weight.dtype != torch.float32 else weight
    if x.dim() == 2 and x.is_contiguous() and weight.is_contiguous() and (residual is None or residual.is_contiguous()):
        outs = kernels.rms_norm(x, scale, float(eps), residual)  # the model's case, without reshapes
        return outs[0] if residual is None else (outs[0], outs[1])
    shape = x.shape
    x2 = x.reshape(-1, shape[-1]).contiguous()
    res2 = None if residual is None else residual.reshape(-1, shape[-1]).contiguous()
    outs = kernels.rms_norm(x2, scale.contiguous(), float(eps), res2)
    if residual is None:
        return outs[0].view(shape)
    return outs[0].view(shape), outs[1].view(shape)
