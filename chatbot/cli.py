"""The `supportdesk` command: convert, ask, eval, bench, serve."""
from __future__ import annotations

import argparse
import json
import sys
import time


def _engine_config(args):
    from engine.config import EngineConfig

    return EngineConfig(model=args.model, dtype=args.dtype, cache_dir=args.cache_dir)


def _cmd_convert(args) -> int:
    from engine.loader import convert

    start = time.perf_counter()
    path = convert(args.model, cache_dir=args.cache_dir)
    print(f"converted checkpoint: {path} ({time.perf_counter() - start:.1f} s)")
    return 0


def _cmd_ask(args) -> int:
    from engine.llm_engine import LLM
    from engine.sampling import SamplingParams

    llm = LLM(_engine_config(args))
    out = llm.generate([args.question], SamplingParams(max_tokens=args.max_tokens, temperature=0.0))[0]
    if args.json:
        print(json.dumps({"answer": out.text, "finish_reason": out.finish_reason,
                          "usage": {"prompt_tokens": out.num_prompt_tokens, "completion_tokens": len(out.token_ids)}},
                         ensure_ascii=False))
    else:
        print(out.text.strip())
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

        run_engine_bench(model=args.model, cache_dir=args.cache_dir, as_json=args.json)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="supportdesk", description="Self-hosted support assistant and LLM engine.")
    sub = parser.add_subparsers(dest="command", required=True)

    def model_args(p):
        p.add_argument("--model", default=None, help="GGUF file or HF safetensors dir (default: packaged Gemma 3 270M)")
        p.add_argument("--dtype", default="int8", choices=["int8", "fp32", "bf16"])
        p.add_argument("--cache-dir", default=None, help="converted-checkpoint cache (default: $SUPPORTDESK_CACHE_DIR or ~/.cache/supportdesk)")

    p = sub.add_parser("convert", help="convert a checkpoint to the cached int8 format once")
    model_args(p)
    p.set_defaults(func=_cmd_convert)

    p = sub.add_parser("ask", help="answer one question")
    p.add_argument("question")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--max-tokens", type=int, default=128)
    model_args(p)
    p.set_defaults(func=_cmd_ask)

    p = sub.add_parser("bench", help="benchmarks, side by side with their anchors")
    p.add_argument("what", choices=["quant", "engine", "attention"])
    p.add_argument("--json", action="store_true", help="print one JSON object")
    model_args(p)
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
