"""`ModelConfig`: the architecture of a checkpoint, read from GGUF metadata or an HF config.json."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any

SUPPORTED_ARCHITECTURES = ("gemma3", "llama", "qwen2")
FULL_ATTENTION = "full_attention"
SLIDING_ATTENTION = "sliding_attention"

_HF_MODEL_TYPE = {"gemma3": "gemma3_text", "llama": "llama", "qwen2": "qwen2"}
_HF_ARCHITECTURE_CLASS = {"gemma3": "Gemma3ForCausalLM", "llama": "LlamaForCausalLM", "qwen2": "Qwen2ForCausalLM"}


@dataclass(frozen=True)
class ModelConfig:
    """Sizes and options of one decoder-only transformer; every number comes from the checkpoint."""

    architecture: str
    vocab_size: int
    hidden_size: int
    intermediate_size: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    rms_norm_eps: float
    rope_theta: float
    max_position_embeddings: int
    layer_types: tuple[str, ...]
    sliding_window: int | None = None
    rope_local_theta: float | None = None
    query_pre_attn_scalar: float | None = None
    tie_word_embeddings: bool = True
    attention_bias: bool = False
    bos_token_id: int | None = None
    eos_token_ids: tuple[int, ...] = field(default_factory=tuple)
    pad_token_id: int | None = None

    def __post_init__(self) -> None:
        if self.architecture not in SUPPORTED_ARCHITECTURES:
            raise ValueError(
                f"unsupported architecture {self.architecture!r}; supported: {', '.join(SUPPORTED_ARCHITECTURES)}"
            )
        if self.num_heads % self.num_kv_heads:
            raise ValueError(f"num_heads={self.num_heads} is not a multiple of num_kv_heads={self.num_kv_heads}")
        if len(self.layer_types) != self.num_layers:
            raise ValueError(f"layer_types has {len(self.layer_types)} entries for {self.num_layers} layers")
        bad = set(self.layer_types) - {FULL_ATTENTION, SLIDING_ATTENTION}
        if bad:
            raise ValueError(f"unknown layer types {sorted(bad)}")
        if SLIDING_ATTENTION in self.layer_types and not self.sliding_window:
            raise ValueError("sliding layers need a sliding_window")

    @cached_property
    def attention_scale(self) -> float:
        """Softmax scale: Gemma uses query_pre_attn_scalar**-0.5, others head_dim**-0.5."""
        return float(self.query_pre_attn_scalar or self.head_dim) ** -0.5

    @cached_property
    def sliding_layer_ids(self) -> tuple[int, ...]:
        return tuple(i for i, kind in enumerate(self.layer_types) if kind == SLIDING_ATTENTION)

    @cached_property
    def full_layer_ids(self) -> tuple[int, ...]:
        return tuple(i for i, kind in enumerate(self.layer_types) if kind == FULL_ATTENTION)

    def layer_rope_theta(self, layer_id: int) -> float:
        """RoPE base of one layer: local layers may use their own base."""
        if self.layer_types[layer_id] == SLIDING_ATTENTION and self.rope_local_theta:
            return self.rope_local_theta
        return self.rope_theta

    def layer_window(self, layer_id: int) -> int | None:
        """Sliding window of one layer, or None for full attention."""
        return self.sliding_window if self.layer_types[layer_id] == SLIDING_ATTENTION else None

    # ---- HF config.json round trip -------------------------------------------------------
    def to_hf_dict(self) -> dict[str, Any]:
        """An HF-style config.json dict that transformers and `from_hf_dict` both read."""
        d: dict[str, Any] = {
            "architectures": [_HF_ARCHITECTURE_CLASS[self.architecture]],
            "model_type": _HF_MODEL_TYPE[self.architecture],
            "vocab_size": self.vocab_size,
            "hidden_size": self.hidden_size,
            "intermediate_size": self.intermediate_size,
            "num_hidden_layers": self.num_layers,
            "num_attention_heads": self.num_heads,
            "num_key_value_heads": self.num_kv_heads,
            "head_dim": self.head_dim,
            "rms_norm_eps": self.rms_norm_eps,
            "rope_theta": self.rope_theta,
            "max_position_embeddings": self.max_position_embeddings,
            "tie_word_embeddings": self.tie_word_embeddings,
            "bos_token_id": self.bos_token_id,
            "eos_token_id": list(self.eos_token_ids),
            "pad_token_id": self.pad_token_id,
        }
        if self.architecture == "gemma3":
            d.update(
                layer_types=list(self.layer_types),
                sliding_window=self.sliding_window,
                rope_local_base_freq=self.rope_local_theta,
                query_pre_attn_scalar=self.query_pre_attn_scalar,
                hidden_activation="gelu_pytorch_tanh",
                rope_parameters={
                    FULL_ATTENTION: {"rope_type": "default", "rope_theta": self.rope_theta},
                    SLIDING_ATTENTION: {"rope_type": "default", "rope_theta": self.rope_local_theta},
                },
            )
        else:
            d.update(attention_bias=self.attention_bias, hidden_act="silu")
            if self.architecture == "llama":
                d["mlp_bias"] = False
        return d

    @classmethod
    def from_hf_dict(cls, d: dict[str, Any]) -> "ModelConfig":
        """Read an HF config.json dict (transformers 4.x or 5.x spelling)."""
        model_type = d.get("model_type", "")
        arch = {"gemma3_text": "gemma3", "gemma3": "gemma3", "llama": "llama", "qwen2": "qwen2"}.get(model_type)
        if arch is None:
            raise ValueError(f"unsupported model_type {model_type!r}")
        if model_type == "gemma3" and "text_config" in d:
            d = {**d["text_config"], "model_type": "gemma3_text"}
        num_layers = int(d["num_hidden_layers"])
        num_heads = int(d["num_attention_heads"])
        head_dim = int(d.get("head_dim") or d["hidden_size"] // num_heads)
        rope = d.get("rope_parameters") or {}
        rope_theta = d.get("rope_theta")
        rope_local = d.get("rope_local_base_freq")
        if FULL_ATTENTION in rope:
            rope_theta = rope[FULL_ATTENTION].get("rope_theta", rope_theta)
            rope_local = rope.get(SLIDING_ATTENTION, {}).get("rope_theta", rope_local)
        elif "rope_theta" in rope:
            rope_theta = rope["rope_theta"]
        if rope_theta is None:
            rope_theta = 10000.0
        sliding_window = d.get("sliding_window")
        layer_types = d.get("layer_types")
        if layer_types is None:
            if arch == "gemma3":
                pattern = int(d.get("sliding_window_pattern", 6))
                layer_types = [FULL_ATTENTION if (i + 1) % pattern == 0 else SLIDING_ATTENTION for i in range(num_layers)]
            else:
                layer_types = [FULL_ATTENTION] * num_layers
        if arch != "gemma3" and not d.get("use_sliding_window", False):
            sliding_window = None
            layer_types = [FULL_ATTENTION] * num_layers
        eos = d.get("eos_token_id")
        eos_ids = tuple(eos) if isinstance(eos, list) else ((eos,) if eos is not None else ())
        return cls(
            architecture=arch,
            vocab_size=int(d["vocab_size"]),
            hidden_size=int(d["hidden_size"]),
            intermediate_size=int(d["intermediate_size"]),
            num_layers=num_layers,
            num_heads=num_heads,
            num_kv_heads=int(d.get("num_key_value_heads") or num_heads),
            head_dim=head_dim,
            rms_norm_eps=float(d.get("rms_norm_eps", 1e-6)),
            rope_theta=float(rope_theta),
            max_position_embeddings=int(d.get("max_position_embeddings", 8192)),
            layer_types=tuple(layer_types),
            sliding_window=int(sliding_window) if sliding_window else None,
            rope_local_theta=float(rope_local) if rope_local else None,
            query_pre_attn_scalar=float(d["query_pre_attn_scalar"]) if d.get("query_pre_attn_scalar") else None,
            tie_word_embeddings=bool(d.get("tie_word_embeddings", arch == "gemma3")),
            attention_bias=arch == "qwen2" or bool(d.get("attention_bias", False)),
            bos_token_id=d.get("bos_token_id"),
            eos_token_ids=eos_ids,
            pad_token_id=d.get("pad_token_id"),
        )

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)
