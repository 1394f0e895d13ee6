"""``supportdesk bench attention``: MHA vs GQA vs MQA at Gemma 3 270M's dimensions.

The query heads (4), head_dim (256) and layers (18) are fixed; only the number of KV heads
changes (4, 2, 1). For each variant it reports the KV-cache bytes per token and per 2,048-token
sequence (bf16, all layers), the largest batch whose KV fits in 1 GiB, the decode attention time
per step (all layers) at batch 1, 8 and 32 with 2,048 tokens of context, and the decode tok/s of
a whole random-weight model at batch 1 and at that largest batch.

On CUDA it times the Triton kernels (bf16; attention replayed as a CUDA graph) and reports the
attention's achieved memory bandwidth as a fraction of the device's peak; elsewhere it times the
PyTorch references (fp32). The model's tok/s runs eagerly, one step after another, like the engine.
On the CPU its linears go through ``int8_matmul_ref``, which dequantises every weight on every call,
so they dominate there. Every layer is a global-attention layer (Gemma's sliding layers would
shrink all three variants alike), and the model has no RoPE or QK-norm: they do not change what
is timed here. On the CPU one layer's KV cache is shared by all layers to save memory.
"""
from __future__ import annotations

import math
import time
from typing import Callable, NamedTuple

import torch
import torch.nn.functional as F

from engine.bench.common import emit, fmt, table, verdict
from kernels.attention_ref import paged_decode_attention_ref, store_kv_ref
from kernels.backend import triton_available
from kernels.linear_ref import int8_matmul_ref
from kernels.rms_norm_ref import rms_norm_ref

NUM_HEADS, HEAD_DIM, NUM_LAYERS = 4, 256, 18
HIDDEN_SIZE, INTERMEDIATE_SIZE, VOCAB_SIZE = 640, 2048, 262_144
VARIANTS = (("MHA", 4), ("GQA", 2), ("MQA", 1))
SEQ_LEN = 2048
KV_BUDGET_BYTES = 1 << 30
KV_BYTES_PER_ELEMENT = 2  # bf16, the serving dtype
ATTENTION_BATCHES = (1, 8, 32)
BLOCK_SIZE = 16
TARGET_BANDWIDTH_FRACTION = 0.70  # of peak, decode attention at batch 32
RMS_EPS = 1e-6
# Peak HBM bandwidth in bytes/s by a substring of torch.cuda.get_device_name(); first match wins.
PEAK_BANDWIDTH = (("H200", 4.8e12), ("H100 PCIe", 2.0e12), ("H100", 3.35e12), ("A100-SXM4-80GB", 2.039e12),
                  ("A100", 1.555e12), ("L40", 0.864e12), ("L4", 0.3e12), ("A10", 0.6e12),
                  ("RTX 4090", 1.008e12), ("T4", 0.32e12))


class DecodeOps(NamedTuple):
    """The kernels one decode step calls, all with the reference signatures."""

    backend: str
    store_kv: Callable
    paged_decode_attention: Callable
    rms_norm: Callable
    int8_matmul: Callable


def select_decode_ops(device: torch.device) -> DecodeOps:
    """Triton kernels on CUDA (when triton imports), the PyTorch references otherwise."""
    if device.type == "cuda" and triton_available():
        from kernels.int8_matmul import int8_matmul
        from kernels.paged_decode_attention import paged_decode_attention
        from kernels.rms_norm import rms_norm
        from kernels.store_kv import store_kv

        return DecodeOps("triton", store_kv, paged_decode_attention, rms_norm, int8_matmul)
    return DecodeOps("torch-reference", store_kv_ref, paged_decode_attention_ref, rms_norm_ref, int8_matmul_ref)


def kv_bytes_per_token(num_kv_heads: int) -> int:
    """K and V of one token over all layers, bf16."""
    return 2 * num_kv_heads * HEAD_DIM * KV_BYTES_PER_ELEMENT * NUM_LAYERS


def peak_bandwidth(device: torch.device) -> float | None:
    """Peak memory bandwidth (bytes/s) of a known CUDA device, else None."""
    if device.type != "cuda":
        return None
    name = torch.cuda.get_device_name(device)
    return next((bw for key, bw in PEAK_BANDWIDTH if key in name), None)


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def _median_time_s(fn: Callable[[], object], device: torch.device, iters: int, warmup: int = 1) -> float:
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(iters):
        _sync(device)
        start = time.perf_counter()
        fn()
        _sync(device)
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


class PagedCache(NamedTuple):
    """KV caches (one per layer, or one shared) and the block tables of ``batch`` sequences."""

    k_caches: list[torch.Tensor]
    v_caches: list[torch.Tensor]
    block_tables: torch.Tensor


def _paged_cache(batch: int, num_kv_heads: int, num_caches: int, dtype: torch.dtype,
                 device: torch.device) -> PagedCache:
    blocks_per_seq = SEQ_LEN // BLOCK_SIZE
    shape = (batch * blocks_per_seq, BLOCK_SIZE, num_kv_heads, HEAD_DIM)
    # Constant K/V: the timings do not depend on the values, and a memset is far cheaper than randn.
    k_caches = [torch.full(shape, 0.01, dtype=dtype, device=device) for _ in range(num_caches)]
    v_caches = [torch.full(shape, 0.01, dtype=dtype, device=device) for _ in range(num_caches)]
    block_tables = torch.arange(batch * blocks_per_seq, dtype=torch.int32, device=device).view(batch, -1)
    return PagedCache(k_caches, v_caches, block_tables)


def _as_cuda_graph(fn: Callable[[], object]) -> Callable[[], object]:
    """``fn`` captured in a CUDA graph (after one eager run that compiles it), so replays time the GPU,
    not Python's kernel launches."""
    fn()
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        fn()
    return graph.replay


def time_decode_attention(ops: DecodeOps, num_kv_heads: int, batch: int, dtype: torch.dtype,
                          device: torch.device) -> tuple[float, float]:
    """``(seconds per step over all layers, KV bytes read per step)`` at ``SEQ_LEN`` context.

    On CUDA every layer has its own cache, so L2 cannot serve a layer's K/V to the next, and the
    Triton step is replayed as a CUDA graph. On the CPU one layer is timed and multiplied.
    """
    num_caches = NUM_LAYERS if device.type == "cuda" else 1
    cache = _paged_cache(batch, num_kv_heads, num_caches, dtype, device)
    q = torch.randn(batch, NUM_HEADS, HEAD_DIM, dtype=dtype, device=device)
    context_lens = torch.full((batch,), SEQ_LEN, dtype=torch.int32, device=device)
    scale = HEAD_DIM ** -0.5

    def step() -> None:
        for k_cache, v_cache in zip(cache.k_caches, cache.v_caches):
            ops.paged_decode_attention(q, k_cache, v_cache, cache.block_tables, context_lens, scale)

    if ops.backend == "triton":  # the references sync on the host, which a graph cannot capture
        seconds = _median_time_s(_as_cuda_graph(step), device, iters=20)
    else:
        seconds = _median_time_s(step, device, iters=3 if batch <= 8 else 1) * NUM_LAYERS / num_caches
    bytes_read = batch * SEQ_LEN * 2 * num_kv_heads * HEAD_DIM * dtype.itemsize * NUM_LAYERS
    return seconds, bytes_read


def _int8_weight(out_features: int, in_features: int, device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    weight = torch.randint(-127, 128, (out_features, in_features), dtype=torch.int8, device=device)
    scale = torch.full((out_features, 1), 1.0 / (127 * math.sqrt(in_features)), device=device)  # per channel
    return weight, scale


class RandomDecoder:
    """A Gemma-3-270M-shaped decoder with random int8 weights, decoding through a paged KV cache."""

    def __init__(self, num_kv_heads: int, ops: DecodeOps, dtype: torch.dtype, device: torch.device,
                 embedding: tuple[torch.Tensor, torch.Tensor]):
        self.num_kv_heads, self.ops, self.dtype, self.device = num_kv_heads, ops, dtype, device
        qkv_out = (NUM_HEADS + 2 * num_kv_heads) * HEAD_DIM
        self.layers = [dict(qkv=_int8_weight(qkv_out, HIDDEN_SIZE, device),
                            o=_int8_weight(HIDDEN_SIZE, NUM_HEADS * HEAD_DIM, device),
                            gate_up=_int8_weight(2 * INTERMEDIATE_SIZE, HIDDEN_SIZE, device),
                            down=_int8_weight(HIDDEN_SIZE, INTERMEDIATE_SIZE, device))
                       for _ in range(NUM_LAYERS)]
        self.embedding = embedding  # int8 [vocab, hidden], tied with the LM head
        self.norm_weight = torch.zeros(HIDDEN_SIZE, dtype=dtype, device=device)

    def _linear(self, x: torch.Tensor, weight: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        return self.ops.int8_matmul(x, weight[0], weight[1])

    def _norm(self, x: torch.Tensor, residual: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.ops.rms_norm(x, self.norm_weight, RMS_EPS, 1.0, residual)

    def step(self, token_ids: torch.Tensor, position: int, cache: PagedCache) -> torch.Tensor:
        """One decode step of every sequence at ``position``; returns the greedy next tokens."""
        w8, scale = self.embedding
        hidden = (w8[token_ids].to(self.dtype) * scale[token_ids].to(self.dtype)) * HIDDEN_SIZE ** 0.5
        residual = torch.zeros_like(hidden)
        blocks_per_seq = SEQ_LEN // BLOCK_SIZE
        batch = token_ids.shape[0]
        slot_mapping = torch.arange(batch, device=self.device) * blocks_per_seq * BLOCK_SIZE + position
        context_lens = torch.full((batch,), position + 1, dtype=torch.int32, device=self.device)
        kv_dim = self.num_kv_heads * HEAD_DIM
        for i, layer in enumerate(self.layers):
            k_cache, v_cache = cache.k_caches[i % len(cache.k_caches)], cache.v_caches[i % len(cache.v_caches)]
            x, residual = self._norm(hidden, residual)
            q, k, v = self._linear(x, layer["qkv"]).split([NUM_HEADS * HEAD_DIM, kv_dim, kv_dim], dim=-1)
            self.ops.store_kv(k.view(-1, self.num_kv_heads, HEAD_DIM), v.view(-1, self.num_kv_heads, HEAD_DIM),
                              k_cache, v_cache, slot_mapping)
            attn = self.ops.paged_decode_attention(q.view(-1, NUM_HEADS, HEAD_DIM), k_cache, v_cache,
                                                   cache.block_tables, context_lens, HEAD_DIM ** -0.5)
            x, residual = self._norm(self._linear(attn.view(batch, -1), layer["o"]), residual)
            gate, up = self._linear(x, layer["gate_up"]).chunk(2, dim=-1)
            hidden = self._linear(F.gelu(gate, approximate="tanh") * up, layer["down"])
        x, _ = self._norm(hidden, residual)
        return self._linear(x, self.embedding).argmax(dim=-1)


def decode_tokens_per_s(model: RandomDecoder, batch: int) -> float:
    """Greedy decode throughput (tokens/s over the batch) near ``SEQ_LEN`` tokens of context."""
    device = model.device
    cache = _paged_cache(batch, model.num_kv_heads, NUM_LAYERS if device.type == "cuda" else 1, model.dtype, device)
    steps = 8 if device.type == "cuda" else 1
    token_ids = torch.zeros(batch, dtype=torch.long, device=device)
    position = SEQ_LEN - steps - 1
    token_ids = model.step(token_ids, position, cache)  # warm-up (and compile) step
    _sync(device)
    start = time.perf_counter()
    for i in range(steps):
        token_ids = model.step(token_ids, position + 1 + i, cache)
    _sync(device)
    return batch * steps / (time.perf_counter() - start)


def run_attention_bench(as_json: bool = False) -> dict:
    """Run the MHA/GQA/MQA comparison, print a table (or one JSON object), and return the results."""
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ops = select_decode_ops(device)
    dtype = torch.bfloat16 if device.type == "cuda" else torch.float32
    peak = peak_bandwidth(device)
    torch.manual_seed(0)
    embedding = _int8_weight(VOCAB_SIZE, HIDDEN_SIZE, device)
    rows = []
    for name, num_kv_heads in VARIANTS:
        per_token = kv_bytes_per_token(num_kv_heads)
        max_batch = KV_BUDGET_BYTES // (per_token * SEQ_LEN)
        attention_ms, bandwidth_fraction = {}, {}
        for batch in ATTENTION_BATCHES:
            seconds, bytes_read = time_decode_attention(ops, num_kv_heads, batch, dtype, device)
            attention_ms[str(batch)] = seconds * 1e3
            bandwidth_fraction[str(batch)] = bytes_read / seconds / peak if peak else None
        model = RandomDecoder(num_kv_heads, ops, dtype, device, embedding)
        tok_s = {1: decode_tokens_per_s(model, 1), max_batch: decode_tokens_per_s(model, max_batch)}
        rows.append(dict(variant=name, num_kv_heads=num_kv_heads, kv_bytes_per_token=per_token,
                         kv_bytes_per_seq=per_token * SEQ_LEN, max_batch_in_budget=max_batch,
                         attention_ms_per_step=attention_ms, attention_bandwidth_fraction=bandwidth_fraction,
                         decode_tok_s_batch_1=tok_s[1], decode_tok_s_max_batch=tok_s[max_batch]))
    result = dict(device=torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu",
                  backend=ops.backend, dtype=str(dtype).removeprefix("torch."), peak_bandwidth_bytes_s=peak,
                  seq_len=SEQ_LEN, kv_budget_bytes=KV_BUDGET_BYTES, num_heads=NUM_HEADS, head_dim=HEAD_DIM,
                  num_layers=NUM_LAYERS, variants=rows)
    return emit(result, as_json, format_table(result))


def format_table(result: dict) -> str:
    """A markdown table of ``run_attention_bench``'s results, under a line naming the device."""
    last = str(ATTENTION_BATCHES[-1])
    has_bandwidth = result["peak_bandwidth_bytes_s"] is not None
    headers = ["variant", "KV heads", "KV/token", f"KV/seq ({SEQ_LEN})", "max batch in 1 GiB",
               *(f"attn ms/step b{b}" for b in ATTENTION_BATCHES),
               *([f"attn % of peak BW b{last}"] if has_bandwidth else []),
               "decode tok/s b1", "decode tok/s at max batch"]
    rows = []
    for row in result["variants"]:
        bandwidth = row["attention_bandwidth_fraction"][last]
        rows.append([row["variant"], str(row["num_kv_heads"]), f"{row['kv_bytes_per_token'] / 1024:.0f} KiB",
                     f"{row['kv_bytes_per_seq'] / 2**20:.0f} MiB", str(row["max_batch_in_budget"]),
                     *(f"{row['attention_ms_per_step'][str(b)]:.2f}" for b in ATTENTION_BATCHES),
                     *([f"{100 * bandwidth:.0f}% ({verdict(bandwidth, TARGET_BANDWIDTH_FRACTION)})"]
                       if has_bandwidth else []),
                     fmt(row["decode_tok_s_batch_1"]),
                     f"{fmt(row['decode_tok_s_max_batch'])} (b{row['max_batch_in_budget']})"])
    title = (f"device: {result['device']}, backend: {result['backend']}, dtype: {result['dtype']}; "
             f"{result['num_heads']} query heads, head_dim {result['head_dim']}, {result['num_layers']} layers, "
             f"{result['seq_len']}-token context; KV bytes are bf16")
    return title + "\n" + table(headers, rows)


if __name__ == "__main__":
    run_attention_bench()
