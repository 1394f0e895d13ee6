"""The C++ CPU paged decode attention against its PyTorch reference and against dense attention."""
import itertools

import pytest
import torch

from kernels import cpu_extension
from kernels import paged_decode_attention_cpu as cpu_kernel
from kernels.attention_ref import paged_decode_attention_ref
from kernels.paged_prefill_attention_cpu import paged_prefill_attention_cpu
from tests.kernels.kernel_cases import HEAD_LAYOUT_IDS, HEAD_LAYOUTS, assert_close, make_paged_kv, naive_attention

HEAD_DIM = 48
SCALE = HEAD_DIM ** -0.5
CONTEXT_LENS = [1, 17, 70, 129, 200]

pytestmark = pytest.mark.skipif(cpu_extension.load() is None, reason="no C++ compiler to build the CPU kernel")


def _case(layout, block_size, dtype, window, context_lens=CONTEXT_LENS, seed=0, head_dim=HEAD_DIM):
    num_heads, num_kv_heads = layout
    first_needed = None if window is None else [max(0, n - window) for n in context_lens]
    kv = make_paged_kv(context_lens, num_kv_heads, head_dim, block_size, dtype, first_needed, seed)
    q = torch.randn((len(context_lens), num_heads, head_dim), generator=torch.Generator().manual_seed(seed + 1))
    return q, kv.k_cache.cpu(), kv.v_cache.cpu(), kv.block_tables.cpu(), kv.context_lens.cpu(), kv


@pytest.mark.parametrize("layout, block_size, dtype, window", [
    pytest.param(layout, bs, dtype, window, id=f"{name}-bs{bs}-{str(dtype)[6:]}-{window or 'full'}")
    for (layout, name), bs, dtype, window in itertools.product(
        zip(HEAD_LAYOUTS, HEAD_LAYOUT_IDS), (16, 32), (torch.float32, torch.float16, torch.bfloat16), (None, 10, 64))])
def test_matches_reference(layout, block_size, dtype, window):
    q, k_cache, v_cache, tables, lens, _ = _case(layout, block_size, dtype, window)
    args = (q, k_cache, v_cache, tables, lens, SCALE, window)
    assert_close(cpu_kernel.paged_decode_attention_cpu(*args), paged_decode_attention_ref(*args), torch.float32)


@pytest.mark.parametrize("layout, head_dim", [((8, 1), 256), ((4, 1), 256), ((6, 2), 48), ((4, 1), 40), ((2, 2), 80),
                                              ((4, 1), 36)],
                         ids=["group8-d256", "gemma-d256", "group3-generic", "d40-generic", "d80", "d36-generic"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_vector_and_generic_paths_match_reference(layout, head_dim, dtype):
    """SIMD loops for head dims in multiples of 16 (AVX-512) or 8 (AVX2); generic loops otherwise (36 for both)."""
    q, k_cache, v_cache, tables, lens, _ = _case(layout, 16, dtype, 64, seed=7, head_dim=head_dim)
    args = (q, k_cache, v_cache, tables, lens, head_dim ** -0.5, 64)
    assert_close(cpu_kernel.paged_decode_attention_cpu(*args), paged_decode_attention_ref(*args), torch.float32)


@pytest.mark.parametrize("window", [None, 37])
def test_matches_dense_attention(window):
    q, k_cache, v_cache, tables, lens, kv = _case((4, 1), 16, torch.float32, window, seed=3)
    out = cpu_kernel.paged_decode_attention_cpu(q, k_cache, v_cache, tables, lens, SCALE, window)
    for i, ctx in enumerate(CONTEXT_LENS):
        expected = naive_attention(q[i:i + 1], kv.keys[i], kv.values[i], torch.tensor([ctx - 1]), SCALE, window)
        assert_close(out[i:i + 1], expected, torch.float32)


def test_a_sequence_gets_the_same_bits_alone_or_in_a_batch():
    q, k_cache, v_cache, tables, lens, _ = _case((4, 1), 16, torch.bfloat16, 64, seed=5)
    batched = cpu_kernel.paged_decode_attention_cpu(q, k_cache, v_cache, tables, lens, SCALE, 64)
    for i in range(len(CONTEXT_LENS)):
        alone = cpu_kernel.paged_decode_attention_cpu(q[i:i + 1], k_cache, v_cache, tables[i:i + 1], lens[i:i + 1],
                                                      SCALE, 64)
        assert torch.equal(alone, batched[i:i + 1])


@pytest.mark.parametrize("layout, head_dim", [((4, 1), 256), ((8, 1), 128), ((4, 2), 64), ((2, 1), 40), ((3, 3), 48),
                                              ((2, 1), 36)],
                         ids=["gemma-d256", "group8-d128", "gqa-d64", "d40-generic", "mha-d48", "d36-generic"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("window", [None, 10, 100])
def test_every_row_is_the_same_bits_as_the_prefill_kernel_gives_it(layout, head_dim, dtype, window):
    """A drafted decode and a recompute after preemption run a decoded token's row through the prefill kernel:
    both kernels must give it the same bits. Rows at every place of a prefill chunk (its masked keys differ)."""
    context_lens, num_new = [1, 9, 64, 65, 150, 300], 20
    num_heads, num_kv_heads = layout
    first_needed = None if window is None else [max(0, n - num_new - window + 1) for n in context_lens]
    kv = make_paged_kv(context_lens, num_kv_heads, head_dim, 16, dtype, first_needed, seed=13)
    k_cache, v_cache, tables, lens, scale = kv.k_cache, kv.v_cache, kv.block_tables, kv.context_lens, head_dim ** -0.5
    rows = [(i, pos) for i, ctx in enumerate(context_lens) for pos in range(max(0, ctx - num_new), ctx)]
    q = torch.randn((len(rows), num_heads, head_dim), generator=torch.Generator().manual_seed(17))
    chunk_sizes = torch.tensor([min(ctx, num_new) for ctx in context_lens])
    cu = torch.cat([torch.zeros(1, dtype=torch.long), chunk_sizes.cumsum(0)]).to(torch.int32)
    prefill = paged_prefill_attention_cpu(q, k_cache, v_cache, cu, lens, tables, scale, window)
    seq = torch.tensor([i for i, _ in rows])
    decode = cpu_kernel.paged_decode_attention_cpu(q, k_cache, v_cache, tables[seq],
                                                   torch.tensor([pos + 1 for _, pos in rows], dtype=torch.int32),
                                                   scale, window)
    assert torch.equal(decode, prefill)


@pytest.mark.parametrize("head_dim, window", [(256, None), (256, 100), (48, 10)], ids=["d256", "d256-w100", "d48-w10"])
def test_one_sequence_spread_over_the_threads_keeps_the_bits(head_dim, window):
    """With fewer (sequence, KV head) pairs than threads the kernel splits one sequence's scores by span and its
    values by dimension (`attend_split`); every row is the same bits as in a batch and as the prefill kernel's."""
    context_lens = [1, 64, 65, 300]
    first_needed = None if window is None else [max(0, n - window) for n in context_lens]
    kv = make_paged_kv(context_lens, 1, head_dim, 16, torch.float16, first_needed, seed=21)
    q = torch.randn((len(context_lens), 4, head_dim), generator=torch.Generator().manual_seed(22))
    scale = head_dim ** -0.5
    threads = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        batched = cpu_kernel.paged_decode_attention_cpu(q, kv.k_cache, kv.v_cache, kv.block_tables, kv.context_lens,
                                                        scale, window)
        for i in range(len(context_lens)):
            one = slice(i, i + 1)
            alone = cpu_kernel.paged_decode_attention_cpu(q[one], kv.k_cache, kv.v_cache, kv.block_tables[one],
                                                          kv.context_lens[one], scale, window)
            prefill = paged_prefill_attention_cpu(q[one], kv.k_cache, kv.v_cache, torch.tensor([0, 1], dtype=torch.int32),
                                                  kv.context_lens[one], kv.block_tables[one], scale, window)
            assert torch.equal(alone, batched[one]) and torch.equal(alone, prefill)
    finally:
        torch.set_num_threads(threads)


def test_inputs_the_kernel_does_not_take_go_to_the_reference():
    q, k_cache, v_cache, tables, lens, _ = _case((4, 2), 16, torch.float32, None)
    args = (q, k_cache, v_cache, tables.long(), lens, SCALE, None)  # int64 block tables
    assert torch.equal(cpu_kernel.paged_decode_attention_cpu(*args), paged_decode_attention_ref(*args))


def test_engine_selects_the_kernel_on_the_cpu():
    from engine.layers.ops import TORCH_OPS, select_ops

    ops = select_ops(torch.device("cpu"))
    assert ops.paged_decode_attention is cpu_kernel.paged_decode_attention_cpu
    assert select_ops(torch.device("cpu"), "torch") is TORCH_OPS
