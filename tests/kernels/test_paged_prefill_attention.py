"""Paged prefill attention: the Triton kernel against its reference, the reference against dense attention; decode rows
through it as one-token chunks (the engine's CUDA path) against the decode reference, with the same bits on every path."""
import pytest
import torch

from kernels.attention_ref import paged_decode_attention_ref, paged_prefill_attention_ref
from kernels.paged_prefill_attention import paged_prefill_attention
from tests.kernels.kernel_cases import (ATTENTION_CASES, DEVICE, HEAD_LAYOUT_IDS, HEAD_LAYOUTS, assert_close,
                                        make_paged_kv, naive_attention)

HEAD_DIM = 32
SCALE = HEAD_DIM ** -0.5


def _sequences(block_size):
    """``(context_len, num_new)`` per sequence: one token, a whole prompt, chunks after a cached
    prefix (unaligned to the block), and a single new token after a long prefix."""
    return [(1, 1), (block_size + 1, block_size + 1), (2 * block_size + 5, 7), (3 * block_size, 1), (20, 13)]


def _case(layout, block_size, dtype, window, sequences, seed=0):
    num_heads, num_kv_heads = layout
    context_lens = [ctx for ctx, _ in sequences]
    first_needed = None if window is None else [max(0, ctx - new - window + 1) for ctx, new in sequences]
    kv = make_paged_kv(context_lens, num_kv_heads, HEAD_DIM, block_size, dtype, first_needed, seed)
    num_new = torch.tensor([new for _, new in sequences])
    cu_seqlens_q = torch.cat([torch.zeros(1, dtype=torch.long), num_new.cumsum(0)]).to(torch.int32).to(DEVICE)
    q = torch.randn((int(num_new.sum()), num_heads, HEAD_DIM), generator=torch.Generator().manual_seed(seed + 1))
    return q.to(dtype).to(DEVICE), cu_seqlens_q, kv


@ATTENTION_CASES
def test_kernel_matches_reference(layout, block_size, dtype, window):
    q, cu_seqlens_q, kv = _case(layout, block_size, dtype, window, _sequences(block_size))
    args = (q, kv.k_cache, kv.v_cache, cu_seqlens_q, kv.context_lens, kv.block_tables, SCALE, window)
    assert_close(paged_prefill_attention(*args), paged_prefill_attention_ref(*args), dtype)


@pytest.mark.parametrize("window", [None, 1, 24])
def test_long_prompts_span_many_query_and_key_tiles(window):
    q, cu_seqlens_q, kv = _case((4, 1), 16, torch.float32, window, [(150, 150), (90, 41)], seed=4)
    args = (q, kv.k_cache, kv.v_cache, cu_seqlens_q, kv.context_lens, kv.block_tables, SCALE, window)
    assert_close(paged_prefill_attention(*args), paged_prefill_attention_ref(*args))


def test_chunked_prefill_equals_whole_prefill():
    """The same prompt prefilled whole, or as a cached prefix plus a chunk, gives the same rows."""
    layout, ctx, split = (4, 2), 45, 29
    q, cu_whole, kv = _case(layout, 16, torch.float32, None, [(ctx, ctx)], seed=9)
    whole = paged_prefill_attention(q, kv.k_cache, kv.v_cache, cu_whole, kv.context_lens, kv.block_tables, SCALE)
    cu_chunk = torch.tensor([0, ctx - split], dtype=torch.int32, device=DEVICE)
    chunk = paged_prefill_attention(q[split:], kv.k_cache, kv.v_cache, cu_chunk, kv.context_lens,
                                    kv.block_tables, SCALE)
    assert_close(chunk, whole[split:])


def _decode_by_prefill(q, k_cache, v_cache, block_tables, context_lens, scale, window=None):
    """Decode rows through the prefill kernel, each sequence a one-token chunk, as the runner sends them on CUDA."""
    cu_seqlens_q = torch.arange(q.shape[0] + 1, dtype=torch.int32, device=q.device)
    return paged_prefill_attention(q, k_cache, v_cache, cu_seqlens_q, context_lens, block_tables, scale, window)


@ATTENTION_CASES
def test_decode_rows_by_prefill_match_the_decode_reference(layout, block_size, dtype, window):
    num_heads, num_kv_heads = layout
    lens = [1, block_size + 1, 2 * block_size + 5, 3 * block_size]
    first_needed = None if window is None else [max(0, n - window) for n in lens]
    kv = make_paged_kv(lens, num_kv_heads, HEAD_DIM, block_size, dtype, first_needed, seed=2)
    q = torch.randn((len(lens), num_heads, HEAD_DIM), generator=torch.Generator().manual_seed(3)).to(dtype).to(DEVICE)
    args = (q, kv.k_cache, kv.v_cache, kv.block_tables, kv.context_lens, SCALE, window)
    assert_close(_decode_by_prefill(*args), paged_decode_attention_ref(*args), dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
@pytest.mark.parametrize("window", [None, 300])
def test_a_generated_row_gets_the_same_bits_on_every_path(window, dtype):
    """Batch invariance on CUDA: a generated token's row is decoded alone, decoded among other sequences, or
    verified as the first row of an n-gram draft chunk (whose length the step's token budget sets), and keeps
    every bit. The first row of a sequence's chunk always sits at its tile's start, so this holds under the
    interpreter too (where numpy's BLAS rounds by a row's place in a tile)."""
    lens, drafts = [40, 300, 900, 5, 610, 77], 4
    kv = make_paged_kv([n + drafts for n in lens], 1, HEAD_DIM, 16, dtype, seed=12)  # room for the drafts' keys
    gen = torch.Generator().manual_seed(13)
    q = torch.randn((len(lens), 4, HEAD_DIM), generator=gen).to(dtype).to(DEVICE)
    drafted = torch.randn((drafts, 4, HEAD_DIM), generator=gen).to(dtype).to(DEVICE)
    decode_lens = torch.tensor(lens, dtype=torch.int32, device=DEVICE)
    batched = _decode_by_prefill(q, kv.k_cache, kv.v_cache, kv.block_tables, decode_lens, SCALE, window)
    for i, ctx in enumerate(lens):
        table = kv.block_tables[i:i + 1]
        alone = _decode_by_prefill(q[i:i + 1], kv.k_cache, kv.v_cache, table, decode_lens[i:i + 1], SCALE, window)
        chunk = paged_prefill_attention(torch.cat([q[i:i + 1], drafted]), kv.k_cache, kv.v_cache,
                                        torch.tensor([0, drafts + 1], dtype=torch.int32, device=DEVICE),
                                        kv.context_lens[i:i + 1], table, SCALE, window)
        assert torch.equal(alone, batched[i:i + 1]), f"sequence {i} ({ctx} tokens) changed when batched"
        assert torch.equal(chunk[:1], alone), f"sequence {i} ({ctx} tokens) changed among drafts"


def test_the_triton_backend_decodes_through_the_prefill_kernel():
    from engine.layers.ops import TORCH_OPS, select_ops

    assert select_ops(torch.device("cpu"), "triton").decode_by_prefill
    assert not TORCH_OPS.decode_by_prefill and not select_ops(torch.device("cpu")).decode_by_prefill


@pytest.mark.parametrize("window", [None, 1, 10])
@pytest.mark.parametrize("block_size", [16, 32])
@pytest.mark.parametrize("layout", HEAD_LAYOUTS, ids=HEAD_LAYOUT_IDS)
def test_reference_matches_naive_attention(layout, block_size, window):
    sequences = _sequences(block_size)
    q, cu_seqlens_q, kv = _case(layout, block_size, torch.float32, window, sequences, seed=7)
    out = paged_prefill_attention_ref(q, kv.k_cache, kv.v_cache, cu_seqlens_q, kv.context_lens,
                                      kv.block_tables, SCALE, window)
    for i, (ctx, new) in enumerate(sequences):
        lo, hi = cu_seqlens_q[i].item(), cu_seqlens_q[i + 1].item()
        positions = torch.arange(ctx - new, ctx)
        expected = naive_attention(q[lo:hi].cpu(), kv.keys[i], kv.values[i], positions, SCALE, window)
        assert_close(out[lo:hi].cpu(), expected, torch.float32)


def test_rejects_bad_arguments():
    q, cu_seqlens_q, kv = _case((4, 2), 16, torch.float32, None, [(5, 5), (9, 2)])
    good = dict(q=q, k_cache=kv.k_cache, v_cache=kv.v_cache, cu_seqlens_q=cu_seqlens_q,
                context_lens=kv.context_lens, block_tables=kv.block_tables, scale=SCALE)
    bad_cases = {
        "cu_seqlens_q": cu_seqlens_q[:2],  # one sequence, but two block-table rows
        "block_tables": kv.block_tables.float(),
        "k_cache": kv.k_cache.half(),
        "sliding_window": 0,
    }
    for name, value in bad_cases.items():
        with pytest.raises(ValueError):
            paged_prefill_attention(**{**good, name: value})
