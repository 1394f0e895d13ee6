"""`DecoderLM`: what Gemma 3 and Llama/Qwen2 share: embedding, layer loop, final norm, LM head."""
from __future__ import annotations

import torch
from torch import nn

from engine.layers.attention import AttentionMetadata
from engine.layers.norm import RMSNorm
from engine.layers.ops import KernelOps
from engine.layers.rotary import RopeTable
from engine.models.model_config import ModelConfig
from engine.models.weights import stack_fused_weights
from engine.quant import prepare_int8


class DecoderLM(nn.Module):
    """A decoder-only LM over a flat batch. Subclasses build ``self.layers`` and set the norm offset."""

    norm_offset = 0.0
    embed_scale = 1.0

    def __init__(self, config: ModelConfig, ops: KernelOps) -> None:
        super().__init__()
        self.config = config
        # An explicit weight skips the random init (which, on the meta device, imports torch._dynamo: ~1.5 s).
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size,
                                         _weight=torch.empty(config.vocab_size, config.hidden_size))
        self.layers = nn.ModuleList(self.build_layer(i, ops) for i in range(config.num_layers))
        self.norm = RMSNorm(config.hidden_size, config.rms_norm_eps, self.norm_offset, ops)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.rope_tables = {theta: RopeTable(config.head_dim, theta)
                            for theta in sorted({config.layer_rope_theta(i) for i in range(config.num_layers)})}

    def build_layer(self, layer_id: int, ops: KernelOps) -> nn.Module:
        raise NotImplementedError

    def forward(self, input_ids: torch.Tensor, positions: torch.Tensor, meta: AttentionMetadata) -> torch.Tensor:
        """Hidden states ``[num_tokens, hidden]`` after the final norm."""
        cfg = self.config
        hidden = self.embed_tokens(input_ids)
        if self.embed_scale != 1.0:
            hidden = hidden * torch.tensor(self.embed_scale, dtype=hidden.dtype)
        ropes = {theta: table(positions) for theta, table in self.rope_tables.items()}
        residual = None
        for i, layer in enumerate(self.layers):
            hidden, residual = layer(hidden, residual, ropes[cfg.layer_rope_theta(i)], meta)
        hidden, _ = self.norm(hidden, residual)
        return hidden

    def compute_logits(self, hidden: torch.Tensor, out: torch.Tensor | None = None) -> torch.Tensor:
        """Logits ``[n, vocab]`` in fp32 for the selected hidden rows; into ``out`` when given (int8 heads only)."""
        return (self.lm_head(hidden) if out is None else self.lm_head(hidden, out=out)).float()

    def load_weights(self, state_dict: dict[str, torch.Tensor]) -> None:
        """Load HF-named weights (float or int8 with ``*.weight_scale``); ties the head if the config says so."""
        sd = {k.removeprefix("model."): v for k, v in stack_fused_weights(state_dict).items()}
        if self.config.tie_word_embeddings:
            sd.pop("lm_head.weight", None)
            for suffix in ("weight", "weight_scale"):
                if f"embed_tokens.{suffix}" in sd:
                    sd[f"lm_head.{suffix}"] = sd[f"embed_tokens.{suffix}"]
        missing, unexpected = self.load_state_dict(sd, strict=False, assign=True)
        missing = [m for m in missing if not m.endswith(("k_cache", "v_cache"))]
        if missing or unexpected:
            raise ValueError(f"checkpoint does not match the model: missing {missing[:5]}, unexpected {unexpected[:5]}")
        prepare_int8(self)
