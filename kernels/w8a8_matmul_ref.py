"""PyTorch reference for the CPU int8 linear: int8 weights and int8 activations, both with group-wise scales.

The scheme is llama.cpp's Q8_0 x Q8_0, with activation groups half as wide as the weight's: each token's
activations are quantized per group of `ACT_GROUP_SIZE` inputs (``step = max|x| / 127``,
``q = round(x / step)``), each group's integer dot with the weight is exact, and ``y = sum over the
activation groups, in order, of dot * (weight_scale * step)``. The C++ kernel (`kernels.w8a8_matmul_cpu`)
computes the same operations in the same order: the same bits.
"""
from __future__ import annotations

import torch

INT8_MAX = 127.0
MIN_ABS_MAX = 1e-30  # an all-zero group gets a tiny step instead of a division by zero
ACT_GROUP_SIZE = 16  # 16 rather than 32: top-1 agreement with fp32 +0.7 points (README)


def activation_group_size(weight_group: int) -> int:
    """Inputs per activation step: `ACT_GROUP_SIZE` where it divides the weight's group, else the whole group."""
    return ACT_GROUP_SIZE if weight_group % ACT_GROUP_SIZE == 0 else weight_group


def quantize_activation_groups(x: torch.Tensor, group_size: int) -> tuple[torch.Tensor, torch.Tensor]:
    """int8 ``q`` ``[M, K]`` and fp32 ``step`` ``[M, K // group_size]`` with ``x ~= q * step`` per group."""
    rows, k = x.shape
    groups = x.float().reshape(rows, k // group_size, group_size)
    step = torch.linalg.vector_norm(groups, float("inf"), dim=-1).clamp_min(MIN_ABS_MAX) / INT8_MAX
    q = torch.round(groups / step[..., None]).to(torch.int8)
    return q.reshape(rows, k), step


def w8a8_matmul_ref(x: torch.Tensor, weight_int8: torch.Tensor, weight_scale: torch.Tensor,
                    bias: torch.Tensor | None = None) -> torch.Tensor:
    """``x`` ``[M, K]`` times int8 ``weight`` ``[N, K]`` with ``weight_scale`` ``[N, K // G]``; fp32 ``[M, N]``."""
    n, k = weight_int8.shape
    if x.dim() != 2 or x.shape[1] != k or k % weight_scale.shape[1]:
        raise ValueError(f"x {tuple(x.shape)}, weight {tuple(weight_int8.shape)} and weight_scale "
                         f"{tuple(weight_scale.shape)} do not fit: need x [M, K] and K divisible by the groups")
    weight_group = k // weight_scale.shape[1]
    group = activation_group_size(weight_group)
    q, step = quantize_activation_groups(x, group)
    q_groups = q.reshape(x.shape[0], k // group, group).double()  # float64: exact integer dots for any group
    w_groups = weight_int8.reshape(n, k // group, group).double()
    w_scale = weight_scale.float()
    out = torch.zeros(x.shape[0], n)
    for g in range(k // group):
        dot = (q_groups[:, g] @ w_groups[:, g].T).float()
        out = out + dot * (w_scale[:, g * group // weight_group][None, :] * step[:, g][:, None])
    return out if bias is None else out + bias.float()
