"""The C++ kernels' AVX2 and portable paths, whatever CPU runs the tests.

The machine's own build (``-march=native``) takes one of the SIMD paths of ``kernels/csrc/simd.h``; the
others are built here with ``SUPPORTDESK_CPU_MARCH`` and held to the same PyTorch references by the same
tests, in a child process (the extension is loaded once per process).
"""
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

CPU_KERNEL_TESTS = sorted(str(path) for path in Path(__file__).parent.glob("test_*_cpu.py"))
REPO_ROOT = Path(__file__).resolve().parents[2]


def _cpu_flags() -> set[str]:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


@pytest.mark.slow
@pytest.mark.parametrize("march, needs", [("x86-64-v3", {"avx2", "fma", "f16c"}), ("x86-64", set())])
def test_the_cpu_kernels_pass_their_tests_built_for(march, needs):
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("the C++ kernels are built for x86-64 only")
    flags = _cpu_flags()
    if not needs <= flags:
        pytest.skip(f"this CPU cannot run a {march} build")
    if march == "x86-64-v3" and "avx512f" not in flags:
        pytest.skip("this CPU's own build takes the AVX2 paths: the kernel tests run them already")
    env = {**os.environ, "SUPPORTDESK_CPU_MARCH": march}
    built = subprocess.run([sys.executable, "-c", "from kernels import cpu_extension; print(cpu_extension.load())"],
                           cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert built.returncode == 0 and "supportdesk_cpu_kernels_" in built.stdout, built.stderr[-3000:]
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *CPU_KERNEL_TESTS],
                           cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert tests.returncode == 0, tests.stdout[-3000:]
    assert " passed" in tests.stdout.splitlines()[-1]
