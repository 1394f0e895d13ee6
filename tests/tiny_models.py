"""Tiny random-weight checkpoints of each architecture, written as HF safetensors directories."""
from __future__ import annotations

from pathlib import Path

import torch

from tests.engine.tokenizer_fixtures import BOS_TOKEN_ID, EOS_TOKEN_ID, PAD_TOKEN_ID, VOCAB_SIZE, build_test_tokenizer

TINY_SLIDING_WINDOW = 24


def tiny_hf_config(architecture: str):
    """A transformers config: Gemma 3 with MQA and sliding layers, Llama with GQA, Qwen2 with QKV bias."""
    common = dict(vocab_size=VOCAB_SIZE, hidden_size=64, intermediate_size=128, num_attention_heads=4,
                  max_position_embeddings=2048, bos_token_id=BOS_TOKEN_ID, eos_token_id=EOS_TOKEN_ID,
                  pad_token_id=PAD_TOKEN_ID, rms_norm_eps=1e-6)
    if architecture == "gemma3":
        from transformers import Gemma3TextConfig

        return Gemma3TextConfig(**common, num_hidden_layers=6, num_key_value_heads=1, head_dim=32,
                                sliding_window=TINY_SLIDING_WINDOW, query_pre_attn_scalar=32,
                                layer_types=["sliding_attention"] * 5 + ["full_attention"],
                                rope_parameters={"full_attention": {"rope_type": "default", "rope_theta": 1e6},
                                                 "sliding_attention": {"rope_type": "default", "rope_theta": 1e4}})
    if architecture == "llama":
        from transformers import LlamaConfig

        return LlamaConfig(**common, num_hidden_layers=3, num_key_value_heads=2, head_dim=16,
                           tie_word_embeddings=False)
    if architecture == "qwen2":
        from transformers import Qwen2Config

        return Qwen2Config(**common, num_hidden_layers=3, num_key_value_heads=2, tie_word_embeddings=True)
    raise ValueError(architecture)


def write_tiny_checkpoint(architecture: str, out_dir: Path, seed: int = 0) -> Path:
    """Random-init the transformers model (scaled up so outputs are not trivially flat) and save it."""
    from transformers import AutoModelForCausalLM

    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(tiny_hf_config(architecture), dtype=torch.float32)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name:  # Gemma norms are (1 + w); Llama/Qwen2 norms are w
                p.normal_(0.0 if architecture == "gemma3" else 1.0, 0.1)
            elif p.dim() == 2:
                p.normal_(0.0, 0.08)
            else:
                p.normal_(0.0, 0.05)
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out_dir, safe_serialization=True)
    build_test_tokenizer(out_dir)
    return out_dir
