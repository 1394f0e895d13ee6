"""`supportdesk bench quant`: our engine in fp32, bf16 and int8 beside transformers fp32.

Each variant runs in its own fresh interpreter. ``rss_mb`` is the growth of the process's resident set
(anonymous plus file-backed pages, after ``gc`` and ``malloc_trim``) from building the model, less two
things that are not weights:
- the KV cache: the engine gets a small pool (`SINGLE_STREAM_KV_CACHE_BYTES`) and the bytes of its KV tensors
  are subtracted;
- the tokenizer: the engine loads its own, so one tokenizer is loaded by itself first and the growth
  it caused is subtracted. transformers' tokenizer is loaded before the baseline is taken.
Libraries are imported before the baseline. Decode is single-stream greedy, `DECODE_TOKENS` tokens
after a 32-token prompt, EOS ignored, timed from the first to the last token. Prefill is the median
time to first token of a 512-token prompt with prefix caching off. Perplexity is over the first 1,000
tokens of the policy text (the same ids for every variant). ``warm_start_s`` is timed from the start of
a fresh interpreter until ``LLM(EngineConfig())`` is ready, after a conversion has warmed the cache.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from engine.bench.common import (DECODE_PROMPT_TOKENS, MIB, PREFILL_TOKENS, REPO, emit, fmt, hf_source,
                                 load_hf_model, machine_info, measure_engine_single_stream, measure_hf_single_stream,
                                 perplexity, policy_text, policy_token_ids, ratio, rss_mb, run_in_child,
                                 single_stream_config, table, tokenizer_path, verdict)

ENGINE_DTYPES = ("fp32", "bf16", "int8")
PERPLEXITY_TOKENS = 1000
TARGET_MEMORY_RATIO = 0.35  # int8 / fp32, at most
TARGET_DECODE_SPEEDUP = 2.0  # int8 / transformers fp32, at least
TARGET_WARM_START_S = 5.0  # at most


def measure_engine(model: str | None, cache_dir: str | None, dtype: str, tok_path: str,
                   token_ids: list[int]) -> dict:
    """One engine variant (run in a child): memory, decode, prefill and perplexity."""
    import safetensors.torch  # noqa: F401  imported lazily by the loader
    import torch
    import torch._dynamo  # noqa: F401  imported lazily when the model is built on the meta device
    from tokenizers import Tokenizer

    import engine.loader  # noqa: F401
    import engine.sampling  # noqa: F401  (imports xgrammar, and with it transformers)
    from engine.llm_engine import LLM

    base = rss_mb()
    tokenizer = Tokenizer.from_file(tok_path)  # kept alive until the end, so its memory stays counted
    tokenizer_mb = rss_mb() - base
    base = rss_mb()
    start = time.perf_counter()
    llm = LLM(single_stream_config(model, cache_dir, dtype))
    load_s = time.perf_counter() - start
    kv_mb = sum(k.nbytes + v.nbytes for k, v in llm.engine.runner.kv_caches) / MIB
    grown_mb = rss_mb() - base
    single = measure_engine_single_stream(llm, token_ids[:DECODE_PROMPT_TOKENS], token_ids[:PREFILL_TOKENS])
    ppl = perplexity(llm.prompt_logits(token_ids), token_ids)
    assert tokenizer.get_vocab_size() > 0
    return {"rss_mb": grown_mb - kv_mb - tokenizer_mb, "decode_tok_s": single.decode_tok_s,
            "prefill_tok_s": single.prefill_tok_s, "perplexity": ppl, "load_s": load_s,
            "rss_after_run_mb": rss_mb(), "kv_cache_mb": kv_mb, "tokenizer_mb": tokenizer_mb,
            "num_threads": torch.get_num_threads()}


def measure_transformers(model: str | None, token_ids: list[int]) -> dict:
    """transformers fp32 from the same source (run in a child), on the same token ids."""
    import torch
    import torch._dynamo  # noqa: F401
    from transformers import AutoConfig, AutoTokenizer
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING

    directory, kwargs = hf_source(model)
    MODEL_FOR_CAUSAL_LM_MAPPING[type(AutoConfig.from_pretrained(directory, **kwargs))]  # imports the model code
    # The tokenizer transformers builds from a GGUF, loaded before the baseline (it is not model memory);
    # a directory's tokenizer.json is the very file the engine uses, so there is nothing to compare.
    hf_tokenizer = AutoTokenizer.from_pretrained(directory, **kwargs) if kwargs else None
    base = rss_mb()
    start = time.perf_counter()
    hf_model = load_hf_model(model)
    load_s = time.perf_counter() - start
    grown_mb = rss_mb() - base
    single = measure_hf_single_stream(hf_model, token_ids[:DECODE_PROMPT_TOKENS], token_ids[:PREFILL_TOKENS])
    with torch.inference_mode():
        logits = hf_model(torch.tensor([token_ids])).logits[0]
    same_ids = None if hf_tokenizer is None else hf_tokenizer(policy_text())["input_ids"][:len(token_ids)] == token_ids
    return {"rss_mb": grown_mb, "decode_tok_s": single.decode_tok_s, "prefill_tok_s": single.prefill_tok_s,
            "perplexity": perplexity(logits, token_ids), "load_s": load_s, "rss_after_run_mb": rss_mb(),
            "tokenizer_ids_match": same_ids, "num_threads": torch.get_num_threads()}


def measure_warm_start(model: str | None, cache_dir: str | None) -> float:
    """Seconds from starting a fresh interpreter until ``LLM(EngineConfig(...))`` can generate."""
    code = ("import json, sys\nfrom engine.config import EngineConfig\nfrom engine.llm_engine import LLM\n"
            "LLM(EngineConfig(**json.loads(sys.argv[1])))\nprint('READY', flush=True)\n")
    options = {k: v for k, v in {"model": model, "cache_dir": cache_dir}.items() if v is not None}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code, json.dumps(options)], stdout=subprocess.PIPE,
                            text=True, cwd=REPO, env=env)
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    proc.wait()
    if line.strip() != "READY" or proc.returncode != 0:
        raise RuntimeError(f"warm-start child failed with exit code {proc.returncode}")
    return elapsed


def run_quant_bench(model: str | None = None, cache_dir: str | None = None, as_json: bool = False,
                    dtypes: tuple[str, ...] = ENGINE_DTYPES, include_transformers: bool = True,
                    num_tokens: int = PERPLEXITY_TOKENS) -> dict:
    """Measure every variant in its own child process, print the table (or one JSON object), return it."""
    tok_path = tokenizer_path(model, cache_dir)  # converts first, so the warm start below is warm
    token_ids = policy_token_ids(tok_path, num_tokens)
    result: dict = {"machine": machine_info()}
    for dtype in ENGINE_DTYPES:
        result[dtype] = (run_in_child("engine.bench.quant:measure_engine", model=model, cache_dir=cache_dir,
                                      dtype=dtype, tok_path=tok_path, token_ids=token_ids)
                         if dtype in dtypes else None)
    result["transformers_fp32"] = (run_in_child("engine.bench.quant:measure_transformers", model=model,
                                                token_ids=token_ids) if include_transformers else None)
    result["warm_start_s"] = measure_warm_start(model, cache_dir)
    result["machine"]["load_avg_1m_after"] = os.getloadavg()[0]
    result["targets"] = _targets(result)
    return emit(result, as_json, _report(result))


def _get(result: dict, variant: str, key: str) -> float | None:
    return (result.get(variant) or {}).get(key)


def _targets(result: dict) -> dict:
    memory = ratio(_get(result, "int8", "rss_mb"), _get(result, "fp32", "rss_mb"))
    speedup = ratio(_get(result, "int8", "decode_tok_s"), _get(result, "transformers_fp32", "decode_tok_s"))
    return {
        "int8_memory_ratio_vs_fp32": {"value": memory, "target": f"<= {TARGET_MEMORY_RATIO}",
                                      "status": verdict(memory, TARGET_MEMORY_RATIO, at_most=True)},
        "int8_decode_speedup_vs_transformers": {"value": speedup, "target": f">= {TARGET_DECODE_SPEEDUP}",
                                                "status": verdict(speedup, TARGET_DECODE_SPEEDUP)},
        "warm_start_s": {"value": result["warm_start_s"], "target": f"<= {TARGET_WARM_START_S}",
                         "status": verdict(result["warm_start_s"], TARGET_WARM_START_S, at_most=True)},
    }


def _report(result: dict) -> str:
    ref = result.get("transformers_fp32") or {}
    rows = []
    for variant, label in [("fp32", "supportdesk fp32"), ("bf16", "supportdesk bf16"), ("int8", "supportdesk int8"),
                           ("transformers_fp32", "transformers fp32")]:
        r = result.get(variant)
        if r is None:
            continue
        rows.append([label, r["rss_mb"], ratio(r["rss_mb"], ref.get("rss_mb")), r["decode_tok_s"],
                     ratio(r["decode_tok_s"], ref.get("decode_tok_s")), r["prefill_tok_s"],
                     ratio(r["prefill_tok_s"], ref.get("prefill_tok_s")), fmt(r["perplexity"], 3)])
    headers = ["variant", "model RSS MiB", "vs HF", "decode tok/s", "vs HF", "prefill tok/s (512)", "vs HF",
               "perplexity"]
    targets = [[name, fmt(t["value"], 2), t["target"], t["status"]] for name, t in result["targets"].items()]
    return "\n\n".join([
        table(headers, rows),
        f"warm start (fresh process to ready): {result['warm_start_s']:.2f} s",
        table(["target", "value", "target", "status"], targets),
    ])
