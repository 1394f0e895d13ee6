import random

import pytest
from tokenizers import Tokenizer

from engine.detokenizer import decode_delta
from tests.engine.tokenizer_fixtures import build_test_tokenizer

TEXTS = [
    "Items can be returned within 30 days of delivery. Refunds take 5 business days.",
    "退货政策：收货后30天内可以退货，退款在5个工作日内退回原支付方式。",
    "Mixed 中文 and English, emoji 📦🚚 and accents: café, naïve — “quotes”.",
    "  leading spaces,\nnew lines\n\n and\ttabs  ",
]


def _streamed(tokenizer, ids: list[int], chunk_sizes) -> tuple[str, list[str]]:
    """The text of ``ids`` fed in chunks (as decode steps and jump-forward chunks add them), and the deltas."""
    text, deltas, prefix, read, fed = "", [], 0, 0, 0
    for size in chunk_sizes:
        fed = min(len(ids), fed + size)
        delta = decode_delta(tokenizer, ids[:fed], prefix, read, final=fed == len(ids))
        prefix, read = delta.prefix_offset, delta.read_offset
        text += delta.text
        deltas.append(delta.text)
        if fed == len(ids):
            break
    return text, deltas


def _check(tokenizer, ids: list[int], rng: random.Random) -> None:
    whole = tokenizer.decode(ids, skip_special_tokens=True)
    assert _streamed(tokenizer, ids, [1] * len(ids))[0] == whole
    assert _streamed(tokenizer, ids, [rng.randint(1, 4) for _ in ids])[0] == whole


@pytest.fixture(scope="module")
def small_tokenizer(tmp_path_factory) -> Tokenizer:
    return Tokenizer.from_file(str(build_test_tokenizer(tmp_path_factory.mktemp("tok"))))


def test_streamed_text_equals_decoding_everything_at_once(small_tokenizer):
    rng = random.Random(0)
    for text in TEXTS:
        _check(small_tokenizer, small_tokenizer.encode(text).ids, rng)
    for _ in range(50):  # arbitrary ids, special ones included: byte pieces that never make a character
        _check(small_tokenizer, [rng.randrange(small_tokenizer.get_vocab_size()) for _ in range(rng.randint(1, 40))], rng)


def test_an_unfinished_character_is_held_back_until_it_completes(small_tokenizer):
    ids = small_tokenizer.encode("鑫📦").ids  # unseen in training: byte pieces
    pieces = [small_tokenizer.decode(ids[:n]) for n in range(1, len(ids) + 1)]
    assert any(p.endswith("\ufffd") for p in pieces), "no character is split: the test would check nothing"
    _, deltas = _streamed(small_tokenizer, ids, [1] * len(ids))
    assert all("\ufffd" not in d for d in deltas) and "".join(deltas) == "鑫📦"


def test_nothing_new_gives_nothing_and_keeps_the_offsets(small_tokenizer):
    ids = small_tokenizer.encode("Refunds take 5 days.").ids
    delta = decode_delta(small_tokenizer, ids, 0, len(ids))
    assert delta == ("", 0, len(ids))


def test_each_step_decodes_a_window_not_the_whole_output(small_tokenizer):
    ids = small_tokenizer.encode(" ".join(TEXTS[:1] * 20)).ids
    seen: list[int] = []

    class Counting:
        def decode(self, window, skip_special_tokens):
            seen.append(len(window))
            return small_tokenizer.decode(window, skip_special_tokens=skip_special_tokens)

    _streamed(Counting(), ids, [1] * len(ids))
    assert len(ids) > 300 and max(seen) < 16


@pytest.mark.real_model
def test_gemma_tokenizer_streams_the_same_text():
    from tests.engine.real_model import real_llm

    tokenizer = real_llm("int8").tokenizer
    rng = random.Random(1)
    for text in TEXTS:
        _check(tokenizer, tokenizer.encode(text, add_special_tokens=False).ids, rng)
    for _ in range(30):  # includes byte-fallback pieces (<0xE9> ...) and control tokens
        _check(tokenizer, [rng.randrange(tokenizer.get_vocab_size()) for _ in range(rng.randint(1, 40))], rng)
