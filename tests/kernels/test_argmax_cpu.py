"""The C++ row-wise argmax against ``torch.max(dim=-1).indices``, and with a repetition penalty against the
penalty applied to a copy."""
import pytest
import torch

from kernels import cpu_extension
from kernels.argmax_cpu import (
    argmax_rows_cpu,
    argmax_rows_penalized_cpu,
    argmax_rows_penalized_ref,
    argmax_rows_ref,
)

pytestmark = pytest.mark.skipif(cpu_extension.load() is None, reason="no C++ compiler to build the CPU kernel")


@pytest.mark.parametrize("shape", [(1, 262144), (16, 262144), (3, 1000), (2, 17), (5, 1), (4, 15), (7, 129)])
def test_matches_reference(shape):
    logits = torch.randn(shape, generator=torch.Generator().manual_seed(shape[1]))
    assert torch.equal(argmax_rows_cpu(logits), argmax_rows_ref(logits))


def test_ties_go_to_the_first_index():
    logits = torch.zeros(4, 5000)
    logits[0, [7, 4000, 4999]] = 3.0  # across lanes and chunks
    logits[1, [4999, 2500]] = 1.0
    logits[2, 1::2] = 2.0  # every odd index ties
    # row 3 is all zeros
    assert argmax_rows_cpu(logits).tolist() == [7, 2500, 1, 0] == argmax_rows_ref(logits).tolist()


def test_masked_rows_and_extremes():
    logits = torch.full((3, 300), -float("inf"))
    logits[1, 299] = -1e30
    logits[2, 123] = float("inf")
    assert argmax_rows_cpu(logits).tolist() == [0, 299, 123] == argmax_rows_ref(logits).tolist()


def test_nan_counts_as_the_maximum():
    logits = torch.randn(2, 1000)
    logits[0, [600, 900]] = float("nan")
    logits[1, 5] = float("inf")
    logits[1, 40] = float("nan")
    assert argmax_rows_cpu(logits).tolist() == [600, 40] == argmax_rows_ref(logits).tolist()


def test_other_inputs_go_to_the_reference():
    logits = torch.randn(3, 100)
    assert torch.equal(argmax_rows_cpu(logits.bfloat16()), argmax_rows_ref(logits.bfloat16()))
    assert torch.equal(argmax_rows_cpu(logits[:, ::2]), argmax_rows_ref(logits[:, ::2]))  # not contiguous


# --- with a repetition penalty ------------------------------------------------------------------------------

def assert_penalized_matches(logits, token_ids, penalties):
    before = logits.clone()
    ours = argmax_rows_penalized_cpu(logits, token_ids, penalties)
    assert torch.equal(ours, argmax_rows_penalized_ref(logits, token_ids, penalties))
    assert torch.equal(logits.isnan(), before.isnan())  # left unchanged
    assert torch.equal(torch.nan_to_num(logits), torch.nan_to_num(before))
    return ours.tolist()


@pytest.mark.parametrize("vocab", [262144, 1000, 17])
def test_penalized_matches_reference(vocab):
    g = torch.Generator().manual_seed(vocab)
    logits = torch.randn(6, vocab, generator=g)
    # Mixed rows: many ids with repeats, none, a penalty of 1, a penalty below 1 (boosts seen tokens).
    token_ids = [torch.randint(0, vocab, (n,), generator=g).tolist() for n in (600, 0, 40, 300, 1, 50)]
    penalties = [1.05, 1.3, 1.0, 0.7, 2.0, 1.5]
    assert_penalized_matches(logits, token_ids, penalties)


def test_penalized_seen_winner_loses_to_the_next_best():
    logits = torch.zeros(2, 500)
    logits[:, 10] = 5.0
    logits[:, 20] = 4.9
    logits[1, 30] = -1.0
    logits[1, 40] = 0.6
    # Row 0: 5.0 / 1.05 < 4.9, so 20 wins. Row 1: 10 and 20 are seen too, 0.5 and 0.49 lose to unseen 40's 0.6.
    assert assert_penalized_matches(logits, [[10, 10], [10, 20, 30]], [1.05, 10.0]) == [20, 40]


def test_penalized_ties_go_to_the_first_index():
    logits = torch.zeros(3, 300)
    logits[0, 250] = 2.0
    logits[0, 100] = 4.0  # 4.0 / 2 == 2.0: seen 100 ties unseen 250, the lower index wins
    logits[1, 5] = 3.0
    logits[1, 200] = 3.0  # unseen 5 beats seen 200 (unchanged by a penalty of 1)
    logits[2] = -1.0  # every token: seen negatives are multiplied down, unseen -1.0 at index 0 wins
    assert assert_penalized_matches(logits, [[100], [200], [0, 1, 2]], [2.0, 1.0, 1.5]) == [100, 5, 3]


def test_penalized_masked_rows_and_nan():
    inf, nan = float("inf"), float("nan")
    logits = torch.full((4, 100), -inf)
    logits[1, 60] = -3.0  # only a seen token is finite: it wins
    logits[2, 7] = nan  # a seen NaN stays NaN and wins
    logits[2, 90] = inf
    logits[3, 40] = nan  # an unseen NaN before a seen one
    logits[3, 70] = nan
    ids = [[0, 5], [60], [7], [70]]
    assert assert_penalized_matches(logits, ids, [1.2, 1.2, 1.2, 1.2]) == [0, 60, 7, 40]


def test_penalized_other_inputs_go_to_the_reference():
    logits = torch.randn(2, 100)
    ids, penalties = [[1, 2, 3], [4]], [1.3, 0.9]
    expected = argmax_rows_penalized_ref(logits.bfloat16(), ids, penalties)
    assert torch.equal(argmax_rows_penalized_cpu(logits.bfloat16(), ids, penalties), expected)


def test_penalized_rejects_ids_out_of_range():
    kernels = cpu_extension.load()
    with pytest.raises(RuntimeError, match="out of range"):
        kernels.argmax_rows_penalized(torch.zeros(1, 10), torch.tensor([10]), torch.tensor([0, 1]),
                                      torch.tensor([1.1]))
