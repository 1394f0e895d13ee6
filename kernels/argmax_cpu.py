"""Greedy decoding's row-wise argmax for the CPU: the C++ kernel of `kernels.cpu_extension` (``csrc/argmax_cpu.cpp``).

The reference is ``logits.max(dim=-1).indices``: the first index of each row's maximum, NaN counting as the
maximum. For 16 rows of Gemma's 262,144-token vocabulary it took 1-3 ms of a decode step; the kernel reads
the logits once at memory speed, spread over the threads even for one row.

With a repetition penalty the reference copies the logits, applies `apply_repetition_penalty` and takes the
argmax (1 ms for 4 rows, 12 ms for 16); the kernel scores the seen tokens on their own and scans the rest in
place, leaving the logits unchanged.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import torch

from kernels import cpu_extension


def argmax_rows_ref(logits: torch.Tensor) -> torch.Tensor:
    """``[rows, vocab]`` to ``[rows]`` int64: the first index of each row's maximum."""
    return logits.max(dim=-1).indices


def argmax_rows_cpu(logits: torch.Tensor) -> torch.Tensor:
    """Same contract as `argmax_rows_ref`; inputs the kernel does not take go to the reference."""
    kernels = cpu_extension.load()
    if kernels is None or not logits.is_cpu or logits.dtype != torch.float32 or logits.dim() != 2:
        return argmax_rows_ref(logits)
    return kernels.argmax_rows(logits.contiguous())


def apply_repetition_penalty(
    logits: torch.Tensor, rows: Sequence[int], token_ids: Sequence[Sequence[int]], penalties: Sequence[float]
) -> None:
    """HF semantics, in place: for tokens seen in a row's ids, divide positive and multiply negative logits."""
    rows_with_ids = [(row, ids, penalty) for row, ids, penalty in zip(rows, token_ids, penalties) if len(ids)]
    if not rows_with_ids:
        return
    max_len = max(len(ids) for _, ids, _ in rows_with_ids)
    # Pad with each row's first id: a repeated index reads and writes the same value.
    padded = [list(ids) + [ids[0]] * (max_len - len(ids)) for _, ids, _ in rows_with_ids]
    ids = torch.tensor(padded, dtype=torch.long, device=logits.device)
    row_index = torch.tensor([row for row, _, _ in rows_with_ids], device=logits.device)[:, None]
    penalty = torch.tensor([p for _, _, p in rows_with_ids], dtype=logits.dtype, device=logits.device)[:, None]
    scores = logits[row_index, ids]
    logits[row_index, ids] = torch.where(scores < 0, scores * penalty, scores / penalty)


def argmax_rows_penalized_ref(logits: torch.Tensor, token_ids: Sequence[Sequence[int]],
                              penalties: Sequence[float]) -> torch.Tensor:
    """The argmax of each row after `apply_repetition_penalty` on its seen ids, on an fp32 copy."""
    penalized = logits.to(torch.float32, copy=True)
    apply_repetition_penalty(penalized, range(len(token_ids)), token_ids, penalties)
    return argmax_rows_ref(penalized)


def argmax_rows_penalized_cpu(logits: torch.Tensor, token_ids: Sequence[Sequence[int]],
                              penalties: Sequence[float]) -> torch.Tensor:
    """Same contract as `argmax_rows_penalized_ref`, without the copy; the logits are left unchanged."""
    kernels = cpu_extension.load()
    if kernels is None or not logits.is_cpu or logits.dtype != torch.float32 or logits.dim() != 2:
        return argmax_rows_penalized_ref(logits, token_ids, penalties)
    seen = [ids if penalty != 1.0 else () for ids, penalty in zip(token_ids, penalties)]  # 1.0 changes nothing
    offsets = [0]
    for ids in seen:
        offsets.append(offsets[-1] + len(ids))
    return kernels.argmax_rows_penalized(
        logits.contiguous(), torch.tensor(list(chain.from_iterable(seen)), dtype=torch.long),
        torch.tensor(offsets, dtype=torch.long), torch.tensor(list(penalties), dtype=torch.float32))
