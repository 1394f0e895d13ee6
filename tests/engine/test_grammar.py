"""JSON-constrained decoding: whatever the logits, the output parses and fits the schema."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
import xgrammar as xgr
from tokenizers import Tokenizer
from tests.engine.tokenizer_fixtures import EOS_TOKEN_ID, VOCAB_SIZE, build_test_tokenizer

from engine.grammar import GrammarCompilerCache
from engine.loader import convert
from engine.sampling import Sampler, SamplingParams, SamplingRequest, make_generator

CATEGORIES = ["returns", "refunds", "shipping", "payment"]


def outline_schema(categories: list[str]) -> dict:
    return {
        "type": "object",
        "properties": {
            "category": {"type": "string", "enum": categories},
            "key_points": {
                "type": "array",
                "items": {"type": "string", "minLength": 1, "maxLength": 24},
                "minItems": 1,
                "maxItems": 4,
            },
        },
        "required": ["category", "key_points"],
    }


def assert_valid_outline(text: str, categories: list[str]) -> None:
    outline = json.loads(text)
    assert list(outline) == ["category", "key_points"], text
    assert outline["category"] in categories, text
    points = outline["key_points"]
    assert isinstance(points, list) and 1 <= len(points) <= 4, text
    assert all(isinstance(p, str) and 1 <= len(p) <= 24 for p in points), text
    # no free whitespace: the output is already in compact form
    assert json.dumps(outline, ensure_ascii=False, separators=(",", ":")) == text


def constrained_decode(
    cache: GrammarCompilerCache,
    tokenizer: Tokenizer,
    params_list: list[SamplingParams],
    seed: int,
    eos_bias: float = 0.0,
    max_steps: int = 400,
    sampler: Sampler | None = None,
) -> list[str]:
    """Decode a batch under random logits (seeded), accepting tokens as the engine would; returns texts."""
    logits_rng = torch.Generator().manual_seed(seed)
    sampler = sampler or Sampler()
    requests = [SamplingRequest(p, [], make_generator(p), cache.new_state(p.json_schema)) for p in params_list]
    outputs: list[list[int]] = [[] for _ in requests]
    active = list(range(len(requests)))
    for _ in range(max_steps):
        if not active:
            break
        logits = torch.randn(len(active), cache.vocab_size, generator=logits_rng) * 4
        logits[:, EOS_TOKEN_ID if cache.vocab_size == VOCAB_SIZE else 1] += eos_bias
        tokens = sampler.sample(logits, [requests[i] for i in active]).tolist()
        for i, token in zip(active, tokens):
            requests[i].grammar.accept(token)
            outputs[i].append(token)
        active = [i for i in active if not requests[i].grammar.is_terminated()]
    assert not active, "a constrained request did not terminate"
    return [tokenizer.decode(ids) for ids in outputs]


@pytest.fixture(scope="module")
def tokenizer_path(tmp_path_factory) -> Path:
    return build_test_tokenizer(tmp_path_factory.mktemp("tok"))


@pytest.fixture(scope="module")
def tokenizer(tokenizer_path) -> Tokenizer:
    return Tokenizer.from_file(str(tokenizer_path))


@pytest.fixture(scope="module")
def cache(tokenizer_path) -> GrammarCompilerCache:
    return GrammarCompilerCache(tokenizer_path, VOCAB_SIZE, [EOS_TOKEN_ID])


def _allowed(state, vocab_size: int) -> set[int]:
    bitmask = xgr.allocate_token_bitmask(1, vocab_size)
    state.fill_mask(bitmask)
    logits = torch.zeros(1, vocab_size)
    xgr.apply_token_bitmask_inplace(logits, bitmask)
    return set(torch.nonzero(logits[0] == 0).flatten().tolist())


@pytest.mark.parametrize("batch_seed", range(4))
def test_constrained_output_is_always_valid_json(cache, tokenizer, batch_seed):
    schema = json.dumps(outline_schema(CATEGORIES))
    params = [SamplingParams(temperature=1.0, seed=16 * batch_seed + i, json_schema=schema) for i in range(16)]
    params[0] = SamplingParams(json_schema=schema)  # greedy rides along
    params[1] = SamplingParams(temperature=1.0, top_p=0.95, seed=batch_seed, json_schema=schema)
    params[2] = SamplingParams(temperature=1.0, top_k=40, seed=batch_seed, json_schema=schema)
    # Odd batches look at few top candidates, so masked (-inf) tokens sit among them.
    sampler = Sampler(num_candidates=32 if batch_seed % 2 else 1024)
    for text in constrained_decode(cache, tokenizer, params, seed=batch_seed, sampler=sampler):
        assert_valid_outline(text, CATEGORIES)


def test_eos_is_masked_until_the_json_is_complete_then_the_grammar_terminates(cache, tokenizer):
    # A huge EOS logit never ends the object early; the request terminates right after its closing brace.
    params = [SamplingParams(temperature=1.0, seed=s, json_schema=outline_schema(CATEGORIES)) for s in range(8)]
    for text in constrained_decode(cache, tokenizer, params, seed=7, eos_bias=1e4):
        assert_valid_outline(text, CATEGORIES)


def test_terminated_grammar_allows_only_eos(cache, tokenizer):
    state = cache.new_state(outline_schema(CATEGORIES))
    assert EOS_TOKEN_ID not in _allowed(state, VOCAB_SIZE)
    for token in tokenizer.encode('{"category":"refunds","key_points":["fees"]}', add_special_tokens=False).ids:
        assert not state.is_terminated()
        state.accept(token)
    assert state.is_terminated()
    assert _allowed(state, VOCAB_SIZE) == {EOS_TOKEN_ID}
    with pytest.raises(ValueError, match="terminated"):
        state.accept(EOS_TOKEN_ID)


def test_disallowed_token_is_rejected(cache, tokenizer):
    state = cache.new_state(outline_schema(CATEGORIES))
    with pytest.raises(ValueError, match="not allowed"):
        state.accept(tokenizer.token_to_id("x"))


def _note_state(cache, tokenizer, max_length: int | None):
    note = {"type": "string"} if max_length is None else {"type": "string", "maxLength": max_length}
    state = cache.new_state({"type": "object", "properties": {"note": note}, "required": ["note"]})
    for token in tokenizer.encode('{"note":"', add_special_tokens=False).ids:
        state.accept(token)
    return state


@pytest.mark.parametrize("max_length", [None, 40])
def test_special_and_control_tokens_are_never_allowed_in_strings(cache, tokenizer, max_length):
    allowed = _allowed(_note_state(cache, tokenizer, max_length), VOCAB_SIZE)
    vocab = tokenizer.get_vocab()
    control_ids = {i for i in vocab.values() if any(ord(c) < 0x20 for c in tokenizer.decode([i]))}
    assert control_ids  # the byte-level alphabet has "\n", "\t", ...
    assert not allowed & (control_ids | {0, 1, 2})
    assert {vocab["a"], vocab["Ġ"], vocab['"']} <= allowed


@pytest.mark.parametrize("max_length", [None, 40])
@pytest.mark.parametrize(
    ("text", "is_valid"),
    [("한".encode(), True), ("😀".encode(), True), (b"\xed\xa8\xb5", False), (b"\x01", False)],
    ids=["hangul", "emoji", "utf8-encoded-surrogate", "control"],
)
def test_string_characters_are_valid_utf8_json(cache, tokenizer, max_length, text, is_valid):
    state = _note_state(cache, tokenizer, max_length)
    byte_token = {token: i for i, token in enumerate(cache.tokenizer_info.decoded_vocab) if len(token) == 1}
    try:
        for byte in text:
            state.accept(byte_token[bytes([byte])])
        state.accept(byte_token[b'"'])
    except ValueError:
        assert not is_valid
    else:
        assert is_valid


def test_unconstrained_rows_are_not_masked(cache):
    logits = torch.zeros(2, VOCAB_SIZE)
    logits[:, EOS_TOKEN_ID] = 10.0
    requests = [
        SamplingRequest(SamplingParams(), [], None, cache.new_state(outline_schema(CATEGORIES))),
        SamplingRequest(SamplingParams(), []),
    ]
    tokens = Sampler().sample(logits, requests)
    assert tokens[0] != EOS_TOKEN_ID and tokens[1] == EOS_TOKEN_ID


def test_compiled_grammars_are_cached_by_schema(cache):
    schema = outline_schema(["a", "b"])
    assert cache.compile(schema) is cache.compile(json.dumps(schema))
    assert cache.compile(schema) is not cache.compile(outline_schema(["a", "c"]))


def test_invalid_schema_raises_value_error(cache):
    with pytest.raises(ValueError, match="invalid json_schema"):
        cache.compile({"type": "no-such-type"})


def test_logits_width_must_match_the_grammar_vocabulary(cache):
    requests = [SamplingRequest(SamplingParams(), [], None, cache.new_state(outline_schema(CATEGORIES)))]
    with pytest.raises(ValueError, match="columns"):
        Sampler().sample(torch.zeros(1, VOCAB_SIZE + 8), requests)


@pytest.mark.real_model
def test_constrained_output_is_valid_with_gemma3_vocabulary():
    """The packaged Gemma 3's own tokenizer (from the converted cache; it read a file in /tmp that CI never had)."""
    categories = ["returns", "退货政策", "shipping", "配送"]
    tokenizer = Tokenizer.from_file(str(convert(progress=False) / "tokenizer.json"))
    cache = GrammarCompilerCache(tokenizer, 262_144, [1, 106])
    params = [SamplingParams(temperature=1.0, seed=s, json_schema=outline_schema(categories)) for s in range(16)]
    for text in constrained_decode(cache, tokenizer, params, seed=0):
        assert_valid_outline(text, categories)
