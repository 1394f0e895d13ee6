"""PyTorch references for the paged KV cache: slot writes, decode and prefill attention.

These are also the engine's CPU attention backend, so they are vectorised rather than
looped per token. Layout (one layer): ``k_cache``/``v_cache`` are
``[num_blocks, block_size, num_kv_heads, head_dim]``; a block table row lists a sequence's
physical block ids in logical order, with ``-1`` for blocks that are absent (slid out of a
sliding window, or past the end). Query heads ``h`` read KV head ``h // (num_heads // num_kv_heads)``,
so with MQA (one KV head) every block is read once for all query heads and never expanded.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F


def store_kv_ref(k: torch.Tensor, v: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                 slot_mapping: torch.Tensor) -> None:
    """Write ``k``/``v`` ``[num_tokens, num_kv_heads, head_dim]`` into flat slots; slots < 0 are skipped."""
    num_kv_heads, head_dim = k_cache.shape[2], k_cache.shape[3]
    slots, keep = _STEP_CACHE.get((slot_mapping,), (), lambda: _store_plan(slot_mapping))
    if keep is not None:
        k, v = k[keep], v[keep]
    k_cache.view(-1, num_kv_heads, head_dim).index_copy_(0, slots, k.to(k_cache.dtype))
    v_cache.view(-1, num_kv_heads, head_dim).index_copy_(0, slots, v.to(v_cache.dtype))


def _store_plan(slot_mapping: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor | None]:
    """int64 slots to write (index_copy_ needs int64) and the rows to keep, or None when every slot is >= 0."""
    slots = slot_mapping.long()
    if bool((slots < 0).any()):
        keep = slots >= 0
        return slots[keep], keep
    return slots, None


def _gather_blocks(cache: torch.Tensor, block_ids: torch.Tensor) -> torch.Tensor:
    """``[..., n]`` int64 block ids, ``-1`` (absent) clamped to 0 by the caller, to
    ``[..., n * block_size, num_kv_heads, head_dim]``."""
    num_blocks, block_size, num_kv_heads, head_dim = cache.shape
    rows = cache.view(num_blocks, -1).index_select(0, block_ids.flatten())  # 4x faster than cache[ids]
    return rows.view(*block_ids.shape[:-1], block_ids.shape[-1] * block_size, num_kv_heads, head_dim)


class _StepCache:
    """Values derived from one step's metadata tensors, which are the same for every layer of the step
    (slot checks, decode block ids and masks): computed by the first layer, reused by the others.

    Keyed by the tensors' storage and shape; an entry holds the tensors themselves, so a key cannot be
    reused by a new tensor while the entry exists. The tensors must not be modified in place after a call.
    """

    def __init__(self, max_entries: int = 16) -> None:
        self._entries: dict[tuple, tuple] = {}
        self._max_entries = max_entries

    def get(self, tensors: tuple[torch.Tensor, ...], extra: tuple, compute):
        key = tuple((t.data_ptr(), tuple(t.shape), t.device) for t in tensors) + extra
        hit = self._entries.get(key)
        if hit is None:
            if len(self._entries) >= self._max_entries:
                self._entries.clear()
            hit = self._entries[key] = (tensors, compute())
        return hit[1]


_STEP_CACHE = _StepCache()


def _decode_plan(block_tables: torch.Tensor, context_lens: torch.Tensor, block_size: int,
                 sliding_window: int | None) -> tuple[torch.Tensor, torch.Tensor]:
    """Physical block ids ``[S, n]`` to gather, and an additive mask ``[S, 1, n * block_size]``."""
    num_seqs, max_blocks = block_tables.shape
    ctx = context_lens.to(torch.long)
    if sliding_window is not None:
        num_window_blocks = min(max_blocks, -(-sliding_window // block_size) + 1)
        first_block = ((ctx - sliding_window).clamp(min=0) // block_size).clamp(max=max_blocks - num_window_blocks)
        logical = first_block[:, None] + torch.arange(num_window_blocks, device=ctx.device)
    else:
        num_ctx_blocks = int(-(-int(ctx.max()) // block_size))
        logical = torch.arange(num_ctx_blocks, device=ctx.device).expand(num_seqs, -1)
    block_ids = block_tables.to(torch.long).gather(1, logical).clamp(min=0)
    positions = (logical[:, :, None] * block_size + torch.arange(block_size, device=ctx.device)).flatten(1)
    valid = positions < ctx[:, None]
    if sliding_window is not None:
        valid &= positions >= (ctx - sliding_window)[:, None]
    return block_ids, torch.zeros(valid.shape, device=ctx.device).masked_fill_(~valid, float("-inf"))[:, None, :]


def paged_decode_attention_ref(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                               block_tables: torch.Tensor, context_lens: torch.Tensor, scale: float,
                               sliding_window: int | None = None) -> torch.Tensor:
    """One query token per sequence. ``q`` ``[num_seqs, num_heads, head_dim]`` at position
    ``context_lens - 1``; keys at positions ``[max(0, ctx - window), ctx)``. Returns q's shape."""
    num_seqs, num_heads, head_dim = q.shape
    block_size, num_kv_heads = k_cache.shape[1], k_cache.shape[2]
    group = num_heads // num_kv_heads
    block_ids, bias = _STEP_CACHE.get((block_tables, context_lens), (block_size, sliding_window),
                                      lambda: _decode_plan(block_tables, context_lens, block_size, sliding_window))
    keys = _gather_blocks(k_cache, block_ids)  # [S, T, KVH, D]
    values = _gather_blocks(v_cache, block_ids)
    # Batched matmuls over (seq, KV head) pairs, each [G, D] queries against [T, D] keys: with MQA the
    # gathered keys are already in that layout (no copy), and the scale and mask ride on baddbmm.
    num_keys = keys.shape[1]
    batch = num_seqs * num_kv_heads
    qb = q.reshape(batch, group, head_dim).float()
    kb = keys.float().permute(0, 2, 1, 3).reshape(batch, num_keys, head_dim)
    vb = values.float().permute(0, 2, 1, 3).reshape(batch, num_keys, head_dim)
    mask = bias.expand(num_seqs, num_kv_heads, num_keys).reshape(batch, 1, num_keys)
    probs = torch.softmax(torch.baddbmm(mask, qb, kb.transpose(1, 2), alpha=scale), dim=-1)
    return torch.bmm(probs, vb).view(num_seqs, num_heads, head_dim).to(q.dtype)


def paged_prefill_attention_ref(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                                cu_seqlens_q: torch.Tensor, context_lens: torch.Tensor,
                                block_tables: torch.Tensor, scale: float,
                                sliding_window: int | None = None) -> torch.Tensor:
    """Causal attention for a flat, unpadded batch of new tokens ``q`` ``[num_tokens, num_heads, head_dim]``.

    Sequence ``i`` owns rows ``cu_seqlens_q[i]:cu_seqlens_q[i+1]``, which sit at the last positions
    of its ``context_lens[i]`` tokens; its earlier tokens (a cached prefix or earlier chunks) are
    read from the cache through ``block_tables[i]``. The new tokens' K/V must already be stored.
    """
    num_heads, head_dim = q.shape[1], q.shape[2]
    block_size, num_kv_heads = k_cache.shape[1], k_cache.shape[2]
    group = num_heads // num_kv_heads
    dtype = q.dtype if q.dtype != torch.float16 or q.is_cuda else torch.float32
    plan = _STEP_CACHE.get((cu_seqlens_q, context_lens, block_tables), (block_size, sliding_window, group, dtype),
                           lambda: _prefill_plan(cu_seqlens_q, context_lens, block_tables, block_size, sliding_window,
                                                 group, dtype))
    out = torch.empty_like(q)
    for lo, hi, block_ids, mask in plan:
        num_new = hi - lo
        keys = _gather_blocks(k_cache, block_ids)  # [T, KVH, D]
        values = _gather_blocks(v_cache, block_ids)
        # [KVH, new*G, D] queries against [KVH, T, D] keys: K/V are never expanded per query head.
        qi = q[lo:hi].view(num_new, num_kv_heads, group, head_dim).permute(1, 0, 2, 3)
        qi = qi.reshape(1, num_kv_heads, num_new * group, head_dim)
        o = F.scaled_dot_product_attention(
            qi.to(dtype), keys.permute(1, 0, 2)[None].to(dtype), values.permute(1, 0, 2)[None].to(dtype),
            attn_mask=mask, scale=scale,
        )
        o = o.view(num_kv_heads, num_new, group, head_dim).permute(1, 0, 2, 3)
        out[lo:hi] = o.reshape(num_new, num_heads, head_dim).to(q.dtype)
    return out


def _prefill_plan(cu_seqlens_q: torch.Tensor, context_lens: torch.Tensor, block_tables: torch.Tensor,
                  block_size: int, sliding_window: int | None, group: int, dtype: torch.dtype) -> list[tuple]:
    """Per sequence with new tokens: its query rows ``lo:hi``, the physical blocks to gather and the additive
    causal (and window) mask ``[new * group, T]`` in ``dtype``; the same for every layer of one step."""
    plan = []
    device = block_tables.device
    starts = cu_seqlens_q.tolist()
    for i, ctx in enumerate(context_lens.tolist()):
        lo, hi = starts[i], starts[i + 1]
        num_new = hi - lo
        if num_new == 0:
            continue
        first_key = 0 if sliding_window is None else max(0, ctx - num_new - sliding_window + 1)
        first_block, last_block = first_key // block_size, (ctx - 1) // block_size
        block_ids = block_tables[i, first_block:last_block + 1].to(torch.long).clamp(min=0)
        key_pos = first_block * block_size + torch.arange((last_block + 1 - first_block) * block_size, device=device)
        query_pos = ctx - num_new + torch.arange(num_new, device=device)
        allowed = key_pos[None, :] <= query_pos[:, None]
        if sliding_window is not None:
            allowed &= key_pos[None, :] > query_pos[:, None] - sliding_window
        mask = torch.zeros(allowed.shape, dtype=dtype, device=device).masked_fill_(~allowed, float("-inf"))
        plan.append((lo, hi, block_ids, mask.repeat_interleave(group, dim=0)))
    return plan
