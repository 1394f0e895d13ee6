"""JSON-schema constrained decoding with xgrammar: one compiler cache per tokenizer, one state per request."""
from __future__ import annotations

import os
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
import xgrammar as xgr
from tokenizers import Tokenizer

from engine.sampling import normalize_json_schema

JSON_SEPARATORS = (",", ":")  # compact output: no free whitespace, fewer tokens


# xgrammar 0.2.9 writes JSON string characters as these classes; both admit UTF-16 surrogates encoded
# in UTF-8 (invalid UTF-8, decoded as U+FFFD), and the length-bounded one (maxLength) also admits raw
# control characters, which json.loads rejects. Both are replaced by a strict class.
_LOOSE_STRING_CHARS = (r'[^\0-\x1f\"\\\r\n]', r'[^\"\\\r\n]')
_STRICT_STRING_CHARS = r'[^\0-\x1f\"\\\ud800-\udfff]'


def json_schema_to_ebnf(json_schema: str) -> str:
    """The EBNF of `json_schema`: no free whitespace, compact separators, strict string characters."""
    grammar = xgr.Grammar.from_json_schema(
        json_schema, any_whitespace=False, separators=JSON_SEPARATORS, strict_mode=True
    )
    ebnf = str(grammar)
    for loose in _LOOSE_STRING_CHARS:
        ebnf = ebnf.replace(loose, _STRICT_STRING_CHARS)
    return ebnf


def build_tokenizer_info(tokenizer: Tokenizer, vocab_size: int, stop_token_ids: Sequence[int]) -> xgr.TokenizerInfo:
    """Build an `xgrammar.TokenizerInfo` of `vocab_size` entries (the model's logits width).

    Special tokens (`<pad>`, `<unused0>`, ...) are left out as empty entries, which xgrammar never allows;
    otherwise it would accept them as their literal text inside JSON strings. Stop tokens are allowed
    by id once the JSON is complete.
    """
    if not stop_token_ids:
        raise ValueError("stop_token_ids must name at least one stop (EOS) token")
    encoded_vocab = [""] * vocab_size
    for token, token_id in tokenizer.get_vocab(with_added_tokens=True).items():
        if token_id < vocab_size:
            encoded_vocab[token_id] = token
    for token_id, added in tokenizer.get_added_tokens_decoder().items():
        if added.special and token_id < vocab_size:
            encoded_vocab[token_id] = ""
    # Private but stable helper: reads the vocab type (raw / byte-fallback / byte-level) from tokenizer.json.
    metadata = xgr.TokenizerInfo._detect_metadata_from_hf(tokenizer.to_str())
    return xgr.TokenizerInfo(
        encoded_vocab,
        metadata["vocab_type"],
        vocab_size=vocab_size,
        stop_token_ids=list(stop_token_ids),
        add_prefix_space=metadata["add_prefix_space"],
    )


def _bitmask_of(token_ids: Sequence[int], vocab_size: int) -> torch.Tensor:
    """A one-row xgrammar bitmask (int32 words, bit j of word w = token 32w+j) allowing only `token_ids`."""
    words = np.zeros(xgr.get_bitmask_shape(1, vocab_size), dtype=np.uint32)
    for token_id in token_ids:
        words[0, token_id // 32] |= np.uint32(1 << (token_id % 32))
    return torch.from_numpy(words.view(np.int32))


class GrammarState:
    """One request's position in its grammar: fills the next-token bitmask and accepts sampled tokens.

    The state is terminated once a stop token was accepted or once the JSON is complete and nothing but a
    stop token could follow (the closing brace of an object); the engine then finishes the request
    with finish_reason "stop", without sampling EOS. While terminated, only stop tokens are allowed.
    """

    def __init__(self, compiled: xgr.CompiledGrammar, stop_token_ids: Sequence[int], vocab_size: int) -> None:
        self._matcher = xgr.GrammarMatcher(compiled)
        self.stop_token_ids = tuple(stop_token_ids)
        self.vocab_size = vocab_size
        self._stop_mask = _bitmask_of(self.stop_token_ids, vocab_size)
        self._is_exhausted = False

    def fill_mask(self, bitmask: torch.Tensor, row: int = 0) -> None:
        """Write the allowed next tokens into `bitmask[row]` (a CPU int32 xgrammar bitmask)."""
        if self.is_terminated():
            bitmask[row].copy_(self._stop_mask[0])
        else:
            self._matcher.fill_next_token_bitmask(bitmask, row)

    def accept(self, token_id: int) -> None:
        """Advance by one sampled token; raises `ValueError` if the grammar does not allow it."""
        if self.is_terminated():
            raise ValueError(f"grammar already terminated; cannot accept token {token_id}")
        if not self._matcher.accept_token(int(token_id)):
            raise ValueError(f"token {token_id} is not allowed by the grammar")
        self._check_exhausted()

    def _check_exhausted(self) -> None:
        if self._matcher.is_completed() and not self._matcher.is_terminated():
            bitmask = xgr.allocate_token_bitmask(1, self.vocab_size)
            self._matcher.fill_next_token_bitmask(bitmask)
            self._is_exhausted = not bool((bitmask & ~self._stop_mask).any())

    def jump_forward_ids(self, tokenizer, max_tokens: int) -> list[int]:
        """Accept and return the tokens of the text the grammar forces next (at most `max_tokens`);
        stops early at a token the grammar would not take from this tokenization."""
        if max_tokens <= 0 or self.is_terminated():
            return []
        forced = self._matcher.find_jump_forward_string()
        if not forced:
            return []
        accepted: list[int] = []
        for token_id in tokenizer.encode(forced, add_special_tokens=False).ids[:max_tokens]:
            if self.is_terminated() or not self._matcher.accept_token(token_id):
                break
            accepted.append(token_id)
            self._check_exhausted()
        return accepted

    def is_terminated(self) -> bool:
        """True once the output is complete valid JSON that cannot continue (or a stop token was accepted)."""
        return self._is_exhausted or self._matcher.is_terminated()


def apply_grammar_masks(logits: torch.Tensor, rows: Sequence[int], grammars: Sequence[GrammarState]) -> None:
    """Mask, in place, the logits of `rows` (one grammar each) to the tokens their grammar allows."""
    vocab_size = grammars[0].vocab_size
    if logits.shape[-1] != vocab_size:
        raise ValueError(f"logits have {logits.shape[-1]} columns but the grammar vocabulary has {vocab_size}")
    bitmask = xgr.allocate_token_bitmask(logits.shape[0], vocab_size)
    for row, grammar in zip(rows, grammars):
        grammar.fill_mask(bitmask, row)
    xgr.apply_token_bitmask_inplace(logits, bitmask.to(logits.device), vocab_size=vocab_size, indices=list(rows))


class GrammarCompilerCache:
    """Compiles JSON schemas for one tokenizer and keeps the compiled grammars, keyed by schema string.

    `vocab_size` is the model's logits width (it may exceed the tokenizer's vocabulary; the extra ids are
    never allowed). `stop_token_ids` are the model's EOS ids. Thread-safe.
    """

    def __init__(
        self,
        tokenizer: Tokenizer | str | os.PathLike,
        vocab_size: int,
        stop_token_ids: Sequence[int],
        *,
        max_cached_grammars: int = 64,
    ) -> None:
        if not isinstance(tokenizer, Tokenizer):
            tokenizer = Tokenizer.from_file(os.fspath(tokenizer))
        self.vocab_size = vocab_size
        self.stop_token_ids = tuple(stop_token_ids)
        self.tokenizer_info = build_tokenizer_info(tokenizer, vocab_size, self.stop_token_ids)
        self._compiler = xgr.GrammarCompiler(self.tokenizer_info, cache_enabled=False)
        self._compiled: OrderedDict[str, xgr.CompiledGrammar] = OrderedDict()
        self._max_cached_grammars = max_cached_grammars
        self._lock = threading.Lock()

    def compile(self, json_schema: str | dict[str, Any]) -> xgr.CompiledGrammar:
        """The compiled grammar of `json_schema` (see `json_schema_to_ebnf`); cached."""
        key = normalize_json_schema(json_schema)
        with self._lock:
            if key in self._compiled:
                self._compiled.move_to_end(key)
                return self._compiled[key]
            try:
                compiled = self._compiler.compile_grammar(json_schema_to_ebnf(key))
            except (RuntimeError, ValueError) as error:
                reason = re.sub(r"^\[[^\]]*\] \S+: ", "", str(error)).strip()
                raise ValueError(f"invalid json_schema: {reason}") from error
            self._compiled[key] = compiled
            if len(self._compiled) > self._max_cached_grammars:
                self._compiled.popitem(last=False)
            return compiled

    def new_state(self, json_schema: str | dict[str, Any]) -> GrammarState:
        """A fresh `GrammarState` for one request constrained to `json_schema`."""
        return GrammarState(self.compile(json_schema), self.stop_token_ids, self.vocab_size)
