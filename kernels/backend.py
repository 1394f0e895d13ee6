"""Which attention/linear backend the engine should use: Triton on CUDA, the PyTorch references elsewhere."""
from __future__ import annotations

import importlib
from functools import lru_cache

import torch


@lru_cache(maxsize=1)
def triton_available() -> bool:
    """True when a CUDA device is present and ``triton`` imports, so the Triton kernels can run compiled."""
    if not torch.cuda.is_available():
        return False
    try:
        importlib.import_module("triton")
    except ImportError:
        return False
    return True
