"""The attention block's Q/K norm and RoPE for the CPU: the C++ kernel of `kernels.cpu_extension`
(``csrc/qk_norm_rope_cpu.cpp``), with the reference's contract. One call per layer instead of about fifteen
PyTorch ops, with the bits of the unfused C++ RMSNorm and PyTorch RoPE."""
from __future__ import annotations

import torch

from kernels import cpu_extension
from kernels.qk_norm_rope_ref import qk_norm_rope_ref


def qk_norm_rope_cpu(qkv: torch.Tensor, num_heads: int, num_kv_heads: int, q_scale: torch.Tensor | None,
                     k_scale: torch.Tensor | None, eps: float, cos: torch.Tensor, sin: torch.Tensor):
    """Same contract as `qk_norm_rope_ref`; inputs the kernel does not take go to the reference."""
    kernels = cpu_extension.load()
    if (kernels is None or not qkv.is_cpu or qkv.dtype != torch.float32 or qkv.dim() != 2
            or (q_scale is None) != (k_scale is None) or cos.dtype != torch.float32):
        return qk_norm_rope_ref(qkv, num_heads, num_kv_heads, q_scale, k_scale, eps, cos, sin)
    qkv = qkv.contiguous()
    q, k = kernels.qk_norm_rope(qkv, num_heads, num_kv_heads, q_scale, k_scale, float(eps),
                                cos.contiguous(), sin.contiguous())
    head_dim = q.shape[-1]
    v = qkv[:, (num_heads + num_kv_heads) * head_dim:].view(qkv.shape[0], num_kv_heads, head_dim)
    return q, k, v
