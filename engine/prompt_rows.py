"""Which rows of a step's flat batch hold prompt tokens: the int8 linears run those on AMX tiles where they can.

The model runner marks them around the model's forward (`mark_prompt_rows`), and `Int8Linear` reads the mark
(`current`). Whether a row is a prompt token depends only on its request, never on the batch around it, so a
request's output stays the same batched or alone, whatever chunks its prompt is prefilled in. Generated
tokens (decode, jump-forward chunks, recomputation after preemption) keep the VNNI kernel they were first
computed with. The LM head runs outside the mark: its rows are sampled tokens.
"""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

import torch

_state = threading.local()


class PromptRows(NamedTuple):
    """Rows ``[first, M)`` are the prompt rows when ``prompt`` is None; otherwise the two index lists."""

    first: int
    prompt: torch.Tensor | None = None  # int64 row indices of prompt tokens
    other: torch.Tensor | None = None  # int64 row indices of the rest


def plan(is_prompt: list[bool]) -> PromptRows | None:
    """The rows of each kind; None when no row is a prompt token."""
    first = next((i for i, flag in enumerate(is_prompt) if flag), None)
    if first is None:
        return None
    if all(is_prompt[first:]):
        return PromptRows(first)
    flags = torch.tensor(is_prompt)
    return PromptRows(first, flags.nonzero().flatten(), (~flags).nonzero().flatten())


@contextmanager
def mark_prompt_rows(is_prompt: list[bool]) -> Iterator[None]:
    """Within the block (on this thread), `current` describes the prompt rows of ``is_prompt``."""
    previous = getattr(_state, "rows", None)
    _state.rows = plan(is_prompt)
    try:
        yield
    finally:
        _state.rows = previous


def current() -> PromptRows | None:
    """The prompt rows of the forward running on this thread, or None (none, or not marked)."""
    return getattr(_state, "rows", None)
