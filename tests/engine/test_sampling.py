"""SamplingParams validation, the batched Sampler's processors and draws, and stop-string detection."""
from __future__ import annotations

import pytest
import torch

from engine.sampling import (
    Sampler,
    SamplingParams,
    SamplingRequest,
    apply_repetition_penalty,
    find_stop,
    make_generator,
    top_k_top_p_candidates,
)

VOCAB_SIZE = 512


def random_logits(num_seqs: int, seed: int, vocab_size: int = VOCAB_SIZE, scale: float = 3.0) -> torch.Tensor:
    return torch.randn(num_seqs, vocab_size, generator=torch.Generator().manual_seed(seed)) * scale


def request(params: SamplingParams, token_ids=()) -> SamplingRequest:
    return SamplingRequest(params, list(token_ids), make_generator(params))


# --- SamplingParams ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"max_tokens": 0}, "max_tokens"),
        ({"max_tokens": 2.5}, "max_tokens"),
        ({"max_tokens": True}, "max_tokens"),
        ({"temperature": -0.1}, "temperature"),
        ({"temperature": float("nan")}, "temperature"),
        ({"top_p": 0.0}, "top_p"),
        ({"top_p": 1.5}, "top_p"),
        ({"top_k": -1}, "top_k"),
        ({"top_k": 1.0}, "top_k"),
        ({"repetition_penalty": 0.0}, "repetition_penalty"),
        ({"stop": [""]}, "stop"),
        ({"stop": [1]}, "stop"),
        ({"seed": "7"}, "seed"),
        ({"ignore_eos": 1}, "ignore_eos"),
        ({"json_schema": "{not json"}, "json_schema"),
        ({"json_schema": "[1]"}, "json_schema"),
        ({"json_schema": 3}, "json_schema"),
    ],
)
def test_invalid_params_raise_naming_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        SamplingParams(**kwargs)


def test_params_are_normalized():
    params = SamplingParams(stop=["\n\n", "User:"], temperature=1, json_schema={"type": "object"})
    assert params.stop == ("\n\n", "User:")
    assert isinstance(params.temperature, float)
    assert params.json_schema == '{"type": "object"}'
    assert SamplingParams(stop="END").stop == ("END",)
    assert SamplingParams().is_greedy and not params.is_greedy
    hash(params)  # frozen and hashable
    with pytest.raises(AttributeError):
        params.temperature = 0.5  # type: ignore[misc]


def test_from_dict_rejects_unknown_keys():
    params = SamplingParams.from_dict({"max_tokens": 8, "temperature": 0.5, "stop": ["x"]})
    assert params == SamplingParams(max_tokens=8, temperature=0.5, stop=("x",))
    with pytest.raises(ValueError, match=r"unknown sampling parameter\(s\): best_of, frequency_penalty"):
        SamplingParams.from_dict({"max_tokens": 8, "frequency_penalty": 1.0, "best_of": 2})


def test_make_generator_only_for_seeded_sampling():
    assert make_generator(SamplingParams(seed=1)) is None  # greedy needs no RNG
    assert make_generator(SamplingParams(temperature=1.0)) is None  # unseeded uses the global RNG
    assert isinstance(make_generator(SamplingParams(temperature=1.0, seed=1)), torch.Generator)


# --- greedy and its limits --------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_greedy_is_argmax_and_leaves_logits_alone(dtype):
    logits = random_logits(6, seed=0).to(dtype)
    before = logits.clone()
    tokens = Sampler().sample(logits, [request(SamplingParams())] * 6)
    assert tokens.dtype == torch.long
    assert torch.equal(tokens, logits.argmax(dim=-1))
    assert torch.equal(logits, before)


@pytest.mark.parametrize(
    "params",
    [SamplingParams(temperature=1.5, top_k=1), SamplingParams(temperature=1.5, top_p=1e-6)],
    ids=["top_k=1", "top_p=1e-6"],
)
def test_narrowest_top_k_or_top_p_is_greedy(params):
    logits = random_logits(32, seed=1)
    tokens = Sampler().sample(logits, [request(params) for _ in range(32)])
    assert torch.equal(tokens, logits.argmax(dim=-1))


def test_mixed_batch_greedy_rows_are_argmax():
    logits = random_logits(4, seed=2)
    greedy = SamplingParams()
    params = [greedy, SamplingParams(temperature=1.0, seed=3), greedy, SamplingParams(temperature=2.0)]
    tokens = Sampler().sample(logits, [request(p) for p in params])
    assert tokens[0] == logits[0].argmax() and tokens[2] == logits[2].argmax()


# --- sampled distributions ----------------------------------------------------------------------

def _chi_square(counts: torch.Tensor, probs: torch.Tensor) -> float:
    expected = probs * counts.sum()
    keep = expected > 0
    return float(((counts[keep] - expected[keep]) ** 2 / expected[keep]).sum())


@pytest.mark.parametrize(
    ("params", "support"),
    [
        (SamplingParams(temperature=0.7), 6),
        (SamplingParams(temperature=1.3, top_k=3), 3),
        (SamplingParams(temperature=1.0, top_p=0.8), 3),  # masses .47 .26 .17 | .06 .03 .01
    ],
    ids=["temperature", "top_k", "top_p"],
)
def test_sampled_frequencies_match_the_distribution(params, support):
    base = torch.tensor([2.0, 1.4, 1.0, 0.0, -0.7, -2.0])
    num_draws = 20_000
    torch.manual_seed(0)
    tokens = Sampler().sample(base.repeat(num_draws, 1), [request(params)] * num_draws)
    counts = torch.bincount(tokens, minlength=6).float()
    probs = torch.zeros(6)
    probs[:support] = (base[:support] / params.temperature).softmax(dim=-1)
    assert counts[support:].sum() == 0
    # chi-square with support-1 degrees of freedom; 20.5 is the 0.1% critical value for 5 of them.
    assert _chi_square(counts[:support], probs[:support]) < 20.5


def _peaky_and_flat_logits(vocab_size: int = 4096) -> torch.Tensor:
    logits = random_logits(4, seed=11, vocab_size=vocab_size, scale=1.0)
    logits[:2] *= 5.0  # peaky: a narrow nucleus; rows 2-3 stay flat: a nucleus of thousands
    return logits


def test_top_candidates_agree_with_the_full_sort_or_defer_to_it():
    logits = _peaky_and_flat_logits()
    top_k, top_p = [0, 20, 0, 0], [0.9, 0.8, 0.9, 1.0]
    values, ids, is_exact = top_k_top_p_candidates(logits, top_k, top_p, num_candidates=64)
    full_values, full_ids, _ = top_k_top_p_candidates(logits, top_k, top_p, num_candidates=4096)
    assert is_exact.tolist() == [True, True, False, False]
    for row in (0, 1):
        kept = values[row] > float("-inf")
        assert 1 < int(kept.sum()) < 64
        assert torch.equal(ids[row][kept], full_ids[row][: int(kept.sum())])
        assert torch.equal(values[row][kept], full_values[row][: int(kept.sum())])
        assert not (full_values[row][int(kept.sum()) :] > float("-inf")).any()


def test_sampling_is_the_same_with_few_or_all_candidates():
    logits = _peaky_and_flat_logits()
    params = [SamplingParams(temperature=0.8, top_p=0.9, seed=1), SamplingParams(temperature=1.0, top_k=20, seed=2),
              SamplingParams(temperature=1.0, top_p=0.95, seed=3), SamplingParams(temperature=0.7, top_k=3000, seed=4)]
    draws = {}
    for num_candidates in (16, 4096):
        requests = [request(p) for p in params]
        sampler = Sampler(num_candidates=num_candidates)
        draws[num_candidates] = [sampler.sample(logits, requests).tolist() for _ in range(50)]
    assert draws[16] == draws[4096]


# --- seeded reproducibility -------------------------------------------------------------------

SEEDED = SamplingParams(temperature=0.9, top_p=0.9, top_k=50, seed=1234)


def _decode_steps(batch_params: list[SamplingParams], row: int, num_steps: int = 16) -> list[int]:
    """Sample `num_steps` tokens for a batch; row `row` gets the fixed logits stream; returns its tokens."""
    requests = [request(p, token_ids=[5, 6, 7]) for p in batch_params]
    out = []
    for step in range(num_steps):
        logits = random_logits(len(batch_params), seed=100 + step + 1000 * len(batch_params))
        logits[row] = random_logits(1, seed=step)[0]
        out.append(int(Sampler().sample(logits, requests)[row]))
    return out


def test_seeded_sampling_is_the_same_alone_and_in_a_mixed_batch():
    alone = _decode_steps([SEEDED], row=0)
    batch = [
        SamplingParams(),
        SamplingParams(temperature=1.0),
        SEEDED,
        SamplingParams(temperature=0.5, top_k=5, seed=9),
        SamplingParams(temperature=1.2, repetition_penalty=1.3),
        SamplingParams(top_p=0.5, temperature=0.8),
    ]
    assert _decode_steps(batch, row=2) == alone
    assert _decode_steps(batch[::-1], row=3) == alone
    assert len(set(alone)) > 1
    assert _decode_steps([SamplingParams(temperature=0.9, top_p=0.9, top_k=50, seed=4321)], row=0) != alone


# --- repetition penalty -----------------------------------------------------------------------

def test_repetition_penalty_matches_transformers():
    logits_process = pytest.importorskip("transformers.generation.logits_process")
    logits = random_logits(3, seed=5, vocab_size=64)
    token_ids = [[3, 3, 10, 63, 0], [], [7, 8, 9, 10, 11, 12, 13]]
    penalties = [1.3, 2.0, 0.7]
    ours = logits.clone()
    apply_repetition_penalty(ours, [0, 1, 2], token_ids, penalties)
    for row, (ids, penalty) in enumerate(zip(token_ids, penalties)):
        if not ids:
            assert torch.equal(ours[row], logits[row])
            continue
        processor = logits_process.RepetitionPenaltyLogitsProcessor(penalty)
        hf = processor(torch.tensor([ids]), logits[row : row + 1].clone())
        torch.testing.assert_close(ours[row : row + 1], hf, rtol=0, atol=0)


def test_sampler_applies_penalty_only_to_its_rows():
    logits = torch.tensor([[3.0, 2.9, -1.0, 0.5], [3.0, 2.9, -1.0, 0.5]])
    requests = [
        SamplingRequest(SamplingParams(repetition_penalty=1.5), [0, 2]),
        SamplingRequest(SamplingParams(), [0, 2]),
    ]
    tokens = Sampler().sample(logits, requests)
    assert tokens.tolist() == [1, 0]
    assert logits[0, 0] == 3.0  # the caller's logits are not modified


# --- stop strings -----------------------------------------------------------------------------

def test_find_stop_catches_strings_split_across_tokens():
    text, num_checked_chars, cuts = "", 0, []
    for piece in ["Hel", "lo", " ", "Wo", "rld"]:
        text += piece
        cuts.append(find_stop(text, ("o W", "\n\nUser:"), num_checked_chars))
        num_checked_chars = len(text)
    assert cuts == [None, None, None, 4, None]
    assert text[: cuts[3]] == "Hell"


def test_find_stop_semantics():
    assert find_stop("abc", ("x",), 0) is None
    assert find_stop("answer\n\nUser: hi", ("User:", "\n\n"), 0) == 6  # earliest of several
    assert find_stop("abcabc", ("abc",), start=3) == 3  # the match ending at 3 was already checked
    assert find_stop("abcab", ("abc",), start=3) is None
    assert find_stop("xxEN", ("END",), start=2) is None
    assert find_stop("xxEND", ("END",), start=4) == 2  # ends after start: caught though it began before
    assert find_stop("", ("a",), 0) is None
    assert find_stop("anything", (), 0) is None
