"""Triton paged decode attention: MQA/GQA-aware, split-K (flash-decoding), sliding windows.

Same semantics as ``paged_decode_attention_ref``. A program owns one (sequence, KV head, split):
it loads the ``group = num_heads // num_kv_heads`` query heads that share the KV head as the rows
of one tile, so every K/V block is read from memory once for all of them.

Bytes read per decode step (one layer): ``num_seqs * ctx * num_kv_heads * head_dim * 2 (K and V)
* elem_bytes`` plus a negligible query/table read, where ``ctx`` is the context length, or the
window for sliding layers. MHA reads ``num_heads / num_kv_heads`` times more: for Gemma 3 270M
(4 query heads, 1 KV head, head_dim 256, bf16) that is 1 KiB per cached token against 4 KiB.

Long contexts are cut into splits (flash-decoding) handled by separate programs that write an
unnormalised partial output, its running max and sum; a second kernel merges them (log-sum-exp),
adding the splits one after another. A sequence's splits depend only on its own context, about
``KEYS_PER_SPLIT`` keys each and at most ``MAX_SPLITS``: never on the batch's size or other
sequences' lengths, so a row gets the same bits alone and batched (batch invariance). When no
sequence of the batch needs a second split, the first kernel writes the output directly; a
one-split sequence gets the same bits through either path.
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from kernels._paged_attention_common import LOG2E, attend_tile, load_kv_tile
from kernels._triton_utils import check_attention_args, dot_dtype, next_pow2

KEYS_PER_SPLIT = 256
MAX_SPLITS = 32


@triton.jit
def _sequence_splits(ctx, window, HAS_WINDOW: tl.constexpr, BLOCK_N: tl.constexpr,
                     TILES_PER_SPLIT: tl.constexpr, MAX_SPLITS: tl.constexpr):
    """``(start, first_tile, num_tiles, num_splits, tiles_per_split)`` of one sequence, from its context alone
    (``start``: its first key position in the window)."""
    start = tl.maximum(ctx - window, 0) if HAS_WINDOW else 0
    first_tile = start // BLOCK_N
    num_tiles = tl.cdiv(ctx, BLOCK_N) - first_tile
    num_splits = tl.maximum(tl.minimum(tl.cdiv(num_tiles, TILES_PER_SPLIT), MAX_SPLITS), 1)
    return start, first_tile, num_tiles, num_splits, tl.cdiv(num_tiles, num_splits)


@triton.jit
def _decode_kernel(q_ptr, k_cache_ptr, v_cache_ptr, block_tables_ptr, context_lens_ptr,
                   out_ptr, part_acc_ptr, part_max_ptr, part_sum_ptr, qk_scale, window,
                   stride_qs, stride_qh, stride_kb, stride_kt, stride_kh, stride_vb, stride_vt, stride_vh,
                   stride_bt_row, stride_bt_col, stride_os, stride_oh,
                   GROUP: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_SIZE: tl.constexpr,
                   NUM_SPLITS: tl.constexpr, TILES_PER_SPLIT: tl.constexpr, MAX_SPLITS: tl.constexpr,
                   HAS_WINDOW: tl.constexpr, DOT_DTYPE: tl.constexpr,
                   BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_N: tl.constexpr):
    seq = tl.program_id(0).to(tl.int64)
    kv_head = tl.program_id(1)
    split = tl.program_id(2)
    ctx = tl.load(context_lens_ptr + seq).to(tl.int32)
    start, first_tile, num_tiles, _, tiles_per_split = _sequence_splits(ctx, window, HAS_WINDOW, BLOCK_N,
                                                                        TILES_PER_SPLIT, MAX_SPLITS)
    tile_lo = first_tile + split * tiles_per_split  # past the sequence's last split: no tiles, nothing read
    tile_hi = tl.minimum(tile_lo + tiles_per_split, first_tile + num_tiles)

    offs_h = tl.arange(0, BLOCK_H)
    offs_d = tl.arange(0, BLOCK_D)
    offs_n = tl.arange(0, BLOCK_N)
    h_mask, d_mask = offs_h < GROUP, offs_d < HEAD_DIM
    heads = kv_head * GROUP + offs_h
    q = tl.load(q_ptr + seq * stride_qs + heads[:, None] * stride_qh + offs_d[None, :],
                mask=h_mask[:, None] & d_mask[None, :], other=0.0)
    m_i = tl.full((BLOCK_H,), float("-inf"), tl.float32)
    l_i = tl.zeros((BLOCK_H,), tl.float32)
    acc = tl.zeros((BLOCK_H, BLOCK_D), tl.float32)
    table_row = block_tables_ptr + seq * stride_bt_row
    for tile in range(tile_lo, tile_hi):
        pos = tile * BLOCK_N + offs_n
        in_range = (pos >= start) & (pos < ctx)
        k, v, ok = load_kv_tile(k_cache_ptr, v_cache_ptr, table_row, stride_bt_col, pos, in_range, kv_head,
                                stride_kb, stride_kt, stride_kh, stride_vb, stride_vt, stride_vh,
                                offs_d, d_mask, BLOCK_SIZE)
        m_i, l_i, acc = attend_tile(q, k, v, ok[None, :], m_i, l_i, acc, qk_scale, DOT_DTYPE)

    if NUM_SPLITS == 1:
        out = acc / tl.where(l_i == 0.0, 1.0, l_i)[:, None]
        out_ptrs = out_ptr + seq * stride_os + heads[:, None] * stride_oh + offs_d[None, :]
        tl.store(out_ptrs, out.to(out_ptr.dtype.element_ty), mask=h_mask[:, None] & d_mask[None, :])
    else:
        row = (seq * (tl.num_programs(1) * GROUP) + heads) * NUM_SPLITS + split  # [seq, head, split]
        tl.store(part_max_ptr + row, m_i, mask=h_mask)
        tl.store(part_sum_ptr + row, l_i, mask=h_mask)
        tl.store(part_acc_ptr + row[:, None] * HEAD_DIM + offs_d[None, :], acc, mask=h_mask[:, None] & d_mask[None, :])


@triton.jit
def _reduce_splits_kernel(part_acc_ptr, part_max_ptr, part_sum_ptr, context_lens_ptr, out_ptr, window,
                          stride_os, stride_oh, HEAD_DIM: tl.constexpr, NUM_SPLITS: tl.constexpr,
                          TILES_PER_SPLIT: tl.constexpr, MAX_SPLITS: tl.constexpr, HAS_WINDOW: tl.constexpr,
                          BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    seq = tl.program_id(0).to(tl.int64)
    head = tl.program_id(1)
    ctx = tl.load(context_lens_ptr + seq).to(tl.int32)
    _, _, _, num_splits, _ = _sequence_splits(ctx, window, HAS_WINDOW, BLOCK_N, TILES_PER_SPLIT, MAX_SPLITS)
    offs_d = tl.arange(0, BLOCK_D)
    d_mask = offs_d < HEAD_DIM
    first_row = (seq * tl.num_programs(1) + head) * NUM_SPLITS
    m_max = tl.load(part_max_ptr + first_row)
    for split in range(1, num_splits):
        m_max = tl.maximum(m_max, tl.load(part_max_ptr + first_row + split))
    acc = tl.zeros((BLOCK_D,), tl.float32)
    l_sum = 0.0
    for split in range(0, num_splits):  # in order: the sums never depend on the grid
        m = tl.load(part_max_ptr + first_row + split)
        weight = tl.where(m == m_max, 1.0, tl.exp2(m - m_max))  # exactly 1 for a sequence's only split
        acc += weight * tl.load(part_acc_ptr + (first_row + split) * HEAD_DIM + offs_d, mask=d_mask, other=0.0)
        l_sum += weight * tl.load(part_sum_ptr + first_row + split)
    out = acc / tl.where(l_sum == 0.0, 1.0, l_sum)
    tl.store(out_ptr + seq * stride_os + head * stride_oh + offs_d, out.to(out_ptr.dtype.element_ty), mask=d_mask)


def default_block_n(head_dim: int) -> int:
    """Key positions per inner-loop tile: 64, or 32 for head_dim > 128 to bound registers."""
    return 64 if head_dim <= 128 else 32


def grid_splits(max_tiles: int, tiles_per_split: int, max_splits: int = MAX_SPLITS) -> int:
    """Programs per (sequence, KV head) that cover the longest possible sequence's splits (from shapes,
    no host sync); shorter sequences' extra programs read nothing."""
    return int(max(min(triton.cdiv(max_tiles, tiles_per_split), max_splits), 1))


def paged_decode_attention_with_splits(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                                       block_tables: torch.Tensor, context_lens: torch.Tensor, scale: float,
                                       sliding_window: int | None, tiles_per_split: int | None = None,
                                       block_n: int | None = None, max_splits: int = MAX_SPLITS) -> torch.Tensor:
    """``paged_decode_attention`` with explicit split sizes (``tiles_per_split`` tiles of ``block_n`` keys, at
    most ``max_splits``) for tests and benchmarks."""
    num_seqs = q.shape[0] if q.dim() == 3 else -1
    check_attention_args(q, k_cache, v_cache, block_tables, context_lens, num_seqs, sliding_window)
    num_heads, head_dim = q.shape[1], q.shape[2]
    block_size, num_kv_heads = k_cache.shape[1], k_cache.shape[2]
    group = num_heads // num_kv_heads
    block_n = block_n or default_block_n(head_dim)
    tiles_per_split = tiles_per_split or max(KEYS_PER_SPLIT // block_n, 1)
    if tiles_per_split < 1 or max_splits < 1:
        raise ValueError(f"tiles_per_split and max_splits must be >= 1, got {tiles_per_split}, {max_splits}")
    out = torch.empty(q.shape, dtype=q.dtype, device=q.device)
    if num_seqs == 0:
        return out
    max_tokens = block_tables.shape[1] * block_size
    if sliding_window is not None:
        max_tokens = min(max_tokens, sliding_window + block_n)
    num_splits = grid_splits(triton.cdiv(max_tokens, block_n), tiles_per_split, max_splits)
    part_acc = part_max = part_sum = out  # unused with one split
    if num_splits > 1:
        part_shape = (num_seqs, num_heads, num_splits)
        part_acc = torch.empty((*part_shape, head_dim), dtype=torch.float32, device=q.device)
        part_max = torch.empty(part_shape, dtype=torch.float32, device=q.device)
        part_sum = torch.empty(part_shape, dtype=torch.float32, device=q.device)
    block_d = next_pow2(head_dim)
    window = int(sliding_window or 0)
    splits = dict(NUM_SPLITS=num_splits, TILES_PER_SPLIT=tiles_per_split, MAX_SPLITS=max_splits,
                  HAS_WINDOW=sliding_window is not None, BLOCK_N=block_n, BLOCK_D=block_d)
    _decode_kernel[(num_seqs, num_kv_heads, num_splits)](
        q, k_cache, v_cache, block_tables, context_lens, out, part_acc, part_max, part_sum,
        float(scale) * LOG2E, window,
        q.stride(0), q.stride(1), k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
        v_cache.stride(0), v_cache.stride(1), v_cache.stride(2),
        block_tables.stride(0), block_tables.stride(1), out.stride(0), out.stride(1),
        GROUP=group, HEAD_DIM=head_dim, BLOCK_SIZE=block_size, DOT_DTYPE=dot_dtype(q.dtype),
        BLOCK_H=max(16, next_pow2(group)), **splits,
    )
    if num_splits > 1:
        _reduce_splits_kernel[(num_seqs, num_heads)](
            part_acc, part_max, part_sum, context_lens, out, window, out.stride(0), out.stride(1),
            HEAD_DIM=head_dim, **splits,
        )
    return out


def paged_decode_attention(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                           block_tables: torch.Tensor, context_lens: torch.Tensor, scale: float,
                           sliding_window: int | None = None) -> torch.Tensor:
    """Attention of one query token per sequence (``q`` ``[num_seqs, num_heads, head_dim]``) through the
    paged cache, split-K past ``KEYS_PER_SPLIT`` keys; same contract as ``paged_decode_attention_ref``."""
    return paged_decode_attention_with_splits(q, k_cache, v_cache, block_tables, context_lens, scale,
                                              sliding_window)
