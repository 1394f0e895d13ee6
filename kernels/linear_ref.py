"""PyTorch reference for the int8 weight-only matmul (group-wise scales along K)."""
from __future__ import annotations

import torch


def dequantize_groupwise(q: torch.Tensor, scale: torch.Tensor, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """``q`` times its group scales, in ``dtype``; works on any leading dims (``q [..., K]``, ``scale [..., G]``)."""
    groups = scale.shape[-1]
    w = q.float().unflatten(-1, (groups, q.shape[-1] // groups)) * scale.float()[..., None]
    return w.flatten(-2).to(dtype)


def int8_matmul_ref(x: torch.Tensor, weight_int8: torch.Tensor, weight_scale: torch.Tensor,
                    bias: torch.Tensor | None = None) -> torch.Tensor:
    """``x`` ``[M, K]`` times int8 ``weight`` ``[N, K]`` (+ ``bias`` ``[N]``); returns ``[M, N]`` in x's dtype.

    ``weight_scale`` is ``[N, K // G]``: one scale per output channel and group of ``G`` consecutive
    input features, ``G = K // weight_scale.shape[1]`` (``[N, 1]`` is per-channel), so the weight is
    ``w[n, k] = weight_int8[n, k] * weight_scale[n, k // G]``.
    """
    N, K = weight_int8.shape
    if weight_scale.dim() != 2 or weight_scale.shape[0] != N or weight_scale.shape[1] == 0 \
            or K % weight_scale.shape[1]:
        raise ValueError(f"weight_scale must be [N, K // G] with a group count dividing K={K} "
                         f"(weight_int8 {tuple(weight_int8.shape)}), got {tuple(weight_scale.shape)}")
    out = x.float() @ dequantize_groupwise(weight_int8, weight_scale).t()
    if bias is not None:
        out = out + bias.float()
    return out.to(x.dtype)
