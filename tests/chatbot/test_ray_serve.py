"""Ray Serve: a local Ray instance, 2 replicas of the tiny Gemma 3, concurrent requests through the HTTP API,
prefix affinity, snapshots merged for /metrics, and a replica killed mid-run."""
from __future__ import annotations

import asyncio
import contextlib
import json
import time

import httpx
import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("ray.serve")

from chatbot.api import create_app  # noqa: E402
from chatbot.auth import KeyAuth  # noqa: E402
from chatbot.knowledge import KnowledgeBase  # noqa: E402
from chatbot.ray_serve import ReplicaDiedError, ReplicaResources, merge_snapshots, start_ray_llm  # noqa: E402
from chatbot.service import ChatService, ServiceConfig, current_answer_id  # noqa: E402
from engine.config import EngineConfig  # noqa: E402
from engine.metrics import EngineSnapshot  # noqa: E402
from engine.sampling import SamplingParams  # noqa: E402
from tests.chatbot.conftest import EVAL_DIR  # noqa: E402
from tests.live_server import live_server  # noqa: E402

pytestmark = pytest.mark.slow

ADMIN_KEY = "admin-ray-test-key"
TEST_RESOURCES = ReplicaResources(num_cpus=1, memory_bytes=1 << 30)
NUM_QUESTIONS = 16  # random answer ids hash onto both replicas (all on one: 2**-15)


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray with the machine's 2 CPUs (one per replica), no dashboard, a small object store."""
    from ray import serve

    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=256 << 20, log_to_driver=False)
    yield
    serve.shutdown()
    ray.shutdown()


def _engine_config(tiny_checkpoints, cache_dir, max_num_seqs: int) -> EngineConfig:
    return EngineConfig(model=str(tiny_checkpoints["gemma3"]), dtype="fp32", cache_dir=str(cache_dir),
                        kv_cache_bytes=64 << 20, max_num_seqs=max_num_seqs, max_num_batched_tokens=512, num_threads=1)


def _questions(n: int) -> list[str]:
    rows = [json.loads(line) for line in (EVAL_DIR / "questions.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]
    return [r["question"] for r in rows if r.get("kind") == "multi"][:n]


async def _ask(client: httpx.AsyncClient, question: str, stream: bool) -> dict:
    """One chat completion; returns how many answers, [DONE]s and errors came back, and the answer text."""
    body = {"messages": [{"role": "user", "content": question}], "stream": stream}
    response = await client.post("/v1/chat/completions", json=body)
    if not stream:
        payload = response.json()
        return {"status": response.status_code, "num_answers": len(payload.get("choices", [])), "num_done": 1,
                "errors": [payload["error"]] if "error" in payload else [],
                "text": payload["choices"][0]["message"]["content"] if payload.get("choices") else ""}
    lines = [line[6:] for line in response.text.splitlines() if line.startswith("data: ")]
    chunks = [json.loads(line) for line in lines if line != "[DONE]"]
    return {"status": response.status_code, "num_done": lines.count("[DONE]"),
            "num_answers": sum(1 for c in chunks if c.get("choices") and c["choices"][0]["finish_reason"]),
            "errors": [c["error"] for c in chunks if "error" in c],
            "text": "".join(c["choices"][0]["delta"].get("content", "") for c in chunks if c.get("choices"))}


async def _ask_all(base: str, questions: list[str]) -> list[dict]:
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        return await asyncio.gather(*(_ask(client, q, stream=i % 2 == 0) for i, q in enumerate(questions)))


def test_concurrent_api_requests_are_answered_once_by_both_replicas(local_ray, tiny_checkpoints, tmp_path):
    config = _engine_config(tiny_checkpoints, tmp_path, max_num_seqs=8)
    # Room for every answer's expansions on its own replica, so affinity is never overridden by a full queue.
    llm = start_ray_llm(config, 2, resources=TEST_RESOURCES, max_ongoing_requests=64, app_name="test-api")
    service = ChatService(llm, KnowledgeBase.load(), None, ServiceConfig(max_concurrent_answers=32),
                          auth=KeyAuth([], [ADMIN_KEY]))
    questions = _questions(NUM_QUESTIONS)
    with live_server(create_app(service)) as base:  # its shutdown closes the service: the app is deleted
        start = time.perf_counter()
        results = asyncio.run(_ask_all(base, questions))
        elapsed_s = time.perf_counter() - start
        llm.refresh_snapshots()
        metrics = httpx.get(base + "/metrics", headers={"X-API-Key": ADMIN_KEY}).text
        engine_snapshot, num_routed = llm.snapshot(), sum(llm.num_requests_by_replica.values())
        asyncio.run(_leave_early(llm))
    print(f"{len(questions)} answers over 2 replicas in {elapsed_s:.1f} s; "
          f"requests by replica {dict(llm.num_requests_by_replica)}")
    for question, result in zip(questions, results):
        assert result["status"] == 200 and result["errors"] == [], (question, result)
        assert result["num_answers"] == 1 and result["num_done"] == 1 and result["text"], (question, result)
    assert len(llm.num_requests_by_replica) == 2 and min(llm.num_requests_by_replica.values()) > 0
    # Exactly once at the engine too: every engine request the client saw finished once, on one replica.
    assert engine_snapshot.num_finished == num_routed
    assert llm.num_retries == 0
    replicas_by_answer: dict[str, set[str]] = {}
    for route in llm.recent_routes:
        if route.answer_id is not None:  # the warm-up and the early leaver are no answer's
            replicas_by_answer.setdefault(route.answer_id, set()).add(route.replica_id)
    assert len(replicas_by_answer) == NUM_QUESTIONS
    assert all(len(replicas) == 1 for replicas in replicas_by_answer.values()), replicas_by_answer
    assert "supportdesk:prefix_cache_hit_rate" in metrics and "supportdesk:kv_cache_usage_perc" in metrics


async def _leave_early(llm) -> None:
    """A consumer that stops reading cancels the replica's stream: the replica aborts the request."""
    params = SamplingParams(max_tokens=2000, ignore_eos=True)
    async with contextlib.aclosing(llm.generate([2, 40, 41, 42], params)) as stream:
        async for _ in stream:
            break
    deadline = time.monotonic() + 30
    while True:
        await asyncio.to_thread(llm.refresh_snapshots)
        snapshot = llm.snapshot()
        if snapshot.num_running == snapshot.num_waiting == snapshot.kv_blocks_used == 0:
            return
        assert time.monotonic() < deadline, f"the abandoned request still runs: {snapshot}"
        await asyncio.sleep(0.1)


async def _run_and_kill(llm, num_requests: int, max_tokens: int) -> tuple[dict, str]:
    """Start the requests at once; as soon as both replicas stream, kill the one that streamed first.
    Returns each request's record and the killed replica."""
    params = SamplingParams(max_tokens=max_tokens, ignore_eos=True)
    records = {f"req-{i}": {"replica": None, "token_ids": [], "num_finished": 0, "error": None}
               for i in range(num_requests)}

    async def one(request_id: str, index: int) -> None:
        record = records[request_id]
        current_answer_id.set(f"answer-{index}")  # this task's own context
        try:
            async for out in llm.generate([2] + [10 + index] * 8, params, request_id=request_id):
                assert out.token_ids == record["token_ids"] + out.new_token_ids, "tokens repeated or lost"
                record["token_ids"] = out.token_ids
                record["num_finished"] += out.finished
        except ReplicaDiedError as exc:
            record["error"] = exc

    tasks = [asyncio.create_task(one(rid, i)) for i, rid in enumerate(records)]
    deadline = time.monotonic() + 60
    while len(llm.num_requests_by_replica) < 2:
        assert time.monotonic() < deadline, "the replicas never both streamed"
        await asyncio.sleep(0.005)
    victim = llm.recent_routes[0].replica_id
    actor_name = next(a["name"] for a in ray.util.list_named_actors(all_namespaces=True)
                      if a["name"].startswith("SERVE_REPLICA::test-kill#") and a["name"].endswith(victim))
    ray.kill(ray.get_actor(actor_name, namespace="serve"), no_restart=True)
    await asyncio.gather(*tasks)
    for route in llm.recent_routes:  # where each request streamed from (its last attempt)
        records[route.request_id]["replica"] = route.replica_id
    return records, victim


def test_killing_a_replica_mid_run_loses_no_request_that_had_not_started(local_ray, tiny_checkpoints, tmp_path):
    # 2 running and 2 queued in each replica's engine, the rest queued in the router.
    config = _engine_config(tiny_checkpoints, tmp_path, max_num_seqs=2)
    llm = start_ray_llm(config, 2, resources=TEST_RESOURCES, max_ongoing_requests=4, app_name="test-kill")
    max_tokens = 120
    try:
        records, victim = asyncio.run(_run_and_kill(llm, num_requests=16, max_tokens=max_tokens))
    finally:
        llm.shutdown()
    lost = sorted(rid for rid, r in records.items() if r["error"] is not None)
    print(f"killed {victim}; retried {llm.num_retries}; failed after streaming from it: {lost}")
    for request_id, record in records.items():
        if record["error"] is not None:  # only a request already streaming from the victim may fail
            assert record["replica"] == victim and record["token_ids"], (request_id, record)
        else:  # every other request is answered exactly once, completely
            assert record["num_finished"] == 1 and len(record["token_ids"]) == max_tokens, (request_id, record)
    assert len(lost) <= config.max_num_seqs, "only the victim's running batch had started streaming"
    # The requests queued inside the victim's engine were retried on the other replica.
    retried = [route for route in llm.recent_routes if route.num_attempts > 1]
    assert llm.num_retries >= 1 and retried and all(route.replica_id != victim for route in retried)


def test_merged_snapshot_sums_replicas_and_keeps_counters_of_gone_ones():
    def snap(running, used, total, hit, prefill):
        return EngineSnapshot(num_running=running, num_waiting=1, kv_blocks_used=used, kv_blocks_total=total,
                              kv_usage=used / total, prefix_cache_hit_rate=hit, num_preemptions=0, num_steps=10,
                              num_prefill_tokens=prefill, num_decode_tokens=5, num_finished=2)

    merged = merge_snapshots([snap(2, 10, 100, 0.5, 100), snap(1, 30, 100, 0.9, 50)], {"num_prefill_tokens": 7})
    assert (merged.num_running, merged.num_waiting, merged.kv_blocks_used, merged.kv_blocks_total) == (3, 2, 40, 200)
    assert merged.kv_usage == pytest.approx(0.2) and merged.prefix_cache_hit_rate == pytest.approx(0.7)
    assert (merged.num_prefill_tokens, merged.num_finished, merged.num_steps) == (157, 4, 20)
    assert merge_snapshots([]).kv_usage == 0.0


def test_replica_resources_make_one_bundle_the_actor_fits_in():
    config = EngineConfig(kv_cache_bytes=256 << 20)
    resources = ReplicaResources.for_engine(config, num_cpus=2, num_gpus=1)
    assert resources.bundle == {"CPU": 2, "GPU": 1, "memory": resources.memory_bytes}
    assert resources.actor_options == {"num_cpus": 2, "num_gpus": 1, "memory": resources.memory_bytes}
    assert "GPU" not in ReplicaResources.for_engine(config).bundle
    with pytest.raises(ValueError):
        ReplicaResources(num_cpus=0)
