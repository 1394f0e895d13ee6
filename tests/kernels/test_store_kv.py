"""KV-cache write by slot mapping: the Triton kernel against ``store_kv_ref``."""
import pytest
import torch

from kernels.attention_ref import store_kv_ref
from kernels.store_kv import store_kv
from tests.kernels.kernel_cases import DEVICE, DTYPES, assert_close

NUM_BLOCKS, HEAD_DIM = 6, 24  # a head_dim that is not a power of two


def _run_both(k, v, cache_dtype, block_size, slots, slot_dtype=torch.int64):
    shape = (NUM_BLOCKS, block_size, k.shape[1], HEAD_DIM)
    k_cache, v_cache = torch.randn(shape).to(cache_dtype).to(DEVICE), torch.randn(shape).to(cache_dtype).to(DEVICE)
    k_ref, v_ref = k_cache.clone(), v_cache.clone()
    slot_mapping = torch.tensor(slots, dtype=slot_dtype, device=DEVICE)
    store_kv_ref(k, v, k_ref, v_ref, slot_mapping)
    store_kv(k, v, k_cache, v_cache, slot_mapping)
    return (k_cache, v_cache), (k_ref, v_ref)


@pytest.mark.parametrize("slot_dtype", [torch.int64, torch.int32], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("block_size", [16, 32])
@pytest.mark.parametrize("num_kv_heads", [1, 2, 4])
def test_matches_reference(num_kv_heads, block_size, dtype, slot_dtype):
    slots = [0, -1, block_size - 1, block_size, 3 * block_size + 5, -1, NUM_BLOCKS * block_size - 1]
    # k and v as strided views of one fused projection, as the model produces them
    kv = torch.randn(len(slots), 2 * num_kv_heads, HEAD_DIM).to(dtype).to(DEVICE)
    k, v = kv[:, :num_kv_heads], kv[:, num_kv_heads:]
    got, expected = _run_both(k, v, dtype, block_size, slots, slot_dtype)
    for a, b in zip(got, expected):
        torch.testing.assert_close(a, b, rtol=0, atol=0)


def test_casts_to_the_cache_dtype():
    k, v = torch.randn(3, 2, HEAD_DIM, device=DEVICE), torch.randn(3, 2, HEAD_DIM, device=DEVICE)
    got, expected = _run_both(k, v, torch.bfloat16, 16, [7, 20, 33])
    for a, b in zip(got, expected):
        assert_close(a, b, torch.bfloat16)  # rounding modes of the cast may differ by one ulp


def test_no_tokens_is_a_no_op():
    k = torch.empty(0, 1, HEAD_DIM, device=DEVICE)
    got, expected = _run_both(k, k, torch.float32, 16, [])
    torch.testing.assert_close(got[0], expected[0])


def test_rejects_bad_arguments():
    k = torch.randn(2, 2, HEAD_DIM, device=DEVICE)
    cache = torch.zeros(NUM_BLOCKS, 16, 2, HEAD_DIM, device=DEVICE)
    slots = torch.tensor([0, 1], device=DEVICE)
    with pytest.raises(ValueError, match="slot_mapping"):
        store_kv(k, k, cache, cache.clone(), slots.float())
    with pytest.raises(ValueError, match="shape"):
        store_kv(k[:, :1], k[:, :1], cache, cache.clone(), slots)
    with pytest.raises(ValueError, match="slot_mapping"):
        store_kv(k, k, cache, cache.clone(), slots[:1])


def test_reference_reads_every_new_slot_mapping():
    """The reference caches its per-step slot checks by tensor; each step's new mapping must still be read."""
    block_size = 4
    k_cache = torch.zeros(NUM_BLOCKS, block_size, 1, HEAD_DIM)
    v_cache = torch.zeros_like(k_cache)
    for step, slots in enumerate(([0, -1, 5], [3, 4, -1], [-1, 2, 1], [6, 7, 8])):
        k = torch.full((3, 1, HEAD_DIM), float(step + 1))
        store_kv_ref(k, -k, k_cache, v_cache, torch.tensor(slots))
        for slot in slots:
            if slot >= 0:
                assert k_cache.view(-1, HEAD_DIM)[slot].eq(step + 1).all()
                assert v_cache.view(-1, HEAD_DIM)[slot].eq(-(step + 1)).all()
