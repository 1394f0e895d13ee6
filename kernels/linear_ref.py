"""PyTorch reference for the int8 weight-only matmul (per-output-channel scales)."""
from __future__ import annotations

import torch


def int8_matmul_ref(x: torch.Tensor, weight_int8: torch.Tensor, weight_scale: torch.Tensor,
                    bias: torch.Tensor | None = None) -> torch.Tensor:
    """``x`` ``[M, K]`` times int8 ``weight`` ``[N, K]`` with ``weight_scale`` ``[N]``; returns ``[M, N]`` in x's dtype."""
    out = (x.float() @ weight_int8.float().t()) * weight_scale.float()
    if bias is not None:
        out = out + bias.float()
    return out.to(x.dtype)
