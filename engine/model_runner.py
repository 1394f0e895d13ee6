"""`ModelRunner`: owns the model and the KV cache tensors, turns a scheduled batch into flat
tensors (input ids, positions, slot mappings, block tables, context lengths), runs the model
and samples. The number of KV blocks is derived here from the memory budget."""
from __future__ import annotations

import math
from functools import partial
from typing import NamedTuple

import torch

from engine import huge_pages
from engine.config import EngineConfig
from engine.layers.attention import AttentionMetadata, KVGroupMetadata
from engine.layers.ops import select_ops
from engine.models import MODEL_CLASSES
from engine.models.base import DecoderLM
from engine.models.model_config import ModelConfig
from engine.prompt_rows import mark_prompt_rows
from engine.quant import Int8Linear
from engine.scheduler import ScheduledBatch


class KVCacheLayout(NamedTuple):
    """How the KV budget is split between the full-attention and sliding-window pools."""

    block_size: int
    num_full_blocks: int
    num_sliding_blocks: int
    bytes_per_token: int  # K+V over all layers, without the sliding-window release

    @staticmethod
    def plan(model: ModelConfig, cfg: EngineConfig, dtype: torch.dtype) -> "KVCacheLayout":
        """Size the pools: every running sequence can hold its window in the sliding pool; the rest is full."""
        elem = torch.tensor([], dtype=dtype).element_size()
        per_layer_block = 2 * cfg.block_size * model.num_kv_heads * model.head_dim * elem
        num_full_layers, num_sliding_layers = len(model.full_layer_ids), len(model.sliding_layer_ids)
        num_sliding = 0
        if num_sliding_layers:
            window_blocks = -(-model.sliding_window // cfg.block_size) + 1
            chunk_blocks = -(-cfg.max_num_batched_tokens // cfg.block_size)
            ideal = cfg.max_num_seqs * (window_blocks + 1) + chunk_blocks
            # At most half the budget; fewer blocks than ideal only means earlier preemption.
            affordable = cfg.kv_cache_bytes // 2 // (num_sliding_layers * per_layer_block) if num_full_layers else ideal
            num_sliding = max(min(ideal, affordable), window_blocks + chunk_blocks + 1)
        budget = cfg.kv_cache_bytes - num_sliding * num_sliding_layers * per_layer_block
        num_full = budget // (max(num_full_layers, 1) * per_layer_block) if num_full_layers else 0
        # The context limit must fit the pool, so a request that passes it can never outgrow the pool.
        if num_full_layers and num_full < -(-cfg.max_model_len // cfg.block_size):
            raise ValueError(
                f"kv_cache_bytes={cfg.kv_cache_bytes} holds {max(num_full, 0)} full-attention blocks, fewer than one "
                f"max_model_len={cfg.max_model_len} sequence needs; raise kv_cache_bytes or lower max_num_seqs")
        if not num_full_layers:  # every layer slides: the sliding pool takes the whole budget
            num_sliding = cfg.kv_cache_bytes // (num_sliding_layers * per_layer_block)
        bytes_per_token = 2 * model.num_layers * model.num_kv_heads * model.head_dim * elem
        return KVCacheLayout(cfg.block_size, int(num_full), int(num_sliding), bytes_per_token)


def kv_bytes_for_sequence(model: ModelConfig, num_tokens: int, block_size: int, elem_bytes: int,
                          sliding_release: bool) -> int:
    """KV memory one sequence of ``num_tokens`` holds, with or without sliding-window block release."""
    per_token_layer = 2 * model.num_kv_heads * model.head_dim * elem_bytes
    blocks = math.ceil(num_tokens / block_size)
    window_blocks = min(blocks, math.ceil((model.sliding_window or 0) / block_size) + 1)
    num_sliding = len(model.sliding_layer_ids)
    sliding_blocks = window_blocks if sliding_release else blocks
    total_blocks = len(model.full_layer_ids) * blocks + num_sliding * sliding_blocks
    return total_blocks * block_size * per_token_layer


class ModelRunner:
    def __init__(self, cfg: EngineConfig, model_config: ModelConfig, state_dict: dict[str, torch.Tensor],
                 device: torch.device, sampler) -> None:
        self.cfg, self.model_config, self.device = cfg, model_config, device
        self.dtype = torch.bfloat16 if cfg.dtype == "bf16" or (cfg.dtype == "int8" and device.type == "cuda") else torch.float32
        self.kv_dtype = self._kv_dtype(cfg.dtype, device)
        self.ops = select_ops(device, cfg.kernel_backend)
        if device.type == "cpu":
            # Denormal floats (Gemma's small residual components) made CPU decode layers up to 30x slower.
            torch.set_flush_denormal(True)
        self.model = self._build_model(state_dict)
        self.layout = KVCacheLayout.plan(model_config, cfg, self.kv_dtype)
        self._allocate_kv_cache()
        self.sampler = sampler
        self._logits: torch.Tensor | None = None  # `_logits_out`'s reused buffer

    @staticmethod
    def _kv_dtype(dtype: str, device: torch.device) -> torch.dtype:
        """fp32 for fp32; 16 bits otherwise (half the memory; attention widens rows as it reads them). int8 on
        the CPU takes fp16, whose three more mantissa bits than bf16 raised top-1 agreement with fp32 from
        97.3% to 98.0% at the same speed (README)."""
        if dtype == "fp32":
            return torch.float32
        return torch.float16 if dtype == "int8" and device.type == "cpu" else torch.bfloat16

    def _build_model(self, state_dict: dict[str, torch.Tensor]) -> DecoderLM:
        cls = MODEL_CLASSES[self.model_config.architecture]
        with torch.device("meta"):
            model = cls(self.model_config, self.ops)
            if self.cfg.dtype == "int8":
                from engine.quant import swap_linears_to_int8

                swap_linears_to_int8(model, dtype=self.dtype)  # bf16 rows on CUDA, as the KV cache
        model.load_weights({k: self._to_device(k, v) for k, v in state_dict.items()})
        return model.eval()

    def _to_device(self, name: str, t: torch.Tensor) -> torch.Tensor:
        """Float weights to the compute dtype; int8 weights and their fp16 scales stay as they are."""
        if t.is_floating_point() and not name.endswith("weight_scale"):
            t = t.to(self.dtype)
        return t.to(self.device)

    def _allocate_kv_cache(self) -> None:
        mc, lay = self.model_config, self.layout
        # Zeroed: masked slots are multiplied by zero probabilities, and garbage could be NaN. On the CPU on huge
        # pages, as the weights: decode attention streams every sequence's context each step.
        dtype = self.kv_dtype
        alloc = huge_pages.zeros if self.device.type == "cpu" else partial(torch.zeros, device=self.device)
        self.kv_caches = []
        for i, layer in enumerate(self.model.layers):
            num_blocks = lay.num_sliding_blocks if mc.layer_window(i) else lay.num_full_blocks
            shape = (num_blocks, lay.block_size, mc.num_kv_heads, mc.head_dim)
            k, v = alloc(shape, dtype=dtype), alloc(shape, dtype=dtype)
            layer.self_attn.attn.k_cache, layer.self_attn.attn.v_cache = k, v
            self.kv_caches.append((k, v))

    # ---- one step ---------------------------------------------------------------------------
    def prepare(self, batch: ScheduledBatch) -> tuple[torch.Tensor, torch.Tensor, AttentionMetadata,
                                                      list[range], list[bool]]:
        """Flat tensors for one step; per sequence, the flat rows to sample (its last token's, then its draft's;
        none for a mid-prompt chunk); and whether each row is a prompt token (`engine.prompt_rows`)."""
        bs = self.layout.block_size
        input_ids: list[int] = []
        positions: list[int] = []
        slots: dict[str, list[int]] = {g: [] for g in batch.seqs[0].block_tables}
        context_lens: list[int] = []
        sample_rows: list[range] = []
        is_prompt: list[bool] = []
        for seq, num_new in zip(batch.seqs, batch.num_new_tokens):
            start, end = seq.num_computed_tokens, seq.num_computed_tokens + num_new
            first_row = len(input_ids)
            input_ids.extend(seq.token_ids[start:end])
            input_ids.extend(seq.draft_token_ids[:max(0, end - seq.num_tokens)])
            positions.extend(range(start, end))
            num_prompt_rows = min(max(seq.num_prompt_tokens - start, 0), num_new)
            is_prompt.extend([True] * num_prompt_rows + [False] * (num_new - num_prompt_rows))
            for group, table in seq.block_tables.items():
                slots[group].extend(table[p // bs] * bs + p % bs for p in range(start, end))
            context_lens.append(end)
            sample_rows.append(range(first_row + seq.num_tokens - 1 - start if end >= seq.num_tokens else len(input_ids),
                                     len(input_ids)))
        nd = 0 if self.ops.decode_by_prefill else batch.num_decode_seqs  # decode rows as one-token chunks
        q_lens = batch.num_new_tokens[nd:]
        cu = [0]
        for n in q_lens:
            cu.append(cu[-1] + n)
        dev = self.device
        groups = {}
        for group in slots:
            tables = [seq.block_tables[group] for seq in batch.seqs]
            width = max(len(t) for t in tables)
            padded = [t + [-1] * (width - len(t)) for t in tables]
            groups[group] = KVGroupMetadata(torch.tensor(slots[group], dtype=torch.long, device=dev),
                                            torch.tensor(padded, dtype=torch.int32, device=dev))
        meta = AttentionMetadata(
            num_decode_seqs=nd, num_decode_tokens=nd,
            cu_seqlens_q=torch.tensor(cu, dtype=torch.int32, device=dev),
            context_lens=torch.tensor(context_lens, dtype=torch.int32, device=dev),
            groups=groups)
        return (torch.tensor(input_ids, dtype=torch.long, device=dev),
                torch.tensor(positions, dtype=torch.long, device=dev), meta, sample_rows, is_prompt)

    @torch.inference_mode()
    def run(self, batch: ScheduledBatch) -> list[list[int]]:
        """Run one step; per sequence, the tokens sampled after its last token and after each draft token
        (empty for a mid-prompt chunk)."""
        input_ids, positions, meta, sample_rows, is_prompt = self.prepare(batch)
        with mark_prompt_rows(is_prompt):
            hidden = self.model(input_ids, positions, meta)
        flat = [row for rows in sample_rows for row in rows]
        if not flat:
            return [[] for _ in batch.seqs]
        logits = self.model.compute_logits(hidden[flat] if len(flat) < hidden.shape[0] else hidden,
                                           out=self._logits_out(len(flat)))
        # A draft row sees its sequence's ids as the repetition penalty's context: the draft's tokens are copies
        # of earlier ones, and the penalty asks only whether a token appeared.
        requests = [seq for seq, rows in zip(batch.seqs, sample_rows) for _ in rows]
        tokens = self.sampler.sample(logits, requests).tolist()
        out, at = [], 0
        for rows in sample_rows:
            out.append(tokens[at:at + len(rows)])
            at += len(rows)
        return out

    def _logits_out(self, rows: int) -> torch.Tensor | None:
        """A reused fp32 buffer for ``rows`` rows of logits, on huge pages, for the CPU's int8 head (None
        elsewhere). A new tensor per step meant new pages per step: glibc maps every allocation over 32 MB
        afresh, and 16 sequences with drafts sample ~90 rows (94 MB) a step, whose ~23,000 page faults made the
        head ~25% slower."""
        head = self.model.lm_head
        if self.device.type != "cpu" or not isinstance(head, Int8Linear):
            return None
        if self._logits is None or self._logits.shape[0] < rows:
            self._logits = None  # the old buffer goes before the new one comes
            self._logits = huge_pages.zeros((-(-rows // 16) * 16, head.out_features), torch.float32)
        return self._logits[:rows]

    @torch.inference_mode()
    def prompt_logits(self, batch: ScheduledBatch) -> torch.Tensor:
        """Logits at every position of a single-sequence prefill batch (for scoring and tests)."""
        input_ids, positions, meta, _, is_prompt = self.prepare(batch)
        with mark_prompt_rows(is_prompt):
            hidden = self.model(input_ids, positions, meta)
        return self.model.compute_logits(hidden)

