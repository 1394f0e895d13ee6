"""Paged decode attention: the Triton kernel against its reference, the reference against dense attention."""
import pytest
import torch

from kernels.attention_ref import paged_decode_attention_ref
from kernels.paged_decode_attention import grid_splits, paged_decode_attention, paged_decode_attention_with_splits
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


@pytest.mark.parametrize("tiles_per_split, block_n, max_splits", [(1, 16, 32), (2, 32, 32), (3, 16, 32),
                                                                 (1, 64, 32), (1, 16, 3), (20, 16, 32)])
@pytest.mark.parametrize("window", [None, 37])
@pytest.mark.parametrize("layout", [(4, 1), (4, 2)], ids=["mqa", "gqa2"])
def test_split_k_matches_reference(layout, window, tiles_per_split, block_n, max_splits):
    """Split-K over long contexts: sequences of one split and of many, splits capped at ``max_splits`` (so
    they grow), grid programs past a short sequence's last split, tiles that straddle or sit inside KV blocks."""
    q, kv = _case(layout, 16, torch.float32, window, [1, 70, 129, 200], seed=3)
    args = (q, kv.k_cache, kv.v_cache, kv.block_tables, kv.context_lens, SCALE, window)
    out = paged_decode_attention_with_splits(*args, tiles_per_split=tiles_per_split, block_n=block_n,
                                             max_splits=max_splits)
    assert_close(out, paged_decode_attention_ref(*args))


def test_bf16_split_k_with_window():
    q, kv = _case((8, 2), 32, torch.bfloat16, 50, [3, 100, 160], seed=5)
    args = (q, kv.k_cache, kv.v_cache, kv.block_tables, kv.context_lens, SCALE, 50)
    out = paged_decode_attention_with_splits(*args, tiles_per_split=1, block_n=16)
    assert_close(out, paged_decode_attention_ref(*args))


def test_grid_covers_the_longest_sequence_up_to_the_cap():
    assert grid_splits(max_tiles=3, tiles_per_split=8) == 1
    assert grid_splits(max_tiles=17, tiles_per_split=8) == 3
    assert grid_splits(max_tiles=10_000, tiles_per_split=8) == 32


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
@pytest.mark.parametrize("window", [None, 300])
def test_a_sequence_gets_the_same_bits_alone_and_batched(window, dtype):
    """Batch invariance: a sequence's splits follow its own context, never the batch's size or its longest
    neighbour, so its output keeps every bit whether it runs alone, beside short sequences (one split, the
    direct path) or beside long ones (the split path). The kernel before 2026-12-04 chose the split count from
    the batch: 5 of these 8 sequences changed in fp32."""
    lens = [40, 300, 900, 5, 610, 77, 1200, 260]
    q, kv = _case((4, 1), 16, dtype, window, lens, seed=11)
    every = paged_decode_attention(q, kv.k_cache, kv.v_cache, kv.block_tables, kv.context_lens, SCALE, window)
    for i, ctx in enumerate(lens):
        blocks = -(-ctx // 16)
        alone = paged_decode_attention(q[i:i + 1], kv.k_cache, kv.v_cache, kv.block_tables[i:i + 1, :blocks],
                                       kv.context_lens[i:i + 1], SCALE, window)
        assert torch.equal(alone, every[i:i + 1]), f"sequence {i} ({ctx} tokens) changed when batched"
    short = [i for i, ctx in enumerate(lens) if ctx <= 256]
    few = paged_decode_attention(q[short], kv.k_cache, kv.v_cache, kv.block_tables[short, :16],
                                 kv.context_lens[short], SCALE, window)
    assert torch.equal(few, every[short])


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
