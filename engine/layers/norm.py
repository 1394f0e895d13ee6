"""RMSNorm with an optional fused residual add; Gemma's ``(1 + w)`` form via ``weight_offset``."""
from __future__ import annotations

import torch
from torch import nn

from engine.layers.ops import KernelOps
from kernels.rms_norm_ref import norm_scale


class RMSNorm(nn.Module):
    """``x / rms(x) * (weight_offset + weight)``; with ``residual`` returns ``(normed, x + residual)``."""

    def __init__(self, dim: int, eps: float, weight_offset: float, ops: KernelOps) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(dim) if weight_offset else torch.ones(dim), requires_grad=False)
        self.eps, self.weight_offset, self.ops = eps, weight_offset, ops
        self._scale: torch.Tensor | None = None
        self._scale_of: tuple[int, int] | None = None

    def scale(self) -> torch.Tensor:
        """``weight_offset + weight`` in fp32, computed once per weight rather than at every call."""
        source = (self.weight.data_ptr(), self.weight._version)
        if self._scale is None or self._scale_of != source:
            self._scale, self._scale_of = norm_scale(self.weight, self.weight_offset), source
        return self._scale

    def forward(self, x: torch.Tensor, residual: torch.Tensor | None = None):
        return self.ops.rms_norm(x, self.scale(), self.eps, 0.0, residual)
