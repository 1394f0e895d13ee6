"""int8 weight-only matmul: the Triton kernels (GEMV and tiled) against ``int8_matmul_ref``."""
import pytest
import torch

from kernels.int8_matmul import GEMV_MAX_M, int8_matmul
from kernels.linear_ref import int8_matmul_ref
from tests.kernels.kernel_cases import DEVICE, DTYPES

N, K = 72, 200  # not multiples of any tile
_TOLERANCES = {torch.float32: (1e-4, 1e-5), torch.float16: (2e-2, 2e-3), torch.bfloat16: (1.3e-1, 1.6e-2)}


def _weights(seed=0, n=N, k=K):
    gen = torch.Generator().manual_seed(seed)
    weight_int8 = torch.randint(-127, 128, (n, k), generator=gen, dtype=torch.int8)
    weight_scale = torch.rand(n, generator=gen) / 127 + 1e-3
    bias = torch.randn(n, generator=gen)
    return weight_int8.to(DEVICE), weight_scale.to(DEVICE), bias.to(DEVICE)


def _check(x, weight_int8, weight_scale, bias):
    atol, rtol = _TOLERANCES[x.dtype]
    out = int8_matmul(x, weight_int8, weight_scale, bias)
    expected = int8_matmul_ref(x, weight_int8, weight_scale, bias)
    assert out.dtype == x.dtype and out.shape == expected.shape
    torch.testing.assert_close(out.float(), expected.float(), atol=atol, rtol=rtol)


@pytest.mark.parametrize("with_bias", [False, True], ids=["no_bias", "bias"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("num_rows", [1, 3, GEMV_MAX_M, GEMV_MAX_M + 1, 37])
def test_matches_reference(num_rows, dtype, with_bias):
    weight_int8, weight_scale, bias = _weights()
    x = torch.randn(num_rows, K, generator=torch.Generator().manual_seed(1)).to(dtype).to(DEVICE)
    _check(x, weight_int8, weight_scale, bias.to(dtype) if with_bias else None)


def test_leading_dims_and_bf16_scales():
    weight_int8, weight_scale, bias = _weights(seed=2)
    x = torch.randn(2, 5, K, device=DEVICE, dtype=torch.bfloat16)
    _check(x, weight_int8, weight_scale.bfloat16(), bias)


def test_rejects_bad_arguments():
    weight_int8, weight_scale, _ = _weights()
    x = torch.randn(2, K, device=DEVICE)
    with pytest.raises(ValueError, match="int8"):
        int8_matmul(x, weight_int8.float(), weight_scale)
    with pytest.raises(ValueError, match="input features"):
        int8_matmul(x[:, :-1], weight_int8, weight_scale)
    with pytest.raises(ValueError, match="weight_scale"):
        int8_matmul(x, weight_int8, weight_scale[:-1])
    with pytest.raises(ValueError, match="contiguous"):
        int8_matmul(x, weight_int8.t().contiguous().t(), weight_scale)
