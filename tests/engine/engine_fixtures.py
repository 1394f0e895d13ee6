"""Engine factories for tests: tiny checkpoints through the real loader, tracked by the leak guard."""
from __future__ import annotations

from engine.config import EngineConfig
from engine.llm_engine import LLM
from tests.conftest import track_engine

TINY_ENGINE = dict(block_size=4, max_model_len=512, kv_cache_bytes=32 << 20, max_num_seqs=16, max_num_batched_tokens=64)


def make_llm(checkpoint_dir, cache_dir, **overrides) -> LLM:
    """An `LLM` on a tiny checkpoint (fp32 unless overridden), registered with the KV-leak guard."""
    options = {**TINY_ENGINE, "dtype": "fp32", **overrides}
    llm = LLM(EngineConfig(model=str(checkpoint_dir), cache_dir=str(cache_dir), **options))
    track_engine(llm.engine)
    return llm
