"""int8 weights with group-wise scales: one fp16 scale per output channel and group of 32 inputs (Q8_0).

Offline, `quantize_state_dict` turns every linear weight and the embedding into int8 ``X.weight`` plus fp16
``X.weight_scale`` ``[out, in // 32]``. At load time `swap_linears_to_int8` puts `Int8Linear`/`Int8Embedding`
in place of ``nn.Linear``/``nn.Embedding``; after ``load_state_dict``, `prepare_int8` builds each layer's
fast path.

CPU backend: the C++ kernel of `kernels.w8a8_matmul_cpu` (AVX-512 VNNI, or AVX2) with activations quantized per token
and group of 16, exactly as `kernels.w8a8_matmul_ref` computes: exact integer dots per group, scaled in a
fixed order, so a row's result never depends on the rest of the batch. Per-channel weights with per-token
activations (oneDNN's int8 linear, before) agreed with fp32 on 93.9% of next tokens; these groups, with the
fp16 KV cache, on 98.1% (README). CUDA: the Triton weight-only kernel (`kernels.int8_matmul`) or bitsandbytes.
"""
from __future__ import annotations

import ctypes
from functools import cache
from typing import Any, Callable

import torch
from torch import nn

from engine import huge_pages, prompt_rows
from kernels import cpu_extension
from kernels.amx_matmul_cpu import K_STEP, amx_available, amx_matmul
from kernels.linear_ref import dequantize_groupwise
from kernels.w8a8_matmul_cpu import PackedWeight, can_pack, pack_weight, packed_shapes, w8a8_matmul
from kernels.w8a8_matmul_ref import w8a8_matmul_ref

INT8_MAX = 127
GROUP_SIZE = 32
_QUANTIZE_CHUNK_ROWS = 16384
_BIG_WEIGHT_ELEMENTS = 1 << 24  # freeing a weight this big returns the heap to the OS


def is_int8_weight(name: str, tensor: torch.Tensor) -> bool:
    """True for the weights that become int8: 2-D ``*_proj.weight``, ``lm_head.weight``, the embedding."""
    return tensor.ndim == 2 and name.endswith(("_proj.weight", "lm_head.weight", "embed_tokens.weight"))


def group_size(in_features: int) -> int:
    """Inputs per scale: `GROUP_SIZE` where it divides the row, else the whole row (one scale per channel)."""
    return GROUP_SIZE if in_features % GROUP_SIZE == 0 else max(in_features, 1)


def quantize_groupwise(weight: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Symmetric int8 per row and group: ``weight ~= q * scale`` repeated over each group, ``|q| <= 127``;
    returns ``(q [out, in], scale [out, in // group] fp16)``."""
    w = weight.detach()
    rows, cols = w.shape
    group = group_size(cols)
    q = torch.empty(w.shape, dtype=torch.int8, device=w.device)
    scale = torch.empty(rows, cols // group, dtype=torch.float16, device=w.device)
    for start in range(0, rows, _QUANTIZE_CHUNK_ROWS):  # bounds the fp32 temporaries of a big table
        chunk = w[start:start + _QUANTIZE_CHUNK_ROWS].float().reshape(-1, cols // group, group)
        s = (chunk.abs().amax(dim=-1) / INT8_MAX).half()
        if not torch.isfinite(s).all():
            raise ValueError("weights too large (or not finite) for fp16 group scales")
        s32 = s.float()
        inverse = torch.where(s32 > 0, 1.0 / s32, torch.zeros_like(s32))
        q[start:start + _QUANTIZE_CHUNK_ROWS] = (chunk * inverse[..., None]).round_().clamp_(
            -INT8_MAX, INT8_MAX).reshape(-1, cols)
        scale[start:start + _QUANTIZE_CHUNK_ROWS] = s
    return q, scale


def quantize_state_dict(state_dict: dict[str, torch.Tensor], config: Any) -> dict[str, torch.Tensor]:
    """int8 ``X.weight`` + fp16 ``X.weight_scale`` for linear weights and the embedding; the rest as fp32."""
    out: dict[str, torch.Tensor] = {}
    for name, tensor in state_dict.items():
        if name.endswith("embed_tokens.weight") and tuple(tensor.shape) != (config.vocab_size, config.hidden_size):
            raise ValueError(f"{name} has shape {tuple(tensor.shape)}, config says "
                             f"({config.vocab_size}, {config.hidden_size})")
        if is_int8_weight(name, tensor):
            out[name], out[name + "_scale"] = quantize_groupwise(tensor)
        else:
            out[name] = tensor.float()
    return out


@cache
def _cuda_int8_matmul() -> Callable[..., torch.Tensor]:
    """The Triton kernel when `kernels.int8_matmul` exists, else the PyTorch reference."""
    try:
        from kernels.int8_matmul import int8_matmul
    except ModuleNotFoundError as e:
        if e.name not in ("kernels.int8_matmul", "triton"):
            raise
        from kernels.linear_ref import int8_matmul_ref as int8_matmul
    return int8_matmul


@cache
def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:  # not glibc
        return None


def _return_freed_heap() -> None:
    """Hand freed heap pages back to the OS; glibc keeps prepacking's temporaries in the process otherwise."""
    libc = _libc()
    if libc is not None and hasattr(libc, "malloc_trim"):
        libc.malloc_trim(0)


class Int8Linear(nn.Module):
    """``y = x @ W.T + bias`` with an int8 ``weight [out, in]`` and fp16 group scales ``weight_scale [out, in // G]``.

    On the CPU the activations are quantized too (per token and group, `kernels.w8a8_matmul_ref`); `prepare`
    packs the weight for the C++ kernel, which gives the same bits, and drops the plain int8 buffer. On
    CUDA it runs weight-only: `kernels.int8_matmul`, or bitsandbytes' ``Linear8bitLt`` with ``backend="bnb"``.
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = False, backend: str = "auto",
                 device: torch.device | str | None = None) -> None:
        super().__init__()
        if backend not in ("auto", "bnb"):
            raise ValueError(f"unknown int8 backend {backend!r}; use 'auto' or 'bnb'")
        self.in_features, self.out_features, self.backend = in_features, out_features, backend
        groups = in_features // group_size(in_features)
        self.register_buffer("weight", torch.zeros(out_features, in_features, dtype=torch.int8, device=device))
        self.register_buffer("weight_scale", torch.ones(out_features, groups, dtype=torch.float16, device=device))
        self.register_buffer("bias", torch.zeros(out_features, device=device) if bias else None)
        self._packed: PackedWeight | None = None
        self.amx_prompt_rows = False  # prompt rows on AMX tiles (`engine.prompt_rows`)
        self._bnb: nn.Module | None = None

    @classmethod
    def from_int8(cls, weight: torch.Tensor, weight_scale: torch.Tensor, bias: torch.Tensor | None = None,
                  backend: str = "auto") -> "Int8Linear":
        """Wrap existing int8 weights without copying them (e.g. a tied head over the embedding table)."""
        layer = cls(0, 0, bias=False, backend=backend, device="meta")
        layer.out_features, layer.in_features = weight.shape
        layer.weight, layer.weight_scale, layer.bias = weight, weight_scale, bias
        return layer

    @property
    def is_prepared(self) -> bool:
        return self._packed is not None or self._bnb is not None

    @property
    def packs(self) -> bool:
        """Whether `prepare` packs the weight for the CPU kernel."""
        return (not self.is_prepared and self.weight.device.type == "cpu" and can_pack(self.weight, self.weight_scale)
                and cpu_extension.load() is not None)

    def packed_footprint(self) -> int:
        """Bytes the packed weight and scales take in a `huge_pages.Arena` (0 where `prepare` does not pack)."""
        if not self.packs:
            return 0
        return sum(huge_pages.Arena.footprint(shape, dtype) for shape, dtype in
                   packed_shapes(self.out_features, self.in_features, self.weight_scale.shape[1]))

    def prepare(self, allocate: Callable[..., torch.Tensor] = huge_pages.zeros) -> "Int8Linear":
        """Build the fast path for the weight's device; on the CPU this frees the plain int8 weight and scales.
        The packed weight goes into tensors from ``allocate(shape, dtype=...)``: on huge pages by default."""
        if self.is_prepared:
            return self
        if self.backend == "bnb" and self.weight.is_cuda:
            self._bnb = self._build_bnb()
        elif self.packs:
            self._packed = pack_weight(self.weight, self.weight_scale, allocate=allocate)
            self.amx_prompt_rows = self.in_features % K_STEP == 0 and amx_available()
        else:  # CUDA without bnb, or a CPU without the C++ kernels: the reference matmul
            return self
        from engine.loader import release_mapped_pages  # a memory-mapped table leaves the process's RSS

        big = self.weight.numel() >= _BIG_WEIGHT_ELEMENTS
        if self._packed is not None:  # the packed copy has its own scales
            release_mapped_pages(self.weight_scale)
            self.weight_scale = None
        release_mapped_pages(self.weight)
        self.weight = None
        if big:
            _return_freed_heap()
        return self

    def _build_bnb(self) -> nn.Module:
        import bitsandbytes as bnb

        layer = bnb.nn.Linear8bitLt(self.in_features, self.out_features, bias=self.bias is not None,
                                    has_fp16_weights=False, threshold=6.0, device="cpu")
        fp16 = dequantize_groupwise(self.weight, self.weight_scale, torch.float16).cpu()
        layer.weight = bnb.nn.Int8Params(fp16, requires_grad=False, has_fp16_weights=False)
        if self.bias is not None:
            layer.bias = nn.Parameter(self.bias.detach().half().cpu(), requires_grad=False)
        return layer.to(self.weight.device)  # bitsandbytes quantizes row-wise on the move to CUDA

    def forward(self, x: torch.Tensor, out: torch.Tensor | None = None) -> torch.Tensor:
        """``x @ W.T + b``; ``out`` (fp32 ``[rows, out_features]``, as the engine's reused logits buffer) receives
        the result when given, which the packed CPU path writes in place."""
        if self._packed is not None and x.dim() == 2 and x.dtype == torch.float32 and x.is_contiguous():
            rows = prompt_rows.current() if self.amx_prompt_rows else None
            if rows is not None and rows.first < x.shape[0]:
                return self._forward_prompt_rows(x, rows, out)
            return w8a8_matmul(x, self._packed, self.bias, out=out)  # the model's case, no reshapes or casts
        y = self._forward_any(x)
        return y if out is None else out.copy_(y.reshape(out.shape))

    def _forward_any(self, x: torch.Tensor) -> torch.Tensor:
        lead, x2 = x.shape[:-1], x.reshape(-1, self.in_features)
        if self._packed is not None:
            y = w8a8_matmul(x2.float().contiguous(), self._packed, self.bias)
        elif self._bnb is not None:
            y = self._bnb(x2.half())
        elif x.is_cuda:
            y = _cuda_int8_matmul()(x2, self.weight, self.weight_scale, self.bias)
        else:
            y = w8a8_matmul_ref(x2, self.weight, self.weight_scale, self.bias)
        return y.to(x.dtype).reshape(*lead, self.out_features)

    def _forward_prompt_rows(self, x: torch.Tensor, rows: prompt_rows.PromptRows,
                             out: torch.Tensor | None = None) -> torch.Tensor:
        """Prompt rows on AMX tiles, the other rows with the VNNI kernel."""
        out = torch.empty(x.shape[0], self.out_features) if out is None else out
        if rows.prompt is None:
            if rows.first:
                out[:rows.first] = w8a8_matmul(x[:rows.first], self._packed, self.bias)
            amx_matmul(x[rows.first:], self._packed, self.bias, out=out[rows.first:])
        else:
            out[rows.other] = w8a8_matmul(x[rows.other], self._packed, self.bias)
            out[rows.prompt] = amx_matmul(x[rows.prompt], self._packed, self.bias)
        return out

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}, prepared={self.is_prepared}")


class Int8Embedding(nn.Module):
    """An int8 table with fp16 group scales per row (as `Int8Linear`); `forward` gathers and scales rows to ``dtype``.

    The table may be a memory-mapped file: only the rows looked up become resident.
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, dtype: torch.dtype = torch.float32,
                 device: torch.device | str | None = None) -> None:
        super().__init__()
        self.num_embeddings, self.embedding_dim, self.dtype = num_embeddings, embedding_dim, dtype
        self.register_buffer("weight", torch.zeros(num_embeddings, embedding_dim, dtype=torch.int8, device=device))
        groups = embedding_dim // group_size(embedding_dim)
        self.register_buffer("weight_scale", torch.ones(num_embeddings, groups, dtype=torch.float16, device=device))

    @classmethod
    def from_int8(cls, weight: torch.Tensor, weight_scale: torch.Tensor,
                  dtype: torch.dtype = torch.float32) -> "Int8Embedding":
        """Wrap an existing int8 table and its group scales without copying."""
        emb = cls(0, 0, dtype=dtype, device="meta")
        emb.num_embeddings, emb.embedding_dim = weight.shape
        emb.weight, emb.weight_scale = weight, weight_scale
        return emb

    def forward(self, ids: torch.Tensor, dtype: torch.dtype | None = None) -> torch.Tensor:
        return dequantize_groupwise(self.weight[ids], self.weight_scale[ids], dtype or self.dtype)

    def as_linear(self, backend: str = "auto") -> Int8Linear:
        """A tied LM head over the same int8 table and scales (no copy until it is prepared)."""
        return Int8Linear.from_int8(self.weight, self.weight_scale, backend=backend)

    def extra_repr(self) -> str:
        return f"{self.num_embeddings}, {self.embedding_dim}, dtype={self.dtype}"


def swap_linears_to_int8(module: nn.Module, backend: str = "auto", dtype: torch.dtype | None = None) -> None:
    """Replace every ``nn.Linear`` (recursively) by an `Int8Linear` and ``nn.Embedding`` by `Int8Embedding`, whose
    rows come out in ``dtype`` (None: the float embedding's dtype), the model's compute dtype."""
    for name, child in module.named_children():
        if isinstance(child, nn.Linear):
            new: nn.Module = Int8Linear(child.in_features, child.out_features, bias=child.bias is not None,
                                        backend=backend, device=child.weight.device)
        elif isinstance(child, nn.Embedding):
            rows_dtype = dtype or (child.weight.dtype if child.weight.is_floating_point() else torch.float32)
            new = Int8Embedding(child.num_embeddings, child.embedding_dim, dtype=rows_dtype, device=child.weight.device)
        else:
            swap_linears_to_int8(child, backend, dtype)
            continue
        setattr(module, name, new)


def prepare_int8(module: nn.Module) -> None:
    """`Int8Linear.prepare` every int8 layer of a module, their packed weights side by side in one huge-page
    `huge_pages.Arena`, then return the freed heap to the OS."""
    layers = [layer for layer in module.modules() if isinstance(layer, Int8Linear)]
    arena = huge_pages.Arena(sum(layer.packed_footprint() for layer in layers))
    for layer in layers:
        layer.prepare(allocate=arena.zeros)
    _return_freed_heap()
