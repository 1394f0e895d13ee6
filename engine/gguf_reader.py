"""llama.cpp GGUF files: a `ModelConfig` from the metadata and fp32 tensors under Hugging Face names.

Conventions undone here (they match transformers' GGUF integration):
- dims are stored reversed (ne0 first); we return numpy ``[out, in]``;
- Gemma's RMSNorm weights are stored as ``1 + w``; HF keeps ``w`` and computes ``x * (1 + w)``;
- llama.cpp permutes Llama's Q/K rows for its rope layout; we permute them back (Qwen2 is not permuted).
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import gguf
import numpy as np

from engine.models.model_config import FULL_ATTENTION, SLIDING_ATTENTION, SUPPORTED_ARCHITECTURES, ModelConfig

GGUF_MAGIC = b"GGUF"
# Types we dequantize; the names are gguf.GGMLQuantizationType members.
SUPPORTED_TENSOR_TYPES = ("F32", "F16", "BF16", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0",
                          "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K")
# Gemma 3's documented defaults when the file does not say: every 6th layer is global, local RoPE base 10k.
GEMMA3_SLIDING_WINDOW_PATTERN = 6
GEMMA3_LOCAL_ROPE_THETA = 10_000.0
# End-of-generation tokens llama.cpp recognizes by their text besides the eos id (llama-vocab.cpp).
END_OF_GENERATION_TOKENS = ("<end_of_turn>", "<|eot_id|>", "<|eom_id|>", "<|im_end|>", "<|end|>", "<|endoftext|>")

_GLOBAL_NAMES = {"token_embd.weight": "model.embed_tokens.weight", "output_norm.weight": "model.norm.weight",
                 "output.weight": "lm_head.weight"}
_BLOCK_NAMES = {"attn_norm": "input_layernorm", "attn_q": "self_attn.q_proj", "attn_k": "self_attn.k_proj",
                "attn_v": "self_attn.v_proj", "attn_output": "self_attn.o_proj", "attn_q_norm": "self_attn.q_norm",
                "attn_k_norm": "self_attn.k_norm", "ffn_gate": "mlp.gate_proj", "ffn_up": "mlp.up_proj",
                "ffn_down": "mlp.down_proj", "ffn_norm": "post_attention_layernorm"}
_GEMMA3_BLOCK_NAMES = {**_BLOCK_NAMES, "post_attention_norm": "post_attention_layernorm",
                       "ffn_norm": "pre_feedforward_layernorm", "post_ffw_norm": "post_feedforward_layernorm"}
_BLOCK_TENSOR = re.compile(r"blk\.(\d+)\.(\w+)\.(weight|bias)")
_REQUIRED = object()


class ModelLoadError(ValueError):
    """A checkpoint we cannot load. The message is one line: the file, then what is wrong."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = Path(path)
        self.problem = " ".join(str(problem).split())
        super().__init__(f"{self.path}: {self.problem}")


def _round_f32(value: float) -> float:
    """The shortest decimal that is the same float32 (GGUF stores 1e-6 as 9.99999997e-07)."""
    return float(str(np.float32(value)))


def gguf_to_hf_name(name: str, architecture: str) -> str | None:
    """The HF parameter name of a GGUF tensor, or None if we do not know it."""
    if name in _GLOBAL_NAMES:
        return _GLOBAL_NAMES[name]
    m = _BLOCK_TENSOR.fullmatch(name)
    table = _GEMMA3_BLOCK_NAMES if architecture == "gemma3" else _BLOCK_NAMES
    if m is None or m[2] not in table:
        return None
    return f"model.layers.{m[1]}.{table[m[2]]}.{m[3]}"


def unpermute_rope_rows(weight: np.ndarray, num_heads: int) -> np.ndarray:
    """Undo llama.cpp's Q/K permutation (`LlamaModel.permute` in convert_hf_to_gguf.py)."""
    rows = weight.shape[0]
    w = weight.reshape(num_heads, rows // num_heads // 2, 2, *weight.shape[1:])
    return np.ascontiguousarray(w.swapaxes(1, 2).reshape(weight.shape))


class PlainArrayGGUFReader(gguf.GGUFReader):
    """gguf's reader over a plain ndarray view of its memory map: the same zero-copy mapping, without
    ``np.memmap``'s Python-level ``__getitem__`` and ``__array_finalize__`` on each of the ~10 M small reads that
    Gemma's 262,144-token vocabulary takes (its metadata parsed in 4.9 s instead of 18 s on two cores)."""

    @property
    def data(self) -> np.ndarray:
        return self._data

    @data.setter
    def data(self, value: np.ndarray) -> None:  # gguf.GGUFReader.__init__ assigns its np.memmap here
        self._data = value.view(np.ndarray)


class GGUFCheckpoint:
    """An open GGUF file: `config` from its metadata, `tensors()` dequantized one at a time."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.reader = self._open()
        architecture = self._meta("general.architecture")
        if architecture not in SUPPORTED_ARCHITECTURES:
            raise ModelLoadError(self.path, f"unsupported architecture {architecture!r} "
                                            f"(supported: {', '.join(SUPPORTED_ARCHITECTURES)})")
        self.architecture = architecture
        self._check_tensors()
        self.config = self._read_config()
        # whether a tokenizer of this vocabulary prepends BOS (llama.cpp's default for a file that does not say)
        self.add_bos_token = bool(self._meta("tokenizer.ggml.add_bos_token", True))

    # ---- opening and validation ------------------------------------------------------------
    def _open(self) -> Any:
        if not self.path.is_file():
            raise ModelLoadError(self.path, "no such file")
        with self.path.open("rb") as f:
            if f.read(4) != GGUF_MAGIC:
                raise ModelLoadError(self.path, "not a GGUF file (bad magic bytes)")
        try:
            return PlainArrayGGUFReader(self.path)
        except Exception as e:  # the reader fails in many ways on a damaged file; all mean the same here
            raise ModelLoadError(self.path, f"corrupt or truncated GGUF ({type(e).__name__}: {e})") from e

    def _check_tensors(self) -> None:
        size = self.path.stat().st_size
        for t in self.reader.tensors:
            if gguf_to_hf_name(t.name, self.architecture) is None:
                hint = " (RoPE scaling is not supported)" if t.name.startswith("rope_freqs") else ""
                raise ModelLoadError(self.path, f"unexpected tensor {t.name!r} for {self.architecture}{hint}")
            if t.tensor_type.name not in SUPPORTED_TENSOR_TYPES:
                raise ModelLoadError(self.path, f"tensor {t.name!r} has unsupported quant type {t.tensor_type.name} "
                                                f"(supported: {', '.join(SUPPORTED_TENSOR_TYPES)})")
            if t.data_offset + t.n_bytes > size or t.data.nbytes != t.n_bytes:
                raise ModelLoadError(self.path, f"truncated GGUF: tensor {t.name!r} ends past the end of the file")

    def _meta(self, key: str, default: Any = _REQUIRED) -> Any:
        field = self.reader.fields.get(key)
        if field is None:
            if default is _REQUIRED:
                raise ModelLoadError(self.path, f"missing metadata key {key!r}")
            return default
        return field.contents()

    # ---- config ------------------------------------------------------------------------------
    def _read_config(self) -> ModelConfig:
        arch, meta = self.architecture, (lambda key, *d: self._meta(f"{self.architecture}.{key}", *d))
        hidden_size, num_layers = int(meta("embedding_length")), int(meta("block_count"))
        num_heads = int(meta("attention.head_count"))
        num_kv_heads = meta("attention.head_count_kv", num_heads)
        if isinstance(num_kv_heads, list):
            raise ModelLoadError(self.path, "per-layer KV head counts are not supported")
        head_dim = int(meta("attention.key_length", meta("rope.dimension_count", hidden_size // num_heads)))
        names = {t.name for t in self.reader.tensors}
        layer_types, sliding_window, local_theta, pre_attn_scalar = [FULL_ATTENTION] * num_layers, None, None, None
        if arch == "gemma3":
            sliding_window = int(meta("attention.sliding_window"))
            layer_types = self._gemma3_layer_types(meta("attention.sliding_window_pattern",
                                                        GEMMA3_SLIDING_WINDOW_PATTERN), num_layers)
            local_theta = _round_f32(meta("rope.freq_base_swa", GEMMA3_LOCAL_ROPE_THETA))
            scale = meta("attention.scale", None)  # a softmax multiplier, as in llama.cpp: scalar = scale**-2
            pre_attn_scalar = _round_f32(scale ** -2) if scale else float(head_dim)
        try:
            return ModelConfig(
                architecture=arch, vocab_size=self._vocab_size(),
                hidden_size=hidden_size, intermediate_size=int(meta("feed_forward_length")),
                num_layers=num_layers, num_heads=num_heads, num_kv_heads=int(num_kv_heads), head_dim=head_dim,
                rms_norm_eps=_round_f32(meta("attention.layer_norm_rms_epsilon")),
                rope_theta=_round_f32(meta("rope.freq_base", 10_000.0)),
                max_position_embeddings=int(meta("context_length")),
                layer_types=tuple(layer_types), sliding_window=sliding_window, rope_local_theta=local_theta,
                query_pre_attn_scalar=pre_attn_scalar, tie_word_embeddings="output.weight" not in names,
                attention_bias="blk.0.attn_q.bias" in names,
                bos_token_id=self._meta("tokenizer.ggml.bos_token_id", None),
                eos_token_ids=self._eos_token_ids(), pad_token_id=self._meta("tokenizer.ggml.padding_token_id", None),
            )
        except ValueError as e:
            raise ModelLoadError(self.path, f"inconsistent metadata: {e}") from e

    @staticmethod
    def _gemma3_layer_types(pattern: int | list[bool], num_layers: int) -> list[str]:
        """llama.cpp's rule: an int n makes every n-th layer global (0: none); a bool list marks sliding layers."""
        if isinstance(pattern, list):
            return [SLIDING_ATTENTION if is_swa else FULL_ATTENTION for is_swa in pattern[:num_layers]]
        n = int(pattern)
        return [SLIDING_ATTENTION if n == 0 or i % n < n - 1 else FULL_ATTENTION for i in range(num_layers)]

    def _vocab_size(self) -> int:
        tokens = self.reader.fields.get("tokenizer.ggml.tokens")
        size = len(tokens.data) if tokens is not None else self._meta(f"{self.architecture}.vocab_size")
        embedding = next((t for t in self.reader.tensors if t.name == "token_embd.weight"), None)
        if embedding is None:
            raise ModelLoadError(self.path, "missing tensor 'token_embd.weight'")
        if int(embedding.shape[-1]) != size:
            raise ModelLoadError(self.path, f"vocabulary has {size} tokens but token_embd.weight has "
                                            f"{int(embedding.shape[-1])} rows")
        return int(size)

    def _eos_token_ids(self) -> tuple[int, ...]:
        ids = [self._meta(f"tokenizer.ggml.{k}_token_id", None) for k in ("eos", "eot", "eom")]
        if "tokenizer.ggml.tokens" in self.reader.fields:
            tokens = self._meta("tokenizer.ggml.tokens")
            wanted = set(END_OF_GENERATION_TOKENS)
            ids += [i for i, token in enumerate(tokens) if token in wanted]
        return tuple(dict.fromkeys(int(i) for i in ids if i is not None))

    # ---- tensors -----------------------------------------------------------------------------
    @property
    def num_tensors(self) -> int:
        return len(self.reader.tensors)

    def tensors(self) -> Iterator[tuple[str, np.ndarray]]:
        """Yield ``(hf_name, fp32 array)`` in file order, in HF conventions, one tensor dequantized at a time."""
        from gguf.quants import dequantize

        for t in self.reader.tensors:
            hf_name = gguf_to_hf_name(t.name, self.architecture)
            shape = tuple(int(d) for d in reversed(t.shape.tolist()))
            try:
                array = np.array(dequantize(t.data, t.tensor_type), dtype=np.float32).reshape(shape)
            except (ValueError, NotImplementedError) as e:
                problem = f"cannot dequantize tensor {t.name!r} ({t.tensor_type.name}): {e}"
                raise ModelLoadError(self.path, problem) from e
            yield hf_name, self._to_hf_convention(hf_name, array)

    def _to_hf_convention(self, hf_name: str, array: np.ndarray) -> np.ndarray:
        if self.architecture == "gemma3" and hf_name.endswith("norm.weight"):
            array -= 1.0
        elif self.architecture == "llama" and hf_name.endswith(("q_proj.weight", "k_proj.weight")):
            heads = self.config.num_heads if "q_proj" in hf_name else self.config.num_kv_heads
            array = unpermute_rope_rows(array, heads)
        return array


@contextmanager
def transformers_reads_gguf_once(*checkpoints: GGUFCheckpoint) -> Iterator[None]:
    """While open, transformers' GGUF loaders (which import ``gguf.GGUFReader`` at each call, and parse a file once
    for its config and again for its weights or vocabulary) share one `PlainArrayGGUFReader` a file, starting
    with the readers of ``checkpoints``."""
    readers = {ckpt.path.resolve(): ckpt.reader for ckpt in checkpoints}

    def open_reader(path: str | Path, mode: str = "r") -> gguf.GGUFReader:
        key = Path(path).resolve()
        if key not in readers:
            readers[key] = PlainArrayGGUFReader(key, mode)
        return readers[key]

    original, gguf.GGUFReader = gguf.GGUFReader, open_reader
    try:
        yield
    finally:
        gguf.GGUFReader = original
