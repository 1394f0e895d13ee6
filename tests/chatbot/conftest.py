"""Shared fixtures for the chatbot tests."""

import json
from pathlib import Path

import pytest

from chatbot.knowledge import KnowledgeBase
from tests.conftest import track_engine

EVAL_DIR = Path(__file__).resolve().parents[2] / "data" / "eval"


def _normalise(text: str) -> str:
    return " ".join(text.split()).casefold()


@pytest.fixture(scope="session")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load()


@pytest.fixture(scope="session")
def eval_questions() -> list[dict]:
    lines = (EVAL_DIR / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="session")
def normalise():
    """Collapse whitespace and case, for substring checks against the knowledge base."""
    return _normalise


@pytest.fixture(scope="session")
def kb_text(kb):
    """kb_text(lang, category=None): all visible section text of one language, normalised."""

    def text(lang: str, category: str | None = None) -> str:
        return _normalise(" ".join(f"{s.title} {s.text}" for s in kb.sections(lang, category)))

    return text


@pytest.fixture(scope="module")
def planner():
    """A `Planner` over an `AsyncLLM` on the real Gemma 3 270M (int8), for tests marked ``real_model``."""
    from chatbot.planner import Planner
    from engine.async_llm import AsyncLLM
    from engine.config import EngineConfig

    llm = AsyncLLM(EngineConfig(max_num_seqs=8))
    track_engine(llm.engine)
    yield Planner(llm, KnowledgeBase.load())
    llm.shutdown()
