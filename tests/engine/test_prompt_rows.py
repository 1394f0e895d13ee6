"""Prompt rows: the plan, the mark, `Int8Linear`'s two kernels, and the runner marking real steps."""
from __future__ import annotations

import pytest
import torch

from engine import prompt_rows
from engine.prompt_rows import PromptRows, mark_prompt_rows, plan
from engine.quant import Int8Linear, quantize_groupwise
from engine.sampling import SamplingParams
from kernels.amx_matmul_cpu import amx_available, amx_matmul
from kernels.w8a8_matmul_cpu import pack_weight, w8a8_matmul
from tests.engine.engine_fixtures import make_llm

needs_amx = pytest.mark.skipif(not amx_available(), reason="no AMX bf16 tiles on this machine")


def test_plan():
    assert plan([]) is None and plan([False, False]) is None
    assert plan([True, True]) == PromptRows(0)
    assert plan([False, False, True]) == PromptRows(2)
    mixed = plan([False, True, False, True])
    assert mixed.first == 1 and mixed.prompt.tolist() == [1, 3] and mixed.other.tolist() == [0, 2]


def test_mark_is_scoped_and_nests():
    assert prompt_rows.current() is None
    with mark_prompt_rows([False, True]):
        assert prompt_rows.current() == PromptRows(1)
        with mark_prompt_rows([False]):
            assert prompt_rows.current() is None
        assert prompt_rows.current() == PromptRows(1)
    assert prompt_rows.current() is None


@needs_amx
@pytest.mark.parametrize("flags", [[True] * 9, [False] * 3 + [True] * 6, [False, True, True, False, True, False,
                                                                            False, True, True], [False] * 9])
def test_int8_linear_runs_prompt_rows_on_amx_and_the_rest_on_vnni(flags):
    torch.manual_seed(0)
    q, scale = quantize_groupwise(torch.randn(80, 64))
    layer = Int8Linear.from_int8(q, scale).prepare()
    assert layer.amx_prompt_rows
    x = torch.randn(9, 64)
    packed = pack_weight(q, scale)
    vnni, amx = w8a8_matmul(x, packed), amx_matmul(x, packed)
    assert torch.equal(layer(x), vnni)  # unmarked: every row on VNNI
    with mark_prompt_rows(flags):
        got = layer(x)
    for row, is_prompt in enumerate(flags):
        assert torch.equal(got[row], (amx if is_prompt else vnni)[row])


def test_the_runner_marks_prompt_tokens_only(tiny_checkpoints, tmp_path):
    """Prompt chunks are marked, generated tokens (decode steps) are not, and the head is never marked."""
    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path, dtype="int8", max_num_batched_tokens=16)
    model = llm.engine.runner.model
    seen = []
    body = next(m for m in model.modules() if isinstance(m, Int8Linear))
    hooks = [body.register_forward_pre_hook(lambda _, args: seen.append(("body", args[0].shape[0],
                                                                        prompt_rows.current()))),
             model.lm_head.register_forward_pre_hook(lambda _, args: seen.append(("head", prompt_rows.current())))]
    try:
        llm.generate([list(range(3, 40))], SamplingParams(max_tokens=3, ignore_eos=True))
    finally:
        for hook in hooks:
            hook.remove()
    body_calls = [(rows, mark) for kind, *rest in seen if kind == "body" for rows, mark in [rest]]
    # 37 prompt tokens in chunks of at most 16, then two decode steps of one token each
    assert [rows for rows, _ in body_calls] == [16, 16, 5, 1, 1]
    assert all(mark == PromptRows(0) for _, mark in body_calls[:3]) and body_calls[3][1] is None
    assert all(mark is None for kind, *rest in seen if kind == "head" for mark in rest)


@needs_amx
def test_int8_batched_equals_unbatched_with_prompt_rows_on_amx(tiny_checkpoints, tmp_path):
    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path, dtype="int8", max_num_batched_tokens=48, device="cpu")
    gen = torch.Generator().manual_seed(3)
    prompts = [torch.randint(3, 500, (int(n),), generator=gen).tolist()
               for n in torch.randint(5, 90, (10,), generator=gen)]
    params = SamplingParams(max_tokens=12, ignore_eos=True)
    batched = [out.token_ids for out in llm.generate(prompts, params)]
    assert batched == [llm.generate([p], params)[0].token_ids for p in prompts]
