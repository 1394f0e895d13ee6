"""The int8 linear of prompt rows on CPUs with AMX (``csrc/amx_matmul_cpu.cpp``), and its PyTorch reference.

The VNNI kernel (`kernels.w8a8_matmul_cpu`) multiplies int8 by int8 and scales every group of 16 inputs in
fp32: at one to sixteen rows the weights' bytes set its pace, but a 512-token prefill is bound by that
arithmetic. This kernel takes the same packed int8 weight, dequantizes it to bf16 once per call and runs the
rows through AMX's bf16 tile matmul, with fp32 sums: about 2x faster from 64 rows on, slower below ~32
(the dequantization is paid per call). Activations are rounded to bf16 instead of quantized to int8, so it is
closer to fp32 than the VNNI path. A row's result does not depend on the other rows of the call.
"""
from __future__ import annotations

from functools import cache

import torch

from kernels import cpu_extension
from kernels.linear_ref import dequantize_groupwise
from kernels.w8a8_matmul_cpu import PackedWeight

K_STEP = 32  # inputs per tile instruction: K must be a multiple


@cache
def amx_available() -> bool:
    """Whether this machine runs the kernel: the C++ kernels built, AMX bf16 tiles, and the OS grants them."""
    kernels = cpu_extension.load()
    return kernels is not None and kernels.amx_matmul_available()


def amx_matmul(x: torch.Tensor, packed: PackedWeight, bias: torch.Tensor | None = None,
               out: torch.Tensor | None = None) -> torch.Tensor:
    """fp32 ``x [M, K]`` (contiguous) times the packed weight, + ``bias``, written into ``out`` when given."""
    if not amx_available():
        raise RuntimeError("AMX bf16 tiles are not available on this machine")
    return cpu_extension.load().amx_matmul(x, packed.weight, packed.scale, packed.out_features, bias, out)


def amx_matmul_ref(x: torch.Tensor, weight_int8: torch.Tensor, weight_scale: torch.Tensor,
                   bias: torch.Tensor | None = None) -> torch.Tensor:
    """The kernel's arithmetic in PyTorch: bf16-rounded ``x`` times the weight dequantized with its fp16 scales
    and rounded to bf16, summed in float64 (the kernel sums in fp32, in its own order); fp32 ``[M, N]``."""
    weight = dequantize_groupwise(weight_int8, weight_scale.half(), torch.bfloat16).double()
    out = x.bfloat16().double() @ weight.T
    return (out if bias is None else out + bias.double()).float()
