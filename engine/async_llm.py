"""`AsyncLLM`: the step loop on a background thread, streaming each request's tokens to asyncio."""
from __future__ import annotations

import asyncio
import logging
import queue
import threading
import uuid
from typing import AsyncIterator

from engine.config import EngineConfig
from engine.llm_engine import LLMEngine, RequestOutput
from engine.metrics import EngineSnapshot

log = logging.getLogger(__name__)


class EngineDeadError(RuntimeError):
    """The engine has shut down; no new requests are accepted."""


class AsyncLLM:
    """Thread-safe front of one `LLMEngine`. Only the engine thread touches the engine's state."""

    def __init__(self, config: EngineConfig | None = None, checkpoint=None) -> None:
        # To the engine thread: ("add", [(seq, (loop, future)), ...]), ("abort", request_id),
        # ("reset_prefix_cache", (loop, future)), ("wake", None).
        self._commands: queue.SimpleQueue = queue.SimpleQueue()
        self._streams: dict[str, tuple[asyncio.AbstractEventLoop, asyncio.Queue]] = {}
        self._lock = threading.Lock()
        # Adds made on one event-loop pass go to the engine thread as one command, so requests submitted
        # together (a SoT answer's points) start in the same step instead of racing the step loop.
        self._pending_adds: dict[asyncio.AbstractEventLoop, list] = {}
        self._aborted_pending: set[str] = set()  # aborted before their add was flushed: aborted right after it
        self._closed = False  # set (under the lock) once the engine thread takes no more commands
        self._stopped = threading.Event()
        # The engine is built on its own thread: torch ops run 1.7x slower on a thread other than the one
        # whose OpenMP team did the loading (measured on this 2-core CPU), and flushing denormals is per thread.
        built: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, args=(config or EngineConfig(), checkpoint, built),
                                        name="supportdesk-engine", daemon=True)
        self._thread.start()
        engine = built.get()
        if isinstance(engine, BaseException):
            raise engine
        self.engine = engine
        self.tokenizer = engine.tokenizer

    # ---- public API (any thread / event loop) ---------------------------------------------
    async def generate(self, prompt: str | list[int], params=None, request_id: str | None = None) -> AsyncIterator[RequestOutput]:
        """Stream outputs of one request; leaving the loop early (or a cancelled task) aborts it."""
        from engine.sampling import SamplingParams

        if self._stopped.is_set():
            raise EngineDeadError("engine is shut down")
        request_id = request_id or uuid.uuid4().hex
        seq = self.engine.make_sequence(prompt, params or SamplingParams(), request_id)  # validates here
        stream: asyncio.Queue = asyncio.Queue()
        with self._lock:
            if request_id in self._streams:
                raise ValueError(f"request id {request_id!r} is already in use")
            self._streams[request_id] = (asyncio.get_running_loop(), stream)
        loop = asyncio.get_running_loop()
        added = loop.create_future()
        self._submit(loop, seq, added)
        error = await added
        if error is not None:
            self._drop_stream(request_id)
            raise error
        finished = False
        try:
            while True:
                out = await stream.get()
                finished = out.finished
                yield out
                if finished:
                    return
        finally:
            if not finished:
                self.abort(request_id)
            self._drop_stream(request_id)

    def abort(self, request_id: str) -> None:
        """Abort a request; its blocks are freed before the next step."""
        with self._lock:
            if any(seq.request_id == request_id for adds in self._pending_adds.values() for seq, _ in adds):
                self._aborted_pending.add(request_id)  # keeps the order: the add goes first
                return
            self._commands.put(("abort", request_id))

    def snapshot(self) -> EngineSnapshot:
        return self.engine.snapshot()

    async def reset_prefix_cache(self) -> int:
        """Forget the cached prefixes no running request holds, on the engine thread between steps;
        returns the number of blocks forgotten."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        with self._lock:
            closed = self._closed
            if not closed:
                self._commands.put(("reset_prefix_cache", (loop, done)))
        if closed:
            raise EngineDeadError("engine is shut down")
        result = await done
        if isinstance(result, BaseException):
            raise result
        return result

    @property
    def eos_token_ids(self) -> set[int]:
        return self.engine.eos_token_ids

    @property
    def max_model_len(self) -> int:
        return self.engine.max_model_len

    @property
    def model_name(self) -> str:
        return self.engine.model_name

    def prepare_grammars(self) -> None:
        """Compile the tokenizer's grammar tables now rather than on the first JSON-constrained request."""
        _ = self.engine.grammars

    def on_request_finished(self, listener) -> None:
        """Call ``listener(RequestMetrics)`` on the engine thread whenever a request finishes."""
        self.engine.metrics.listeners.append(listener)

    @property
    def is_running(self) -> bool:
        return self._thread.is_alive() and not self._stopped.is_set()

    def shutdown(self, timeout_s: float = 10.0) -> None:
        """Stop the loop, abort what is left, and join the thread."""
        self._stopped.set()
        self._commands.put(("wake", None))
        self._thread.join(timeout_s)

    def _submit(self, loop: asyncio.AbstractEventLoop, seq, added: asyncio.Future) -> None:
        """Queue `seq` for the engine with the other adds of this loop pass (flushed by `call_soon`, which
        runs after the tasks already scheduled, e.g. all the points a planner just created)."""
        with self._lock:
            pending = self._pending_adds.setdefault(loop, [])
            pending.append((seq, (loop, added)))
            first = len(pending) == 1
        if first:
            loop.call_soon(self._flush_adds, loop)

    def _flush_adds(self, loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            adds = self._pending_adds.pop(loop, [])
            aborted = [seq.request_id for seq, _ in adds if seq.request_id in self._aborted_pending]
            self._aborted_pending.difference_update(aborted)
            if adds and not self._closed:
                self._commands.put(("add", adds))
                for request_id in aborted:
                    self._commands.put(("abort", request_id))
                return
        for _, reply in adds:
            _reply(reply, EngineDeadError("engine is shut down"))

    # ---- engine thread --------------------------------------------------------------------
    def _drop_stream(self, request_id: str) -> None:
        with self._lock:
            self._streams.pop(request_id, None)

    def _deliver(self, out: RequestOutput) -> None:
        with self._lock:
            target = self._streams.get(out.request_id)
        if target is not None:
            loop, stream = target
            try:
                loop.call_soon_threadsafe(stream.put_nowait, out)
            except RuntimeError:  # the consumer's loop is closed
                pass

    def _handle(self, command) -> None:
        kind, arg = command
        if kind == "add":
            for seq, seq_reply in arg:
                try:
                    self.engine.add_sequence(seq)
                    _reply(seq_reply, None)
                except Exception as exc:  # queue full, duplicate id: reported to that caller
                    _reply(seq_reply, exc)
        elif kind == "abort":
            out = self.engine.abort(arg)
            if out is not None:
                self._deliver(out)
        elif kind == "reset_prefix_cache":
            _reply(arg, self.engine.reset_prefix_cache())

    def _run(self, config: EngineConfig, checkpoint, built: queue.SimpleQueue) -> None:
        try:
            self.engine = LLMEngine(config, checkpoint)
        except BaseException as exc:  # reported to the constructor, which raises it
            built.put(exc)
            return
        built.put(self.engine)
        while not self._stopped.is_set():
            block = not self.engine.has_unfinished
            try:
                command = self._commands.get(timeout=0.5) if block else self._commands.get_nowait()
                self._handle(command)
                while True:
                    self._handle(self._commands.get_nowait())
            except queue.Empty:
                pass
            if self._stopped.is_set() or not self.engine.has_unfinished:
                continue
            try:
                outputs = self.engine.step()
            except Exception as exc:  # never hang the consumers: fail what was running
                log.exception("engine step failed")
                outputs = self.engine.fail_all(f"engine error: {exc}")
            for out in outputs:
                self._deliver(out)
        for out in self.engine.fail_all("engine shut down"):
            self._deliver(out)
        with self._lock:
            self._closed = True
        while True:  # answer adds that raced with shutdown
            try:
                kind, arg = self._commands.get_nowait()
            except queue.Empty:
                break
            if kind == "add":
                for _, reply in arg:
                    _reply(reply, EngineDeadError("engine is shut down"))
            elif kind == "reset_prefix_cache":
                _reply(arg, EngineDeadError("engine is shut down"))


def _reply(reply: tuple[asyncio.AbstractEventLoop, asyncio.Future], value) -> None:
    loop, future = reply
    try:
        loop.call_soon_threadsafe(lambda: future.done() or future.set_result(value))
    except RuntimeError:  # the caller's loop is closed
        pass
