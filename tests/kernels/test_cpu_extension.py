"""The C++ CPU kernels' build: per-CPU naming, a shared translation unit, and recovery from a build killed mid-way."""
import os
import time
from pathlib import Path

from kernels import cpu_extension


def test_a_stale_build_lock_is_removed_and_a_live_one_kept(tmp_path):
    lock = tmp_path / "lock"
    lock.touch()
    cpu_extension._clear_stale_lock(tmp_path)
    assert lock.exists()  # a build may be running right now
    old = time.time() - cpu_extension.STALE_LOCK_S - 1
    os.utime(lock, (old, old))
    cpu_extension._clear_stale_lock(tmp_path)
    assert not lock.exists()
    cpu_extension._clear_stale_lock(tmp_path)  # no lock at all is fine


def test_the_build_is_keyed_by_the_cpu_and_the_instruction_set(monkeypatch):
    fingerprint = cpu_extension._cpu_fingerprint("native")
    assert len(fingerprint) == 10 and fingerprint == cpu_extension._cpu_fingerprint("native")
    portable = cpu_extension._cpu_fingerprint("x86-64-v3")
    assert portable not in (fingerprint, cpu_extension._cpu_fingerprint("x86-64"))

    def no_cpuinfo(*args, **kwargs):
        raise OSError("no /proc here")

    monkeypatch.setattr(cpu_extension.Path, "read_text", no_cpuinfo)  # another machine, as far as the key goes
    assert cpu_extension._cpu_fingerprint("x86-64-v3") == portable  # a portable build is keyed by -march alone
    monkeypatch.delenv("SUPPORTDESK_CPU_MARCH", raising=False)
    assert cpu_extension._march() == "native"
    monkeypatch.setenv("SUPPORTDESK_CPU_MARCH", " x86-64-v3 ")
    assert cpu_extension._march() == "x86-64-v3"
    assert len(cpu_extension.KERNEL_SOURCES) >= 3 and cpu_extension.BINDINGS not in cpu_extension.KERNEL_SOURCES


def test_the_kernels_share_one_translation_unit_but_those_built_on_their_own(tmp_path):
    unity = Path(cpu_extension._unity_source(tmp_path))
    included = [line.split('"')[1] for line in unity.read_text().splitlines() if line.startswith("#include")]
    assert sorted([*included, *cpu_extension.OWN_UNIT_SOURCES]) == cpu_extension.KERNEL_SOURCES  # each kernel once
    modified = unity.stat().st_mtime_ns
    assert cpu_extension._unity_source(tmp_path) == str(unity) and unity.stat().st_mtime_ns == modified  # untouched


def test_without_a_compiler_the_engine_keeps_the_pytorch_ops(monkeypatch):
    import torch

    from engine.layers.ops import TORCH_OPS, select_ops
    from kernels.attention_ref import paged_decode_attention_ref
    from kernels.paged_decode_attention_cpu import paged_decode_attention_cpu

    monkeypatch.setattr(cpu_extension, "load", lambda: None)
    assert select_ops(torch.device("cpu")) is TORCH_OPS
    q, cache = torch.randn(1, 4, 8), torch.randn(2, 4, 1, 8)
    args = (q, cache, cache, torch.tensor([[0, 1]], dtype=torch.int32), torch.tensor([6], dtype=torch.int32), 0.3)
    assert torch.equal(paged_decode_attention_cpu(*args), paged_decode_attention_ref(*args))
