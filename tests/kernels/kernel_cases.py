"""Shared builders for the kernel tests: device, tolerances, paged KV caches, naive dense attention."""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import pytest
import torch

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
DTYPES = (torch.float32, torch.float16, torch.bfloat16)
# (num_heads, num_kv_heads): MQA, GQA with 2 and 4 KV heads, MHA.
HEAD_LAYOUTS = ((4, 1), (4, 2), (8, 4), (4, 4))
HEAD_LAYOUT_IDS = ("mqa", "gqa2", "gqa4", "mha")
WINDOWS = (None, 10)
# Every head layout x block size 16/32 x dtype x full/sliding attention, as one parametrization.
def _case_id(name: str, block_size: int, dtype: torch.dtype, window: int | None) -> str:
    return f"{name}-bs{block_size}-{str(dtype).removeprefix('torch.')}-{f'w{window}' if window else 'full'}"


ATTENTION_CASES = pytest.mark.parametrize(
    "layout, block_size, dtype, window",
    [pytest.param(layout, block_size, dtype, window, id=_case_id(name, block_size, dtype, window))
     for (layout, name), block_size, dtype, window
     in itertools.product(zip(HEAD_LAYOUTS, HEAD_LAYOUT_IDS), (16, 32), DTYPES, WINDOWS)],
)
_TOLERANCES = {torch.float32: (2e-5, 1e-5), torch.float16: (2e-3, 2e-3), torch.bfloat16: (2e-2, 1.6e-2)}


def assert_close(actual: torch.Tensor, expected: torch.Tensor, dtype: torch.dtype | None = None,
                 scale: float = 1.0) -> None:
    """``torch.testing.assert_close`` with per-dtype tolerances (``scale`` widens them)."""
    atol, rtol = _TOLERANCES[dtype or expected.dtype]
    torch.testing.assert_close(actual.float(), expected.float(), atol=atol * scale, rtol=rtol * scale)


@dataclass
class PagedKV:
    """A paged cache holding ``keys[i]``/``values[i]`` (``[ctx_i, num_kv_heads, head_dim]``) per sequence."""

    k_cache: torch.Tensor
    v_cache: torch.Tensor
    block_tables: torch.Tensor
    context_lens: torch.Tensor
    keys: list[torch.Tensor]
    values: list[torch.Tensor]


def make_paged_kv(context_lens: list[int], num_kv_heads: int, head_dim: int, block_size: int,
                  dtype: torch.dtype, first_needed: list[int] | None = None, seed: int = 0) -> PagedKV:
    """Scatter random K/V into shuffled physical blocks with garbage in the unused ones.

    Table entries past the end are ``-1``, and so are blocks that end before ``first_needed[i]``
    (blocks that slid out of a window), so the kernels must never touch them.
    """
    gen = torch.Generator().manual_seed(seed)
    blocks_per_seq = [math.ceil(n / block_size) for n in context_lens]
    max_blocks = max(blocks_per_seq) + 1
    num_blocks = sum(blocks_per_seq) + 3
    shape = (num_blocks, block_size, num_kv_heads, head_dim)
    k_cache = (torch.randn(shape, generator=gen) * 100).to(dtype)  # garbage that would show if read
    v_cache = (torch.randn(shape, generator=gen) * 100).to(dtype)
    physical = torch.randperm(num_blocks, generator=gen).tolist()
    block_tables = torch.full((len(context_lens), max_blocks), -1, dtype=torch.int32)
    keys, values = [], []
    for i, ctx in enumerate(context_lens):
        k = torch.randn((ctx, num_kv_heads, head_dim), generator=gen).to(dtype)
        v = torch.randn((ctx, num_kv_heads, head_dim), generator=gen).to(dtype)
        keys.append(k)
        values.append(v)
        for b in range(blocks_per_seq[i]):
            block_id = physical.pop()
            lo, hi = b * block_size, min((b + 1) * block_size, ctx)
            k_cache[block_id, : hi - lo], v_cache[block_id, : hi - lo] = k[lo:hi], v[lo:hi]
            if first_needed is None or hi > first_needed[i]:
                block_tables[i, b] = block_id
    return PagedKV(k_cache.to(DEVICE), v_cache.to(DEVICE), block_tables.to(DEVICE),
                   torch.tensor(context_lens, dtype=torch.int32, device=DEVICE), keys, values)


def naive_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, q_positions: torch.Tensor, scale: float,
                    sliding_window: int | None = None) -> torch.Tensor:
    """Dense softmax(QK^T)V in float64 for one sequence: ``q`` ``[n, H, D]``, ``k``/``v`` ``[ctx, KVH, D]``;
    query at position p sees keys j with ``p - window < j <= p``."""
    group = q.shape[1] // k.shape[1]
    k = k.double().repeat_interleave(group, dim=1)
    v = v.double().repeat_interleave(group, dim=1)
    scores = torch.einsum("nhd,thd->hnt", q.double(), k) * scale
    key_pos = torch.arange(k.shape[0])
    p = q_positions.cpu()[:, None]
    allowed = key_pos[None, :] <= p
    if sliding_window is not None:
        allowed &= key_pos[None, :] > p - sliding_window
    probs = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    return torch.einsum("hnt,thd->nhd", probs, v)
