"""The C++ CPU kernels (``csrc/``), built into one extension module on first use by PyTorch's extension builder.

They are the engine's CPU hot paths: the int8 matmul with group-wise scales (`w8a8_matmul_cpu`), its AMX
variant for prompt rows (`amx_matmul_cpu`), paged decode and prefill attention (`paged_decode_attention_cpu`,
`paged_prefill_attention_cpu`), the K/V store (`store_kv_cpu`), RMSNorm (`rms_norm_cpu`), the gated activation
(`act_and_mul_cpu`), Q/K norm + RoPE (`qk_norm_rope_cpu`) and greedy argmax, with or without a repetition
penalty (`argmax_cpu`). The module is compiled with the machine's own instruction set (or the one
`SUPPORTDESK_CPU_MARCH` names, as g++'s ``-march``: ``x86-64-v3`` builds the AVX2 paths and ``x86-64`` the
portable loops on any x86 machine, to test them, or to build an image once for many machines), keyed by the
CPU's model and flags (native) or by that choice, into PyTorch's extension cache (about 30 s on two cores,
once). Where it cannot be built (no g++, a non-x86 machine) `load` returns None after one warning and
callers keep the PyTorch ops.
"""
from __future__ import annotations

import hashlib
import logging
import os
import platform
import time
from functools import cache
from pathlib import Path
from types import ModuleType

SOURCES = sorted(str(p) for p in (Path(__file__).with_name("csrc")).glob("*.cpp"))
# No FMA contraction: the int8 matmul must give the same bits as its PyTorch reference.
CFLAGS = ["-O3", "-fopenmp", "-ffp-contract=off"]
STALE_LOCK_S = 600  # a cold build takes about 30 s; a lock this old belongs to no live build
log = logging.getLogger(__name__)


def _march() -> str:
    """The instruction set to build for: ``SUPPORTDESK_CPU_MARCH`` (g++'s ``-march``), by default ``native``."""
    return os.environ.get("SUPPORTDESK_CPU_MARCH", "").strip() or "native"


def _cpu_fingerprint(march: str) -> str:
    """Short hash of what a build runs on: for ``native`` the CPU's model and flags (it only runs where it was
    made), else the ``-march`` alone (it runs on any CPU with that instruction set, so a container image
    built on one machine keeps its kernels on another)."""
    if march != "native":
        info = f"-march={march}"
    else:
        try:
            lines = Path("/proc/cpuinfo").read_text().splitlines()
            info = "\n".join(sorted({line for line in lines if line.startswith(("model name", "flags"))}))
        except OSError:
            info = platform.processor() or platform.machine()
    return hashlib.sha256(info.encode()).hexdigest()[:10]


def _clear_stale_lock(build_dir: Path) -> None:
    """Remove a build lock left by a process killed mid-build: PyTorch would wait on it forever."""
    lock = build_dir / "lock"
    try:
        if time.time() - lock.stat().st_mtime > STALE_LOCK_S:
            log.warning("removing a stale build lock %s", lock)
            lock.unlink()
    except FileNotFoundError:
        pass


@cache
def load() -> ModuleType | None:
    """The compiled module, building it on first use; None (with a warning) where it cannot be built."""
    if platform.machine() not in ("x86_64", "AMD64"):
        return None
    try:
        from torch.utils.cpp_extension import get_default_build_root
        from torch.utils.cpp_extension import load as load_extension

        march = _march()
        name = f"supportdesk_cpu_kernels_{_cpu_fingerprint(march)}"
        build_dir = Path(os.environ.get("TORCH_EXTENSIONS_DIR") or get_default_build_root()) / name
        build_dir.mkdir(parents=True, exist_ok=True)
        _clear_stale_lock(build_dir)
        return load_extension(name=name, sources=SOURCES, extra_cflags=[*CFLAGS, f"-march={march}"],
                              extra_ldflags=["-fopenmp"],
                              build_directory=str(build_dir))
    except (OSError, RuntimeError, ImportError, SystemExit) as error:  # no compiler, no ninja, a failed build
        log.warning("C++ CPU kernels unavailable (%s); using PyTorch ops", str(error).splitlines()[0])
        return None
