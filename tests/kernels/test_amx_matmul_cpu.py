"""The AMX bf16 matmul over packed int8 weights against its PyTorch reference, and its row invariance."""
import pytest
import torch

from kernels import cpu_extension
from kernels.amx_matmul_cpu import amx_available, amx_matmul, amx_matmul_ref
from kernels.w8a8_matmul_cpu import pack_weight

pytestmark = pytest.mark.skipif(not amx_available(), reason="no AMX bf16 tiles on this machine")


def _weight(n, k, group=32, seed=0):
    gen = torch.Generator().manual_seed(seed)
    q = torch.randint(-127, 128, (n, k), dtype=torch.int8, generator=gen)
    scale = (torch.rand(n, k // group, generator=gen) * 0.02).half()
    return q, scale


def _x(m, k, seed=1):
    return torch.randn(m, k, generator=torch.Generator().manual_seed(seed))


def _close(got, want):
    """fp32 sums in the kernel's order against float64 ones: within a few fp32 ulps of the largest output."""
    assert got.shape == want.shape and got.dtype == torch.float32
    assert (got.double() - want.double()).abs().max().item() <= 1e-6 * want.abs().max().item()


@pytest.mark.parametrize("m,n,k", [(1, 16, 32), (7, 48, 64), (33, 1000, 640), (64, 4096, 640), (512, 640, 2048),
                                   (40, 17, 96)])
def test_matches_reference(m, n, k):
    q, scale = _weight(n, k)
    x = _x(m, k)
    _close(amx_matmul(x, pack_weight(q, scale)), amx_matmul_ref(x, q, scale))


def test_bias_and_out():
    q, scale = _weight(80, 128)
    bias = torch.randn(80)
    x = _x(37, 128)
    out = torch.full((40, 80), float("nan"))
    result = amx_matmul(x, pack_weight(q, scale), bias, out=out[3:])
    assert result.data_ptr() == out[3:].data_ptr() and out[:3].isnan().all()
    _close(out[3:], amx_matmul_ref(x, q, scale, bias))


def test_weight_groups_other_than_32():
    q, scale = _weight(32, 128, group=64)
    x = _x(20, 128)
    _close(amx_matmul(x, pack_weight(q, scale)), amx_matmul_ref(x, q, scale))


def test_row_results_do_not_depend_on_the_other_rows():
    """Any row, computed alone or among any number of others, gets the same bits."""
    q, scale = _weight(96, 640)
    packed = pack_weight(q, scale)
    x = _x(70, 640)
    full = amx_matmul(x, packed)
    for lo, hi in [(0, 1), (5, 6), (69, 70), (3, 40), (31, 33), (10, 70)]:
        assert torch.equal(amx_matmul(x[lo:hi].contiguous(), packed), full[lo:hi])
    shuffled = torch.randperm(70, generator=torch.Generator().manual_seed(2))
    assert torch.equal(amx_matmul(x[shuffled].contiguous(), packed), full[shuffled])


def test_closer_to_fp32_than_the_bf16_rounding_of_its_inputs_allows():
    """Against fp32 weights and inputs: off only by bf16 rounding (activations, dequantized weights)."""
    q, scale = _weight(64, 256)
    x = _x(16, 256)
    exact = x.double() @ (q.double().view(64, 8, 32) * scale.double()[..., None]).view(64, 256).T
    got = amx_matmul(x, pack_weight(q, scale)).double()
    assert ((got - exact).norm() / exact.norm()).item() < 1e-2


@pytest.mark.parametrize("bad, message", [
    (lambda x, p: (x.double(), p), "fp32"),
    (lambda x, p: (x[:, :64].contiguous(), p), "inputs"),
    (lambda x, p: (x.t(), p), "contiguous"),
])
def test_rejects_bad_inputs(bad, message):
    q, scale = _weight(32, 128)
    x, packed = bad(_x(4, 128), pack_weight(q, scale))
    with pytest.raises(RuntimeError, match=message):
        amx_matmul(x, packed)


def test_k_must_be_a_multiple_of_32():
    q, scale = _weight(16, 48, group=16)
    kernels = cpu_extension.load()
    packed = pack_weight(q, scale)
    with pytest.raises(RuntimeError, match="multiple of 32"):
        kernels.amx_matmul(_x(2, 48), packed.weight, packed.scale, packed.out_features, None)
