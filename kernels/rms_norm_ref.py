"""PyTorch reference for RMSNorm with an optional fused residual add."""
from __future__ import annotations

import torch
import torch.nn.functional as F


def rms_norm_ref(x: torch.Tensor, weight: torch.Tensor, eps: float, weight_offset: float = 0.0,
                 residual: torch.Tensor | None = None):
    """``y = x / rms(x) * (weight_offset + weight)``, computed in fp32 (Gemma uses offset 1.0).

    With ``residual`` it first forms ``x = x + residual`` and returns ``(y, x)``, the new residual.
    """
    if residual is not None:
        x = x + residual
        residual = x
    if x.dtype == torch.float32:  # one fused op, same result
        y = F.rms_norm(x, x.shape[-1:], weight.float() + weight_offset, eps)
    else:
        xf = x.float()
        y = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * (weight_offset + weight.float())
        y = y.to(x.dtype)
    return y if residual is None else (y, residual)
