"""N-gram drafts: the latest earlier occurrence of the longest suffix, periodic past the end."""
from __future__ import annotations

import random

import pytest

from engine.ngram_proposer import MAX_NGRAM, MIN_NGRAM, NgramIndex
from engine.sampling import SamplingParams


def _naive(ids: list[int], k: int) -> list[int]:
    """The definition, searched from scratch: latest earlier match of the longest suffix n-gram."""
    for n in range(min(MAX_NGRAM, len(ids) - 1), MIN_NGRAM - 1, -1):
        for start in range(len(ids) - n - 1, -1, -1):
            if ids[start:start + n] == ids[len(ids) - n:]:
                after = start + n
                return [ids[after + i % (len(ids) - after)] for i in range(k)]
    return []


def test_continues_the_latest_occurrence():
    ids = [1, 2, 3, 9, 1, 2, 3, 4, 5, 6, 1, 2, 3]
    assert NgramIndex().propose(ids, 3) == [4, 5, 6]


def test_longer_suffix_wins_over_a_later_shorter_match():
    ids = [5, 6, 7, 8, 0, 6, 7, 1, 5, 6, 7]  # "6 7" last seen before 1, "5 6 7" only before 8
    assert NgramIndex().propose(ids, 2) == [8, 0]


def test_a_loop_is_continued_periodically():
    ids = [9, 8, 1, 2, 1, 2]
    assert NgramIndex().propose(ids, 5) == [1, 2, 1, 2, 1]


def test_no_match_and_no_room_give_nothing():
    assert NgramIndex().propose([1, 2, 3, 4, 5], 4) == []
    assert NgramIndex().propose([1, 2, 1, 2], 0) == []
    assert NgramIndex().propose([7], 3) == []


def test_incremental_index_equals_a_search_from_scratch():
    rng = random.Random(0)
    for trial in range(20):
        ids = [rng.randrange(6) for _ in range(5)]
        index = NgramIndex()
        for _ in range(60):
            k = rng.randint(0, 6)
            assert index.propose(ids, k) == _naive(ids, k), (trial, ids, k)
            ids.extend(rng.randrange(6) for _ in range(rng.randint(1, 4)))


# ---- the engine with drafts -----------------------------------------------------------------------
def _loopy_prompts(n: int, seed: int) -> list[list[int]]:
    """Prompts with repeats, so drafts are proposed, and some of them are wrong."""
    rng = random.Random(seed)
    prompts = []
    for _ in range(n):
        motif = [rng.randrange(3, 500) for _ in range(rng.randint(2, 6))]
        prompts.append([rng.randrange(3, 500) for _ in range(rng.randint(1, 20))] + motif * rng.randint(2, 5))
    return prompts


def _without_drafts(tiny_checkpoints, tmp_path, prompts, params, arch="gemma3", **overrides):
    from tests.engine.engine_fixtures import make_llm

    plain = make_llm(tiny_checkpoints[arch], tmp_path, num_speculative_tokens=0, **overrides)
    return [o.token_ids for o in plain.generate(prompts, params)]


@pytest.mark.parametrize("arch", ["gemma3", "llama"])
@pytest.mark.parametrize("penalty", [1.0, 1.3])
def test_drafts_change_nothing_but_the_number_of_steps(arch, penalty, tiny_checkpoints, tmp_path):
    from tests.engine.engine_fixtures import make_llm

    prompts = _loopy_prompts(12, seed=1)
    params = SamplingParams(max_tokens=40, ignore_eos=True, repetition_penalty=penalty)
    llm = make_llm(tiny_checkpoints[arch], tmp_path, num_speculative_tokens=4)
    got = [o.token_ids for o in llm.generate(prompts, params)]
    assert got == _without_drafts(tiny_checkpoints, tmp_path, prompts, params, arch)
    snap = llm.engine.snapshot()
    assert 0 < snap.num_accepted_draft_tokens < snap.num_draft_tokens  # drafts were both kept and thrown away
    assert snap.num_steps < 40 + len(prompts)  # fewer steps than one token per step


def test_drafts_with_preemption_stops_and_eos(tiny_checkpoints, tmp_path):
    """A tight KV pool (drafts give way before anything is preempted), stop strings and EOS: the same tokens."""
    from tests.engine.engine_fixtures import make_llm
    from tests.engine.test_llm_engine import TIGHT_POOL

    prompts = _loopy_prompts(16, seed=2)
    params = SamplingParams(max_tokens=40, ignore_eos=True)
    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path, **TIGHT_POOL)
    got = llm.generate(prompts, params)
    assert [o.token_ids for o in got] == _without_drafts(tiny_checkpoints, tmp_path, prompts, params, **TIGHT_POOL)
    assert llm.engine.scheduler.num_preemptions > 0 and llm.engine.snapshot().num_accepted_draft_tokens > 0
    # Stop at a string that ends mid-draft, and at EOS: the output ends where it would one token at a time.
    text = got[0].text
    stop = SamplingParams(max_tokens=40, stop=[text[len(text) // 2:len(text) // 2 + 2]], ignore_eos=True)
    eos = SamplingParams(max_tokens=40)
    for p in (stop, eos):
        with_drafts = llm.generate(prompts[:4], p)
        plain = make_llm(tiny_checkpoints["gemma3"], tmp_path, num_speculative_tokens=0).generate(prompts[:4], p)
        assert [(o.token_ids, o.text, o.finish_reason) for o in with_drafts] == \
               [(o.token_ids, o.text, o.finish_reason) for o in plain]


def test_sampled_and_grammar_requests_get_no_draft(tiny_checkpoints, tmp_path):
    from tests.engine.engine_fixtures import make_llm

    llm = make_llm(tiny_checkpoints["gemma3"], tmp_path)
    llm.generate(_loopy_prompts(4, seed=3), SamplingParams(max_tokens=30, temperature=0.8, seed=1, ignore_eos=True))
    llm.generate(_loopy_prompts(2, seed=3), SamplingParams(max_tokens=30, json_schema={"type": "string"}))
    assert llm.engine.snapshot().num_draft_tokens == 0
