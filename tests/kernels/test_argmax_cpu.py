"""The C++ row-wise argmax against ``torch.max(dim=-1).indices``."""
import pytest
import torch

from kernels import cpu_extension
from kernels.argmax_cpu import argmax_rows_cpu, argmax_rows_ref

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
