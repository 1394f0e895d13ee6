"""PyTorch reference for the attention block's per-head step: split the fused QKV projection, RMSNorm the
query and key heads (optional, Gemma's Q/K norms), and rotate them by RoPE."""
from __future__ import annotations

from collections.abc import Callable

import torch

from kernels.rms_norm_ref import rms_norm_ref


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotate ``x`` ``[num_tokens, num_heads, head_dim]`` by per-token angles; ``cos`` and the sign-folded
    ``sin`` are ``[num_tokens, 1, head_dim]`` (from `engine.layers.rotary.rope_cos_sin`)."""
    half = x.shape[-1] // 2
    if x.dtype == torch.float32:
        return x * cos + x.roll(half, -1) * sin
    xf = x.float()
    return (xf * cos + xf.roll(half, -1) * sin).to(x.dtype)


def qk_norm_rope_ref(qkv: torch.Tensor, num_heads: int, num_kv_heads: int, q_scale: torch.Tensor | None,
                     k_scale: torch.Tensor | None, eps: float, cos: torch.Tensor, sin: torch.Tensor,
                     rms_norm: Callable = rms_norm_ref):
    """``qkv`` ``[T, (H + 2 * KVH) * D]`` to ``(q [T, H, D], k [T, KVH, D], v [T, KVH, D])``: q and k normed with
    their scales (``weight_offset + weight``, already in fp32; None for no norm) and rotated; v as projected.
    ``rms_norm`` (the reference's signature) lets a backend keep its own norm kernel, such as Triton's."""
    head_dim = qkv.shape[-1] // (num_heads + 2 * num_kv_heads)
    q_size, kv_size = num_heads * head_dim, num_kv_heads * head_dim
    q, k, v = qkv.split([q_size, kv_size, kv_size], dim=-1)
    num_tokens = qkv.shape[0]
    q = q.reshape(num_tokens, num_heads, head_dim)
    k = k.reshape(num_tokens, num_kv_heads, head_dim)
    v = v.reshape(num_tokens, num_kv_heads, head_dim)
    if q_scale is not None:
        q, k = rms_norm(q, q_scale, eps), rms_norm(k, k_scale, eps)
    return apply_rope(q, cos, sin), apply_rope(k, cos, sin), v
