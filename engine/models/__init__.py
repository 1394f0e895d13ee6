"""Model families the engine runs: Gemma 3 (MQA) and Llama/Qwen2 (GQA)."""
from __future__ import annotations

from engine.models.base import DecoderLM
from engine.models.gemma3 import Gemma3ForCausalLM
from engine.models.llama import LlamaForCausalLM

MODEL_CLASSES: dict[str, type[DecoderLM]] = {
    "gemma3": Gemma3ForCausalLM,
    "llama": LlamaForCausalLM,
    "qwen2": LlamaForCausalLM,
}
