"""The C++ int8 x int8 matmul with group-wise scales against its PyTorch reference, bit for bit."""
import pytest
import torch

from kernels import cpu_extension
from kernels.w8a8_matmul_cpu import TILE, can_pack, pack_weight, w8a8_matmul
from kernels.w8a8_matmul_ref import ACT_GROUP_SIZE, activation_group_size, quantize_activation_groups, w8a8_matmul_ref

pytestmark = pytest.mark.skipif(cpu_extension.load() is None, reason="no C++ compiler to build the CPU kernel")


def _weight(n, k, group, seed=0):
    gen = torch.Generator().manual_seed(seed)
    q = torch.randint(-127, 128, (n, k), dtype=torch.int8, generator=gen)
    scale = (torch.rand(n, k // group, generator=gen) * 0.02).half()
    return q, scale


def _x(m, k, seed=1):
    x = torch.randn(m, k, generator=torch.Generator().manual_seed(seed))
    return x * torch.logspace(-3, 2, m)[:, None]  # rows of very different magnitudes


@pytest.mark.parametrize("portable", [False, True], ids=["simd", "portable"])
@pytest.mark.parametrize("m, n, k, group", [(1, 40, 64, 32), (5, 33, 96, 32), (17, 640, 256, 32), (4, 16, 128, 128),
                                            (3, 50, 60, 60), (9, 7, 32, 16), (2, 100, 64, 64)])
@pytest.mark.parametrize("bias", [False, True])
def test_same_bits_as_the_reference(m, n, k, group, bias, portable):
    q, scale = _weight(n, k, group)
    x = _x(m, k)
    x[0, :group] = 0.0  # an all-zero group
    q[0, : k // 2] = -128  # the int8 extreme (AVX2's products are at their largest there)
    q[-1, : k // 2] = 127
    b = torch.randn(n) if bias else None
    out = w8a8_matmul(x, pack_weight(q, scale), b, portable=portable)
    assert out.shape == (m, n) and out.dtype == torch.float32
    assert torch.equal(out, w8a8_matmul_ref(x, q, scale, b))


def test_the_reference_is_close_to_the_dequantized_matmul():
    q, scale = _weight(64, 256, 32)
    x = torch.randn(6, 256)
    exact = x.double() @ (q.double().view(64, 8, 32) * scale.double()[..., None]).view(64, 256).T
    out = w8a8_matmul_ref(x, q, scale)
    assert ((out.double() - exact).norm(dim=1) / exact.norm(dim=1)).max() < 0.01


def test_activation_groups():
    assert activation_group_size(32) == ACT_GROUP_SIZE == 16 and activation_group_size(640) == 16
    assert activation_group_size(60) == 60
    x = torch.tensor([[1.0, -2.0, 0.5, 0.0], [0.0, 0.0, 0.0, 0.0]])
    q, step = quantize_activation_groups(x, 2)
    assert q.tolist() == [[64, -127, 127, 0], [0, 0, 0, 0]]
    assert step.shape == (2, 2) and step[0, 0] == torch.tensor(2.0) / 127


def test_a_row_gets_the_same_bits_in_any_batch():
    q, scale = _weight(300, 640, 32)
    packed = pack_weight(q, scale)
    x = _x(40, 640)
    together = w8a8_matmul(x, packed)
    for i in (0, 3, 17, 39):
        assert torch.equal(w8a8_matmul(x[i:i + 1].contiguous(), packed), together[i:i + 1])
    assert torch.equal(w8a8_matmul(x[5:12].contiguous(), packed), together[5:12])


def test_out_receives_the_same_bits():
    q, scale = _weight(300, 640, 32)
    packed, x, b = pack_weight(q, scale), _x(9, 640), torch.randn(300)
    buffer = torch.full((12, 300), float("nan"))
    got = w8a8_matmul(x, packed, b, out=buffer[:9])
    assert got.data_ptr() == buffer.data_ptr() and torch.equal(buffer[:9], w8a8_matmul(x, packed, b))
    assert buffer[9:].isnan().all()  # nothing written past its rows
    with pytest.raises(RuntimeError, match=r"out must be contiguous fp32 \[M, N\]"):
        w8a8_matmul(x, packed, out=buffer[:8])
    with pytest.raises(RuntimeError, match="out must be"):
        w8a8_matmul(x, packed, out=torch.empty(9, 300, dtype=torch.float64))


def test_packed_layout():
    q, scale = _weight(20, 64, 32)
    packed = pack_weight(q, scale)
    assert packed.weight.shape == (2, 16, TILE, 4) and packed.weight.dtype == torch.uint8
    assert packed.scale.shape == (2, 2, TILE) and packed.scale.dtype == torch.float16 and packed.out_features == 20
    n, k = 17, 42
    assert int(packed.weight[n // TILE, k // 4, n % TILE, k % 4]) == int(q[n, k]) + 128
    assert packed.scale[n // TILE, 1, n % TILE] == scale[n, 1]
    assert (packed.weight[1, :, 4:] == 128).all()  # padding channels are zero weights


def test_shapes_the_kernel_does_not_take():
    assert not can_pack(*_weight(8, 30, 30)) and can_pack(*_weight(8, 60, 60))
    with pytest.raises(ValueError, match="multiples of 4"):
        pack_weight(*_weight(8, 30, 30))
    packed = pack_weight(*_weight(8, 64, 32))
    with pytest.raises(RuntimeError, match="inputs"):
        w8a8_matmul(torch.randn(2, 32), packed)
    with pytest.raises(RuntimeError, match="contiguous fp32"):
        w8a8_matmul(torch.randn(64, 2).T, packed)
    with pytest.raises(ValueError, match="do not fit"):
        w8a8_matmul_ref(torch.randn(2, 64), *_weight(8, 64, 32)[:1], torch.ones(8, 3))
