"""Shared fixtures: tiny random-weight checkpoints of each architecture, and the KV-leak guard."""
from __future__ import annotations

import weakref

import pytest

from tests.tiny_models import write_tiny_checkpoint

ARCHITECTURES = ("gemma3", "llama", "qwen2")
_LIVE_ENGINES: "weakref.WeakSet" = weakref.WeakSet()


@pytest.fixture(scope="session")
def tiny_checkpoints(tmp_path_factory) -> dict:
    """``{architecture: path}`` of tiny HF safetensors checkpoints (config.json, model, tokenizer.json)."""
    root = tmp_path_factory.mktemp("tiny")
    return {arch: write_tiny_checkpoint(arch, root / arch) for arch in ARCHITECTURES}


def track_engine(engine) -> None:
    """Register an engine for the leak guard."""
    _LIVE_ENGINES.add(engine)


@pytest.fixture(autouse=True)
def no_leaked_kv_blocks():
    """After every test, idle engines hold no KV blocks except the prefix cache's evictable ones."""
    yield
    for engine in list(_LIVE_ENGINES):
        if not engine.has_unfinished:
            assert engine.num_allocated_blocks() == 0, "KV blocks leaked after the engine went idle"
