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
    x2 = x if x.dim() == 2 and x.is_contiguous() else x.reshape(-1, x.shape[-1]).contiguous()
    res2 = residual
    if residual is not None and not (residual.dim() == 2 and residual.is_contiguous()):
        res2 = residual.reshape(-1, x.shape[-1]).contiguous()
    outs = kernels.rms_norm(x2, norm_scale(weight, weight_offset).contiguous(), float(eps), res2)
    if x2 is not x:
        outs = [out.view(x.shape) for out in outs]
    return outs[0] if residual is None else (outs[0], outs[1])
