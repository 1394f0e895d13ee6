"""Triton int8 weight-only matmul with group-wise scales along K (see ``int8_matmul_ref``).

``weight_scale`` is ``[N, K // G]``: one scale per output channel and group of ``G`` consecutive
input features (``G = K`` is per-channel). Weights stay int8 in memory (half the bytes of bf16) and
each weight tile is dequantised in registers (``w * scale[n, k // G]``, in fp32) before the
``tl.dot``; the epilogue only adds the bias and stores.

One kernel and one tile configuration serve every row count, decode's one row and a prompt's
thousands alike, so a row's sums run in the same order whatever the batch: batch invariance, which
a decode-only kernel (a multiply-reduce for a few rows) or tiles autotuned per row count would
break. The tile is 16 rows (``tl.dot``'s smallest), so a decode step wastes tensor-core lanes, not
weight bytes: each weight tile is still read once per 16 rows.
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from kernels._triton_utils import FLOAT_DTYPES, check_shape, check_tensor, dot_dtype

# BLOCK_M, BLOCK_N, BLOCK_K, launch grouping, warps and stages: fixed, not autotuned (see above).
_TILE = dict(BLOCK_M=16, BLOCK_N=64, BLOCK_K=64, GROUP_M=8, num_warps=4, num_stages=3)


@triton.jit
def _epilogue(acc, bias_ptr, out_ptr, offs_m, offs_n, M, N, stride_om, HAS_BIAS: tl.constexpr):
    """``acc (+ bias)`` in fp32, cast to the output dtype and stored with bounds masks."""
    n_mask = offs_n < N
    out = acc
    if HAS_BIAS:
        out += tl.load(bias_ptr + offs_n, mask=n_mask, other=0.0).to(tl.float32)
    mask = (offs_m[:, None] < M) & n_mask[None, :]
    tl.store(out_ptr + offs_m[:, None] * stride_om + offs_n[None, :], out.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _int8_matmul_kernel(x_ptr, w_ptr, scale_ptr, bias_ptr, out_ptr, M, N, K, G,
                        stride_xm, stride_wn, stride_sn, stride_sg, stride_om,
                        HAS_BIAS: tl.constexpr, DOT_DTYPE: tl.constexpr, BLOCK_M: tl.constexpr,
                        BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    group_size = GROUP_M * num_pid_n
    first_m = (pid // group_size) * GROUP_M
    group_m = tl.minimum(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group_size) % group_m
    pid_n = (pid % group_size) // group_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    m_mask, n_mask = offs_m < M, offs_n < N
    x_ptrs = x_ptr + offs_m[:, None].to(tl.int64) * stride_xm + offs_k[None, :]
    w_ptrs = w_ptr + offs_n[None, :].to(tl.int64) * stride_wn + offs_k[:, None]  # [BLOCK_K, BLOCK_N] view of w^T
    s_cols = scale_ptr + offs_n[None, :].to(tl.int64) * stride_sn  # same view of the scales
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + offs_k
        k_mask = k < K
        wk_mask = k_mask[:, None] & n_mask[None, :]
        x = tl.load(x_ptrs, mask=m_mask[:, None] & k_mask[None, :], other=0.0)
        w = tl.load(w_ptrs, mask=wk_mask, other=0)
        scale = tl.load(s_cols + (k // G)[:, None] * stride_sg, mask=wk_mask, other=0.0)
        w = w.to(tl.float32) * scale.to(tl.float32)
        acc = tl.dot(x.to(DOT_DTYPE), w.to(DOT_DTYPE), acc, input_precision="ieee")
        x_ptrs += BLOCK_K
        w_ptrs += BLOCK_K
    _epilogue(acc, bias_ptr, out_ptr, offs_m, offs_n, M, N, stride_om, HAS_BIAS)


def int8_matmul(x: torch.Tensor, weight_int8: torch.Tensor, weight_scale: torch.Tensor,
                bias: torch.Tensor | None = None) -> torch.Tensor:
    """``x`` ``[..., K]`` times int8 ``weight`` ``[N, K]`` with group scales ``weight_scale``
    ``[N, K // G]`` (+ ``bias`` ``[N]``); returns ``[..., N]`` in x's dtype, like ``int8_matmul_ref``.

    The group size is ``G = K // weight_scale.shape[1]``, which must divide ``K`` exactly."""
    if not isinstance(x, torch.Tensor) or x.dim() < 1:
        raise ValueError("x must be a tensor with at least one dim")
    check_tensor("x", x, x.dim(), FLOAT_DTYPES)
    check_tensor("weight_int8", weight_int8, 2, (torch.int8,), x.device)
    N, K = weight_int8.shape
    if x.shape[-1] != K:
        raise ValueError(f"x has {x.shape[-1]} input features but weight_int8 is {tuple(weight_int8.shape)}")
    check_tensor("weight_scale", weight_scale, 2, FLOAT_DTYPES, x.device, last_dim_contiguous=False)
    num_groups = weight_scale.shape[1]
    if weight_scale.shape[0] != N or num_groups == 0 or K % num_groups:
        raise ValueError(f"weight_scale must be [N, K // G] = [{N}, groups] with groups dividing K={K}, "
                         f"got {tuple(weight_scale.shape)}")
    group_size = max(K // num_groups, 1)
    if bias is not None:
        check_tensor("bias", bias, 1, FLOAT_DTYPES, x.device)
        check_shape("bias", bias, (N,))
    x2 = x.reshape(-1, K)
    M = x2.shape[0]
    out = torch.empty((*x.shape[:-1], N), dtype=x.dtype, device=x.device)
    if M == 0 or N == 0:
        return out
    out2 = out.view(M, N)
    bias_arg = bias if bias is not None else weight_scale
    grid = (triton.cdiv(M, _TILE["BLOCK_M"]) * triton.cdiv(N, _TILE["BLOCK_N"]),)
    _int8_matmul_kernel[grid](x2, weight_int8, weight_scale, bias_arg, out2, M, N, K, group_size,
                              x2.stride(0), weight_int8.stride(0), *weight_scale.stride(), out2.stride(0),
                              HAS_BIAS=bias is not None, DOT_DTYPE=dot_dtype(x.dtype), **_TILE)
    return out
