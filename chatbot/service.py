"""ChatService: one method per user action, plain Python in and out. The UI and the API call only this.

It owns the engine client, the knowledge base, the planner, the store, the key check and the
metrics. Admission is bounded (`max_concurrent_answers`); a full service raises `Overloaded`
before any work starts, so callers can answer 429 with Retry-After and lose nothing.
"""
from __future__ import annotations

import asyncio
import contextvars
import logging
import time
import uuid
from dataclasses import dataclass
from collections import deque
from datetime import datetime, timedelta, timezone
from typing import AsyncIterator, NamedTuple

from chatbot.auth import KeyAuth
from chatbot.guard import check_input, mask_pii
from chatbot.knowledge import KnowledgeBase
from chatbot.latency import GaugeHistory, LatencyReport, build_latency_report
from chatbot.planner import AnswerDone, OutlineReady, Planner, PointDelta, PointDone
from chatbot.pruning import PRUNE_OVER_CHARS
from chatbot.prometheus import ServiceMetrics
from chatbot.router import SEARCH_DEPTH, RuleRouter, retrieve
from chatbot.text_terms import detect_lang
from engine.sampling import SamplingParams
from engine.scheduler import QueueFullError

log = logging.getLogger(__name__)

# The answer a coroutine works for; engine clients that route by prefix affinity (Ray) read it.
current_answer_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("current_answer_id", default=None)

__all__ = ["AnswerDone", "ChatError", "ChatService", "NotReady", "OutlineReady", "Overloaded", "PointDelta",
           "PointDone", "PolicyHit", "ServiceConfig", "current_answer_id"]


class ChatError(NamedTuple):
    """The answer failed after it started; `code` is "overloaded", "engine" or "internal"."""

    code: str
    message: str


class Overloaded(RuntimeError):
    """Too many answers in flight; retry after `retry_after_s`."""

    def __init__(self, message: str, retry_after_s: int = 2):
        super().__init__(message)
        self.retry_after_s = retry_after_s


class NotReady(RuntimeError):
    """The model is still loading, or the service is draining."""


class PolicyHit(NamedTuple):
    id: str
    lang: str
    category: str
    title: str
    text: str
    score: float


@dataclass(frozen=True)
class ServiceConfig:
    max_question_chars: int = 4000
    max_concurrent_answers: int = 16
    max_policy_results: int = 20
    prune_over_chars: int = PRUNE_OVER_CHARS
    gauge_interval_s: float = 1.0


class _AdmittedAnswer:
    """An answer's event stream holding one admission slot, released exactly once when the stream ends,
    is closed, or is dropped without ever being iterated."""

    def __init__(self, events: AsyncIterator, release) -> None:
        self._events, self._release = events, release

    def __aiter__(self):
        return self

    async def __anext__(self):
        try:
            return await self._events.__anext__()
        except BaseException:
            self._free()
            raise

    async def aclose(self) -> None:
        try:
            await self._events.aclose()
        finally:
            self._free()

    def _free(self) -> None:
        if self._release is not None:
            self._release, release = None, self._release
            release()

    def __del__(self) -> None:
        self._free()


class ChatService:
    """Customer answers, policy lookup, latency reports and conversation history over one engine."""

    def __init__(self, llm, kb: KnowledgeBase, store=None, config: ServiceConfig = ServiceConfig(),
                 router=None, auth: KeyAuth | None = None) -> None:
        self.llm, self.kb, self.store, self.config = llm, kb, store, config
        self.planner = Planner(llm, kb, router or RuleRouter(kb), prune_over_chars=config.prune_over_chars)
        self.auth = auth or KeyAuth.from_env(store)
        self.metrics = ServiceMetrics(llm.snapshot, lambda: store.num_dropped_writes if store else 0)
        llm.on_request_finished(self.metrics.observe_engine_request)
        self.gauges = GaugeHistory()
        self._num_in_flight = 0
        self._ready = False
        self._draining = False
        self._recent: deque[dict] = deque(maxlen=5000)  # answer metrics in memory, for reports when the store is down
        self._sampler: asyncio.Task | None = None

    # ---- lifecycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        """Warm up with a one-token generation, start the gauge sampler, then report ready."""
        async for _ in self.llm.generate("Hello", SamplingParams(max_tokens=1)):
            pass
        if self.store is not None:
            self.store.start()
        self._sampler = asyncio.create_task(self._sample_gauges())
        self._ready = True

    async def drain(self, timeout_s: float = 30.0) -> None:
        """Refuse new answers and wait (bounded) for the ones in flight."""
        self._draining = True
        deadline = time.monotonic() + timeout_s
        while self._num_in_flight and time.monotonic() < deadline:
            await asyncio.sleep(0.05)

    def close(self) -> None:
        """Stop the sampler, flush the store and shut the engine down."""
        self._draining, self._ready = True, False
        if self._sampler is not None:
            self._sampler.cancel()
        if self.store is not None:
            self.store.close()
        self.llm.shutdown()

    @property
    def is_ready(self) -> bool:
        return self._ready and not self._draining and self.llm.is_running

    @property
    def is_draining(self) -> bool:
        return self._draining

    @property
    def model_name(self) -> str:
        return getattr(self.llm, "model_name", "supportdesk")

    @property
    def max_model_len(self) -> int:
        return self.llm.max_model_len

    # ---- user actions --------------------------------------------------------------------------
    def answer(self, question: str, conversation_id: str | None = None, previous: str | None = None) -> AsyncIterator:
        """Validate and admit now (raises `InputRejected`, `Overloaded`, `NotReady`), then stream events:
        `OutlineReady`, `PointDelta`/`PointDone` (interleaved across points), then `AnswerDone`, or `ChatError`.
        The `Answer` in `AnswerDone` carries `request_id` and `conversation_id`. ``previous``: the customer's
        previous message, which a short follow-up is read with (its last `max_question_chars` count)."""
        question = check_input(question, self.config.max_question_chars)
        previous = previous[-self.config.max_question_chars:] if previous and previous.strip() else None
        if not self._ready or self._draining:
            raise NotReady("the service is draining" if self._draining else "the model is still loading")
        if self._num_in_flight >= self.config.max_concurrent_answers:
            self.metrics.rejected.labels("overloaded").inc()
            raise Overloaded(f"{self._num_in_flight} answers in flight (the limit is "
                             f"{self.config.max_concurrent_answers}); retry shortly")
        self._num_in_flight += 1
        return _AdmittedAnswer(self._answer(question, conversation_id or uuid.uuid4().hex, previous), self._release)

    def _release(self) -> None:
        self._num_in_flight -= 1

    async def _answer(self, question: str, conversation_id: str, previous: str | None) -> AsyncIterator:
        request_id = uuid.uuid4().hex
        created_at = datetime.now(timezone.utc)
        # The planner runs in a task of its own, in a context that names this answer (engine clients that
        # route by affinity read it), so consumers may advance this stream from any task.
        context = contextvars.copy_context()
        context.run(current_answer_id.set, request_id)
        queue: asyncio.Queue = asyncio.Queue()
        pump = asyncio.create_task(self._pump(question, previous, queue), context=context)
        try:
            while True:
                event = await queue.get()
                if event is None:
                    return
                if isinstance(event, BaseException):
                    yield self._failure(event, question, request_id, conversation_id, created_at)
                    return
                if isinstance(event, AnswerDone):
                    event.answer.request_id, event.answer.conversation_id = request_id, conversation_id
                    self._record(question, event.answer, created_at)
                yield event
        finally:  # a consumer that leaves early cancels the planner, which aborts its engine requests
            pump.cancel()
            await asyncio.gather(pump, return_exceptions=True)

    async def _pump(self, question: str, previous: str | None, queue: asyncio.Queue) -> None:
        try:
            async for event in self.planner.stream(question, previous):
                queue.put_nowait(event)
            queue.put_nowait(None)
        except Exception as exc:
            queue.put_nowait(exc)

    def _failure(self, exc: BaseException, question, request_id, conversation_id, created_at) -> ChatError:
        if isinstance(exc, QueueFullError):
            self.metrics.rejected.labels("overloaded").inc()
            return ChatError("overloaded", str(exc))
        # the engine died or a bug: the caller gets an error event, never a hang
        log.error("answer %s failed", request_id, exc_info=exc)
        code = "engine" if type(exc).__name__ in ("EngineDeadError", "ReplicaDiedError") else "internal"
        self._record_failure(question, request_id, conversation_id, created_at, str(exc))
        return ChatError(code, f"{code} error: {exc}")

    def lookup_policy(self, query: str, lang: str | None = None, limit: int = 5) -> list[PolicyHit]:
        """KB sections matching the query, best first, retrieved as the chat retrieves (`router.retrieve`: typos
        read, an intent's sections first, a one-question message's keyword phrase first); `lang` None searches
        the query's own language. "return policy" gives the returns' lead sections, not the assistant's own
        section; "my tv is broken" the defect and warranty sections."""
        query = check_input(query, self.config.max_question_chars)
        if not 1 <= limit <= self.config.max_policy_results:
            raise ValueError(f"limit must be between 1 and {self.config.max_policy_results}")
        # As deep as the chat's retrieval at least, so that a phrase's section under the limit can move first.
        _, _, hits, _ = retrieve(self.kb, query, None, None, lang=lang, k=max(limit, SEARCH_DEPTH))
        return [PolicyHit(h.section.id, h.section.lang, h.section.category, h.section.title, h.section.text,
                          round(h.score, 4)) for h in hits[:limit]]

    def latency_report(self, window_s: float = 900.0) -> LatencyReport:
        """Latency percentiles, throughput, gauges, SoT against direct, guard firings and the slowest answers."""
        if not 0 < window_s <= 7 * 86400:
            raise ValueError("window_s must be between 0 and 7 days")
        since = datetime.now(timezone.utc) - timedelta(seconds=window_s)
        rows = self._metric_rows(since)
        return build_latency_report(rows, self.gauges.since(since.timestamp()), window_s, self.llm.snapshot())

    def conversation(self, conversation_id: str) -> list[dict] | None:
        """The stored messages of one conversation (PII masked), or None if unknown."""
        if self.store is None:
            return None
        return self.store.conversation(conversation_id)

    def role_for_key(self, key: str | None) -> str | None:
        """"admin", "agent" or None for an API key."""
        return self.auth.role_for_key(key)

    # ---- internals -----------------------------------------------------------------------------
    def _record(self, question: str, answer, created_at: datetime) -> None:
        from chatbot.store import METRIC_FIELDS, Turn

        timings = answer.timings
        measured = {**timings, **answer.usage}
        metrics = {**{name: measured.get(name) for name in METRIC_FIELDS},
                   "guard_firings": list(answer.guard_firings), "error": None}
        self.metrics.observe_answer(answer.mode, timings, answer.guard_firings)
        row = {"request_id": answer.request_id, "conversation_id": answer.conversation_id, "created_at": created_at,
               "mode": answer.mode, "lang": answer.lang, **metrics}
        self._recent.append(row)
        if self.store is not None:
            self.store.record_turn(Turn(answer.conversation_id, answer.request_id, question, answer.answer,
                                        answer.lang, answer.mode, answer.category, answer.outline, answer.sources,
                                        created_at, metrics))
        log.info("answer %s mode=%s total=%.2fs question=%r", answer.request_id, answer.mode,
                 timings.get("total_s") or 0.0, mask_pii(question)[:80])

    def _record_failure(self, question, request_id, conversation_id, created_at, error: str) -> None:
        self._recent.append({"request_id": request_id, "conversation_id": conversation_id, "created_at": created_at,
                             "mode": "error", "lang": detect_lang(question), "error": mask_pii(error),
                             "guard_firings": []})

    def _metric_rows(self, since: datetime) -> list[dict]:
        if self.store is not None:
            try:
                self.store.flush(timeout_s=1.0)
                return self.store.request_metrics(since)
            except Exception as exc:  # the database is down: fall back to what this process remembers
                log.warning("latency report from memory, the store failed: %s", exc)
        return [r for r in self._recent if r["created_at"] >= since]

    async def _sample_gauges(self) -> None:
        while True:
            self.gauges.add(time.time(), self.llm.snapshot())
            await asyncio.sleep(self.config.gauge_interval_s)
