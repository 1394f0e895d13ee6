"""`supportdesk bench engine`: our continuously batched int8 engine beside transformers and llama.cpp.

The workload (fixed seed): `num_requests` prompts of random token ids drawn from the ids of the policy
text, 32..512 tokens each, asking for 32..256 output tokens with EOS ignored. Every system serves it
twice, in its own child process: all requests at once (``burst``) and Poisson arrivals at
`POISSON_RATE_PER_S` (``poisson``). Our engine runs a third pass of the burst with at most 16
sequences at once (``concurrent_16``: the issue's aggregate target). Systems:
- ``supportdesk``: int8, continuous batching, the `EngineConfig` defaults (a fresh engine per scenario,
  so no scenario hits another's prefix cache), n-gram drafts included: each scenario reports its draft
  tokens and the share accepted, and the single-stream decode is also measured without drafts, since its
  prompt's greedy continuation repeats itself;
- ``transformers``: fp32 ``generate``, static batches of 8 left-padded prompts, one batch at a time,
  each batch formed from the requests that have arrived when the previous one ends; a batch runs
  until its longest request is done;
- ``llama_cpp``: llama-cpp-python on the same GGUF, one request at a time (it has no batching), when
  installed; null otherwise.
TTFT is measured from each request's scheduled arrival; TPOT is (last - first token) / (n - 1);
throughput is all output tokens over the time from the first arrival to the last token. Peak RSS is
``ru_maxrss`` of the system's child. The top-level figures of each system are the burst scenario's.

The default (64 requests) takes about 15 minutes on this 2-core machine, most of it transformers;
``num_requests=16`` is a quick run of the same workload shape.
"""
from __future__ import annotations

import importlib.util
import os
import random
import sys
import time
from dataclasses import replace
from statistics import median
from typing import NamedTuple

from engine.bench.common import (DECODE_PROMPT_TOKENS, DECODE_TOKENS, NUM_PREFILL_REPEATS, PREFILL_TOKENS, emit,
                                 hf_generate_timed, hf_source, load_hf_model, machine_info,
                                 measure_engine_single_stream, measure_hf_single_stream, peak_rss_mb, percentile,
                                 policy_token_ids, ratio, run_in_child, single_stream_config, table, tokenizer_path,
                                 trim_heap, verdict)

NUM_REQUESTS = 64
PROMPT_TOKENS = (32, 512)
OUTPUT_TOKENS = (32, 256)
POISSON_RATE_PER_S = 1.0
SEED = 0
HF_BATCH_SIZE = 8
CONCURRENCY = 16
TARGET_DECODE_TOK_S = 45.0
TARGET_AGGREGATE_TOK_S = 300.0
TARGET_SPEEDUP = 6.0
TARGET_PREFILL_TOK_S = 800.0


class Request(NamedTuple):
    prompt_ids: list[int]
    max_tokens: int
    arrival_s: float


def make_workload(vocab_ids: list[int], num_requests: int, seed: int = SEED, rate_per_s: float = POISSON_RATE_PER_S,
                  prompt_tokens: tuple[int, int] = PROMPT_TOKENS,
                  output_tokens: tuple[int, int] = OUTPUT_TOKENS) -> dict[str, list[Request]]:
    """The same prompts and output lengths twice: all arriving at 0, and Poisson arrivals."""
    rng = random.Random(seed)
    prompts = [(rng.choices(vocab_ids, k=rng.randint(*prompt_tokens)), rng.randint(*output_tokens))
               for _ in range(num_requests)]
    arrivals, now = [], 0.0
    for _ in prompts:
        arrivals.append(now)
        now += rng.expovariate(rate_per_s)
    return {"burst": [Request(p, n, 0.0) for p, n in prompts],
            "poisson": [Request(p, n, t) for (p, n), t in zip(prompts, arrivals)]}


def _requests(raw: list) -> list[Request]:
    return [Request(*r) for r in raw]  # JSON turns the tuples into lists


def _arrival_order(requests: list[Request]) -> list[int]:
    return sorted(range(len(requests)), key=lambda i: requests[i].arrival_s)


def _wait_until(start: float, offset_s: float) -> None:
    time.sleep(max(0.0, start + offset_s - time.perf_counter()))


# ---- the systems, each run in a child process ---------------------------------------------------
# A record is [arrival_s, first_token_s, last_token_s, num_output_tokens], relative to the scenario start.
def drive_engine(engine, requests: list[Request]) -> list[list[float]]:
    """Add each request at its arrival time and step the engine until all are done."""
    from engine.sampling import SamplingParams

    order, records, i = _arrival_order(requests), {}, 0
    start, mono_start = time.perf_counter(), time.monotonic()
    while len(records) < len(requests):
        while i < len(order) and requests[order[i]].arrival_s <= time.perf_counter() - start:
            req = requests[order[i]]
            params = SamplingParams(max_tokens=req.max_tokens, ignore_eos=True)
            engine.add_request(req.prompt_ids, params, str(order[i]))
            i += 1
        if not engine.has_unfinished:
            _wait_until(start, requests[order[i]].arrival_s)
            continue
        for out in engine.step():
            if out.finished:
                m, req = out.metrics, requests[int(out.request_id)]
                first = m.arrival_time + m.ttft_s - mono_start
                records[int(out.request_id)] = [req.arrival_s, first, first + sum(m.inter_token_s), len(out.token_ids)]
    return [records[k] for k in range(len(requests))]


def serve_supportdesk(model, cache_dir, scenarios: dict, decode_prompt: list[int], prefill_prompt: list[int],
                      concurrency: int = CONCURRENCY) -> dict:
    from engine.config import EngineConfig
    from engine.llm_engine import LLM
    from engine.sampling import SamplingParams

    runs = [(name, raw, {}) for name, raw in scenarios.items()] + \
           [(f"concurrent_{concurrency}", scenarios["burst"], {"max_num_seqs": concurrency})]
    out: dict = {"scenarios": {}, "engine": {}}
    for name, raw, overrides in runs:
        llm = LLM(EngineConfig(model=model, dtype="int8", cache_dir=cache_dir, **overrides))
        llm.generate([decode_prompt[:8]], SamplingParams(max_tokens=4, ignore_eos=True))  # warm-up
        out["scenarios"][name] = drive_engine(llm.engine, _requests(raw))
        snap = llm.engine.snapshot()
        out["engine"][name] = {"max_num_seqs": llm.engine.config.max_num_seqs, "num_preemptions": snap.num_preemptions,
                               "prefix_cache_hit_rate": snap.prefix_cache_hit_rate, "num_steps": snap.num_steps,
                               "num_draft_tokens": snap.num_draft_tokens,
                               "num_accepted_draft_tokens": snap.num_accepted_draft_tokens}
        del llm
        trim_heap()
    config = single_stream_config(model, cache_dir, "int8")
    single = measure_engine_single_stream(LLM(config), decode_prompt, prefill_prompt)
    trim_heap()
    # The decode prompt's greedy continuation repeats itself, so n-gram drafts make most of it: the figure
    # without them is the one to compare with systems that decode one token a step.
    plain = measure_engine_single_stream(LLM(replace(config, num_speculative_tokens=0)), decode_prompt, prefill_prompt)
    return {**out, "decode_tok_s": single.decode_tok_s, "decode_without_drafts_tok_s": plain.decode_tok_s,
            "prefill_tok_s": single.prefill_tok_s, "peak_rss_mb": peak_rss_mb()}


def drive_static_batches(hf_model, requests: list[Request], batch_size: int) -> list[list[float]]:
    """One left-padded ``generate`` batch at a time, each of up to ``batch_size`` arrived requests."""
    order, records, i = _arrival_order(requests), {}, 0
    start = time.perf_counter()
    while i < len(order):
        _wait_until(start, requests[order[i]].arrival_s)
        batch = []
        now = time.perf_counter() - start
        while i < len(order) and len(batch) < batch_size and requests[order[i]].arrival_s <= now:
            batch.append(order[i])
            i += 1
        times = hf_generate_timed(hf_model, [requests[k].prompt_ids for k in batch],
                                  max(requests[k].max_tokens for k in batch))
        for k in batch:
            n = requests[k].max_tokens
            records[k] = [requests[k].arrival_s, times[0] - start, times[n - 1] - start, n]
    return [records[k] for k in range(len(requests))]


def serve_transformers(model, scenarios: dict, decode_prompt: list[int], prefill_prompt: list[int],
                       batch_size: int = HF_BATCH_SIZE) -> dict:
    hf_model = load_hf_model(model)
    hf_generate_timed(hf_model, [decode_prompt[:8]], 4)  # warm-up
    records = {name: drive_static_batches(hf_model, _requests(raw), batch_size) for name, raw in scenarios.items()}
    single = measure_hf_single_stream(hf_model, decode_prompt, prefill_prompt)
    return {"scenarios": records, "decode_tok_s": single.decode_tok_s, "prefill_tok_s": single.prefill_tok_s,
            "peak_rss_mb": peak_rss_mb()}


def _llama_cpp_times(llm, prompt_ids: list[int], max_tokens: int) -> list[float]:
    """Greedy tokens of one request from a cleared context (no prefix reuse), EOS ignored; their times."""
    llm.reset()
    times = []
    for _ in llm.generate(prompt_ids, temp=0.0, reset=True):
        times.append(time.perf_counter())
        if len(times) == max_tokens:
            break
    return times


def serve_llama_cpp(gguf_path: str, scenarios: dict, decode_prompt: list[int], prefill_prompt: list[int]) -> dict:
    from llama_cpp import Llama

    longest = [len(r[0]) + r[1] for raw in scenarios.values() for r in raw]
    n_ctx = max(longest + [len(prefill_prompt) + 1, len(decode_prompt) + DECODE_TOKENS]) + 16
    llm = Llama(model_path=gguf_path, n_ctx=n_ctx, n_batch=512, n_threads=os.cpu_count(), verbose=False)
    _llama_cpp_times(llm, decode_prompt[:8], 4)  # warm-up
    records = {}
    for name, raw in scenarios.items():
        requests, recs = _requests(raw), {}
        start = time.perf_counter()
        for k in _arrival_order(requests):
            _wait_until(start, requests[k].arrival_s)
            times = _llama_cpp_times(llm, requests[k].prompt_ids, requests[k].max_tokens)
            recs[k] = [requests[k].arrival_s, times[0] - start, times[-1] - start, len(times)]
        records[name] = [recs[k] for k in range(len(requests))]
    times = _llama_cpp_times(llm, decode_prompt, DECODE_TOKENS)
    ttfts = []
    for _ in range(NUM_PREFILL_REPEATS):
        start = time.perf_counter()
        ttfts.append(_llama_cpp_times(llm, prefill_prompt, 1)[0] - start)
    return {"scenarios": records, "decode_tok_s": (len(times) - 1) / (times[-1] - times[0]),
            "prefill_tok_s": len(prefill_prompt) / median(ttfts), "peak_rss_mb": peak_rss_mb()}


# ---- the parent: workload, summaries, report ----------------------------------------------------
def summarize(records: list[list[float]]) -> dict:
    """Throughput and TTFT/TPOT percentiles of one scenario's records."""
    ttfts = [first - arrival for arrival, first, _, _ in records]
    tpots = [(last - first) / (n - 1) for _, first, last, n in records if n > 1]
    num_tokens = sum(int(r[3]) for r in records)
    duration_s = max(r[2] for r in records) - min(r[0] for r in records)
    return {"throughput_tok_s": num_tokens / duration_s, "ttft_p50_s": percentile(ttfts, 50),
            "ttft_p99_s": percentile(ttfts, 99), "tpot_p50_s": percentile(tpots, 50),
            "tpot_p99_s": percentile(tpots, 99), "duration_s": duration_s, "num_output_tokens": num_tokens}


def _system(raw: dict | None) -> dict | None:
    if raw is None:
        return None
    scenarios = {name: summarize(records) for name, records in raw["scenarios"].items()}
    for name, extra in raw.get("engine", {}).items():
        scenarios[name].update(extra)
    return {**scenarios["burst"], "peak_rss_mb": raw["peak_rss_mb"], "scenarios": scenarios}


def llama_cpp_gguf(model: str | None) -> str | None:
    """The GGUF llama.cpp would run, or None when llama-cpp-python is missing or the model is not a GGUF."""
    if importlib.util.find_spec("llama_cpp") is None:
        return None
    directory, kwargs = hf_source(model)
    return f"{directory}/{kwargs['gguf_file']}" if kwargs else None


def run_engine_bench(model: str | None = None, cache_dir: str | None = None, as_json: bool = False,
                     num_requests: int = NUM_REQUESTS, include_transformers: bool = True,
                     include_llama_cpp: bool = True, seed: int = SEED, rate_per_s: float = POISSON_RATE_PER_S,
                     prompt_tokens: tuple[int, int] = PROMPT_TOKENS,
                     output_tokens: tuple[int, int] = OUTPUT_TOKENS) -> dict:
    """Serve the workload with every system, print the table (or one JSON object) and return it.

    ``prompt_tokens``/``output_tokens`` are (min, max) ranges; change them only for smoke tests.
    """
    machine = machine_info()
    tok_path = tokenizer_path(model, cache_dir)
    token_ids = policy_token_ids(tok_path, PREFILL_TOKENS)
    vocab_ids = sorted(set(policy_token_ids(tok_path, add_special_tokens=False)))
    scenarios = make_workload(vocab_ids, num_requests, seed, rate_per_s, prompt_tokens, output_tokens)
    common = {"scenarios": scenarios, "decode_prompt": token_ids[:DECODE_PROMPT_TOKENS], "prefill_prompt": token_ids}
    raw = {"supportdesk": run_in_child("engine.bench.serving:serve_supportdesk", model=model, cache_dir=cache_dir,
                                       **common)}
    raw["transformers"] = (run_in_child("engine.bench.serving:serve_transformers", model=model, **common)
                           if include_transformers else None)
    gguf = llama_cpp_gguf(model) if include_llama_cpp else None
    raw["llama_cpp"] = None
    if gguf:
        try:  # optional: a broken llama.cpp build must not sink the run
            raw["llama_cpp"] = run_in_child("engine.bench.serving:serve_llama_cpp", gguf_path=gguf, **common)
        except RuntimeError as e:
            print(f"llama_cpp skipped: {e}", file=sys.stderr)
    result = {
        "systems": {name: _system(r) for name, r in raw.items()},
        "single_stream_decode_tok_s": {name: r and r["decode_tok_s"] for name, r in raw.items()},
        "supportdesk_single_stream_decode_without_drafts_tok_s": raw["supportdesk"]["decode_without_drafts_tok_s"],
        "prefill_tok_s": {name: r and r["prefill_tok_s"] for name, r in raw.items()},
        "workload": {"num_requests": num_requests, "prompt_tokens": prompt_tokens, "output_tokens": output_tokens,
                     "poisson_rate_per_s": rate_per_s, "seed": seed, "hf_batch_size": HF_BATCH_SIZE},
        "machine": {**machine, "load_avg_1m_after": os.getloadavg()[0]},
    }
    ours = result["systems"]["supportdesk"]["scenarios"][f"concurrent_{CONCURRENCY}"]["throughput_tok_s"]
    result[f"aggregate_{CONCURRENCY}_concurrent_tok_s"] = ours
    result["targets"] = _targets(result, ours)
    return emit(result, as_json, _report(result))


def _targets(result: dict, aggregate: float) -> dict:
    hf = (result["systems"]["transformers"] or {}).get("throughput_tok_s")
    ours = result["systems"]["supportdesk"]
    checks = {
        "single_stream_decode_tok_s": (result["single_stream_decode_tok_s"]["supportdesk"], TARGET_DECODE_TOK_S),
        f"aggregate_{CONCURRENCY}_concurrent_tok_s": (aggregate, TARGET_AGGREGATE_TOK_S),
        f"speedup_{CONCURRENCY}_concurrent_vs_transformers": (ratio(aggregate, hf), TARGET_SPEEDUP),
        "speedup_burst_vs_transformers": (ratio(ours["throughput_tok_s"], hf), TARGET_SPEEDUP),
        "prefill_512_tok_s": (result["prefill_tok_s"]["supportdesk"], TARGET_PREFILL_TOK_S),
    }
    return {name: {"value": value, "target": f">= {target}", "status": verdict(value, target)}
            for name, (value, target) in checks.items()}


def _report(result: dict) -> str:
    hf = result["systems"]["transformers"]
    rows, single = [], []
    for name, system in result["systems"].items():
        if system is None:
            rows.append([name, "not installed / not a GGUF"] + [""] * 7)
            continue
        for scenario, s in system["scenarios"].items():
            hf_s = hf and hf["scenarios"].get(scenario, hf["scenarios"]["burst"])
            speedup = ratio(s["throughput_tok_s"], hf_s and hf_s["throughput_tok_s"])
            rows.append([name, scenario, s["throughput_tok_s"], speedup,
                         s["ttft_p50_s"], s["ttft_p99_s"], s["tpot_p50_s"] and 1000 * s["tpot_p50_s"],
                         s["tpot_p99_s"] and 1000 * s["tpot_p99_s"], system["peak_rss_mb"]])
        decode, prefill = result["single_stream_decode_tok_s"][name], result["prefill_tok_s"][name]
        single.append([name, decode, ratio(decode, result["single_stream_decode_tok_s"]["transformers"]), prefill,
                       ratio(prefill, result["prefill_tok_s"]["transformers"])])
    w = result["workload"]
    targets = [[name, t["value"], t["target"], t["status"]] for name, t in result["targets"].items()]
    drafts = [[scenario, s["num_draft_tokens"], f"{100 * s['num_accepted_draft_tokens'] / s['num_draft_tokens']:.1f}%"
               if s["num_draft_tokens"] else None, s["num_steps"]]
              for scenario, s in result["systems"]["supportdesk"]["scenarios"].items()]
    return "\n\n".join([
        f"workload: {w['num_requests']} requests, prompts {w['prompt_tokens'][0]}..{w['prompt_tokens'][1]} tokens, "
        f"outputs {w['output_tokens'][0]}..{w['output_tokens'][1]} tokens (EOS ignored), seed {w['seed']}; "
        f"burst = all at once, poisson = {w['poisson_rate_per_s']} req/s",
        table(["system", "scenario", "output tok/s", "vs HF", "TTFT p50 s", "TTFT p99 s", "TPOT p50 ms",
               "TPOT p99 ms", "peak RSS MiB"], rows),
        table(["system", "decode tok/s (1 seq)", "vs HF", f"prefill tok/s ({PREFILL_TOKENS})", "vs HF"], single),
        f"supportdesk decode (1 seq) without n-gram drafts: "
        f"{result['supportdesk_single_stream_decode_without_drafts_tok_s']:.1f} tok/s",
        table(["supportdesk scenario", "draft tokens", "accepted share", "engine steps"], drafts),
        table(["target", "value", "target", "status"], targets),
    ])
