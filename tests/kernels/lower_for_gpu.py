"""Compile every Triton kernel, as the engine launches it for Gemma 3 270M, for NVIDIA targets without a GPU.

The interpreter runs the kernels' Python, so it accepts code that Triton's compiler rejects (types of
loop-carried values, layouts, shapes ``tl.dot`` cannot take). This lowers each kernel through Triton's
whole pipeline (TTIR, TTGIR, LLVM IR, PTX, and a cubin by the ``ptxas`` bundled with the wheel) for
Hopper (``sm_90``, the H200) and Ampere (``sm_80``). It must run in a process without
``TRITON_INTERPRET`` (the kernel tests' conftest sets it), so ``test_lower_for_gpu.py`` starts it:
``python tests/kernels/lower_for_gpu.py`` prints one JSON line per kernel and target.
"""
from __future__ import annotations

import json
import os
import sys

# Gemma 3 270M: 4 query heads sharing 1 KV head of 256, hidden 640, MLP 2048, a 512-token window; bf16 on CUDA.
GROUP, HEAD_DIM, HIDDEN, BLOCK_SIZE = 4, 256, 640, 16
TARGETS = ((90, "sm_90"), (80, "sm_80"))


def _kernels():
    """``(name, kernel, pointer dtypes, float scalars, constexprs, options)`` for every launch variant."""
    import triton.language as tl

    from kernels import int8_matmul, paged_decode_attention, paged_prefill_attention, rms_norm, store_kv
    from kernels._triton_utils import next_pow2

    bf16 = dict(default="bf16", block_tables_ptr="i32", context_lens_ptr="i32", cu_seqlens_q_ptr="i32",
                slot_mapping_ptr="i64", part_acc_ptr="fp32", part_max_ptr="fp32", part_sum_ptr="fp32",
                w_ptr="i8", scale_ptr="fp32")
    block_n = paged_decode_attention.default_block_n(HEAD_DIM)
    splits = dict(TILES_PER_SPLIT=paged_decode_attention.KEYS_PER_SPLIT // block_n,
                  MAX_SPLITS=paged_decode_attention.MAX_SPLITS, BLOCK_N=block_n, BLOCK_D=HEAD_DIM)
    block_q, block_g, prefill_n = paged_prefill_attention.prefill_tile_sizes(GROUP, HEAD_DIM)
    variants = []
    for window in (False, True):
        for num_splits in (1, 8):
            variants.append((f"decode_attention(splits={num_splits}, window={window})",
                             paged_decode_attention._decode_kernel, bf16, ("qk_scale",),
                             dict(GROUP=GROUP, HEAD_DIM=HEAD_DIM, BLOCK_SIZE=BLOCK_SIZE, NUM_SPLITS=num_splits,
                                  HAS_WINDOW=window, DOT_DTYPE=tl.bfloat16, BLOCK_H=16, **splits), {}))
        variants.append((f"decode_attention_merge(window={window})", paged_decode_attention._reduce_splits_kernel,
                         bf16, (), dict(HEAD_DIM=HEAD_DIM, NUM_SPLITS=8, HAS_WINDOW=window, **splits), {}))
        variants.append((f"prefill_attention(window={window})", paged_prefill_attention._prefill_kernel, bf16,
                         ("qk_scale",), dict(GROUP=GROUP, HEAD_DIM=HEAD_DIM, BLOCK_SIZE=BLOCK_SIZE,
                                             HAS_WINDOW=window, DOT_DTYPE=tl.bfloat16, BLOCK_Q=block_q,
                                             BLOCK_G=block_g, BLOCK_D=HEAD_DIM, BLOCK_N=prefill_n), {}))
    tile = dict(int8_matmul._TILE)
    options = dict(num_warps=tile.pop("num_warps"), num_stages=tile.pop("num_stages"))
    for bias in (False, True):
        variants.append((f"int8_matmul(bias={bias})", int8_matmul._int8_matmul_kernel, bf16, (),
                         dict(HAS_BIAS=bias, DOT_DTYPE=tl.bfloat16, **tile), options))
    for residual, hidden in ((True, HIDDEN), (False, HIDDEN), (False, HEAD_DIM)):
        variants.append((f"rms_norm(residual={residual}, hidden={hidden})", rms_norm._rms_norm_kernel, bf16,
                         ("eps", "weight_offset"),
                         dict(HAS_RESIDUAL=residual, SUM_DTYPE=tl.bfloat16, BLOCK=next_pow2(hidden)), {}))
    variants.append(("store_kv", store_kv._store_kv_kernel, bf16, (),
                     dict(NUM_KV_HEADS=1, HEAD_DIM=HEAD_DIM, BLOCK_SIZE=BLOCK_SIZE, BLOCK_H=1, BLOCK_D=HEAD_DIM), {}))
    return variants


def _signature(kernel, pointers: dict, floats: tuple, constexprs: dict) -> tuple[dict, dict]:
    """Triton's signature (a type per parameter) and constexpr map for ``kernel``: ``*_ptr`` parameters are
    pointers, ``floats`` fp32, the rest int32."""
    names = [p.name for p in kernel.params]
    missing = [p.name for p in kernel.params if p.is_constexpr and p.name not in constexprs]
    if missing:
        raise ValueError(f"{kernel.fn.__name__}: no value for constexprs {missing}")
    signature = {}
    for name in names:
        if name in constexprs:
            signature[name] = "constexpr"
        elif name.endswith("_ptr"):
            signature[name] = "*" + pointers.get(name, pointers["default"])
        else:
            signature[name] = "fp32" if name in floats else "i32"
    return signature, {(names.index(k),): v for k, v in constexprs.items()}


def main() -> int:
    """Lower every variant for every target; print a JSON line each; exit 1 if any failed."""
    if os.environ.get("TRITON_INTERPRET"):
        print("unset TRITON_INTERPRET: the interpreter's kernels cannot be compiled", file=sys.stderr)
        return 2
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    failed = 0
    for capability, arch in TARGETS:
        for name, kernel, pointers, floats, constexprs, options in _kernels():
            signature, constants = _signature(kernel, pointers, floats, constexprs)
            source = ASTSource(fn=kernel, signature=signature, constexprs=constants)
            try:
                compiled = triton.compile(source, target=GPUTarget("cuda", capability, 32), options=options)
                row = {"kernel": name, "target": arch, "ok": "cubin" in compiled.asm,
                       "shared_bytes": compiled.metadata.shared}
            except Exception as e:  # noqa: BLE001 - every compiler error is a finding to report
                row = {"kernel": name, "target": arch, "ok": False, "error": str(e).splitlines()[-4:]}
            failed += not row["ok"]
            print(json.dumps(row), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    sys.exit(main())
