"""Triton building blocks shared by the paged decode and prefill attention kernels.

Both gather a tile of ``BLOCK_N`` consecutive key positions through a block-table row (per token,
so a tile may straddle KV blocks of any size) and fold it into an online softmax held in base-2
(``qk_scale`` includes ``log2(e)``).
"""
from __future__ import annotations

import triton
import triton.language as tl

LOG2E = 1.4426950408889634


@triton.jit
def load_kv_tile(k_cache_ptr, v_cache_ptr, table_row_ptr, stride_bt_col, pos, in_range, kv_head,
                 stride_kb, stride_kt, stride_kh, stride_vb, stride_vt, stride_vh, offs_d, d_mask,
                 BLOCK_SIZE: tl.constexpr):
    """K and V ``[BLOCK_N, BLOCK_D]`` at key positions ``pos``; ``ok`` marks present positions
    (inside ``in_range`` and not in a ``-1`` block). Absent positions load zeros."""
    block_id = tl.load(table_row_ptr + (pos // BLOCK_SIZE) * stride_bt_col, mask=in_range, other=-1).to(tl.int64)
    ok = in_range & (block_id >= 0)
    slot = pos % BLOCK_SIZE
    mask = ok[:, None] & d_mask[None, :]
    k_off = block_id * stride_kb + slot * stride_kt + kv_head * stride_kh
    v_off = block_id * stride_vb + slot * stride_vt + kv_head * stride_vh
    k = tl.load(k_cache_ptr + k_off[:, None] + offs_d[None, :], mask=mask, other=0.0)
    v = tl.load(v_cache_ptr + v_off[:, None] + offs_d[None, :], mask=mask, other=0.0)
    return k, v, ok


@triton.jit
def attend_tile(q, k, v, allowed, m_i, l_i, acc, qk_scale, DOT_DTYPE: tl.constexpr):
    """One online-softmax step of queries ``q`` ``[M, D]`` over keys ``k``/values ``v`` ``[N, D]``
    where ``allowed`` ``[M, N]``. Rows with nothing allowed yet stay at ``m=-inf, l=0, acc=0``."""
    s = tl.dot(q.to(DOT_DTYPE), tl.trans(k.to(DOT_DTYPE)), input_precision="ieee") * qk_scale
    s = tl.where(allowed, s, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(s, axis=1))
    m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)
    alpha = tl.exp2(m_i - m_safe)
    p = tl.exp2(s - m_safe[:, None])
    l_i = l_i * alpha + tl.sum(p, axis=1)
    acc = acc * alpha[:, None] + tl.dot(p.to(DOT_DTYPE), v.to(DOT_DTYPE), input_precision="ieee")
    return m_new, l_i, acc
