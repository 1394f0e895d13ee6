"""Helpers shared by the Triton wrappers: dtype mapping, argument checks.

Imported only by the Triton kernel modules, so it may import ``triton`` at module level.
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl
from triton import knobs

FLOAT_DTYPES = (torch.float16, torch.bfloat16, torch.float32)
_TL_DTYPES = {torch.float16: tl.float16, torch.bfloat16: tl.bfloat16, torch.float32: tl.float32}


def is_interpreting() -> bool:
    """True under ``TRITON_INTERPRET=1`` (kernels run on the CPU through numpy)."""
    return bool(knobs.runtime.interpret)


def tl_dtype(dtype: torch.dtype):
    """The ``tl`` dtype of a floating torch dtype."""
    return _TL_DTYPES[dtype]


def dot_dtype(dtype: torch.dtype):
    """Operand dtype for ``tl.dot`` on tensors stored as ``dtype``.

    The interpreter multiplies bfloat16 bit patterns as integers (triton-lang/triton#11584), so
    bfloat16 operands are upcast to fp32 there; compiled kernels keep bfloat16 tensor-core dots.
    """
    if dtype == torch.bfloat16 and is_interpreting():
        return tl.float32
    return tl_dtype(dtype)


def next_pow2(n: int) -> int:
    """Smallest power of two >= ``n`` (and >= 1)."""
    return triton.next_power_of_2(max(int(n), 1))


def check_tensor(name: str, t: torch.Tensor, ndim: int, dtypes: tuple[torch.dtype, ...] | None = None,
                 device: torch.device | None = None, last_dim_contiguous: bool = True) -> None:
    """Raise ValueError unless ``t`` has ``ndim`` dims, one of ``dtypes``, sits on ``device`` and,
    when asked, has a unit stride in its last dim."""
    if not isinstance(t, torch.Tensor):
        raise ValueError(f"{name} must be a torch.Tensor, got {type(t).__name__}")
    if t.dim() != ndim:
        raise ValueError(f"{name} must have {ndim} dims, got shape {tuple(t.shape)}")
    if dtypes is not None and t.dtype not in dtypes:
        raise ValueError(f"{name} must have dtype in {[str(d) for d in dtypes]}, got {t.dtype}")
    if device is not None and t.device != device:
        raise ValueError(f"{name} is on {t.device}, expected {device}")
    if last_dim_contiguous and t.numel() > 0 and t.stride(-1) != 1:
        raise ValueError(f"{name} must be contiguous in its last dim, got strides {t.stride()}")


def check_shape(name: str, t: torch.Tensor, shape: tuple[int, ...]) -> None:
    """Raise ValueError unless ``t.shape == shape``."""
    if tuple(t.shape) != tuple(shape):
        raise ValueError(f"{name} must have shape {tuple(shape)}, got {tuple(t.shape)}")


def check_kv_cache(k_cache: torch.Tensor, v_cache: torch.Tensor, device: torch.device) -> None:
    """Both caches ``[num_blocks, block_size, num_kv_heads, head_dim]``, same shape and dtype."""
    check_tensor("k_cache", k_cache, 4, FLOAT_DTYPES, device)
    check_tensor("v_cache", v_cache, 4, FLOAT_DTYPES, device)
    check_shape("v_cache", v_cache, tuple(k_cache.shape))
    if v_cache.dtype != k_cache.dtype:
        raise ValueError(f"k_cache is {k_cache.dtype} but v_cache is {v_cache.dtype}")


def check_attention_args(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                         block_tables: torch.Tensor, context_lens: torch.Tensor, num_seqs: int,
                         sliding_window: int | None) -> None:
    """Shared checks of the paged attention wrappers; ``q`` is ``[*, num_heads, head_dim]``."""
    check_tensor("q", q, 3, FLOAT_DTYPES)
    check_kv_cache(k_cache, v_cache, q.device)
    if q.dtype != k_cache.dtype:
        raise ValueError(f"q is {q.dtype} but the KV cache is {k_cache.dtype}")
    num_heads, head_dim = q.shape[1], q.shape[2]
    num_kv_heads = k_cache.shape[2]
    if k_cache.shape[3] != head_dim:
        raise ValueError(f"q head_dim {head_dim} != cache head_dim {k_cache.shape[3]}")
    if num_kv_heads == 0 or num_heads % num_kv_heads:
        raise ValueError(f"num_heads={num_heads} is not a multiple of num_kv_heads={num_kv_heads}")
    check_tensor("block_tables", block_tables, 2, (torch.int32,), q.device, last_dim_contiguous=False)
    check_tensor("context_lens", context_lens, 1, (torch.int32, torch.int64), q.device)
    if block_tables.shape[0] != num_seqs or context_lens.shape[0] != num_seqs:
        raise ValueError(f"block_tables {tuple(block_tables.shape)} and context_lens "
                         f"{tuple(context_lens.shape)} must have {num_seqs} rows")
    if sliding_window is not None and sliding_window < 1:
        raise ValueError(f"sliding_window must be >= 1 or None, got {sliding_window}")
