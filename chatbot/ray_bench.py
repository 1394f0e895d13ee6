"""`supportdesk bench ray`: the same SoT questions over N Ray Serve replicas, with prefix affinity (an answer's
outline and expansions on one replica) against random routing (every engine request hashed on its own id).

Each routing gets fresh replicas, warmed with the same untimed answer until every replica has served it. Printed side by
side: answer latency, prompt tokens the replicas actually prefilled, the share of expansion prompt tokens
served by the prefix cache, and how many replicas each answer touched.
"""
from __future__ import annotations

import asyncio
import collections
import json
import statistics
import time
import uuid

from chatbot.bench_sot import multi_point_rows
from chatbot.knowledge import KnowledgeBase
from chatbot.planner import Planner
from chatbot.ray_serve import ROUTINGS, ReplicaResources, start_ray_llm
from chatbot.router import RuleRouter
from chatbot.service import current_answer_id
from engine.config import EngineConfig


async def _answer_all(planner: Planner, questions: list[str], concurrency: int) -> list:
    gate = asyncio.Semaphore(concurrency)

    async def one(question: str):
        async with gate:
            current_answer_id.set(uuid.uuid4().hex)  # what ChatService sets for each answer
            return await planner.answer(question)

    return await asyncio.gather(*(one(q) for q in questions))


def _measure(llm, kb: KnowledgeBase, warmup: str, questions: list[str], concurrency: int) -> dict:
    planner = Planner(llm, kb, RuleRouter(kb))
    for _ in range(8 * llm.num_replicas):  # warm every replica's cache with the shared instructions, not one
        asyncio.run(_answer_all(planner, [warmup], 1))
        if len(llm.num_requests_by_replica) == llm.num_replicas:
            break
    llm.refresh_snapshots()
    before, num_routes = llm.snapshot(), len(llm.recent_routes)
    start = time.perf_counter()
    answers = asyncio.run(_answer_all(planner, questions, concurrency))
    wall_s = time.perf_counter() - start
    llm.refresh_snapshots()
    after = llm.snapshot()
    routes = list(llm.recent_routes)[num_routes:]
    replicas_by_answer: dict[str, set[str]] = {}
    for route in routes:
        replicas_by_answer.setdefault(route.answer_id, set()).add(route.replica_id)
    split = collections.Counter(route.replica_id for route in routes)
    totals = [a.timings["total_s"] for a in answers]
    sot = [a for a in answers if a.mode == "sot"]
    expansion_prompt = sum(a.expansion_prompt_tokens for a in sot)
    return {
        "num_answers": len(answers), "num_sot_answers": len(sot), "wall_s": wall_s,
        "answer_total_s_p50": statistics.median(totals),
        "answer_total_s_max": max(totals),
        "prompt_tokens": sum(a.usage["prompt_tokens"] for a in answers),
        "prompt_tokens_prefilled": after.num_prefill_tokens - before.num_prefill_tokens,
        "expansion_prefix_cache_share": (sum(a.expansion_cached_tokens for a in sot) / expansion_prompt
                                         if expansion_prompt else 0.0),
        "replicas_per_answer": statistics.mean(len(r) for r in replicas_by_answer.values()),
        "requests_by_replica": "/".join(str(n) for n in sorted(split.values(), reverse=True)),
    }


def run_ray_bench(config: EngineConfig | None = None, num_replicas: int = 2, num_questions: int = 12,
                  concurrency: int = 4, resources: ReplicaResources | None = None, as_json: bool = False) -> dict:
    """Affinity against random routing on fresh replicas each; prints a table (or one JSON object)."""
    import ray
    from ray import serve

    config = config or EngineConfig()
    owns_ray = not ray.is_initialized()
    if owns_ray:
        ray.init(include_dashboard=False, log_to_driver=False)
    kb = KnowledgeBase.load()
    questions = [r["question"] for r in multi_point_rows(num_questions + 1)]
    results = {}
    try:
        for routing in ROUTINGS:
            llm = start_ray_llm(config, num_replicas, routing=routing, resources=resources, app_name=f"bench-{routing}")
            try:
                results[routing] = _measure(llm, kb, questions[0], questions[1:], concurrency)
            finally:
                llm.shutdown()
    finally:
        if owns_ray:
            serve.shutdown()
            ray.shutdown()
    _print(results, num_replicas, concurrency, as_json)
    return results


def _print(results: dict, num_replicas: int, concurrency: int, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"num_replicas": num_replicas, "concurrency": concurrency, **results}))
        return
    affinity, random = results["affinity"], results["random"]
    rows = [
        ("answers (SoT)", "{num_answers} ({num_sot_answers})", None),
        ("wall time", "{wall_s:.1f} s", "wall_s"),
        ("answer end-to-end p50", "{answer_total_s_p50:.2f} s", "answer_total_s_p50"),
        ("answer end-to-end max", "{answer_total_s_max:.2f} s", "answer_total_s_max"),
        ("prompt tokens (requests)", "{prompt_tokens}", None),
        ("prompt tokens prefilled", "{prompt_tokens_prefilled}", "prompt_tokens_prefilled"),
        ("expansion tokens from prefix cache", "{expansion_prefix_cache_share:.1%}", None),
        ("replicas per answer", "{replicas_per_answer:.2f}", None),
        ("requests by replica", "{requests_by_replica}", None),
    ]
    print(f"{num_replicas} replicas, {concurrency} answers at a time")
    print(f"{'':36s} {'affinity':>22s} {'random':>22s} {'affinity/random':>16s}")
    for label, fmt, ratio_key in rows:
        ratio = (f"{affinity[ratio_key] / random[ratio_key]:.2f}x"
                 if ratio_key and random[ratio_key] else "")
        print(f"{label:36s} {fmt.format(**affinity):>22s} {fmt.format(**random):>22s} {ratio:>16s}")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default=None, help="GGUF file or HF safetensors dir (default: the packaged model)")
    parser.add_argument("--dtype", default="int8", choices=["int8", "fp32", "bf16"])
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--num-questions", type=int, default=12)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    run_ray_bench(EngineConfig(model=args.model, dtype=args.dtype), args.replicas, args.num_questions,
                  args.concurrency, as_json=args.json)
