"""Writing a step's K/V into the paged cache on the CPU: the C++ kernel of `kernels.cpu_extension`
(``csrc/store_kv_cpu.cpp``), with the reference's contract (`kernels.attention_ref.store_kv_ref`).

The reference converts K and V to the cache dtype and copies them with two ``index_copy_`` calls, after
checking the slots for skipped (-1) entries: about 5% of a one-sequence decode step went to those ops'
overhead. The kernel converts and copies in one call, with the same rounding, so the cache holds the same bits.
"""
from __future__ import annotations

import torch

from kernels import cpu_extension
from kernels.attention_ref import store_kv_ref

_CACHE_DTYPES = (torch.float32, torch.float16, torch.bfloat16)


def store_kv_cpu(k: torch.Tensor, v: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                 slot_mapping: torch.Tensor) -> None:
    """Same contract as `store_kv_ref`; inputs the kernel does not take go to the reference."""
    kernels = cpu_extension.load()
    if (kernels is None or not k.is_cpu or k.dtype != torch.float32 or v.dtype != torch.float32
            or k_cache.dtype not in _CACHE_DTYPES or not k_cache.is_contiguous() or not v_cache.is_contiguous()):
        store_kv_ref(k, v, k_cache, v_cache, slot_mapping)
        return
    kernels.store_kv(_rows_contiguous(k), _rows_contiguous(v), k_cache, v_cache, slot_mapping.contiguous())


def _rows_contiguous(x: torch.Tensor) -> torch.Tensor:
    """``x`` itself when each row is contiguous (V is a strided view of the fused QKV output), else a copy."""
    return x if x.stride(-1) == 1 and x.stride(-2) == x.shape[-1] else x.contiguous()
