import gc
import mmap
from pathlib import Path

import pytest
import torch

from engine import huge_pages
from engine.huge_pages import HUGE_PAGE_BYTES, Arena
from engine.quant import Int8Linear, prepare_int8, quantize_groupwise

THP = Path("/sys/kernel/mm/transparent_hugepage/enabled")
needs_thp = pytest.mark.skipif(not THP.exists() or not hasattr(mmap, "MADV_HUGEPAGE"),
                               reason="Linux transparent huge pages are not available here")


def _vm_flags(address: int) -> list[str]:
    """The VmFlags of the mapping that holds ``address`` (from /proc/self/smaps)."""
    inside = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()[0]
        if "-" in head and not head.endswith(":"):
            lo, hi = (int(x, 16) for x in head.split("-"))
            inside = lo <= address < hi
        elif inside and line.startswith("VmFlags:"):
            return line.split()[1:]
    raise AssertionError(f"no mapping holds {address:#x}")


def test_big_tensors_are_zero_writable_and_start_on_a_huge_page():
    t = huge_pages.zeros((3, HUGE_PAGE_BYTES // 4), torch.float32)
    assert t.shape == (3, HUGE_PAGE_BYTES // 4) and t.dtype == torch.float32 and t.is_contiguous()
    assert t.data_ptr() % HUGE_PAGE_BYTES == 0
    assert not t.any()
    t[2, -1] = 5.0
    assert t.sum().item() == 5.0


@needs_thp
def test_big_tensors_ask_the_kernel_for_huge_pages():
    t = huge_pages.zeros((HUGE_PAGE_BYTES * 2,), torch.int8)
    assert "hg" in _vm_flags(t.data_ptr())  # madvise(MADV_HUGEPAGE) on its mapping
    plain = torch.zeros(HUGE_PAGE_BYTES * 2, dtype=torch.int8)
    assert "hg" not in _vm_flags(plain.data_ptr())


def test_small_tensors_are_plain_zeros():
    t = huge_pages.zeros((4, 5), torch.float16)
    assert t.shape == (4, 5) and t.dtype == torch.float16 and not t.any()


def test_the_mapping_is_released_with_its_last_tensor():
    def resident_mb() -> float:
        return int(Path("/proc/self/statm").read_text().split()[1]) * 4096 / 2**20

    before = resident_mb()
    for _ in range(4):
        t = huge_pages.zeros((64 << 20,), torch.uint8)
        t.fill_(1)
        del t
        gc.collect()
    assert resident_mb() - before < 32


def test_arena_hands_out_aligned_disjoint_zero_tensors_then_falls_back():
    shapes = [((10, 3), torch.float32), ((7,), torch.int8), ((2, 2, 2), torch.float16)]
    arena = Arena(sum(Arena.footprint(s, d) for s, d in shapes))
    tensors = [arena.zeros(s, d) for s, d in shapes]
    for t, (shape, dtype) in zip(tensors, shapes):
        assert t.shape == shape and t.dtype == dtype and t.data_ptr() % Arena.ALIGN == 0 and not t.any()
    starts = [t.data_ptr() for t in tensors]
    assert starts == sorted(starts) and starts[1] - starts[0] == Arena.footprint(*shapes[0])
    for t in tensors:
        t.fill_(1)
    assert all(t.sum().item() == t.numel() for t in tensors)  # no overlap
    extra = arena.zeros((100,), torch.float32)  # the region is used up: a tensor of its own
    assert not extra.any() and extra.shape == (100,)


def test_prepare_int8_packs_every_layer_into_one_arena_with_the_same_results():
    torch.manual_seed(0)
    layers = torch.nn.Sequential(*[Int8Linear.from_int8(*quantize_groupwise(torch.randn(out, 64))) for out in (48, 40)])
    alone = [Int8Linear.from_int8(layer.weight.clone(), layer.weight_scale.clone()).prepare(allocate=torch.empty)
             for layer in layers]
    if not layers[0].packs:
        pytest.skip("the C++ CPU kernels are not built here")
    footprints = [layer.packed_footprint() for layer in layers]
    prepare_int8(layers)
    first, second = layers[0]._packed, layers[1]._packed
    assert second.weight.data_ptr() - first.weight.data_ptr() == footprints[0]  # side by side
    x = torch.randn(3, 64)
    for layer, reference in zip(layers, alone):
        assert torch.equal(layer(x), reference(x))
