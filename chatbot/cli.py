"""The `supportdesk` command: convert, ask, eval, bench, serve."""
from __future__ import annotations

import argparse
import json
import sys
import time

from chatbot.pruning import PRUNE_OVER_CHARS
from chatbot.users_cli import add_users_parser
from engine.config import EngineConfig


def _engine_config(args) -> EngineConfig:
    return EngineConfig(model=args.model, dtype=args.dtype, cache_dir=args.cache_dir,
                        num_speculative_tokens=args.num_speculative_tokens)


def _cmd_convert(args) -> int:
    from engine.loader import convert

    start = time.perf_counter()
    path = convert(args.model, cache_dir=args.cache_dir)
    print(f"converted checkpoint: {path} ({time.perf_counter() - start:.1f} s)")
    from kernels import cpu_extension

    start = time.perf_counter()
    if cpu_extension.load() is not None:  # built once per machine; the first start would do it otherwise
        print(f"C++ CPU kernels ready ({time.perf_counter() - start:.1f} s)")
    return 0


def _router(args, llm, kb):
    from chatbot.router import HybridRouter, ModelRouter, RuleRouter

    if args.router == "rules":
        return RuleRouter(kb)
    return {"model": ModelRouter, "both": HybridRouter}[args.router](llm, kb)


def _assistant(args):
    """One engine, the knowledge base and the planner with the chosen router."""
    from chatbot.knowledge import KnowledgeBase
    from chatbot.planner import Planner
    from engine.async_llm import AsyncLLM

    llm = AsyncLLM(_engine_config(args))
    kb = KnowledgeBase.load()
    return llm, kb, Planner(llm, kb, _router(args, llm, kb), prune_over_chars=args.prune_over_chars)


def _build_service(args):
    """The ChatService `serve` runs: engine, knowledge base, router, store, keys."""
    from chatbot.knowledge import KnowledgeBase
    from chatbot.service import ChatService, ServiceConfig
    from chatbot.store import Store
    from engine.async_llm import AsyncLLM

    if args.ray:
        try:
            from chatbot.ray_serve import start_ray_llm
        except ImportError as exc:
            raise RuntimeError("--ray needs Ray Serve: pip install -e '.[ray]'") from exc
        llm = start_ray_llm(_engine_config(args), args.replicas, routing=args.ray_routing,
                            address=args.ray_address, num_cpus_per_replica=args.cpus_per_replica)
    else:
        llm = AsyncLLM(_engine_config(args))
    kb = KnowledgeBase.load()
    store = Store(args.database_url)
    config = ServiceConfig(prune_over_chars=args.prune_over_chars, max_concurrent_answers=args.max_concurrent_answers)
    return ChatService(llm, kb, store, config, _router(args, llm, kb))


def _cmd_serve(args) -> int:
    import uvicorn

    from chatbot.api import create_app

    service = _build_service(args)
    app = create_app(service)
    if not args.no_ui:
        from ui import mount_ui  # the web UI and the MCP server, on the same port

        app = mount_ui(app, service)
    print(f"supportdesk: open http://{args.host}:{args.port}/ in a browser (API under /v1 and /api; "
          f"/readyz turns 200 once the one-token warm-up has run)", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, timeout_graceful_shutdown=15)
    return 0


def _cmd_ask(args) -> int:
    import asyncio

    from chatbot.guard import check_input

    question = check_input(args.question)
    llm, _, planner = _assistant(args)
    try:
        answer = asyncio.run(planner.answer(question, args.previous))
    finally:
        llm.shutdown()
    print(json.dumps(answer.as_json(), ensure_ascii=False) if args.json else answer.answer)
    return 0


def _cmd_eval(args) -> int:
    from chatbot.evaluation import run_eval

    llm, kb, planner = _assistant(args)
    try:
        summary = run_eval(planner, kb, args.questions, args.out, concurrency=args.concurrency)
    finally:
        llm.shutdown()
    for key, value in summary.items():
        print(f"{key:30s} {value:.3f}" if isinstance(value, float) else f"{key:30s} {value}")
    return 0


def _cmd_bench(args) -> int:
    if args.what == "attention":
        from engine.bench.attention import run_attention_bench

        run_attention_bench(as_json=args.json)
    elif args.what == "quant":
        from engine.bench.quant import run_quant_bench

        run_quant_bench(model=args.model, cache_dir=args.cache_dir, as_json=args.json)
    elif args.what == "engine":
        from engine.bench.serving import run_engine_bench

        run_engine_bench(model=args.model, cache_dir=args.cache_dir, as_json=args.json, num_requests=args.num_requests)
    elif args.what == "ray":
        from chatbot.ray_bench import run_ray_bench

        run_ray_bench(_engine_config(args), num_replicas=args.replicas, num_questions=args.num_questions or 12,
                      concurrency=args.concurrency, as_json=args.json)
    elif args.what == "sot":
        from chatbot.bench_sot import run_sot_bench

        llm, _, planner = _assistant(args)
        try:
            run_sot_bench(planner, num_questions=args.num_questions, as_json=args.json)
        finally:
            llm.shutdown()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="supportdesk", description="Self-hosted support assistant and LLM engine.")
    sub = parser.add_subparsers(dest="command", required=True)

    def model_args(p):
        p.add_argument("--model", default=None, help="GGUF file or HF safetensors dir (default: packaged Gemma 3 270M)")
        p.add_argument("--dtype", default="int8", choices=["int8", "fp32", "bf16"])
        p.add_argument("--cache-dir", default=None, help="converted-checkpoint cache (default: $SUPPORTDESK_CACHE_DIR or ~/.cache/supportdesk)")
        p.add_argument("--num-speculative-tokens", type=int, default=EngineConfig.num_speculative_tokens,
                       help="n-gram draft tokens per greedy decode step (0: off)")

    p = sub.add_parser("convert", help="convert a checkpoint to the cached int8 format once")
    model_args(p)
    p.set_defaults(func=_cmd_convert)

    def planner_args(p):
        p.add_argument("--router", default="rules", choices=["rules", "model", "both"],
                       help="SoT-R router: rules, the model, or both (the model picks sot or direct; default: rules)")
        p.add_argument("--prune-over-chars", type=int, default=PRUNE_OVER_CHARS,
                       help="prune longer messages (0 disables)")

    p = sub.add_parser("ask", help="answer one question with the SoT planner")
    p.add_argument("question")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--previous", metavar="MESSAGE", help="the customer's previous message (the question may follow it up)")
    model_args(p)
    planner_args(p)
    p.set_defaults(func=_cmd_ask)

    p = sub.add_parser("eval", help="answer and score a JSONL question set")
    p.add_argument("--questions", required=True, help="JSONL lines with id, question (and expected_* to score)")
    p.add_argument("--out", required=True, help="JSONL output, one line per question")
    p.add_argument("--concurrency", type=int, default=4)
    model_args(p)
    planner_args(p)
    p.set_defaults(func=_cmd_eval)

    p = sub.add_parser("serve", help="serve the HTTP API (and the web UI) on one port")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--database-url", default=None, help="SQLAlchemy URL (default: $DATABASE_URL or a SQLite file)")
    p.add_argument("--max-concurrent-answers", type=int, default=16, help="more get 429 with Retry-After")
    p.add_argument("--no-ui", action="store_true", help="serve the API only")
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    p.add_argument("--ray", action="store_true", help="run the engine as Ray Serve replicas (pip install -e '.[ray]')")
    p.add_argument("--replicas", type=int, default=2, help="--ray: engine replicas")
    p.add_argument("--ray-address", default=None, help="--ray: a running cluster (default: $RAY_ADDRESS, else a local Ray)")
    p.add_argument("--ray-routing", default="affinity", choices=["affinity", "random"],
                   help="--ray: keep each answer's requests on one replica, or spread them")
    p.add_argument("--cpus-per-replica", type=float, default=1.0, help="--ray: CPUs in each replica's bundle")
    model_args(p)
    planner_args(p)
    p.set_defaults(func=_cmd_serve)

    add_users_parser(sub)

    p = sub.add_parser("bench", help="benchmarks, side by side with their anchors")
    p.add_argument("what", choices=["quant", "engine", "attention", "sot", "ray"])
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--num-questions", type=int, default=None,
                   help="sot: the first N multi-point eval questions (default: all); ray: N (default 12)")
    p.add_argument("--num-requests", type=int, default=64, help="engine: requests per scenario")
    p.add_argument("--replicas", type=int, default=2, help="ray: engine replicas")
    p.add_argument("--concurrency", type=int, default=4, help="ray: answers in flight")
    model_args(p)
    planner_args(p)
    p.set_defaults(func=_cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, FileNotFoundError, RuntimeError) as exc:
        print(f"supportdesk {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
