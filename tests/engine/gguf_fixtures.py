"""Tiny GGUF files for tests: gemma3, llama and qwen2 with random weights and a tiny vocabulary.

`write_tiny_gguf(path, arch)` writes a file that both our loader and transformers can read. The
tensors use llama.cpp's conventions: Gemma norms stored as ``1 + w``, Llama Q/K rows permuted for
llama.cpp's rope layout, dims reversed on disk (the writer does that).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import gguf
import numpy as np
from gguf.quants import quantize

# A sentencepiece-style vocabulary: specials, bytes, letters and a few merged pieces.
_SPECIALS = {"gemma3": ["<pad>", "<eos>", "<bos>", "<unk>", "<start_of_turn>", "<end_of_turn>"],
             "llama": ["<unk>", "<s>", "</s>"]}
_PIECES = ["\u2581", "a", "b", "c", "d", "e", "h", "l", "o", "r", "w", "\u2581a", "\u2581b", "ab", "\u2581ab",
           "he", "ll", "\u2581he", "\u2581hell", "\u2581hello", "or", "\u2581w", "\u2581wor", "\u2581world"]
_QWEN_TOKENS = ["!", "a", "b", "c", "d", "e", "h", "l", "o", "r", "w", "\u0120", "he", "ll", "hell", "hello", "\u0120w",
                "or", "\u0120wor", "\u0120worl", "\u0120world", "<|endoftext|>", "<|im_start|>", "<|im_end|>"]
_QWEN_MERGES = ["h e", "l l", "he ll", "hell o", "\u0120 w", "o r", "\u0120w or", "\u0120wor l", "\u0120worl d"]


@dataclass(frozen=True)
class TinySpec:
    """Sizes of a tiny model; in-features are multiples of 32 so Q8_0/Q4_0/Q5_0 blocks fit."""

    arch: str = "gemma3"
    hidden_size: int = 64
    intermediate_size: int = 128
    num_layers: int = 6
    num_heads: int = 4
    num_kv_heads: int = 1
    head_dim: int = 16
    sliding_window: int = 8
    rope_theta: float = 1_000_000.0
    rms_norm_eps: float = 1e-6
    context_length: int = 128
    tied: bool = True
    quant: gguf.GGMLQuantizationType = gguf.GGMLQuantizationType.Q8_0
    extra_metadata: dict[str, Any] = field(default_factory=dict)


SPECS = {
    "gemma3": TinySpec(),
    "llama": TinySpec(arch="llama", num_layers=2, num_kv_heads=2, rope_theta=10000.0, rms_norm_eps=1e-5, tied=False),
    "qwen2": TinySpec(arch="qwen2", num_layers=2, num_kv_heads=2, rope_theta=10000.0, tied=True),
}


def tiny_spec(arch: str = "gemma3", **changes: Any) -> TinySpec:
    """The default spec of one architecture, with some fields changed."""
    return replace(SPECS.get(arch, replace(SPECS["llama"], arch=arch)), **changes)


def _tokenizer(arch: str) -> tuple[str, list[str], list[int], list[str] | None]:
    if arch == "qwen2":
        types = [3 if t.startswith("<|") else 1 for t in _QWEN_TOKENS]
        return "gpt2", _QWEN_TOKENS, types, _QWEN_MERGES
    specials = _SPECIALS["gemma3" if arch == "gemma3" else "llama"]
    byte_tokens = [f"<0x{i:02X}>" for i in range(256)]
    tokens = specials + byte_tokens + _PIECES
    types = [2 if t == "<unk>" else 3 for t in specials] + [6] * 256 + [1] * len(_PIECES)
    return "llama", tokens, types, None


def _add_metadata(w: gguf.GGUFWriter, spec: TinySpec, tokens: list[str], types: list[int],
                  model: str, merges: list[str] | None) -> None:
    w.add_name(f"tiny-{spec.arch}")
    w.add_context_length(spec.context_length)
    w.add_embedding_length(spec.hidden_size)
    w.add_block_count(spec.num_layers)
    w.add_feed_forward_length(spec.intermediate_size)
    w.add_head_count(spec.num_heads)
    w.add_head_count_kv(spec.num_kv_heads)
    w.add_layer_norm_rms_eps(spec.rms_norm_eps)
    w.add_rope_freq_base(spec.rope_theta)
    if spec.arch == "gemma3":
        w.add_key_length(spec.head_dim)
        w.add_value_length(spec.head_dim)
        w.add_sliding_window(spec.sliding_window)
    else:
        w.add_rope_dimension_count(spec.head_dim)
    w.add_tokenizer_model(model)
    w.add_tokenizer_pre("qwen2" if spec.arch == "qwen2" else "default")
    w.add_token_list(tokens)
    w.add_token_scores([0.0] * len(tokens))
    w.add_token_types(types)
    if merges:
        w.add_token_merges(merges)
    if spec.arch == "gemma3":
        w.add_bos_token_id(2), w.add_eos_token_id(1), w.add_unk_token_id(3), w.add_pad_token_id(0)
        w.add_add_bos_token(True)
    elif spec.arch == "qwen2":
        eot = tokens.index("<|endoftext|>")
        w.add_bos_token_id(eot), w.add_eos_token_id(eot), w.add_pad_token_id(eot)
        w.add_add_bos_token(False)
    else:
        w.add_bos_token_id(1), w.add_eos_token_id(2), w.add_unk_token_id(0)
        w.add_add_bos_token(True)
    for key, value in spec.extra_metadata.items():
        _add_any(w, key.format(arch=spec.arch), value)


def _add_any(w: gguf.GGUFWriter, key: str, value: Any) -> None:
    if isinstance(value, bool):
        w.add_bool(key, value)
    elif isinstance(value, int):
        w.add_uint32(key, value)
    elif isinstance(value, float):
        w.add_float32(key, value)
    elif isinstance(value, str):
        w.add_string(key, value)
    else:
        w.add_array(key, list(value))


def tiny_tensors(spec: TinySpec, vocab_size: int, seed: int = 0) -> dict[str, np.ndarray]:
    """Random weights under GGUF names, numpy [out, in] order, norms as llama.cpp stores them."""
    rng = np.random.default_rng(seed)
    h, ff, q_out, kv_out = spec.hidden_size, spec.intermediate_size, spec.num_heads * spec.head_dim, \
        spec.num_kv_heads * spec.head_dim

    def mat(rows: int, cols: int) -> np.ndarray:
        return (rng.standard_normal((rows, cols)) * 0.05).astype(np.float32)

    def norm(n: int) -> np.ndarray:
        return (1.0 + 0.1 * rng.standard_normal(n)).astype(np.float32)

    t = {"token_embd.weight": mat(vocab_size, h), "output_norm.weight": norm(h)}
    if not spec.tied:
        t["output.weight"] = mat(vocab_size, h)
    for i in range(spec.num_layers):
        p = f"blk.{i}."
        t |= {p + "attn_norm.weight": norm(h), p + "attn_q.weight": mat(q_out, h), p + "attn_k.weight": mat(kv_out, h),
              p + "attn_v.weight": mat(kv_out, h), p + "attn_output.weight": mat(h, q_out),
              p + "ffn_gate.weight": mat(ff, h), p + "ffn_up.weight": mat(ff, h), p + "ffn_down.weight": mat(h, ff),
              p + "ffn_norm.weight": norm(h)}
        if spec.arch == "gemma3":
            t |= {p + "attn_q_norm.weight": norm(spec.head_dim), p + "attn_k_norm.weight": norm(spec.head_dim),
                  p + "post_attention_norm.weight": norm(h), p + "post_ffw_norm.weight": norm(h)}
        if spec.arch == "qwen2":
            t |= {p + "attn_q.bias": norm(q_out) - 1, p + "attn_k.bias": norm(kv_out) - 1,
                  p + "attn_v.bias": norm(kv_out) - 1}
    return t


def write_tiny_gguf(path: str | Path, arch: str = "gemma3", spec: TinySpec | None = None, seed: int = 0,
                    tensor_types: dict[str, gguf.GGMLQuantizationType] | None = None) -> Path:
    """Write a tiny GGUF; 2-D weights use ``spec.quant``, 1-D ones F32, unless ``tensor_types`` says otherwise."""
    spec = spec or tiny_spec(arch)
    model, tokens, types, merges = _tokenizer(spec.arch)
    path = Path(path)
    w = gguf.GGUFWriter(path, spec.arch)
    _add_metadata(w, spec, tokens, types, model, merges)
    for name, array in tiny_tensors(spec, len(tokens), seed).items():
        kind = (tensor_types or {}).get(name, spec.quant if array.ndim == 2 else gguf.GGMLQuantizationType.F32)
        if kind == gguf.GGMLQuantizationType.F32:
            w.add_tensor(name, array)
        elif kind == gguf.GGMLQuantizationType.F16:
            w.add_tensor(name, array.astype(np.float16))
        elif kind in (gguf.GGMLQuantizationType.Q8_0, gguf.GGMLQuantizationType.Q4_0,
                      gguf.GGMLQuantizationType.Q5_0, gguf.GGMLQuantizationType.BF16):
            w.add_tensor(name, quantize(array, kind), raw_dtype=kind)
        else:  # any other type: bytes of the right size, for "unsupported type" tests
            block, size = gguf.GGML_QUANT_SIZES[kind]
            raw = np.zeros((array.shape[0], array.shape[-1] // block * size), dtype=np.uint8)
            w.add_tensor(name, raw, raw_dtype=kind)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path
