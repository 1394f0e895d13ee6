"""`Sequence`: one request's token ids, block tables, status and timestamps."""
from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field
from typing import Any


class SequenceStatus(enum.Enum):
    WAITING = "waiting"
    RUNNING = "running"
    FINISHED = "finished"


@dataclass
class Sequence:
    """Mutable state of one request, owned by the scheduler thread."""

    request_id: str
    prompt_token_ids: list[int]
    params: Any  # SamplingParams
    arrival_time: float = field(default_factory=time.monotonic)
    token_ids: list[int] = field(init=False)
    status: SequenceStatus = SequenceStatus.WAITING
    num_computed_tokens: int = 0  # tokens whose K/V are in the cache
    num_cached_tokens: int = 0  # prompt tokens served by the prefix cache (summed over admissions)
    num_prefilled_tokens: int = 0  # prompt tokens actually computed (summed over admissions)
    num_preemptions: int = 0
    block_tables: dict[str, list[int]] = field(default_factory=dict)
    block_hashes: list[bytes] = field(default_factory=list)
    finish_reason: str | None = None
    error: str | None = None
    output_text: str = ""
    num_emitted_chars: int = 0
    detok_prefix_offset: int = 0  # `engine.detokenizer` window over the output ids
    detok_read_offset: int = 0
    first_scheduled_time: float | None = None
    first_token_time: float | None = None
    token_times: list[float] = field(default_factory=list)
    finished_time: float | None = None
    generator: Any = None
    grammar: Any = None
    draft_token_ids: list[int] = field(default_factory=list)  # this step's n-gram draft (`engine.ngram_proposer`)
    ngram_index: Any = None  # NgramIndex, made on the first draft

    def __post_init__(self) -> None:
        self.token_ids = list(self.prompt_token_ids)

    @property
    def num_prompt_tokens(self) -> int:
        return len(self.prompt_token_ids)

    @property
    def num_tokens(self) -> int:
        return len(self.token_ids)

    @property
    def output_token_ids(self) -> list[int]:
        return self.token_ids[self.num_prompt_tokens:]

    @property
    def num_output_tokens(self) -> int:
        return len(self.token_ids) - self.num_prompt_tokens

    @property
    def is_finished(self) -> bool:
        return self.status == SequenceStatus.FINISHED

    @property
    def is_prefilling(self) -> bool:
        """True while prompt (or recomputed) tokens remain to be computed."""
        return self.num_tokens - self.num_computed_tokens > 1
