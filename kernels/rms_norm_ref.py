"""PyTorch reference for RMSNorm with an optional fused residual add."""
from __future__ import annotations

from functools import cache

import torch


@cache
def _scalar(value: float, device: torch.device) -> torch.Tensor:
    """A 0-dim fp32 tensor: a Python float operand costs each op a scalar-to-tensor copy (~1.5 us)."""
    return torch.tensor(value, dtype=torch.float32, device=device)


def norm_scale(weight: torch.Tensor, weight_offset: float) -> torch.Tensor:
    """``weight_offset + weight`` in fp32 (Gemma's ``1 + w``; no op for an offset of 0)."""
    return weight.float() + weight_offset if weight_offset else weight.float()


def rms_norm_ref(x: torch.Tensor, weight: torch.Tensor, eps: float, weight_offset: float = 0.0,
                 residual: torch.Tensor | None = None):
    """``y = x / rms(x) * (weight_offset + weight)``, computed in fp32 (Gemma uses offset 1.0).

    With ``residual`` it first forms ``x = x + residual`` and returns ``(y, x)``, the new residual.
    """
    if residual is not None:
        x = x + residual
        residual = x
    scale = norm_scale(weight, weight_offset)
    if x.dtype == torch.float32:  # bit-identical to F.rms_norm (mean is sum, then div_), with ~3x fewer dispatches
        mean_square = torch.sum(x * x, -1, keepdim=True).div_(_scalar(float(x.shape[-1]), x.device))
        y = x * torch.rsqrt(mean_square.add_(_scalar(eps, x.device))) * scale
    else:
        xf = x.float()
        y = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * scale
        y = y.to(x.dtype)
    return y if residual is None else (y, residual)
