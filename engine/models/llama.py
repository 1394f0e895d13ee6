"""Llama and Qwen2: grouped-query attention, SwiGLU, pre-norms; Qwen2 adds QKV biases."""
from __future__ import annotations

import torch
from torch import nn

from engine.layers.attention import AttentionMetadata
from engine.layers.mlp import GatedMLP
from engine.layers.norm import RMSNorm
from engine.layers.ops import KernelOps
from engine.layers.self_attention import SelfAttention
from engine.models.base import DecoderLM
from engine.models.model_config import ModelConfig


class LlamaDecoderLayer(nn.Module):
    def __init__(self, config: ModelConfig, layer_id: int, ops: KernelOps) -> None:
        super().__init__()
        self.self_attn = SelfAttention(
            config.hidden_size, config.num_heads, config.num_kv_heads, config.head_dim, config.attention_scale,
            config.layer_window(layer_id), ops, qkv_bias=config.attention_bias)
        self.mlp = GatedMLP(config.hidden_size, config.intermediate_size, "silu", ops)
        self.input_layernorm = RMSNorm(config.hidden_size, config.rms_norm_eps, 0.0, ops)
        self.post_attention_layernorm = RMSNorm(config.hidden_size, config.rms_norm_eps, 0.0, ops)

    def forward(self, x: torch.Tensor, residual: torch.Tensor | None, rope, meta: AttentionMetadata):
        if residual is None:
            residual, h = x, self.input_layernorm(x)
        else:
            h, residual = self.input_layernorm(x, residual)
        h = self.self_attn(h, rope, meta)
        h, residual = self.post_attention_layernorm(h, residual)
        return self.mlp(h), residual


class LlamaForCausalLM(DecoderLM):
    def build_layer(self, layer_id: int, ops: KernelOps) -> nn.Module:
        return LlamaDecoderLayer(self.config, layer_id, ops)

