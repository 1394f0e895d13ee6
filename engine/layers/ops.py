"""Picks the kernel implementations: Triton on CUDA; on the CPU the C++ kernels and PyTorch references."""
from __future__ import annotations

from functools import partial
from typing import Callable, NamedTuple

import torch

from kernels.act_and_mul_ref import act_and_mul_ref
from kernels.attention_ref import paged_decode_attention_ref, paged_prefill_attention_ref, store_kv_ref
from kernels.qk_norm_rope_ref import qk_norm_rope_ref
from kernels.rms_norm_ref import rms_norm_ref


class KernelOps(NamedTuple):
    """The kernels the model calls, all with the reference signatures; ``decode_by_prefill``: the runner sends decode
    rows through ``paged_prefill_attention`` too, as one-token chunks (the Triton backend)."""

    store_kv: Callable
    paged_decode_attention: Callable
    paged_prefill_attention: Callable
    rms_norm: Callable
    act_and_mul: Callable
    qk_norm_rope: Callable
    decode_by_prefill: bool = False


TORCH_OPS = KernelOps(store_kv_ref, paged_decode_attention_ref, paged_prefill_attention_ref, rms_norm_ref,
                      act_and_mul_ref, qk_norm_rope_ref)


def triton_ops() -> KernelOps:
    """The Triton kernels (CUDA only). Decode rows go through the prefill kernel too (``decode_by_prefill``): with
    n-gram drafts a generated token's row is decoded in one step and verified among drafts in another, which the
    batch decides (the step's token budget cuts drafts, a preempted sequence is recomputed as a chunk), and the
    split-K decode kernel sums a row differently from the prefill kernel. One kernel for every row keeps its bits
    whatever the batch."""
    from kernels.paged_decode_attention import paged_decode_attention
    from kernels.paged_prefill_attention import paged_prefill_attention
    from kernels.rms_norm import rms_norm
    from kernels.store_kv import store_kv

    return TORCH_OPS._replace(store_kv=store_kv, paged_decode_attention=paged_decode_attention,
                              paged_prefill_attention=paged_prefill_attention, rms_norm=rms_norm,
                              qk_norm_rope=partial(qk_norm_rope_ref, rms_norm=rms_norm), decode_by_prefill=True)


def cpu_ops() -> KernelOps:
    """The PyTorch references with the C++ K/V store, paged decode and prefill attention, RMSNorm, gated
    activation and Q/K norm with RoPE, where they build (`kernels.cpu_extension`)."""
    from kernels import cpu_extension
    from kernels.act_and_mul_cpu import act_and_mul_cpu
    from kernels.paged_decode_attention_cpu import paged_decode_attention_cpu
    from kernels.paged_prefill_attention_cpu import paged_prefill_attention_cpu
    from kernels.qk_norm_rope_cpu import qk_norm_rope_cpu
    from kernels.rms_norm_cpu import rms_norm_cpu
    from kernels.store_kv_cpu import store_kv_cpu

    if cpu_extension.load() is None:
        return TORCH_OPS
    return TORCH_OPS._replace(store_kv=store_kv_cpu, paged_decode_attention=paged_decode_attention_cpu,
                              paged_prefill_attention=paged_prefill_attention_cpu, rms_norm=rms_norm_cpu,
                              act_and_mul=act_and_mul_cpu, qk_norm_rope=qk_norm_rope_cpu)


def select_ops(device: torch.device, backend: str = "auto") -> KernelOps:
    """Triton on CUDA when it imports, `cpu_ops` on the CPU, else the PyTorch references; ``backend``
    forces one (``torch``: the references only)."""
    if backend == "triton":
        return triton_ops()
    if backend == "auto" and device.type == "cuda":
        try:
            return triton_ops()
        except ImportError:
            return TORCH_OPS
    if backend == "auto" and device.type == "cpu":
        return cpu_ops()
    return TORCH_OPS
