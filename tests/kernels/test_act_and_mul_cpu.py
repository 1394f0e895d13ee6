"""The C++ gated activation (tanh GELU or SiLU, times up) against its PyTorch reference."""
import pytest
import torch

from kernels import cpu_extension
from kernels.act_and_mul_cpu import act_and_mul_cpu
from kernels.act_and_mul_ref import act_and_mul_ref

pytestmark = pytest.mark.skipif(cpu_extension.load() is None, reason="no C++ compiler to build the CPU kernel")


@pytest.mark.parametrize("activation", ["gelu_tanh", "silu"])
@pytest.mark.parametrize("shape", [(1, 4096), (16, 4096), (169, 4096), (3, 34), (2, 2)])
def test_matches_reference(activation, shape):
    gen = torch.Generator().manual_seed(shape[0])
    x = torch.randn(shape, generator=gen) * 4
    torch.testing.assert_close(act_and_mul_cpu(x, activation), act_and_mul_ref(x, activation), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("activation", ["gelu_tanh", "silu"])
def test_extreme_inputs(activation):
    gate = torch.tensor([0.0, -0.0, 1e-30, -1e-30, 30.0, -30.0, 100.0, -100.0, 1e4, -1e4, 3e38, -3e38] + [0.5] * 4)
    x = torch.cat([gate, torch.full_like(gate, 0.5)])[None]
    out, ref = act_and_mul_cpu(x, activation), act_and_mul_ref(x, activation)
    assert torch.isfinite(out).all()
    torch.testing.assert_close(out, ref, rtol=1e-5, atol=1e-5)


def test_leading_dims_rows_independent_and_fallbacks():
    x = torch.randn(2, 3, 40)
    out = act_and_mul_cpu(x, "gelu_tanh")
    assert out.shape == (2, 3, 20)
    assert torch.equal(out[1, 2], act_and_mul_cpu(x[1, 2:3], "gelu_tanh")[0])  # a row's bits never depend on the batch
    assert torch.equal(act_and_mul_cpu(x.double(), "silu"), act_and_mul_ref(x.double(), "silu"))
    with pytest.raises(ValueError, match="unknown activation"):
        act_and_mul_cpu(x, "relu")
