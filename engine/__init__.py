"""The embedded LLM engine. Public surface: `LLM`, `AsyncLLM`, `SamplingParams`, `EngineConfig`."""
from __future__ import annotations

_EXPORTS = {
    "LLM": "engine.llm_engine",
    "AsyncLLM": "engine.async_llm",
    "SamplingParams": "engine.sampling",
    "EngineConfig": "engine.config",
}
__all__ = list(_EXPORTS)


def __getattr__(name: str):
    """Import the public classes on first use, so `import engine.loader` stays light."""
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'engine' has no attribute {name!r}")
