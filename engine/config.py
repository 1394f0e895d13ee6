"""`EngineConfig`: how the engine runs a model. Values derived at run time live in the runner."""
from __future__ import annotations

import os
from dataclasses import dataclass

DTYPES = ("int8", "fp32", "bf16")
DEVICES = ("auto", "cpu", "cuda")
KERNEL_BACKENDS = ("auto", "torch", "triton")


@dataclass(frozen=True)
class EngineConfig:
    """Validated on construction; never mutated afterwards."""

    model: str | None = None  # GGUF file or HF safetensors dir; None = the packaged Gemma 3 270M
    dtype: str = "int8"
    device: str = "auto"
    block_size: int = 16
    max_num_seqs: int = 32
    max_num_batched_tokens: int = 1024
    max_model_len: int = 4096
    kv_cache_bytes: int = 512 << 20
    enable_prefix_caching: bool = True
    max_waiting_requests: int = 256
    cache_dir: str | None = None
    num_threads: int | None = None
    num_speculative_tokens: int = 4  # n-gram draft tokens per greedy decode step (engine.ngram_proposer); 0: off
    kernel_backend: str = "auto"  # auto: Triton on CUDA; on the CPU the C++ kernels (see engine.layers.ops); torch: the references

    def __post_init__(self) -> None:
        if self.dtype not in DTYPES:
            raise ValueError(f"dtype must be one of {DTYPES}, got {self.dtype!r}")
        if self.device not in DEVICES:
            raise ValueError(f"device must be one of {DEVICES}, got {self.device!r}")
        if self.kernel_backend not in KERNEL_BACKENDS:
            raise ValueError(f"kernel_backend must be one of {KERNEL_BACKENDS}, got {self.kernel_backend!r}")
        if self.block_size <= 0 or self.block_size & (self.block_size - 1):
            raise ValueError(f"block_size must be a positive power of two, got {self.block_size}")
        for name in ("max_num_seqs", "max_num_batched_tokens", "max_model_len", "kv_cache_bytes", "max_waiting_requests"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        if self.num_speculative_tokens < 0:
            raise ValueError(f"num_speculative_tokens must be >= 0, got {self.num_speculative_tokens}")
        if self.max_num_batched_tokens < self.max_num_seqs:
            raise ValueError("max_num_batched_tokens must be at least max_num_seqs (one decode token each)")
        if self.model is not None and not os.path.exists(self.model):
            raise ValueError(f"{self.model}: no such file or directory")
