"""The HTTP API over a real ChatService (tiny random-weight Gemma 3, real SQLite store): OpenAI
compatibility (the official client included), roles on every route, bad input, overload, metrics."""
from __future__ import annotations

import json
import time

import httpx
import openai
import pytest
from fastapi.testclient import TestClient

from chatbot.api import ROUTE_ROLES, create_app
from chatbot.service import ServiceConfig
from chatbot.store import Store
from tests.chatbot.service_fixtures import ADMIN_KEY, AGENT_KEY, make_service
from tests.live_server import live_server

QUESTION = "I want to return a lamp: how long do I have, and who pays for the return shipping?"
AGENT = {"Authorization": f"Bearer {AGENT_KEY}"}
ADMIN = {"X-API-Key": ADMIN_KEY}


@pytest.fixture(scope="module")
def app(tiny_checkpoints, tmp_path_factory):
    root = tmp_path_factory.mktemp("api")
    service = make_service(tiny_checkpoints["gemma3"], root, Store(f"sqlite:///{root / 'store.db'}"))
    return create_app(service)


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app) as client:  # runs startup: the warm-up, then ready
        yield _wait_ready(client)


def _wait_ready(client: TestClient, timeout_s: float = 60.0) -> TestClient:
    deadline = time.monotonic() + timeout_s
    while client.get("/readyz").status_code != 200:
        assert time.monotonic() < deadline, "the service never became ready"
        time.sleep(0.05)
    return client


def _chat(client, content=QUESTION, **extra):
    return client.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": content}], **extra})


def _sse_payloads(text: str) -> list:
    lines = [line[6:] for line in text.splitlines() if line.startswith("data: ")]
    assert lines[-1] == "[DONE]"
    return [json.loads(line) for line in lines[:-1]]


def test_health_ready_and_models(client, app):
    assert client.get("/healthz").json() == {"status": "alive"}
    assert client.get("/readyz").status_code == 200
    models = client.get("/v1/models").json()
    assert models["object"] == "list" and models["data"][0]["id"] == app.state.service.model_name


def test_readyz_is_503_until_warm(tiny_checkpoints, tmp_path):
    service = make_service(tiny_checkpoints["gemma3"], tmp_path)
    try:
        client = TestClient(create_app(service, manage_service=False))  # no startup: not warmed up
        response = client.get("/readyz")
        assert response.status_code == 503 and response.json()["status"] == "loading"
        assert _chat(client).status_code == 503
    finally:
        service.close()


def test_chat_completion_carries_the_sot_metadata(client):
    body = _chat(client, conversation_id="api-conv").json()
    meta = body["supportdesk"]
    assert body["object"] == "chat.completion" and body["choices"][0]["finish_reason"] == "stop"
    assert body["choices"][0]["message"]["content"] and meta["mode"] == "sot" and len(meta["outline"]) >= 2
    assert meta["conversation_id"] == "api-conv" and meta["sources"]
    assert body["usage"]["total_tokens"] == body["usage"]["prompt_tokens"] + body["usage"]["completion_tokens"]
    history = client.get("/api/conversations/api-conv", headers=AGENT)
    app_store = client.app.state.service.store
    app_store.flush()
    history = client.get("/api/conversations/api-conv", headers=AGENT).json()
    assert history["messages"][-1]["text"] == body["choices"][0]["message"]["content"]


def test_a_follow_up_is_read_with_the_customers_previous_message(client):
    """The previous user message of the request's history (not an assistant turn) gives a short follow-up its topic."""
    alone = _chat(client, "How much does it cost?").json()["supportdesk"]
    messages = [{"role": "user", "content": "Do you offer express shipping?"},
                {"role": "assistant", "content": "Yes. Returns are accepted within 30 days."},
                {"role": "user", "content": "How much does it cost?"}]
    follow_up = client.post("/v1/chat/completions", json={"messages": messages}).json()["supportdesk"]
    assert alone["sources"] == ["shipping.standard"] and follow_up["sources"] == ["shipping.express"]


def test_streaming_content_equals_the_final_answer(client):
    response = _chat(client, stream=True)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
    chunks = _sse_payloads(response.text)
    events = [c["supportdesk"]["event"] for c in chunks]
    assert events[0] == "outline" and events[-1] == "done"
    assert "point_done" in events and events.index("point_done") > 0
    content = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks)
    final = _chat(client).json()["choices"][0]["message"]["content"]
    assert content == final  # greedy and deterministic: the streamed text is the answer
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop" and chunks[-1]["usage"]["completion_tokens"] > 0


@pytest.mark.parametrize("body, status", [
    ({"messages": [{"role": "user", "content": ""}]}, 400),
    ({"messages": [{"role": "user", "content": "x" * 5000}]}, 400),
    ({"messages": [{"role": "user", "content": QUESTION}], "max_tokens": 10**6}, 400),
    ({"messages": [{"role": "user", "content": QUESTION}], "model": "gpt-4"}, 400),
    ({"messages": [{"role": "assistant", "content": QUESTION}]}, 400),
    ({"messages": []}, 422),
    ({"messages": [{"role": "wizard", "content": QUESTION}]}, 422),
    ({"messages": [{"role": "user", "content": QUESTION}], "n": 2}, 422),
    ({"messages": [{"role": "user", "content": QUESTION}], "temperature": -1}, 422),
    ({"messages": [{"role": "user", "content": QUESTION}], "max_tokens": 0}, 422),
    ({"messages": [{"role": "user", "content": QUESTION}], "conversation_id": "../etc"}, 422),
    ({}, 422),
])
def test_bad_input_gets_a_json_error(client, body, status):
    response = client.post("/v1/chat/completions", json=body)
    assert response.status_code == status, response.text
    assert response.json()["error"]["message"]


def test_not_json_and_oversized_bodies(client):
    assert client.post("/v1/chat/completions", content=b"{not json", headers={"content-type": "application/json"}).status_code == 422
    big = json.dumps({"messages": [{"role": "user", "content": "x" * (2 << 20)}]})
    assert client.post("/v1/chat/completions", content=big, headers={"content-type": "application/json"}).status_code == 413


def test_every_route_declares_its_role_and_enforces_it(client, app):
    public_docs = {"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"}
    paths = {route.path for route in app.routes} - public_docs
    assert paths == set(ROUTE_ROLES), "every route must be listed in ROUTE_ROLES"
    for path, role in ROUTE_ROLES.items():
        url = path.replace("{conversation_id}", "api-conv") + ("?q=returns" if path == "/api/policies" else "")
        if role is None:
            continue
        assert client.get(url).status_code == 401, path
        assert client.get(url, headers={"Authorization": "Bearer not-a-key"}).status_code == 401, path
        if role == "admin":
            assert client.get(url, headers=AGENT).status_code == 403, path
        assert client.get(url, headers=ADMIN).status_code in (200, 404), path


def test_policy_lookup_for_agents(client):
    body = client.get("/api/policies", params={"q": "how long do I have to return an item", "lang": "en"},
                      headers=AGENT).json()
    assert body["results"][0]["id"].startswith("returns.") and body["results"][0]["text"]
    zh = client.get("/api/policies", params={"q": "退货期限"}, headers=AGENT).json()
    assert zh["results"][0]["lang"] == "zh"
    assert client.get("/api/policies", params={"q": "x", "lang": "fr"}, headers=AGENT).status_code == 422
    assert client.get("/api/policies", params={"q": "x", "limit": 99}, headers=AGENT).status_code == 422


def test_latency_and_metrics_for_admins(client):
    _chat(client)
    report = client.get("/api/latency", params={"window_s": 3600}, headers=ADMIN).json()
    assert report["num_answers"] >= 1 and report["total_s"]["p95"] > 0 and report["series"]
    assert client.get("/api/latency", params={"window_s": -1}, headers=ADMIN).status_code == 422
    text = client.get("/metrics", headers=ADMIN).text
    for name in ("time_to_first_token_seconds", "inter_token_latency_seconds", "request_queue_time_seconds",
                 "kv_cache_usage_perc", "prefix_cache_hit_rate", "num_requests_running", "num_requests_waiting",
                 "sot_stage_seconds", "spec_decode_num_draft_tokens", "spec_decode_num_accepted_tokens"):
        assert f"supportdesk:{name}" in text, name


def test_overload_gets_429_with_retry_after(tiny_checkpoints, tmp_path):
    service = make_service(tiny_checkpoints["gemma3"], tmp_path, config=ServiceConfig(max_concurrent_answers=1))
    with TestClient(create_app(service)) as client:
        _wait_ready(client)
        held = service.answer(QUESTION)  # takes the only slot
        response = _chat(client)
        assert response.status_code == 429 and int(response.headers["retry-after"]) > 0
        assert "retry" in response.json()["error"]["message"]
        client.portal.call(held.aclose)
        assert _chat(client).status_code == 200  # nothing was lost: the next request is served


def test_official_openai_client_works_unchanged(app):
    with live_server(app) as base:
        client = openai.OpenAI(base_url=base + "/v1", api_key="unused", max_retries=0)
        assert [m.id for m in client.models.list()] == [app.state.service.model_name]
        completion = client.chat.completions.create(model=app.state.service.model_name,
                                                    messages=[{"role": "user", "content": QUESTION}])
        text = completion.choices[0].message.content
        assert text and completion.supportdesk["mode"] == "sot"
        stream = client.chat.completions.create(model=app.state.service.model_name, stream=True,
                                                messages=[{"role": "user", "content": QUESTION}])
        chunks = list(stream)
        assert "".join(c.choices[0].delta.content or "" for c in chunks) == text
        assert chunks[0].supportdesk["event"] == "outline"
        with pytest.raises(openai.BadRequestError):
            client.chat.completions.create(model="x", messages=[{"role": "user", "content": ""}])
        assert httpx.get(base + "/healthz").status_code == 200


def test_readyz_is_503_while_draining(tiny_checkpoints, tmp_path):
    service = make_service(tiny_checkpoints["gemma3"], tmp_path)
    with TestClient(create_app(service)) as client:
        _wait_ready(client)
        client.portal.call(service.drain, 0.1)
        response = client.get("/readyz")
        assert response.status_code == 503 and response.json()["status"] == "draining"
        assert _chat(client).status_code == 503 and client.get("/healthz").status_code == 200
