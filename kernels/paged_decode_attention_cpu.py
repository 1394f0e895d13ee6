"""Paged decode attention for the CPU: the C++ kernel of `kernels.cpu_extension`, with the reference's contract.

The PyTorch reference (`kernels.attention_ref.paged_decode_attention_ref`) gathers every sequence's blocks
into a new tensor and converts it to fp32 before multiplying; at a batch of 16 sequences of ~400 tokens that
was about half of a decode step. The kernel (``csrc/paged_decode_attention_cpu.cpp``) reads each key and
value once, in place, one task per (sequence, KV head) pair (with fewer pairs than threads, one sequence's
spans and dimensions spread over the threads), with the prefill kernel's arithmetic
(``csrc/attention_span.h``): a sequence's row is the same bits alone or in any batch, and the same bits the
prefill kernel gives it, so n-gram drafts and recomputation after preemption change no token.
"""
from __future__ import annotations

import torch

from kernels import cpu_extension
from kernels.attention_ref import paged_decode_attention_ref


def paged_attention_kernels(q: torch.Tensor, k_cache: torch.Tensor, block_tables: torch.Tensor,
                            context_lens: torch.Tensor):
    """The C++ kernels module where it builds and the paged attention kernels take these inputs (CPU tensors,
    an fp32, fp16 or bf16 cache, int32 block tables and context lengths); None otherwise."""
    kernels = cpu_extension.load()
    if (kernels is None or not q.is_cpu or k_cache.dtype not in (torch.float32, torch.float16, torch.bfloat16)
            or block_tables.dtype != torch.int32 or context_lens.dtype != torch.int32):
        return None
    return kernels


def paged_decode_attention_cpu(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                               block_tables: torch.Tensor, context_lens: torch.Tensor, scale: float,
                               sliding_window: int | None = None) -> torch.Tensor:
    """Same contract as `paged_decode_attention_ref`; inputs the kernel does not take go to the reference."""
    kernels = paged_attention_kernels(q, k_cache, block_tables, context_lens)
    if kernels is None:
        return paged_decode_attention_ref(q, k_cache, v_cache, block_tables, context_lens, scale, sliding_window)
    q32 = q if q.dtype == torch.float32 and q.is_contiguous() else q.float().contiguous()
    out = kernels.paged_decode_attention(q32, k_cache, v_cache, block_tables, context_lens, float(scale),
                                         int(sliding_window or 0))
    return out if q32 is q else out.to(q.dtype)
