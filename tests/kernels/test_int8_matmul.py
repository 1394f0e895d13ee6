"""int8 weight-only matmul with group-wise scales: the Triton kernel against ``int8_matmul_ref``, which the
first test checks against an explicit per-element dequantisation, and a row's bits against its batch's."""
import pytest
import torch

from kernels._triton_utils import is_interpreting
from kernels.int8_matmul import int8_matmul
from kernels.linear_ref import int8_matmul_ref
from tests.kernels.kernel_cases import DEVICE, DTYPES

N, K = 73, 224  # odd N, K = 7 groups of 32; neither a multiple of any tile
_TOLERANCES = {torch.float32: (1e-4, 1e-5), torch.float16: (2e-2, 2e-3), torch.bfloat16: (1.3e-1, 1.6e-2)}
_GROUPS = pytest.mark.parametrize("group_size", [32, K], ids=["g32", "per_channel"])


def _weights(group_size, seed=0, n=N, k=K, scale_dtype=torch.float32):
    gen = torch.Generator().manual_seed(seed)
    weight_int8 = torch.randint(-127, 128, (n, k), generator=gen, dtype=torch.int8)
    weight_scale = (torch.rand(n, k // group_size, generator=gen) / 127 + 1e-3).to(scale_dtype)
    bias = torch.randn(n, generator=gen)
    return weight_int8.to(DEVICE), weight_scale.to(DEVICE), bias.to(DEVICE)


def _check(x, weight_int8, weight_scale, bias):
    atol, rtol = _TOLERANCES[x.dtype]
    out = int8_matmul(x, weight_int8, weight_scale, bias)
    expected = int8_matmul_ref(x.reshape(-1, x.shape[-1]), weight_int8, weight_scale, bias)
    assert out.dtype == x.dtype and out.shape == (*x.shape[:-1], weight_int8.shape[0])
    torch.testing.assert_close(out.float().reshape(expected.shape), expected.float(), atol=atol, rtol=rtol)


def test_reference_dequantises_per_group():
    weight_int8, weight_scale, bias = _weights(32)
    x = torch.randn(3, K, generator=torch.Generator().manual_seed(1), dtype=torch.float64).float().to(DEVICE)
    w = torch.empty(N, K, dtype=torch.float64)
    for n in range(N):
        for k in range(K):
            w[n, k] = float(weight_int8[n, k]) * float(weight_scale[n, k // 32])
    expected = x.double().cpu() @ w.t() + bias.double().cpu()
    torch.testing.assert_close(int8_matmul_ref(x, weight_int8, weight_scale, bias).double().cpu(), expected,
                               atol=1e-4, rtol=1e-5)


@_GROUPS
@pytest.mark.parametrize("with_bias", [False, True], ids=["no_bias", "bias"])
@pytest.mark.parametrize("scale_dtype", [torch.float32, torch.float16], ids=["scale_fp32", "scale_fp16"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("num_rows", [1, 3, 16, 17, 64])
def test_matches_reference(num_rows, dtype, scale_dtype, with_bias, group_size):
    weight_int8, weight_scale, bias = _weights(group_size, scale_dtype=scale_dtype)
    x = torch.randn(num_rows, K, generator=torch.Generator().manual_seed(1)).to(dtype).to(DEVICE)
    _check(x, weight_int8, weight_scale, bias.to(dtype) if with_bias else None)


@_GROUPS
@pytest.mark.parametrize("num_rows", [1, 37])
def test_leading_dims_and_bf16_scales(num_rows, group_size):
    weight_int8, weight_scale, bias = _weights(group_size, seed=2, scale_dtype=torch.bfloat16)
    x = torch.randn(num_rows, 5, K, device=DEVICE, dtype=torch.bfloat16)
    _check(x, weight_int8, weight_scale, bias)


@pytest.mark.parametrize("num_rows", [2, 9])
def test_small_groups_and_strided_scales(num_rows):
    """G=8 with K=40 (5 groups, not a power of two), and a per-channel scale that is a strided view."""
    weight_int8, weight_scale, bias = _weights(8, seed=3, n=31, k=40)
    x = torch.randn(num_rows, 40, device=DEVICE)
    _check(x, weight_int8, weight_scale, bias)
    column = torch.rand(2, 31, device=DEVICE)[0][:, None]  # [31, 1] with strides (1, 1)
    _check(x, weight_int8, torch.rand(31, 3, device=DEVICE)[:, 1:2], None)  # strides (3, 1)
    _check(x, weight_int8, column, bias)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_a_row_gets_the_same_bits_alone_and_batched(dtype):
    """Batch invariance: one tile configuration for every row count, so a row's sums never depend on how many
    rows share the call. The kernels before 2026-12-04 (a multiply-reduce up to 4 rows, autotuned tiles above)
    changed the first three slices here in fp32. Compiled, a row may sit anywhere in its 16-row tile (a tensor
    core sums each output alike); under the interpreter numpy's BLAS rounds by a row's place in the tile, so
    there the slices start at a tile's first row."""
    weight_int8, weight_scale, bias = _weights(32, seed=4)
    x = torch.randn(40, K, generator=torch.Generator().manual_seed(5)).to(dtype).to(DEVICE)
    every = int8_matmul(x, weight_int8, weight_scale, bias.to(dtype))
    slices = [slice(0, 1), slice(16, 17), slice(32, 35), slice(0, 16), slice(16, 33), slice(32, 40)]
    if not is_interpreting():
        slices += [slice(7, 8), slice(3, 5), slice(9, 26), slice(39, 40)]
    for rows in slices:
        assert torch.equal(int8_matmul(x[rows], weight_int8, weight_scale, bias.to(dtype)), every[rows]), rows


def test_rejects_bad_arguments():
    weight_int8, weight_scale, _ = _weights(32)
    x = torch.randn(2, K, device=DEVICE)
    with pytest.raises(ValueError, match="int8"):
        int8_matmul(x, weight_int8.float(), weight_scale)
    with pytest.raises(ValueError, match="input features"):
        int8_matmul(x[:, :-1], weight_int8, weight_scale)
    with pytest.raises(ValueError, match="weight_scale"):
        int8_matmul(x, weight_int8, weight_scale[:-1])
    with pytest.raises(ValueError, match="weight_scale"):
        int8_matmul(x, weight_int8, weight_scale[:, 0])  # the old per-channel [N] format
    with pytest.raises(ValueError, match="contiguous"):
        int8_matmul(x, weight_int8.t().contiguous().t(), weight_scale)


@pytest.mark.parametrize("num_groups", [5, 0], ids=["5_groups", "0_groups"])
def test_rejects_group_count_not_dividing_k(num_groups):
    weight_int8, _, _ = _weights(32)
    bad_scale = torch.rand(N, num_groups, device=DEVICE)  # K = 224 is not a multiple of 5
    x = torch.randn(2, K, device=DEVICE)
    with pytest.raises(ValueError, match="dividing K"):
        int8_matmul(x, weight_int8, bad_scale)
    with pytest.raises(ValueError, match="dividing K"):
        int8_matmul_ref(x, weight_int8, bad_scale)
