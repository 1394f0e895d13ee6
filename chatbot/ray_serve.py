"""Engine replicas on Ray Serve: `EngineReplica` (one `AsyncLLM` per replica) and `RayLLM`, the client that
`ChatService` uses in place of an `AsyncLLM`, so the API and UI in front stay the same.

Routing is Ray Serve's own consistent-hash request router keyed by `session_id`. With affinity, the key is
the answer being worked for (`current_answer_id`), so an answer's outline and all of its SoT expansions
land on one replica and its prefix cache serves the shared prefix. Without affinity ("random"), the router
hashes each request's own id: the same code path, spread uniformly.

A request whose replica dies before its first output arrives is retried on another replica; once outputs
have streamed it is never retried (it would be answered twice) and fails with `ReplicaDiedError`.
"""
from __future__ import annotations

import asyncio
import collections
import dataclasses
import logging
import os
import threading
import uuid
from dataclasses import dataclass
from typing import AsyncIterator, NamedTuple

from ray import serve
from ray.exceptions import RayActorError, RayTaskError
from ray.serve.config import RequestRouterConfig

from chatbot.service import current_answer_id
from engine.async_llm import AsyncLLM
from engine.config import EngineConfig
from engine.llm_engine import RequestOutput
from engine.metrics import EngineSnapshot, notify_listeners

log = logging.getLogger(__name__)

APP_NAME = "supportdesk"
ROUTINGS = ("affinity", "random")
ROUTER_CLASS = "ray.serve.experimental.consistent_hash_router.ConsistentHashRouter"
PLACEMENT_STRATEGY = "SPREAD"
RETRY_BACKOFF_S = 0.1
BASE_REPLICA_MEMORY_BYTES = 1536 << 20  # weights, activations, tokenizer and grammar tables; KV cache on top
_COUNTERS = ("num_preemptions", "num_steps", "num_prefill_tokens", "num_decode_tokens", "num_finished")

__all__ = ["ROUTINGS", "EngineReplica", "RayLLM", "ReplicaDiedError", "ReplicaInfo", "ReplicaResources", "Route",
           "merge_snapshots", "start_ray_llm"]


class ReplicaDiedError(RuntimeError):
    """The replica serving a request died after the request had started streaming."""


class ReplicaInfo(NamedTuple):
    replica_id: str
    model_name: str
    max_model_len: int
    eos_token_ids: frozenset[int]
    tokenizer_json: str


class Route(NamedTuple):
    """Where one engine request ran: `num_attempts` > 1 means it was retried on another replica."""

    request_id: str
    answer_id: str | None  # `current_answer_id` when the request was made
    replica_id: str
    num_attempts: int


@dataclass(frozen=True)
class ReplicaResources:
    """One placement-group bundle per replica; the replica actor takes all of it."""

    num_cpus: float = 1.0
    num_gpus: float = 0.0
    memory_bytes: int = BASE_REPLICA_MEMORY_BYTES + (512 << 20)

    def __post_init__(self) -> None:
        if self.num_cpus <= 0 or self.num_gpus < 0 or self.memory_bytes <= 0:
            raise ValueError(f"replica resources must be positive (GPU may be 0), got {self}")

    @staticmethod
    def for_engine(config: EngineConfig, num_cpus: float = 1.0, num_gpus: float = 0.0) -> "ReplicaResources":
        return ReplicaResources(num_cpus, num_gpus, BASE_REPLICA_MEMORY_BYTES + config.kv_cache_bytes)

    @property
    def bundle(self) -> dict[str, float]:
        bundle = {"CPU": self.num_cpus, "GPU": self.num_gpus, "memory": self.memory_bytes}
        return {name: amount for name, amount in bundle.items() if amount}

    @property
    def actor_options(self) -> dict[str, float]:
        return {"num_cpus": self.num_cpus, "num_gpus": self.num_gpus, "memory": self.memory_bytes}


@serve.deployment(name="EngineReplica", health_check_period_s=5.0, graceful_shutdown_timeout_s=30.0)
class EngineReplica:
    """One engine in one Ray actor. Streams `(replica_id, RequestOutput)` pairs."""

    def __init__(self, config: EngineConfig) -> None:
        self.replica_id = serve.get_replica_context().replica_id.unique_id
        self.llm = AsyncLLM(config)
        self.llm.prepare_grammars()  # compiled before the replica reports ready, never on a request

    def info(self) -> ReplicaInfo:
        return ReplicaInfo(self.replica_id, self.llm.model_name, self.llm.max_model_len,
                           frozenset(self.llm.eos_token_ids), self.llm.tokenizer.to_str())

    async def generate(self, prompt: str | list[int], params,
                       request_id: str) -> AsyncIterator[tuple[str, RequestOutput]]:
        async for out in self.llm.generate(prompt, params, request_id):
            yield self.replica_id, out

    def snapshot(self) -> tuple[str, EngineSnapshot]:
        """Gauges and counters without the per-step and per-request histories (they stay on the replica)."""
        snap = self.llm.snapshot()
        return self.replica_id, dataclasses.replace(snap, recent_steps=(), recent_requests=())

    def check_health(self) -> None:
        if not self.llm.is_running:
            raise RuntimeError(f"engine of replica {self.replica_id} has stopped")

    def __del__(self) -> None:
        llm = getattr(self, "llm", None)
        if llm is not None:
            llm.shutdown()


def merge_snapshots(snapshots: list[EngineSnapshot], retired: dict[str, int] | None = None) -> EngineSnapshot:
    """One snapshot for many replicas: gauges and counters summed (counters include replicas that are gone),
    KV usage over all blocks, the prefix hit rate averaged over replicas."""
    retired = retired or {}
    used = sum(s.kv_blocks_used for s in snapshots)
    total = sum(s.kv_blocks_total for s in snapshots)
    return EngineSnapshot(
        num_running=sum(s.num_running for s in snapshots), num_waiting=sum(s.num_waiting for s in snapshots),
        kv_blocks_used=used, kv_blocks_total=total, kv_usage=used / total if total else 0.0,
        prefix_cache_hit_rate=(sum(s.prefix_cache_hit_rate for s in snapshots) / len(snapshots) if snapshots else 0.0),
        **{name: sum(getattr(s, name) for s in snapshots) + retired.get(name, 0) for name in _COUNTERS})


class RayLLM:
    """The `AsyncLLM` client interface over the replicas of one Serve deployment."""

    def __init__(self, handle, routing: str = "affinity", max_attempts: int = 3, snapshot_interval_s: float = 1.0,
                 owned_app: str | None = None, owns_ray: bool = False) -> None:
        from tokenizers import Tokenizer

        if routing not in ROUTINGS:
            raise ValueError(f"routing must be one of {ROUTINGS}, got {routing!r}")
        self.routing, self.max_attempts, self.snapshot_interval_s = routing, max_attempts, snapshot_interval_s
        self._handle, self._owned_app, self._owns_ray = handle, owned_app, owns_ray
        info: ReplicaInfo = handle.info.remote().result(timeout_s=120)
        self.tokenizer = Tokenizer.from_str(info.tokenizer_json)
        self.model_name, self.max_model_len = info.model_name, info.max_model_len
        self.eos_token_ids = set(info.eos_token_ids)
        self.num_requests_by_replica: collections.Counter[str] = collections.Counter()
        self.num_retries = 0
        self.recent_routes: collections.deque[Route] = collections.deque(maxlen=4096)
        self._listeners: list = []
        self._streams: dict[str, object] = {}  # request id -> its replica stream, for `abort`
        self._snapshots: dict[str, EngineSnapshot] = {}
        self._retired: dict[str, int] = dict.fromkeys(_COUNTERS, 0)
        self._stopped = threading.Event()
        self._refresh_lock = threading.Lock()
        self.refresh_snapshots()
        self._poller = threading.Thread(target=self._poll_snapshots, name="supportdesk-ray-snapshots", daemon=True)
        self._poller.start()

    # ---- the AsyncLLM client interface -----------------------------------------------------------
    async def generate(self, prompt: str | list[int], params=None,
                       request_id: str | None = None) -> AsyncIterator[RequestOutput]:
        """Stream one request from a replica chosen by the router; retried elsewhere only before its first output."""
        from engine.sampling import SamplingParams

        request_id = request_id or uuid.uuid4().hex
        params = params or SamplingParams()
        answer_id = current_answer_id.get()
        key = (answer_id or request_id) if self.routing == "affinity" else None
        handle = self._handle.options(stream=True, session_id=key) if key else self._handle.options(stream=True)
        for attempt in range(1, self.max_attempts + 1):
            stream = self._streams[request_id] = handle.generate.remote(prompt, params, request_id)
            replica_id, finished = None, False
            try:
                async for replica_id_, out in stream:
                    if replica_id is None:
                        replica_id = replica_id_
                        self.num_requests_by_replica[replica_id] += 1
                        self.recent_routes.append(Route(request_id, answer_id, replica_id, attempt))
                    finished = out.finished
                    if finished:
                        self._notify(out)
                    yield out
                    if finished:
                        return
                raise ReplicaDiedError(f"replica {replica_id} ended request {request_id} without finishing it")
            except RayTaskError as exc:  # the replica raised (bad prompt, queue full): the engine's own error
                raise (exc.cause if isinstance(exc.cause, Exception) else exc) from None
            except RayActorError as exc:
                if replica_id is not None:
                    raise ReplicaDiedError(f"replica {replica_id} died while streaming request {request_id}; "
                                           "not retried, it would be answered twice") from exc
                if attempt == self.max_attempts:
                    raise ReplicaDiedError(f"request {request_id} lost its replica {attempt} times") from exc
                self.num_retries += 1
                log.warning("replica died before request %s started streaming; retrying (attempt %d): %s",
                            request_id, attempt + 1, exc)
                await asyncio.sleep(RETRY_BACKOFF_S * attempt)  # lets the router drop the dead replica
            finally:
                self._streams.pop(request_id, None)
                if not finished:
                    stream.cancel()  # the consumer left early or the replica failed: abort it there

    def abort(self, request_id: str) -> None:
        """Cancel a request's replica stream: the replica aborts it and frees its blocks."""
        stream = self._streams.get(request_id)
        if stream is not None:
            stream.cancel()

    def snapshot(self) -> EngineSnapshot:
        """All replicas' engines as one, as of the last poll (every `snapshot_interval_s`)."""
        return merge_snapshots(list(self._snapshots.values()), self._retired)

    def prepare_grammars(self) -> None:
        """Each replica compiles its grammar tables at start."""

    def on_request_finished(self, listener) -> None:
        """Call ``listener(RequestMetrics)`` whenever a request finishes, on any replica."""
        self._listeners.append(listener)

    @property
    def is_running(self) -> bool:
        return not self._stopped.is_set() and bool(self._snapshots)

    @property
    def num_replicas(self) -> int:
        return len(self._snapshots)

    def shutdown(self, timeout_s: float = 30.0) -> None:
        """Stop polling; delete the Serve app and stop Ray if `start_ray_llm` started them."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        self._poller.join(timeout_s)
        if self._owned_app is not None:
            serve.delete(self._owned_app)
        if self._owns_ray:
            import ray

            serve.shutdown()
            ray.shutdown()

    # ---- internals ---------------------------------------------------------------------------------
    def _notify(self, out: RequestOutput) -> None:
        if out.metrics is not None:
            notify_listeners(self._listeners, out.metrics)

    def refresh_snapshots(self, timeout_s: float = 5.0) -> None:
        """Ask every live replica for its snapshot; replicas that are gone keep their counters in the totals."""
        with self._refresh_lock:  # one at a time, so an older poll never overwrites a newer one
            results = self._handle.broadcast("snapshot").results(timeout_s=timeout_s, return_exceptions=True)
            fresh = dict(r for r in results if not isinstance(r, BaseException))
            if len(fresh) == len(results):  # every live replica answered: the missing ones are gone
                for replica_id in self._snapshots.keys() - fresh.keys():
                    for name in _COUNTERS:
                        self._retired[name] += getattr(self._snapshots[replica_id], name)
                self._snapshots = fresh
            else:
                self._snapshots = {**self._snapshots, **fresh}

    def _poll_snapshots(self) -> None:
        while not self._stopped.wait(self.snapshot_interval_s):
            try:
                self.refresh_snapshots()
            except Exception as exc:  # the controller restarting, a timeout: try again next interval
                log.warning("replica snapshot poll failed: %s", exc)


def start_ray_llm(config: EngineConfig, num_replicas: int = 2, *, routing: str = "affinity",
                  address: str | None = None, num_cpus_per_replica: float = 1.0,
                  resources: ReplicaResources | None = None, max_ongoing_requests: int | None = None,
                  app_name: str = APP_NAME) -> RayLLM:
    """Deploy `num_replicas` engines on Ray Serve and return their client.

    Uses the Ray already initialised in this process, else connects to `address` (or `$RAY_ADDRESS`), else
    starts a local one. Each replica gets one placement-group bundle with the SPREAD strategy: `resources`,
    or `num_cpus_per_replica` CPUs, memory for the weights plus the KV cache, and one GPU when the config
    asks for CUDA (or for "auto" on a cluster that has GPUs). Torch threads default to the replica's CPUs.
    """
    import ray

    if num_replicas < 1:
        raise ValueError(f"num_replicas must be at least 1, got {num_replicas}")
    if routing not in ROUTINGS:
        raise ValueError(f"routing must be one of {ROUTINGS}, got {routing!r}")
    owns_ray = not ray.is_initialized()
    if owns_ray:
        address = address or os.environ.get("RAY_ADDRESS")
        if address:
            ray.init(address=address)
        else:
            ray.init(include_dashboard=False)
    if resources is None:
        has_gpus = ray.cluster_resources().get("GPU", 0) > 0
        use_gpu = config.device == "cuda" or (config.device == "auto" and has_gpus)
        resources = ReplicaResources.for_engine(config, num_cpus_per_replica, num_gpus=1.0 if use_gpu else 0.0)
    if config.num_threads is None:
        config = dataclasses.replace(config, num_threads=max(1, int(resources.num_cpus)))
    serve.start(proxy_location="Disabled")  # the API runs in this process, not behind Serve's HTTP proxy
    replica = EngineReplica.options(
        num_replicas=num_replicas,
        ray_actor_options=resources.actor_options,
        placement_group_bundles=[resources.bundle],
        placement_group_strategy=PLACEMENT_STRATEGY,
        # Beyond the running batch, a replica queues up to another batch; past that the router spills over.
        max_ongoing_requests=max_ongoing_requests or 2 * config.max_num_seqs,
        request_router_config=RequestRouterConfig(request_router_class=ROUTER_CLASS,
                                                  request_router_kwargs={"num_fallback_replicas": num_replicas - 1}),
    )
    handle = serve.run(replica.bind(config), name=app_name, route_prefix=None)
    return RayLLM(handle, routing=routing, owned_app=app_name, owns_ray=owns_ray)
