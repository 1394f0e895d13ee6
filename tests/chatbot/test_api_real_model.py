"""The API on the real Gemma 3 270M: a client that disconnects mid-stream aborts its engine requests,
and their KV blocks are freed; the service keeps answering."""
from __future__ import annotations

import time

import httpx
import pytest

from chatbot.api import create_app
from chatbot.knowledge import KnowledgeBase
from chatbot.service import ChatService
from engine.async_llm import AsyncLLM
from engine.config import EngineConfig
from tests.conftest import track_engine
from tests.live_server import live_server

QUESTION = "I want to return a lamp: how long do I have, and who pays for the return shipping?"


@pytest.mark.real_model
def test_disconnect_mid_stream_aborts_and_frees_kv_blocks():
    llm = AsyncLLM(EngineConfig(max_num_seqs=8))
    track_engine(llm.engine)
    real_step = llm.engine.step

    def paced_step():  # a slow CPU's pace: on a fast one every point could finish before the hang-up is seen
        time.sleep(0.05)
        return real_step()

    llm.engine.step = paced_step
    service = ChatService(llm, KnowledgeBase.load())
    with live_server(create_app(service)) as base:
        body = {"messages": [{"role": "user", "content": QUESTION}], "stream": True}
        with httpx.stream("POST", base + "/v1/chat/completions", json=body, timeout=120) as response:
            assert response.status_code == 200
            for line in response.iter_lines():
                if '"point_delta"' in line:  # the expansions are streaming: hang up now
                    break
        deadline = time.monotonic() + 30
        while llm.engine.has_unfinished or service._num_in_flight:
            assert time.monotonic() < deadline, "the disconnected answer's requests were not aborted"
            time.sleep(0.05)
        aborted = [r for r in llm.snapshot().recent_requests if r.finish_reason == "abort"]
        assert aborted, "no engine request was aborted"
        assert llm.engine.num_allocated_blocks() == 0
        again = httpx.post(base + "/v1/chat/completions", json={**body, "stream": False}, timeout=120)
        assert again.status_code == 200 and again.json()["supportdesk"]["mode"] == "sot"
