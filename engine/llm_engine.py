"""The step loop (`schedule -> run -> postprocess`) and `LLM`, the synchronous API."""
from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor
import logging
import time
from typing import Iterable, NamedTuple, Sequence as Seq

import torch

from engine.block_manager import BlockManager
from engine.config import EngineConfig
from engine.detokenizer import decode_delta
from engine.metrics import EngineMetrics, EngineSnapshot, RequestMetrics
from engine.model_runner import ModelRunner
from engine.ngram_proposer import NgramIndex
from engine.scheduler import Scheduler
from engine.sequence import Sequence

log = logging.getLogger(__name__)


class RequestOutput(NamedTuple):
    """What a request has produced so far; ``delta_text``/``new_token_ids`` are new since the last output."""

    request_id: str
    text: str
    delta_text: str
    token_ids: list[int]
    new_token_ids: list[int]
    finished: bool
    finish_reason: str | None
    num_prompt_tokens: int
    num_cached_tokens: int
    metrics: RequestMetrics | None = None
    error: str | None = None


def resolve_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError("device='cuda' requested but no CUDA device is available")
    return torch.device(name)


class LLMEngine:
    """Owns the tokenizer, scheduler, block manager and runner. Not thread-safe: one thread steps it."""

    def __init__(self, config: EngineConfig, checkpoint=None) -> None:
        from tokenizers import Tokenizer

        from engine.sampling import Sampler

        self.config = config
        if config.num_threads:
            torch.set_num_threads(config.num_threads)
        if checkpoint is None:
            from engine.loader import load_checkpoint

            checkpoint = load_checkpoint(config.model, dtype=config.dtype, cache_dir=config.cache_dir)
        ckpt = checkpoint
        self.model_config = ckpt.config
        # Parsing the 262k-token tokenizer.json takes about a second; it overlaps with building the model.
        with ThreadPoolExecutor(max_workers=1) as pool:
            tokenizer = pool.submit(Tokenizer.from_file, str(ckpt.tokenizer_path))
            self.device = resolve_device(config.device)
            self.runner = ModelRunner(config, ckpt.config, ckpt.state_dict, self.device, Sampler())
            self.tokenizer = tokenizer.result()
        lay = self.runner.layout
        self.block_manager = BlockManager(lay.block_size, lay.num_full_blocks, lay.num_sliding_blocks,
                                          ckpt.config.sliding_window, config.enable_prefix_caching)
        self.scheduler = Scheduler(self.block_manager, config.max_num_seqs, config.max_num_batched_tokens,
                                   config.max_waiting_requests)
        self.metrics = EngineMetrics()
        self.max_model_len = min(config.max_model_len, ckpt.config.max_position_embeddings)
        self.model_name = ckpt.source.name.removesuffix(".gguf")
        self.eos_token_ids = set(ckpt.config.eos_token_ids)
        self._grammars = None
        self._seqs: dict[str, Sequence] = {}
        self._ids = itertools.count()

    # ---- requests ---------------------------------------------------------------------------
    def make_sequence(self, prompt: str | list[int], params, request_id: str | None = None) -> Sequence:
        """Validate and tokenize a request; raises ValueError before anything is allocated."""
        from engine.sampling import SamplingParams, make_generator

        if isinstance(params, dict):
            params = SamplingParams.from_dict(params)
        if not isinstance(params, SamplingParams):
            raise ValueError(f"params must be SamplingParams or a dict, not {type(params).__name__}")
        if isinstance(prompt, str):
            if not prompt.strip():
                raise ValueError("prompt is empty")
            token_ids = self.tokenizer.encode(prompt).ids
        else:
            token_ids = [int(t) for t in prompt]
            if not token_ids:
                raise ValueError("prompt is empty")
            bad = [t for t in token_ids if not 0 <= t < self.model_config.vocab_size]
            if bad:
                raise ValueError(f"prompt token id {bad[0]} is outside the vocabulary (0..{self.model_config.vocab_size - 1})")
        total = len(token_ids) + params.max_tokens
        if total > self.max_model_len:
            raise ValueError(f"prompt ({len(token_ids)} tokens) plus max_tokens ({params.max_tokens}) = {total} "
                             f"exceeds the context of {self.max_model_len} tokens")
        request_id = request_id if request_id is not None else f"req-{next(self._ids)}"
        seq = Sequence(request_id, token_ids, params)
        seq.generator = make_generator(params, self.device)
        if params.json_schema is not None:
            seq.grammar = self.grammars.new_state(params.json_schema)
        return seq

    @property
    def grammars(self):
        if self._grammars is None:
            from engine.grammar import GrammarCompilerCache

            self._grammars = GrammarCompilerCache(self.tokenizer, self.model_config.vocab_size, sorted(self.eos_token_ids))
        return self._grammars

    def add_sequence(self, seq: Sequence) -> None:
        if seq.request_id in self._seqs:
            raise ValueError(f"request id {seq.request_id!r} is already in use")
        self.scheduler.add(seq)
        self._seqs[seq.request_id] = seq

    def add_request(self, prompt: str | list[int], params, request_id: str | None = None) -> str:
        seq = self.make_sequence(prompt, params, request_id)
        self.add_sequence(seq)
        return seq.request_id

    def abort(self, request_id: str) -> RequestOutput | None:
        """Finish a request now and free its blocks; unknown or finished ids are ignored."""
        seq = self._seqs.pop(request_id, None)
        if seq is None or seq.is_finished:
            return None
        self.scheduler.finish(seq, "abort")
        return self._output(seq, [], self.metrics.record_finished(seq))

    def reset_prefix_cache(self) -> int:
        """Forget the cached prefixes of finished requests (for benchmarks that time a cold prompt)."""
        return self.block_manager.reset_prefix_cache()

    def fail_all(self, error: str) -> list[RequestOutput]:
        """Finish every request with an error (used when a step raises)."""
        outs = []
        for seq in list(self._seqs.values()):
            self.scheduler.finish(seq, "error")
            seq.error = error
            outs.append(self._output(seq, [], self.metrics.record_finished(seq)))
        self._seqs.clear()
        return outs

    @property
    def has_unfinished(self) -> bool:
        return self.scheduler.has_unfinished

    # ---- the step ---------------------------------------------------------------------------
    def step(self) -> list[RequestOutput]:
        """One iteration: draft, schedule, run the model, keep what greedy decoding confirms of each draft,
        append tokens, check stops, free finished blocks."""
        start = time.perf_counter()
        self._draft()
        batch = self.scheduler.schedule()
        if not batch.seqs:
            return []
        sampled_per_seq = self.runner.run(batch)
        now = time.monotonic()
        outputs: list[RequestOutput] = []
        num_prefill = num_drafted = num_accepted = 0
        for seq, num_new, sampled in zip(batch.seqs, batch.num_new_tokens, sampled_per_seq):
            prompt_part = max(0, min(num_new, seq.num_prompt_tokens - seq.num_computed_tokens))
            seq.num_prefilled_tokens += prompt_part
            num_prefill += prompt_part
            draft, seq.draft_token_ids = seq.draft_token_ids, []
            accepted = 0
            while accepted < len(draft) and sampled[accepted] == draft[accepted]:
                accepted += 1
            num_drafted += len(draft)
            num_accepted += accepted
            # The rows after the first wrong draft token attended to it: their keys and values are dropped
            # (left in place, they are overwritten when those positions are computed again).
            seq.num_computed_tokens += num_new - (len(draft) - accepted)
            self.block_manager.commit(seq)
            if not sampled:
                continue
            num_before, delta, reason = seq.num_tokens, "", None
            for token in sampled[:accepted + 1]:
                reason = self._append_token(seq, token, now)
                text, hit_stop = self._detokenize(seq, reason)
                delta += text
                reason = reason or ("stop" if hit_stop else None)
                if reason is not None:
                    break
            metrics = None
            if reason is not None:
                self.scheduler.finish(seq, reason)
                self._seqs.pop(seq.request_id, None)
                metrics = self.metrics.record_finished(seq)
            outputs.append(self._output(seq, seq.token_ids[num_before:], metrics, delta))
        num_decode = batch.num_tokens - num_prefill - (num_drafted - num_accepted)  # rejected draft rows apart
        self.metrics.record_step(time.perf_counter() - start, len(batch.seqs), num_prefill, num_decode,
                                 num_drafted, num_accepted)
        return outputs

    def _draft(self) -> None:
        """Give every running greedy decode (no grammar) its n-gram draft for this step (`engine.ngram_proposer`)."""
        k = self.config.num_speculative_tokens
        if not k:
            return
        for seq in self.scheduler.running:
            if seq.is_prefilling or seq.grammar is not None or not seq.params.is_greedy:
                continue
            # The draft and the token after it must fit max_tokens and the context.
            room = min(seq.params.max_tokens - seq.num_output_tokens, self.max_model_len - seq.num_tokens) - 1
            if seq.ngram_index is None:
                seq.ngram_index = NgramIndex()
            seq.draft_token_ids = seq.ngram_index.propose(seq.token_ids, min(k, room))

    def _append_token(self, seq: Sequence, token: int, now: float) -> str | None:
        seq.token_ids.append(token)
        if seq.first_token_time is None:
            seq.first_token_time = now
        seq.token_times.append(now)
        params = seq.params
        if seq.grammar is not None:
            seq.grammar.accept(token)
            if seq.grammar.is_terminated():
                return "stop"
            # Jump-forward: text the grammar forces is appended at once and computed as one chunk next
            # step, instead of one decode step per forced token.
            room = min(seq.params.max_tokens - seq.num_output_tokens, self.max_model_len - seq.num_tokens) - 1
            for forced in seq.grammar.jump_forward_ids(self.tokenizer, max(0, room)):
                seq.token_ids.append(forced)
                seq.token_times.append(now)
            if seq.grammar.is_terminated():
                return "stop"
        if token in self.eos_token_ids and not params.ignore_eos:
            return "stop"
        if seq.num_output_tokens >= params.max_tokens or seq.num_tokens >= self.max_model_len:
            return "length"
        return None

    def _detokenize(self, seq: Sequence, reason: str | None) -> tuple[str, bool]:
        """Extend ``output_text`` by the new ids' text (`engine.detokenizer`); returns that text and whether a
        stop string (cut off) was hit."""
        from engine.sampling import find_stop

        ids = seq.output_token_ids
        if ids and ids[-1] in self.eos_token_ids and reason == "stop":
            ids = ids[:-1]
        delta = decode_delta(self.tokenizer, ids, seq.detok_prefix_offset, seq.detok_read_offset, reason is not None)
        seq.detok_prefix_offset, seq.detok_read_offset = delta.prefix_offset, delta.read_offset
        if not delta.text:
            return "", False  # nothing new, or an incomplete UTF-8 character: wait for the next token
        text = seq.output_text + delta.text
        cut = None
        if seq.params.stop:
            cut = find_stop(text, seq.params.stop, max(0, seq.num_emitted_chars - max(map(len, seq.params.stop))))
            text = text if cut is None else text[:cut]
        seq.output_text = text
        new_text = text[seq.num_emitted_chars:]
        seq.num_emitted_chars = len(text)
        return new_text, cut is not None

    def _output(self, seq: Sequence, new_ids: list[int], metrics: RequestMetrics | None, delta: str = "") -> RequestOutput:
        if metrics is None and seq.is_finished:
            metrics = RequestMetrics.of(seq)
        return RequestOutput(seq.request_id, seq.output_text, delta, seq.output_token_ids, new_ids, seq.is_finished,
                             seq.finish_reason, seq.num_prompt_tokens, seq.num_cached_tokens, metrics, seq.error)

    def snapshot(self) -> EngineSnapshot:
        return self.metrics.snapshot(self.scheduler, self.block_manager)

    def num_allocated_blocks(self) -> int:
        """Blocks held by live sequences; zero when idle (cached prefix blocks are free)."""
        return self.block_manager.num_referenced_blocks()

    @torch.inference_mode()
    def prompt_logits(self, token_ids: list[int]) -> torch.Tensor:
        """Logits ``[len, vocab]`` at every position of one prompt, computed through the paged cache, on the CPU
        (as token ids are), whatever the engine's device."""
        from engine.sampling import SamplingParams
        from engine.scheduler import ScheduledBatch

        seq = Sequence("score", list(token_ids), SamplingParams(max_tokens=1))
        self.block_manager.allocate(seq, len(token_ids), {})
        try:
            return self.runner.prompt_logits(ScheduledBatch([seq], [len(token_ids)], 0)).cpu()
        finally:
            self.block_manager.free(seq)


class LLM:
    """Synchronous, offline API: `LLM(EngineConfig()).generate(prompts, SamplingParams())`."""

    def __init__(self, config: EngineConfig | None = None, checkpoint=None) -> None:
        self.engine = LLMEngine(config or EngineConfig(), checkpoint)
        self.tokenizer = self.engine.tokenizer

    def generate(self, prompts: str | list[int] | Iterable[str | list[int]], params=None) -> list[RequestOutput]:
        """Run all prompts to completion with continuous batching; outputs in input order."""
        from engine.sampling import SamplingParams

        if isinstance(prompts, str) or (isinstance(prompts, list) and prompts and isinstance(prompts[0], int)):
            prompts = [prompts]
        prompts = list(prompts)
        params_list = params if isinstance(params, (list, tuple)) else [params or SamplingParams()] * len(prompts)
        if len(params_list) != len(prompts):
            raise ValueError(f"{len(params_list)} sampling params for {len(prompts)} prompts")
        seqs = [self.engine.make_sequence(p, sp) for p, sp in zip(prompts, params_list)]
        for seq in seqs:
            self.engine.add_sequence(seq)
        final: dict[str, RequestOutput] = {}
        try:
            while len(final) < len(seqs):
                for out in self.engine.step():
                    if out.finished:
                        final[out.request_id] = out
        except BaseException:
            for seq in seqs:
                self.engine.abort(seq.request_id)
            raise
        return [final[s.request_id] for s in seqs]

    def prompt_logits(self, token_ids: Seq[int]) -> torch.Tensor:
        return self.engine.prompt_logits(list(token_ids))
