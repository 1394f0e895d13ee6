"""The C++ CPU paged prefill attention: against its PyTorch reference, and row results that never depend on
how a prompt is chunked or what else is in the batch."""
import itertools

import pytest
import torch

from kernels import cpu_extension
from kernels.attention_ref import paged_prefill_attention_ref
from kernels.paged_prefill_attention_cpu import paged_prefill_attention_cpu
from tests.kernels.kernel_cases import (
    HEAD_LAYOUT_IDS,
    HEAD_LAYOUTS,
    assert_close,
    make_paged_kv,
)

pytestmark = pytest.mark.skipif(cpu_extension.load() is None, reason="no C++ compiler to build the CPU kernel")


def _sequences(block_size):
    """``(context_len, num_new)``: one token, a whole prompt over several 64-position spans, a chunk after an
    unaligned cached prefix, one token after a long prefix, a chunk that crosses a span boundary."""
    return [(1, 1), (150, 150), (2 * block_size + 5, 7), (3 * block_size, 1), (90, 41)]


def _case(layout, block_size, dtype, window, sequences, head_dim, seed=0):
    num_heads, num_kv_heads = layout
    first_needed = None if window is None else [max(0, ctx - new - window + 1) for ctx, new in sequences]
    kv = make_paged_kv([ctx for ctx, _ in sequences], num_kv_heads, head_dim, block_size, dtype, first_needed, seed)
    num_new = torch.tensor([new for _, new in sequences])
    cu_seqlens_q = torch.cat([torch.zeros(1, dtype=torch.long), num_new.cumsum(0)]).to(torch.int32)
    q = torch.randn((int(num_new.sum()), num_heads, head_dim), generator=torch.Generator().manual_seed(seed + 1))
    return q, cu_seqlens_q, kv


@pytest.mark.parametrize("layout, block_size, dtype, window", [
    pytest.param(layout, bs, dtype, window, id=f"{name}-bs{bs}-{str(dtype)[6:]}-{window or 'full'}")
    for (layout, name), bs, dtype, window in itertools.product(
        zip(HEAD_LAYOUTS, HEAD_LAYOUT_IDS), (16, 32), (torch.float32, torch.float16, torch.bfloat16), (None, 10, 70))])
def test_matches_reference(layout, block_size, dtype, window):
    q, cu, kv = _case(layout, block_size, dtype, window, _sequences(block_size), head_dim=48)
    args = (q, kv.k_cache, kv.v_cache, cu, kv.context_lens, kv.block_tables, 48 ** -0.5, window)
    assert_close(paged_prefill_attention_cpu(*args), paged_prefill_attention_ref(*args), torch.float32)


@pytest.mark.parametrize("layout, head_dim", [((4, 1), 256), ((8, 1), 128), ((4, 2), 64), ((2, 1), 40)],
                         ids=["gemma-d256", "group8-d128", "gqa-d64", "d40"])
@pytest.mark.parametrize("window", [None, 100])
def test_vector_and_generic_paths_match_reference(layout, head_dim, window):
    q, cu, kv = _case(layout, 16, torch.float16, window, [(300, 300), (520, 77), (64, 3)], head_dim, seed=5)
    args = (q, kv.k_cache, kv.v_cache, cu, kv.context_lens, kv.block_tables, head_dim ** -0.5, window)
    assert_close(paged_prefill_attention_cpu(*args), paged_prefill_attention_ref(*args), torch.float32)


@pytest.mark.parametrize("window", [None, 50])
def test_rows_are_the_same_bits_however_the_prompt_is_chunked_or_batched(window):
    """A 300-token prompt whole, or in three chunks each batched with other sequences: every row identical."""
    ctx, head_dim = 300, 256
    q, _, kv = _case((4, 1), 16, torch.float16, window, [(ctx, ctx), (180, 60)], head_dim, seed=11)
    scale = head_dim ** -0.5
    other_q = q[ctx:]
    whole = paged_prefill_attention_cpu(q[:ctx], kv.k_cache, kv.v_cache, torch.tensor([0, ctx], dtype=torch.int32),
                                        kv.context_lens[:1], kv.block_tables[:1], scale, window)
    pieces = []
    for lo, hi in [(0, 37), (37, 170), (170, 300)]:
        # the chunk after the other sequence's 60 rows, with its context ending at the chunk's last token
        batch_q = torch.cat([other_q, q[lo:hi]])
        batch_cu = torch.tensor([0, 60, 60 + hi - lo], dtype=torch.int32)
        lens = torch.tensor([180, hi], dtype=torch.int32)
        tables = torch.stack([kv.block_tables[1], kv.block_tables[0]])
        pieces.append(paged_prefill_attention_cpu(batch_q, kv.k_cache, kv.v_cache, batch_cu, lens, tables, scale,
                                                  window)[60:])
    assert torch.equal(torch.cat(pieces), whole)


def test_rejects_inconsistent_arguments():
    q, cu, kv = _case((4, 1), 16, torch.float32, None, [(5, 5), (9, 2)], head_dim=32)
    kernels = cpu_extension.load()
    with pytest.raises(RuntimeError, match="cu_seqlens"):
        kernels.paged_prefill_attention(q, kv.k_cache, kv.v_cache, kv.block_tables, cu[:2], kv.context_lens, 0.1, 0)
    with pytest.raises(RuntimeError, match="context must hold"):
        kernels.paged_prefill_attention(q, kv.k_cache, kv.v_cache, kv.block_tables, cu,
                                        torch.tensor([3, 9], dtype=torch.int32), 0.1, 0)
