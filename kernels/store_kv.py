"""Triton KV-cache write: scatter new tokens' K/V into their paged slots (see ``store_kv_ref``)."""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from kernels._triton_utils import FLOAT_DTYPES, check_kv_cache, check_shape, check_tensor, next_pow2


@triton.jit
def _store_kv_kernel(k_ptr, v_ptr, k_cache_ptr, v_cache_ptr, slot_mapping_ptr,
                     stride_kt, stride_kh, stride_vt, stride_vh,
                     stride_kcb, stride_kct, stride_kch, stride_vcb, stride_vct, stride_vch,
                     NUM_KV_HEADS: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_SIZE: tl.constexpr,
                     BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr):
    token = tl.program_id(0).to(tl.int64)
    offs_h = tl.arange(0, BLOCK_H)
    offs_d = tl.arange(0, BLOCK_D)
    # The token's slot, repeated per head row (a scalar-and-block mask trips the interpreter).
    slot = tl.load(slot_mapping_ptr + token + offs_h * 0).to(tl.int64)
    block, offset = slot[:, None] // BLOCK_SIZE, slot[:, None] % BLOCK_SIZE
    mask = ((offs_h < NUM_KV_HEADS) & (slot >= 0))[:, None] & (offs_d[None, :] < HEAD_DIM)
    k = tl.load(k_ptr + token * stride_kt + offs_h[:, None] * stride_kh + offs_d[None, :], mask=mask)
    v = tl.load(v_ptr + token * stride_vt + offs_h[:, None] * stride_vh + offs_d[None, :], mask=mask)
    k_dst = k_cache_ptr + block * stride_kcb + offset * stride_kct + offs_h[:, None] * stride_kch + offs_d[None, :]
    v_dst = v_cache_ptr + block * stride_vcb + offset * stride_vct + offs_h[:, None] * stride_vch + offs_d[None, :]
    tl.store(k_dst, k.to(k_cache_ptr.dtype.element_ty), mask=mask)
    tl.store(v_dst, v.to(v_cache_ptr.dtype.element_ty), mask=mask)


def store_kv(k: torch.Tensor, v: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
             slot_mapping: torch.Tensor) -> None:
    """Write ``k``/``v`` ``[num_tokens, num_kv_heads, head_dim]`` into flat slots; slots < 0 are skipped."""
    check_tensor("k", k, 3, FLOAT_DTYPES)
    check_tensor("v", v, 3, FLOAT_DTYPES, k.device)
    check_kv_cache(k_cache, v_cache, k.device)
    num_tokens = k.shape[0]
    block_size, num_kv_heads, head_dim = k_cache.shape[1], k_cache.shape[2], k_cache.shape[3]
    check_shape("k", k, (num_tokens, num_kv_heads, head_dim))
    check_shape("v", v, (num_tokens, num_kv_heads, head_dim))
    check_tensor("slot_mapping", slot_mapping, 1, (torch.int32, torch.int64), k.device)
    check_shape("slot_mapping", slot_mapping, (num_tokens,))
    if num_tokens == 0:
        return
    _store_kv_kernel[(num_tokens,)](
        k, v, k_cache, v_cache, slot_mapping,
        k.stride(0), k.stride(1), v.stride(0), v.stride(1),
        k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
        v_cache.stride(0), v_cache.stride(1), v_cache.stride(2),
        NUM_KV_HEADS=num_kv_heads, HEAD_DIM=head_dim, BLOCK_SIZE=block_size,
        BLOCK_H=next_pow2(num_kv_heads), BLOCK_D=next_pow2(head_dim),
    )
