"""Paged decode attention for the CPU, a small C++ kernel built on first use with PyTorch's extension builder.

The PyTorch reference (`kernels.attention_ref.paged_decode_attention_ref`) gathers every sequence's blocks
into a new tensor and converts it to fp32 before multiplying; at a batch of 16 sequences of ~400 tokens that
is about half of a decode step. The kernel (``csrc/paged_decode_attention_cpu.cpp``) reads each key and value
once, in place. It is compiled with the machine's own instruction set (the build is keyed by the CPU's
flags) into PyTorch's extension cache, about 25 s once; where no compiler is found, `load` returns None and
the engine keeps the reference.
"""
from __future__ import annotations

import hashlib
import logging
import platform
from functools import cache
from pathlib import Path
from types import ModuleType

import torch

from kernels.attention_ref import paged_decode_attention_ref

SOURCE = Path(__file__).with_name("csrc") / "paged_decode_attention_cpu.cpp"
log = logging.getLogger(__name__)


def _cpu_fingerprint() -> str:
    """Short hash of the CPU model and flags: a build made with ``-march=native`` only runs where it was made."""
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
        info = "\n".join(sorted({line for line in lines if line.startswith(("model name", "flags"))}))
    except OSError:
        info = platform.processor() or platform.machine()
    return hashlib.sha256(info.encode()).hexdigest()[:10]


@cache
def load() -> ModuleType | None:
    """The compiled kernel module, building it on first use; None (with a warning) where it cannot be built."""
    if platform.machine() not in ("x86_64", "AMD64"):
        return None
    try:
        from torch.utils.cpp_extension import load as load_extension

        return load_extension(name=f"supportdesk_paged_attention_{_cpu_fingerprint()}", sources=[str(SOURCE)],
                              extra_cflags=["-O3", "-march=native", "-fopenmp"], extra_ldflags=["-fopenmp"])
    except (OSError, RuntimeError, ImportError, SystemExit) as error:  # no compiler, no ninja, a failed build
        log.warning("CPU attention kernel unavailable (%s); using the PyTorch reference", str(error).splitlines()[0])
        return None


def paged_decode_attention_cpu(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                               block_tables: torch.Tensor, context_lens: torch.Tensor, scale: float,
                               sliding_window: int | None = None) -> torch.Tensor:
    """Same contract as `paged_decode_attention_ref`; inputs the kernel does not take go to the reference."""
    kernel = load()
    if (kernel is None or q.device.type != "cpu" or k_cache.dtype not in (torch.float32, torch.bfloat16)
            or block_tables.dtype != torch.int32 or context_lens.dtype != torch.int32):
        return paged_decode_attention_ref(q, k_cache, v_cache, block_tables, context_lens, scale, sliding_window)
    out = kernel.paged_decode_attention(q.float().contiguous(), k_cache, v_cache, block_tables, context_lens,
                                        float(scale), int(sliding_window or 0))
    return out.to(q.dtype)
