"""`SamplingParams`, the batched `Sampler` with its logits processors, and stop-string detection."""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, NamedTuple

import torch

from kernels.argmax_cpu import apply_repetition_penalty, argmax_rows_cpu, argmax_rows_penalized_cpu

if TYPE_CHECKING:  # xgrammar is imported only when a request asks for JSON (about 0.7 s)
    from engine.grammar import GrammarState

MIN_TEMPERATURE = 1e-5  # below this, sampling is greedy (dividing by it would overflow)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def normalize_json_schema(json_schema: str | dict[str, Any] | None) -> str | None:
    """The schema as a JSON string (a dict is serialised); raises `ValueError` unless it is a JSON object."""
    if json_schema is None:
        return None
    if isinstance(json_schema, dict):
        try:
            return json.dumps(json_schema, ensure_ascii=False)
        except (TypeError, ValueError) as error:
            raise ValueError(f"json_schema is not JSON-serialisable: {error}") from error
    if not isinstance(json_schema, str):
        raise ValueError(f"json_schema must be a JSON string, a dict or None, got {type(json_schema).__name__}")
    try:
        parsed = json.loads(json_schema)
    except json.JSONDecodeError as error:
        raise ValueError(f"json_schema is not valid JSON: {error}") from error
    if not isinstance(parsed, (dict, bool)):
        raise ValueError("json_schema must be a JSON object")
    return json_schema


@dataclass(frozen=True)
class SamplingParams:
    """How one request samples and when it stops. Validated on construction; raises `ValueError`.

    `stop` may be given as a string or a list; it is stored as a tuple. `json_schema` may be given as a
    dict; it is stored as its JSON string (the key of the compiled-grammar cache).
    """

    max_tokens: int = 256
    temperature: float = 0.0
    top_p: float = 1.0
    top_k: int = 0
    repetition_penalty: float = 1.0
    stop: tuple[str, ...] = ()
    seed: int | None = None
    ignore_eos: bool = False
    json_schema: str | dict | None = None

    def __post_init__(self) -> None:
        if not _is_int(self.max_tokens) or self.max_tokens <= 0:
            raise ValueError(f"max_tokens must be a positive integer, got {self.max_tokens!r}")
        if not _is_number(self.temperature) or not self.temperature >= 0:
            raise ValueError(f"temperature must be a number >= 0 (0 = greedy), got {self.temperature!r}")
        if not _is_number(self.top_p) or not 0 < self.top_p <= 1:
            raise ValueError(f"top_p must be in (0, 1], got {self.top_p!r}")
        if not _is_int(self.top_k) or self.top_k < 0:
            raise ValueError(f"top_k must be an integer >= 0 (0 = off), got {self.top_k!r}")
        if not _is_number(self.repetition_penalty) or not self.repetition_penalty > 0:
            raise ValueError(f"repetition_penalty must be a number > 0 (1 = off), got {self.repetition_penalty!r}")
        if self.seed is not None and not _is_int(self.seed):
            raise ValueError(f"seed must be an integer or None, got {self.seed!r}")
        if not isinstance(self.ignore_eos, bool):
            raise ValueError(f"ignore_eos must be a bool, got {self.ignore_eos!r}")
        stop = (self.stop,) if isinstance(self.stop, str) else self.stop
        if not isinstance(stop, (list, tuple)) or not all(isinstance(s, str) and s for s in stop):
            raise ValueError(f"stop must be a non-empty string or a list of non-empty strings, got {self.stop!r}")
        object.__setattr__(self, "stop", tuple(stop))
        for name in ("temperature", "top_p", "repetition_penalty"):
            object.__setattr__(self, name, float(getattr(self, name)))
        object.__setattr__(self, "json_schema", normalize_json_schema(self.json_schema))

    @property
    def is_greedy(self) -> bool:
        """True when decoding takes the argmax (temperature 0, or too small to divide by)."""
        return self.temperature < MIN_TEMPERATURE

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> SamplingParams:
        """Build from a mapping (e.g. a JSON request body), rejecting unknown keys."""
        unknown = sorted(set(values) - {f.name for f in fields(cls)})
        if unknown:
            raise ValueError(f"unknown sampling parameter(s): {', '.join(unknown)}")
        return cls(**values)


def make_generator(params: SamplingParams, device: torch.device | str = "cpu") -> torch.Generator | None:
    """The per-request generator for a seeded sampled request (on the logits' device), else None."""
    if params.seed is None or params.is_greedy:
        return None
    generator = torch.Generator(device=device)
    generator.manual_seed(params.seed)
    return generator


class SamplingRequest(NamedTuple):
    """What the sampler needs of one sequence: its params, prompt+output ids, RNG and grammar."""

    params: SamplingParams
    token_ids: Sequence[int] = ()
    generator: torch.Generator | None = None
    grammar: GrammarState | None = None


def top_k_top_p_candidates(
    logits: torch.Tensor, top_k: Sequence[int], top_p: Sequence[float], num_candidates: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Each row's top `num_candidates` logits (descending) and their ids, masked to top-k, then to top-p.

    Top-p is taken over the probabilities renormalised to the top-k set (as HF and vLLM do). Also returns
    `is_exact` per row: False where the candidates cannot decide the row (top_k beyond them, or a nucleus
    wider than them); those rows must be redone with every token a candidate.
    """
    vocab_size = logits.shape[-1]
    num_candidates = min(num_candidates, vocab_size)
    values, ids = logits.topk(num_candidates, dim=-1)
    k = torch.tensor([k_ if 0 < k_ < vocab_size else vocab_size for k_ in top_k], device=logits.device)
    p = torch.tensor(list(top_p), dtype=logits.dtype, device=logits.device)
    ranks = torch.arange(num_candidates, device=logits.device)
    values.masked_fill_(ranks[None, :] >= k[:, None], float("-inf"))
    is_exact = k <= num_candidates
    if any(p_ < 1.0 for p_ in top_p):
        # Normalise by the top-k set where the candidates hold it, else by the whole vocabulary.
        log_total = values.logsumexp(dim=-1)
        if not bool(is_exact.all()):
            log_total = torch.where(is_exact, log_total, logits.logsumexp(dim=-1))
        probs = (values - log_total[:, None]).exp()
        mass = probs.cumsum(dim=-1)
        # Keep the smallest prefix whose mass reaches p (always the top token); rows with p == 1 keep all.
        is_outside = (mass - probs >= p[:, None]) & (p[:, None] < 1.0)
        is_outside[:, 0] = False
        values.masked_fill_(is_outside, float("-inf"))
        is_exact |= (k == vocab_size) & (p < 1.0) & (mass[:, -1] >= p)
    return values, ids, is_exact


def _uniforms(generators: Sequence[torch.Generator | None], device: torch.device) -> torch.Tensor:
    """One U[0, 1) per row; seeded rows draw from their own generator, so batching never changes them."""
    if all(g is None for g in generators):
        return torch.rand(len(generators), device=device)
    return torch.cat([torch.rand(1, generator=g, device=device) for g in generators])


def draw(probs: torch.Tensor, uniforms: torch.Tensor) -> torch.Tensor:
    """Inverse-CDF sampling: per row, the index whose cumulative-probability interval holds its uniform.

    Zero-probability (masked) entries have empty intervals and u stays below the total, so they are
    never drawn.
    """
    cdf = probs.cumsum(dim=-1)
    total = cdf[:, -1:]
    u = torch.minimum(uniforms[:, None] * total, torch.nextafter(total, torch.zeros_like(total)))
    return torch.searchsorted(cdf, u, right=True).squeeze(1)


def greedy(logits: torch.Tensor) -> torch.Tensor:
    """Row-wise argmax (first index of the maximum): the C++ kernel on the CPU (`kernels.argmax_cpu`),
    ``max(dim).indices`` elsewhere."""
    return argmax_rows_cpu(logits)


class Sampler:
    """Picks the next token of every sequence in a batch, each with its own `SamplingParams`.

    Per row: repetition penalty, grammar mask, then argmax (greedy), or temperature, top-k, top-p and one
    inverse-CDF draw from a single uniform (from the request's generator when seeded). Top-k/top-p rows
    look only at their top `num_candidates` tokens (one `topk`, no full sort) unless those cannot decide.
    `requests` may be any objects with `SamplingRequest`'s attributes, such as the engine's sequences.
    """

    def __init__(self, num_candidates: int = 1024) -> None:
        self.num_candidates = num_candidates

    def sample(self, logits: torch.Tensor, requests: Sequence[SamplingRequest]) -> torch.Tensor:
        """Sample one token per row of `logits` [num_seqs, vocab] (fp32 or bf16); returns [num_seqs] long."""
        assert logits.dim() == 2 and logits.shape[0] == len(requests), (logits.shape, len(requests))
        penalty_rows = [i for i, r in enumerate(requests) if r.params.repetition_penalty != 1.0]
        grammar_rows = [i for i, r in enumerate(requests) if r.grammar is not None]
        sampled_rows = [i for i, r in enumerate(requests) if not r.params.is_greedy]
        if not (grammar_rows or sampled_rows):
            if not penalty_rows:
                return greedy(logits)
            return argmax_rows_penalized_cpu(logits, [r.token_ids for r in requests],
                                             [r.params.repetition_penalty for r in requests])
        logits = logits.to(torch.float32, copy=True)
        if penalty_rows:
            apply_repetition_penalty(
                logits,
                penalty_rows,
                [requests[i].token_ids for i in penalty_rows],
                [requests[i].params.repetition_penalty for i in penalty_rows],
            )
        if grammar_rows:
            from engine.grammar import apply_grammar_masks

            apply_grammar_masks(logits, grammar_rows, [requests[i].grammar for i in grammar_rows])
        if not sampled_rows:
            return greedy(logits)
        next_token_ids = torch.empty(len(requests), dtype=torch.long, device=logits.device)
        greedy_rows = [i for i, r in enumerate(requests) if r.params.is_greedy]
        if greedy_rows:
            next_token_ids[greedy_rows] = greedy(logits[greedy_rows])
        next_token_ids[sampled_rows] = self._sample_rows(logits[sampled_rows], [requests[i] for i in sampled_rows])
        return next_token_ids

    def _sample_rows(self, logits: torch.Tensor, requests: Sequence[SamplingRequest]) -> torch.Tensor:
        params = [r.params for r in requests]
        vocab_size = logits.shape[-1]
        temperature = torch.tensor([p.temperature for p in params], dtype=logits.dtype, device=logits.device)
        logits.div_(temperature[:, None])
        uniforms = _uniforms([r.generator for r in requests], logits.device)
        next_token_ids = torch.empty(len(requests), dtype=torch.long, device=logits.device)
        is_filtered = [p.top_k > 0 or p.top_p < 1.0 for p in params]
        full_rows = [j for j, f in enumerate(is_filtered) if not f]
        if full_rows:
            next_token_ids[full_rows] = draw(logits[full_rows].softmax(dim=-1), uniforms[full_rows])
        rows = [j for j, f in enumerate(is_filtered) if f]
        # With every token a candidate, every row is exact, so the second pass finishes the rest.
        for num_candidates in (min(self.num_candidates, vocab_size), vocab_size):
            if not rows:
                break
            values, ids, is_exact = top_k_top_p_candidates(
                logits[rows], [params[j].top_k for j in rows], [params[j].top_p for j in rows], num_candidates
            )
            exact = is_exact.tolist()
            done = [n for n, e in enumerate(exact) if e]
            if done:
                picked = draw(values[done].softmax(dim=-1), uniforms[[rows[n] for n in done]])
                next_token_ids[[rows[n] for n in done]] = ids[done].gather(1, picked[:, None]).squeeze(1)
            rows = [row for row, e in zip(rows, exact) if not e]
        return next_token_ids


def find_stop(text: str, stop: Sequence[str], start: int = 0) -> int | None:
    """Index where the earliest new stop string in `text` begins (cut the output there), or None.

    `start` is how much of `text` was already checked: only matches ending after it count, so a stop
    string split across tokens is caught when its last piece arrives, and nothing is searched twice.
    """
    cut = None
    for s in stop:
        index = text.find(s, max(0, start - len(s) + 1))
        if index != -1 and (cut is None or index < cut):
            cut = index
    return cut
