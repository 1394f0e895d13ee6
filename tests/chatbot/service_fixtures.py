"""A real ChatService over a real engine on the tiny random-weight Gemma 3 checkpoint."""
from __future__ import annotations

from chatbot.auth import KeyAuth
from chatbot.knowledge import KnowledgeBase
from chatbot.service import ChatService, ServiceConfig
from engine.async_llm import AsyncLLM
from engine.config import EngineConfig
from tests.conftest import track_engine

AGENT_KEY, ADMIN_KEY = "agent-test-key", "admin-test-key"
TINY_SERVICE_ENGINE = dict(dtype="fp32", block_size=16, max_model_len=4096, kv_cache_bytes=64 << 20,
                           max_num_seqs=16, max_num_batched_tokens=512)


def make_service(checkpoint_dir, cache_dir, store=None, kb: KnowledgeBase | None = None,
                 config: ServiceConfig = ServiceConfig(), **engine_overrides) -> ChatService:
    """A ChatService on a tiny checkpoint, with an agent and an admin key; the engine is leak-guarded."""
    options = {**TINY_SERVICE_ENGINE, **engine_overrides}
    llm = AsyncLLM(EngineConfig(model=str(checkpoint_dir), cache_dir=str(cache_dir), **options))
    track_engine(llm.engine)
    auth = KeyAuth([AGENT_KEY], [ADMIN_KEY], store)
    return ChatService(llm, kb or KnowledgeBase.load(), store, config, auth=auth)
