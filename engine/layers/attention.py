"""Paged attention: writes this step's K/V into the cache slots, then attends through block tables.

The batch is flat and unpadded: the first ``num_decode_seqs`` sequences contribute one token each
(decode path), the rest contribute prefill chunks (variable-length causal path); with the Triton backend the runner
makes every sequence a chunk (`KernelOps.decode_by_prefill`). Layers are
grouped by attention kind: full-attention layers and sliding-window layers have their own block
pools and block tables, so a sliding layer only ever holds a window's worth of blocks.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from engine.layers.ops import KernelOps


@dataclass
class KVGroupMetadata:
    """Slot mapping and block tables of one KV group (``full`` or ``sliding``)."""

    slot_mapping: torch.Tensor  # [num_tokens] int64, -1 = do not store
    block_tables: torch.Tensor  # [num_seqs, max_blocks] int32, -1 = absent


@dataclass
class AttentionMetadata:
    """Per-forward state shared by every attention layer of one step."""

    num_decode_seqs: int
    num_decode_tokens: int
    cu_seqlens_q: torch.Tensor  # [num_prefill_seqs + 1] int32, over the prefill part only
    context_lens: torch.Tensor  # [num_seqs] int32: cached + new tokens of each sequence
    groups: dict[str, KVGroupMetadata]


class PagedAttention(nn.Module):
    """Attention of one layer over its paged KV cache; K/V keep ``num_kv_heads`` heads (1 for MQA)."""

    def __init__(self, num_heads: int, num_kv_heads: int, head_dim: int, scale: float,
                 sliding_window: int | None, ops: KernelOps) -> None:
        super().__init__()
        self.num_heads, self.num_kv_heads, self.head_dim = num_heads, num_kv_heads, head_dim
        self.scale = scale
        self.sliding_window = sliding_window
        self.group = "sliding" if sliding_window else "full"
        self.ops = ops
        self.k_cache = torch.empty(0)
        self.v_cache = torch.empty(0)

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, meta: AttentionMetadata) -> torch.Tensor:
        """``q`` ``[T, H, D]``, ``k``/``v`` ``[T, KVH, D]`` to ``[T, H, D]``."""
        group = meta.groups[self.group]
        self.ops.store_kv(k, v, self.k_cache, self.v_cache, group.slot_mapping)
        nd, ntok = meta.num_decode_seqs, meta.num_decode_tokens
        if ntok == q.shape[0]:
            return self.ops.paged_decode_attention(q, self.k_cache, self.v_cache, group.block_tables,
                                                   meta.context_lens, self.scale, self.sliding_window)
        if not ntok:
            return self.ops.paged_prefill_attention(q, self.k_cache, self.v_cache, meta.cu_seqlens_q, meta.context_lens,
                                                    group.block_tables, self.scale, self.sliding_window)
        out = torch.empty_like(q)
        if nd:
            out[:ntok] = self.ops.paged_decode_attention(
                q[:ntok], self.k_cache, self.v_cache, group.block_tables[:nd], meta.context_lens[:nd],
                self.scale, self.sliding_window)
        out[ntok:] = self.ops.paged_prefill_attention(
            q[ntok:], self.k_cache, self.v_cache, meta.cu_seqlens_q, meta.context_lens[nd:],
            group.block_tables[nd:], self.scale, self.sliding_window)
        return out
