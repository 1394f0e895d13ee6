"""The C++ CPU RMSNorm (residual add fused) against its PyTorch reference."""
import pytest
import torch

from kernels import cpu_extension
from kernels.rms_norm_cpu import rms_norm_cpu
from kernels.rms_norm_ref import rms_norm_ref

pytestmark = pytest.mark.skipif(cpu_extension.load() is None, reason="no C++ compiler to build the CPU kernel")


def _inputs(shape, seed=0):
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(shape, generator=gen) * torch.logspace(-2, 2, shape[-2] if len(shape) > 1 else 1)[:, None]
    return x, torch.randn(shape[-1], generator=gen) * 0.1, torch.randn(shape, generator=gen)


@pytest.mark.parametrize("shape", [(1, 640), (7, 640), (33, 256), (5, 17)])
@pytest.mark.parametrize("offset", [0.0, 1.0])
@pytest.mark.parametrize("with_residual", [False, True])
def test_matches_reference(shape, offset, with_residual):
    x, weight, residual = _inputs(shape)
    args = (x, weight, 1e-6, offset, residual if with_residual else None)
    out, ref = rms_norm_cpu(*args), rms_norm_ref(*args)
    if with_residual:
        assert torch.equal(out[1], ref[1])  # the residual sum is exact
        out, ref = out[0], ref[0]
    torch.testing.assert_close(out, ref, rtol=2e-6, atol=1e-6)


def test_keeps_leading_dims_and_inputs():
    x, weight, residual = _inputs((6, 64))
    x3, r3 = x.view(2, 3, 64), residual.view(2, 3, 64)
    before = x3.clone(), r3.clone()
    y, new_residual = rms_norm_cpu(x3, weight, 1e-6, 1.0, r3)
    assert y.shape == (2, 3, 64) and new_residual.shape == (2, 3, 64)
    assert torch.equal(x3, before[0]) and torch.equal(r3, before[1])


def test_a_row_gets_the_same_bits_in_any_batch():
    x, weight, residual = _inputs((40, 640))
    together, _ = rms_norm_cpu(x, weight, 1e-6, 1.0, residual)
    for i in (0, 7, 39):
        alone, _ = rms_norm_cpu(x[i:i + 1], weight, 1e-6, 1.0, residual[i:i + 1])
        assert torch.equal(alone, together[i:i + 1])


def test_inputs_the_kernel_does_not_take_go_to_the_reference():
    x, weight, _ = _inputs((4, 64))
    xb = x.bfloat16()
    assert torch.equal(rms_norm_cpu(xb, weight, 1e-6, 1.0), rms_norm_ref(xb, weight, 1e-6, 1.0))


def test_engine_selects_the_kernel_on_the_cpu():
    from engine.layers.ops import select_ops

    assert select_ops(torch.device("cpu")).rms_norm is rms_norm_cpu
