"""A small byte-level BPE tokenizer for fast tests, trained in memory (deterministic, well under a second)."""
from __future__ import annotations

import itertools
import json
import os
from pathlib import Path

from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

PAD_TOKEN_ID = 0
EOS_TOKEN_ID = 1
BOS_TOKEN_ID = 2
SPECIAL_TOKENS = ("<pad>", "<eos>", "<bos>")
VOCAB_SIZE = 512

_CATEGORIES = ("returns", "refunds", "shipping", "payment", "warranty", "account", "orders")
_POINTS = (
    "time limit", "condition", "process", "fees", "exchanges", "holiday season", "tracking",
    "international", "damaged items", "store credit", "card payments", "password reset",
)
_SENTENCES = (
    "Items can be returned within 30 days of delivery.",
    "Refunds are issued to the original payment method within 5 business days.",
    "Standard shipping takes 3 to 7 days; express shipping takes 1 to 2 days.",
    "Please contact support if your order arrives damaged.",
    "The warranty covers manufacturing defects for one year.",
    "You can reset your password from the account settings page.",
    "Question: How do I return an item?\nAnswer: Start a return from your orders page.",
    "退货政策：收货后30天内可以退货。",
    "请联系客服，我们会尽快处理您的订单。",
)


def _training_lines() -> list[str]:
    lines = list(_SENTENCES)
    for i, (category, a, b) in enumerate(zip(itertools.cycle(_CATEGORIES), _POINTS, reversed(_POINTS))):
        outline = {"category": category, "key_points": [a, b][: 1 + i % 2]}
        lines.append(json.dumps(outline, separators=(",", ":")))
        lines.append(json.dumps(outline))
    for n, category in enumerate(_CATEGORIES * 8):
        lines.append(f'{{"id":{n},"category":"{category}","score":{n * 0.25}}} order #{1000 + 37 * n}')
    return lines * 4


def build_test_tokenizer(tmp_dir: str | os.PathLike) -> Path:
    """Write `tokenizer.json` (<pad>=0, <eos>=1, <bos>=2, 512 tokens, <bos> prepended) into `tmp_dir`."""
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        special_tokens=list(SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(_training_lines(), trainer)
    tokenizer.post_processor = processors.TemplateProcessing(
        single="<bos> $A", pair="<bos> $A <bos> $B", special_tokens=[("<bos>", BOS_TOKEN_ID)]
    )
    assert tokenizer.get_vocab_size() == VOCAB_SIZE, tokenizer.get_vocab_size()
    assert [tokenizer.token_to_id(t) for t in SPECIAL_TOKENS] == [PAD_TOKEN_ID, EOS_TOKEN_ID, BOS_TOKEN_ID]
    path = Path(tmp_dir) / "tokenizer.json"
    tokenizer.save(str(path))
    return path
