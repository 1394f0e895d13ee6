"""Fused RMSNorm (+ residual add): the Triton kernel against ``rms_norm_ref``."""
import pytest
import torch

from kernels.rms_norm import rms_norm
from kernels.rms_norm_ref import rms_norm_ref
from tests.kernels.kernel_cases import DEVICE, DTYPES, assert_close


@pytest.mark.parametrize("with_residual", [False, True], ids=["plain", "residual"])
@pytest.mark.parametrize("weight_offset", [0.0, 1.0])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("hidden", [64, 100])
def test_matches_reference(hidden, dtype, weight_offset, with_residual):
    gen = torch.Generator().manual_seed(0)
    x = (torch.randn(3, 5, hidden, generator=gen) * 3).to(dtype).to(DEVICE)
    weight = torch.randn(hidden, generator=gen).to(dtype).to(DEVICE)
    residual = torch.randn(3, 5, hidden, generator=gen).to(dtype).to(DEVICE) if with_residual else None
    out = rms_norm(x, weight, 1e-6, weight_offset, residual)
    expected = rms_norm_ref(x, weight, 1e-6, weight_offset, residual)
    if not with_residual:
        out, expected = (out,), (expected,)
    for a, b in zip(out, expected):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert_close(a, b, dtype)


def test_strided_rows():
    x = torch.randn(4, 2, 48, device=DEVICE)[:, 0]  # rows 96 elements apart
    weight = torch.rand(48, device=DEVICE)
    assert_close(rms_norm(x, weight, 1e-5), rms_norm_ref(x, weight, 1e-5), torch.float32)


def test_rejects_bad_arguments():
    x = torch.randn(2, 16, device=DEVICE)
    with pytest.raises(ValueError, match="weight"):
        rms_norm(x, torch.ones(15, device=DEVICE), 1e-6)
    with pytest.raises(ValueError, match="residual"):
        rms_norm(x, torch.ones(16, device=DEVICE), 1e-6, residual=x[:1])
    with pytest.raises(ValueError, match="contiguous"):
        rms_norm(x.t(), torch.ones(2, device=DEVICE), 1e-6)
