"""Paged prefill attention for the CPU: the C++ kernel of `kernels.cpu_extension`, with the reference's contract.

The reference (`kernels.attention_ref.paged_prefill_attention_ref`) gathers each sequence's blocks and calls
PyTorch's attention, which blocks its work by the number of queries and keys: a token's last bits moved
with the way its prompt was cut into chunks, and chunks depend on the batch. The kernel
(``csrc/paged_prefill_attention_cpu.cpp``) reads the cache in place, in spans of absolute positions, with
every row's sums in a fixed order, so a row's result depends only on its position and the cache: the same
bits in one chunk or several, alone or batched.
"""
from __future__ import annotations

import torch

from kernels.attention_ref import paged_prefill_attention_ref
from kernels.paged_decode_attention_cpu import paged_attention_kernels


def paged_prefill_attention_cpu(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                                cu_seqlens_q: torch.Tensor, context_lens: torch.Tensor, block_tables: torch.Tensor,
                                scale: float, sliding_window: int | None = None) -> torch.Tensor:
    """Same contract as `paged_prefill_attention_ref`; inputs the kernel does not take go to the reference."""
    kernels = paged_attention_kernels(q, k_cache, block_tables, context_lens)
    if kernels is None:
        return paged_prefill_attention_ref(q, k_cache, v_cache, cu_seqlens_q, context_lens, block_tables, scale,
                                           sliding_window)
    q32 = q if q.dtype == torch.float32 and q.is_contiguous() else q.float().contiguous()
    out = kernels.paged_prefill_attention(q32, k_cache, v_cache, block_tables, cu_seqlens_q.to(torch.int32),
                                          context_lens, float(scale), int(sliding_window or 0))
    return out if q32 is q else out.to(q.dtype)
