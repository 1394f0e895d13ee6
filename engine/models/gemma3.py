"""Gemma 3: MQA, alternating sliding/global layers, QK-norm, sandwich norms, scaled embeddings, tied head."""
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


class Gemma3DecoderLayer(nn.Module):
    """Pre- and post-norms around attention and the GeGLU feed-forward, all in the ``(1 + w)`` form."""

    def __init__(self, config: ModelConfig, layer_id: int, ops: KernelOps) -> None:
        super().__init__()
        eps, off = config.rms_norm_eps, 1.0
        self.self_attn = SelfAttention(
            config.hidden_size, config.num_heads, config.num_kv_heads, config.head_dim, config.attention_scale,
            config.layer_window(layer_id), ops, qk_norm_eps=eps, norm_offset=off)
        self.mlp = GatedMLP(config.hidden_size, config.intermediate_size, "gelu_tanh", ops)
        self.input_layernorm = RMSNorm(config.hidden_size, eps, off, ops)
        self.post_attention_layernorm = RMSNorm(config.hidden_size, eps, off, ops)
        self.pre_feedforward_layernorm = RMSNorm(config.hidden_size, eps, off, ops)
        self.post_feedforward_layernorm = RMSNorm(config.hidden_size, eps, off, ops)

    def forward(self, x: torch.Tensor, residual: torch.Tensor | None, rope, meta: AttentionMetadata):
        # The previous layer's post-FFN output is added to the residual here, fused with this norm.
        if residual is None:
            residual, h = x, self.input_layernorm(x)
        else:
            h, residual = self.input_layernorm(x, residual)
        h = self.post_attention_layernorm(self.self_attn(h, rope, meta))
        h, residual = self.pre_feedforward_layernorm(h, residual)
        h = self.post_feedforward_layernorm(self.mlp(h))
        return h, residual


class Gemma3ForCausalLM(DecoderLM):
    norm_offset = 1.0

    def __init__(self, config: ModelConfig, ops: KernelOps) -> None:
        super().__init__(config, ops)
        self.embed_scale = config.hidden_size ** 0.5

    def build_layer(self, layer_id: int, ops: KernelOps) -> nn.Module:
        return Gemma3DecoderLayer(self.config, layer_id, ops)
