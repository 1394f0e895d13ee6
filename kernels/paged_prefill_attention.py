"""Triton paged prefill / chunked-prefill attention over a flat, unpadded batch.

Same semantics as ``paged_prefill_attention_ref``: sequence ``i`` owns query rows
``cu_seqlens_q[i]:cu_seqlens_q[i+1]``, the last tokens of its ``context_lens[i]``; earlier
tokens (a cached prefix, earlier chunks) and the new ones are read through its block table.

A program owns one tile of ``BLOCK_Q`` consecutive new tokens of one sequence and one KV head;
its rows are the ``BLOCK_Q x group`` (token, query head) pairs that share that KV head, so each
K/V tile is loaded once for the whole group (MQA/GQA). Tiles are numbered over the flat batch
without a host sync: sequence ``i``'s tiles start at ``cu_seqlens_q[i] // BLOCK_Q + i``, found by
binary search, and a launch of ``num_tokens // BLOCK_Q + num_seqs`` programs covers every tile.
The key loop is causal and, with a sliding window, starts at the window of the tile's first token.
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from kernels._paged_attention_common import LOG2E, attend_tile, load_kv_tile
from kernels._triton_utils import check_attention_args, check_tensor, dot_dtype, next_pow2


@triton.jit
def _find_sequence(cu_seqlens_q_ptr, num_seqs, pid, BLOCK_Q: tl.constexpr):
    """Largest ``i`` with ``cu_seqlens_q[i] // BLOCK_Q + i <= pid``."""
    lo = 0
    hi = num_seqs
    while lo < hi:
        mid = (lo + hi) // 2
        tile_start = tl.load(cu_seqlens_q_ptr + mid).to(tl.int32) // BLOCK_Q + mid
        if tile_start <= pid:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1


@triton.jit
def _prefill_kernel(q_ptr, k_cache_ptr, v_cache_ptr, cu_seqlens_q_ptr, context_lens_ptr, block_tables_ptr,
                    out_ptr, qk_scale, window, num_seqs,
                    stride_qt, stride_qh, stride_kb, stride_kt, stride_kh, stride_vb, stride_vt, stride_vh,
                    stride_bt_row, stride_bt_col, stride_ot, stride_oh,
                    GROUP: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_SIZE: tl.constexpr,
                    HAS_WINDOW: tl.constexpr, DOT_DTYPE: tl.constexpr, BLOCK_Q: tl.constexpr,
                    BLOCK_G: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    kv_head = tl.program_id(1)
    seq = _find_sequence(cu_seqlens_q_ptr, num_seqs, pid, BLOCK_Q)
    q_start = tl.load(cu_seqlens_q_ptr + seq).to(tl.int32)
    q_len = tl.load(cu_seqlens_q_ptr + seq + 1).to(tl.int32) - q_start
    ctx = tl.load(context_lens_ptr + seq).to(tl.int32)
    tok0 = (pid - (q_start // BLOCK_Q + seq)) * BLOCK_Q  # first new token of this tile, local to the sequence
    first_pos = ctx - q_len  # position of the sequence's first new token

    offs_m = tl.arange(0, BLOCK_Q * BLOCK_G)
    offs_d = tl.arange(0, BLOCK_D)
    offs_n = tl.arange(0, BLOCK_N)
    tok = tok0 + offs_m // BLOCK_G
    g = offs_m % BLOCK_G
    row_ok = (tok < q_len) & (g < GROUP)
    d_mask = offs_d < HEAD_DIM
    heads = kv_head * GROUP + g
    rows = (q_start + tok).to(tl.int64)
    q_pos = first_pos + tok
    q = tl.load(q_ptr + rows[:, None] * stride_qt + heads[:, None] * stride_qh + offs_d[None, :],
                mask=row_ok[:, None] & d_mask[None, :], other=0.0)

    kv_lo = tl.maximum(first_pos + tok0 - window + 1, 0) if HAS_WINDOW else 0
    kv_hi = tl.where(tok0 < q_len, first_pos + tl.minimum(tok0 + BLOCK_Q, q_len), 0)  # exclusive
    m_i = tl.full((BLOCK_Q * BLOCK_G,), float("-inf"), tl.float32)
    l_i = tl.zeros((BLOCK_Q * BLOCK_G,), tl.float32)
    acc = tl.zeros((BLOCK_Q * BLOCK_G, BLOCK_D), tl.float32)
    table_row = block_tables_ptr + seq.to(tl.int64) * stride_bt_row
    for tile_start in range((kv_lo // BLOCK_N) * BLOCK_N, kv_hi, BLOCK_N):
        pos = tile_start + offs_n
        in_range = (pos >= kv_lo) & (pos < kv_hi)
        k, v, ok = load_kv_tile(k_cache_ptr, v_cache_ptr, table_row, stride_bt_col, pos, in_range, kv_head,
                                stride_kb, stride_kt, stride_kh, stride_vb, stride_vt, stride_vh,
                                offs_d, d_mask, BLOCK_SIZE)
        allowed = ok[None, :] & (pos[None, :] <= q_pos[:, None])
        if HAS_WINDOW:
            allowed = allowed & (pos[None, :] > q_pos[:, None] - window)
        m_i, l_i, acc = attend_tile(q, k, v, allowed, m_i, l_i, acc, qk_scale, DOT_DTYPE)

    out = acc / tl.where(l_i == 0.0, 1.0, l_i)[:, None]
    out_ptrs = out_ptr + rows[:, None] * stride_ot + heads[:, None] * stride_oh + offs_d[None, :]
    tl.store(out_ptrs, out.to(out_ptr.dtype.element_ty), mask=row_ok[:, None] & d_mask[None, :])


def prefill_tile_sizes(group: int, head_dim: int) -> tuple[int, int, int]:
    """``(BLOCK_Q, BLOCK_G, BLOCK_N)``: about 64 (32 for head_dim > 128) query rows per tile."""
    block_g = next_pow2(group)
    block_m = 64 if head_dim <= 128 else 32
    block_q = max(1, block_m // block_g)
    return block_q, block_g, (64 if head_dim <= 128 else 32)


def paged_prefill_attention(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                            cu_seqlens_q: torch.Tensor, context_lens: torch.Tensor,
                            block_tables: torch.Tensor, scale: float,
                            sliding_window: int | None = None) -> torch.Tensor:
    """Causal attention of the new tokens ``q`` ``[num_tokens, num_heads, head_dim]`` of a flat batch
    through the paged cache; same contract as ``paged_prefill_attention_ref``."""
    check_tensor("cu_seqlens_q", cu_seqlens_q, 1, (torch.int32, torch.int64), q.device)
    num_seqs = cu_seqlens_q.shape[0] - 1
    if num_seqs < 0:
        raise ValueError("cu_seqlens_q must hold num_seqs + 1 offsets, starting at 0")
    check_attention_args(q, k_cache, v_cache, block_tables, context_lens, num_seqs, sliding_window)
    num_tokens, num_heads, head_dim = q.shape
    block_size, num_kv_heads = k_cache.shape[1], k_cache.shape[2]
    group = num_heads // num_kv_heads
    out = torch.empty(q.shape, dtype=q.dtype, device=q.device)
    if num_seqs == 0 or num_tokens == 0:
        return out
    block_q, block_g, block_n = prefill_tile_sizes(group, head_dim)
    _prefill_kernel[(num_tokens // block_q + num_seqs, num_kv_heads)](
        q, k_cache, v_cache, cu_seqlens_q, context_lens, block_tables, out,
        float(scale) * LOG2E, int(sliding_window or 0), num_seqs,
        q.stride(0), q.stride(1), k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
        v_cache.stride(0), v_cache.stride(1), v_cache.stride(2),
        block_tables.stride(0), block_tables.stride(1), out.stride(0), out.stride(1),
        GROUP=group, HEAD_DIM=head_dim, BLOCK_SIZE=block_size, HAS_WINDOW=sliding_window is not None,
        DOT_DTYPE=dot_dtype(q.dtype), BLOCK_Q=block_q, BLOCK_G=block_g, BLOCK_D=next_pow2(head_dim),
        BLOCK_N=block_n,
    )
    return out
