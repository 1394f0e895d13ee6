"""Kernel tests run compiled on a CUDA machine and under the Triton interpreter elsewhere.

``TRITON_INTERPRET`` is read when ``@triton.jit`` decorates a kernel, so it is set here, before
any test module imports ``triton`` or a kernel module.
"""
import os

import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def no_leaked_kv_blocks():
    """Kernel tests build no engines (`test_kernels_in_the_engine.py` checks its own): skip the root conftest's
    per-test ``gc.collect()`` leak guard."""
    yield
