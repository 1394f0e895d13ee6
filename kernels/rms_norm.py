"""Triton fused RMSNorm with an optional residual add (see ``rms_norm_ref``)."""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from kernels._triton_utils import FLOAT_DTYPES, check_shape, check_tensor, next_pow2, tl_dtype


@triton.jit
def _rms_norm_kernel(x_ptr, residual_ptr, weight_ptr, y_ptr, residual_out_ptr,
                     stride_x, stride_r, stride_y, stride_ro, hidden, eps, weight_offset,
                     HAS_RESIDUAL: tl.constexpr, SUM_DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < hidden
    x = tl.load(x_ptr + row * stride_x + offs, mask=mask, other=0.0).to(tl.float32)
    if HAS_RESIDUAL:
        r = tl.load(residual_ptr + row * stride_r + offs, mask=mask, other=0.0).to(tl.float32)
        x_sum = (x + r).to(SUM_DTYPE)  # rounded like torch's ``x + residual`` before normalising
        tl.store(residual_out_ptr + row * stride_ro + offs, x_sum, mask=mask)
        x = x_sum.to(tl.float32)
    inv_rms = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / hidden + eps)
    w = tl.load(weight_ptr + offs, mask=mask, other=0.0).to(tl.float32) + weight_offset
    tl.store(y_ptr + row * stride_y + offs, (x * inv_rms * w).to(y_ptr.dtype.element_ty), mask=mask)


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float, weight_offset: float = 0.0,
             residual: torch.Tensor | None = None):
    """``y = x / rms(x) * (weight_offset + weight)`` over the last dim, in fp32.

    With ``residual`` it first forms ``x = x + residual`` (in one pass) and returns ``(y, x)``.
    """
    if not isinstance(x, torch.Tensor) or x.dim() < 1:
        raise ValueError("x must be a tensor with at least one dim")
    hidden = x.shape[-1]
    check_tensor("x", x, x.dim(), FLOAT_DTYPES)
    check_tensor("weight", weight, 1, FLOAT_DTYPES, x.device)
    check_shape("weight", weight, (hidden,))
    out_dtype = x.dtype
    if residual is not None:
        check_tensor("residual", residual, x.dim(), FLOAT_DTYPES, x.device)
        check_shape("residual", residual, tuple(x.shape))
        out_dtype = torch.promote_types(x.dtype, residual.dtype)
    x2 = x.reshape(-1, hidden)
    r2 = residual.reshape(-1, hidden) if residual is not None else x2
    y = torch.empty(x.shape, dtype=out_dtype, device=x.device)
    new_residual = torch.empty_like(y) if residual is not None else y
    y2, ro2 = y.view(-1, hidden), new_residual.view(-1, hidden)
    if x2.shape[0] > 0:
        _rms_norm_kernel[(x2.shape[0],)](
            x2, r2, weight, y2, ro2, x2.stride(0), r2.stride(0), y2.stride(0), ro2.stride(0),
            hidden, float(eps), float(weight_offset),
            HAS_RESIDUAL=residual is not None, SUM_DTYPE=tl_dtype(out_dtype), BLOCK=next_pow2(hidden),
        )
    return y if residual is None else (y, new_residual)
