"""Paged decode attention: the Triton kernel against its reference, the reference against dense attention."""
import pytest
import torch

from kernels.attention_ref import paged_decode_attention_ref
from kernels.paged_decode_attention import (choose_num_splits, paged_decode_attention,
                                            paged_decode_attention_with_splits)
from tests.kernels.kernel_cases import (ATTENTION_CASES, DEVICE, HEAD_LAYOUT_IDS, HEAD_LAYOUTS, assert_close,
                                        make_paged_kv, naive_attention)

HEAD_DIM = 32
SCALE = HEAD_DIM ** -0.5


def _case(layout, block_size, dtype, window, context_lens, seed=0):
    num_heads, num_kv_heads = layout
    first_needed = None if window is None else [max(0, n - window) for n in context_lens]
    kv = make_paged_kv(context_lens, num_kv_heads, HEAD_DIM, block_size, dtype, first_needed, seed)
    q = torch.randn((len(context_lens), num_heads, HEAD_DIM), generator=torch.Generator().manual_seed(seed + 1))
    return q.to(dtype).to(DEVICE), kv


def _context_lens(block_size):
    return [1, block_size + 1, 2 * block_size + 5, 3 * block_size]


@ATTENTION_CASES
def test_kernel_matches_reference(layout, block_size, dtype, window):
    q, kv = _case(layout, block_size, dtype, window, _context_lens(block_size))
    args = (q, kv.k_cache, kv.v_cache, kv.block_tables, kv.context_lens, SCALE, window)
    assert_close(paged_decode_attention(*args), paged_decode_attention_ref(*args), dtype)


@pytest.mark.parametrize("num_splits, block_n", [(1, 16), (2, 32), (5, 16), (7, 64)])
@pytest.mark.parametrize("window", [None, 37])
@pytest.mark.parametrize("layout", [(4, 1), (4, 2)], ids=["mqa", "gqa2"])
def test_split_k_matches_reference(layout, window, num_splits, block_n):
    """Split-K over long contexts, including splits left empty by short sequences and tiles that
    straddle or sit inside KV blocks."""
    q, kv = _case(layout, 16, torch.float32, window, [1, 70, 129, 200], seed=3)
    args = (q, kv.k_cache, kv.v_cache, kv.block_tables, kv.context_lens, SCALE, window)
    out = paged_decode_attention_with_splits(*args, num_splits=num_splits, block_n=block_n)
    assert_close(out, paged_decode_attention_ref(*args))


def test_bf16_split_k_with_window():
    q, kv = _case((8, 2), 32, torch.bfloat16, 50, [3, 100, 160], seed=5)
    args = (q, kv.k_cache, kv.v_cache, kv.block_tables, kv.context_lens, SCALE, 50)
    out = paged_decode_attention_with_splits(*args, num_splits=4, block_n=16)
    assert_close(out, paged_decode_attention_ref(*args))


def test_choose_num_splits_fills_the_machine_only_when_needed():
    device = torch.device("cpu")  # nominal 4 SMs
    assert choose_num_splits(num_seqs=8, num_kv_heads=1, max_tiles=64, device=device) == 1
    assert choose_num_splits(num_seqs=1, num_kv_heads=1, max_tiles=64, device=device) == 8
    assert choose_num_splits(num_seqs=1, num_kv_heads=1, max_tiles=3, device=device) == 1


@pytest.mark.parametrize("window", [None, 1, 5, 20])
@pytest.mark.parametrize("block_size", [16, 32])
@pytest.mark.parametrize("layout", HEAD_LAYOUTS, ids=HEAD_LAYOUT_IDS)
def test_reference_matches_naive_attention(layout, block_size, window):
    q, kv = _case(layout, block_size, torch.float32, window, _context_lens(block_size), seed=7)
    out = paged_decode_attention_ref(q, kv.k_cache, kv.v_cache, kv.block_tables, kv.context_lens, SCALE, window)
    for i, ctx in enumerate(kv.context_lens.tolist()):
        expected = naive_attention(q[i : i + 1].cpu(), kv.keys[i], kv.values[i], torch.tensor([ctx - 1]), SCALE, window)
        assert_close(out[i : i + 1].cpu(), expected, torch.float32)


def test_rejects_bad_arguments():
    q, kv = _case((4, 2), 16, torch.float32, None, [5, 9])
    good = dict(q=q, k_cache=kv.k_cache, v_cache=kv.v_cache, block_tables=kv.block_tables,
                context_lens=kv.context_lens, scale=SCALE)
    bad_cases = {
        "block_tables": kv.block_tables.long(),
        "q": q[:, :3],  # 3 heads do not divide into 2 KV heads
        "v_cache": kv.v_cache[..., :16],
        "context_lens": kv.context_lens[:1],
    }
    for name, value in bad_cases.items():
        with pytest.raises(ValueError):
            paged_decode_attention(**{**good, name: value})
    with pytest.raises(ValueError, match="contiguous"):
        paged_decode_attention(**{**good, "q": q.transpose(0, 2).contiguous().transpose(0, 2)})
    with pytest.raises(ValueError, match="q is"):
        paged_decode_attention(**{**good, "q": q.half()})
