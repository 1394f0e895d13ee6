"""The C++ CPU kernels' build: per-CPU naming and recovery from a build killed mid-way."""
import os
import time

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


def test_the_build_is_keyed_by_the_cpu():
    fingerprint = cpu_extension._cpu_fingerprint()
    assert len(fingerprint) == 10 and fingerprint == cpu_extension._cpu_fingerprint()
    assert all(path.endswith(".cpp") for path in cpu_extension.SOURCES) and len(cpu_extension.SOURCES) >= 3
