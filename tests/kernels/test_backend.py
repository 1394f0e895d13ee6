"""Backend choice: Triton exactly when CUDA is present."""
import torch

from kernels.backend import triton_available


def test_triton_backend_only_with_cuda():
    assert triton_available() == torch.cuda.is_available()
