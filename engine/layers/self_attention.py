"""Self-attention block: one fused QKV projection, optional Q/K norms, RoPE, paged attention, output."""
from __future__ import annotations

import torch
from torch import nn

from engine.layers.attention import AttentionMetadata, PagedAttention
from engine.layers.norm import RMSNorm
from engine.layers.ops import KernelOps


class SelfAttention(nn.Module):
    """K and V are projected once per KV head (one head for MQA) and are never expanded per query head."""

    def __init__(self, hidden_size: int, num_heads: int, num_kv_heads: int, head_dim: int, scale: float,
                 sliding_window: int | None, ops: KernelOps, *, qkv_bias: bool = False,
                 qk_norm_eps: float | None = None, norm_offset: float = 0.0) -> None:
        super().__init__()
        self.num_heads, self.num_kv_heads, self.head_dim = num_heads, num_kv_heads, head_dim
        self.q_size, self.kv_size = num_heads * head_dim, num_kv_heads * head_dim
        self.qkv_proj = nn.Linear(hidden_size, self.q_size + 2 * self.kv_size, bias=qkv_bias)
        self.o_proj = nn.Linear(self.q_size, hidden_size, bias=False)
        self.q_norm = self.k_norm = None
        if qk_norm_eps is not None:
            self.q_norm = RMSNorm(head_dim, qk_norm_eps, norm_offset, ops)
            self.k_norm = RMSNorm(head_dim, qk_norm_eps, norm_offset, ops)
        self.attn = PagedAttention(num_heads, num_kv_heads, head_dim, scale, sliding_window, ops)
        self.ops = ops

    def forward(self, x: torch.Tensor, rope: tuple[torch.Tensor, torch.Tensor], meta: AttentionMetadata) -> torch.Tensor:
        num_tokens = x.shape[0]
        norms = (None, None, 0.0)
        if self.q_norm is not None:
            norms = (self.q_norm.scale(), self.k_norm.scale(), self.q_norm.eps)
        q, k, v = self.ops.qk_norm_rope(self.qkv_proj(x).reshape(num_tokens, -1), self.num_heads, self.num_kv_heads,
                                        *norms, *rope)
        out = self.attn(q, k, v, meta)
        return self.o_proj(out.reshape(num_tokens, self.q_size))
