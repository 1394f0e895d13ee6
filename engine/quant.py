"""int8 weights, symmetric, one scale per output channel (gpt-fast style), with SmoothQuant input scales.

Offline, `quantize_state_dict` turns every linear weight and the embedding into int8 ``X.weight`` plus
fp32 ``X.weight_scale`` (and, for the decoder layers' linears, ``X.input_scale`` from
`engine.calibration`). At load time `swap_linears_to_int8` puts `Int8Linear`/`Int8Embedding` in place
of ``nn.Linear``/``nn.Embedding``; after ``load_state_dict``, `prepare_int8` builds each layer's fast path.

CPU backend: oneDNN's static int8 linear (``onednn::qlinear_pointwise``, VNNI/AMX kernels) with int8
activations quantized per token by us. Every row is scaled to [-127, 127] by its own absolute maximum,
oneDNN returns the exact integer dot products, and the weight and row scales are applied afterwards,
so a row's result never depends on the rest of the batch (see `_OnednnWeight`). It streams
the weights at the same speed for 1 to 16 rows: the 262144x640 head costs ~10 ms for one token or
sixteen, where fbgemm's dynamic linear took 12.6 ms for one and 23 ms for sixteen (see the README).
Per-token activations alone cost accuracy on Gemma 3 (top-1 agreement with fp32 91.6%); the
smoothing scales bring it back.
"""
from __future__ import annotations

import ctypes
from functools import cache
from typing import Any, Callable

import torch
from torch import nn

from kernels import cpu_extension

INT8_MAX = 127
_QUANTIZE_CHUNK_ROWS = 16384
_BIG_WEIGHT_ELEMENTS = 1 << 24  # freeing a weight this big returns the heap to the OS


def is_int8_weight(name: str, tensor: torch.Tensor) -> bool:
    """True for the weights that become int8: 2-D ``*_proj.weight``, ``lm_head.weight``, the embedding."""
    return tensor.ndim == 2 and name.endswith(("_proj.weight", "lm_head.weight", "embed_tokens.weight"))


def quantize_per_channel(weight: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Symmetric int8 per row: ``weight ~= q * scale[:, None]``, ``|q| <= 127``; returns ``(q, scale)``."""
    w = weight.detach()
    scale = w.abs().amax(dim=1).float() / INT8_MAX
    inverse = torch.where(scale > 0, 1.0 / scale, torch.zeros_like(scale))
    q = torch.empty(w.shape, dtype=torch.int8, device=w.device)
    for start in range(0, w.shape[0], _QUANTIZE_CHUNK_ROWS):  # bounds the fp32 temporaries of a big table
        rows = slice(start, start + _QUANTIZE_CHUNK_ROWS)
        q[rows] = (w[rows].float() * inverse[rows, None]).round_().clamp_(-INT8_MAX, INT8_MAX)
    return q, scale


def dequantize_per_channel(q: torch.Tensor, scale: torch.Tensor, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """``q * scale[:, None]`` in ``dtype``."""
    return (q.float() * scale.float()[:, None]).to(dtype)


def quantize_state_dict(state_dict: dict[str, torch.Tensor], config: Any,
                        input_scales: dict[str, torch.Tensor] | None = None) -> dict[str, torch.Tensor]:
    """int8 ``X.weight`` + fp32 ``X.weight_scale`` for linear weights and the embedding; the rest as fp32.
    A weight with a smoothing scale ``s`` in `input_scales` is quantized as ``W * s`` and gets
    ``X.input_scale = 1 / s``, which `Int8Linear` multiplies into its input."""
    out: dict[str, torch.Tensor] = {}
    input_scales = input_scales or {}
    for name, tensor in state_dict.items():
        if name.endswith("embed_tokens.weight") and tuple(tensor.shape) != (config.vocab_size, config.hidden_size):
            raise ValueError(f"{name} has shape {tuple(tensor.shape)}, config says "
                             f"({config.vocab_size}, {config.hidden_size})")
        if is_int8_weight(name, tensor) and name in input_scales:
            s = input_scales[name].float()
            out[name], out[name + "_scale"] = quantize_per_channel(tensor.float() * s)
            out[name.removesuffix("weight") + "input_scale"] = 1.0 / s
        elif is_int8_weight(name, tensor):
            out[name], out[name + "_scale"] = quantize_per_channel(tensor)
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


@cache
def onednn_int8_available() -> bool:
    """Whether this PyTorch build has oneDNN's int8 linear (x86 builds do; others run the reference)."""
    return torch.backends.mkldnn.is_available() and hasattr(torch.ops.onednn, "qlinear_pointwise")


class _OnednnWeight:
    """An int8 weight reordered for oneDNN, with its per-output-channel scales.

    oneDNN is given unit scales, so it returns the exact integer dot products as floats, whatever kernel
    it picks for the batch size; the scales are applied here, in one fixed order, so that a row's
    result is bit-identical for any batch (oneDNN's own scaling differed in the last bit between kernels).
    """

    def __init__(self, q: torch.Tensor, scale: torch.Tensor) -> None:
        self.packed = torch.ops.onednn.qlinear_prepack(q, None)
        self.scale = scale.float().contiguous()
        self._unit_scales = torch.ones(q.shape[0])
        self._zero_points = torch.zeros(q.shape[0], dtype=torch.long)
        self._int8_max = torch.tensor(float(INT8_MAX))  # a tensor operand: a Python number costs a scalar copy

    def __call__(self, x: torch.Tensor, input_scale: torch.Tensor | None,
                 bias: torch.Tensor | None = None) -> torch.Tensor:
        """``x @ (q * scale).T (+ bias)`` in fp32, with int8 activations quantized per row (per token).

        The quantization and the scaling run as one C++ pass each where `kernels.cpu_extension` builds
        (the same bits as the PyTorch ops below, in a sixth of the dispatches)."""
        kernels = cpu_extension.load()
        if kernels is not None and x.is_contiguous():
            qx, step = kernels.quantize_rows(x, input_scale)
            return kernels.scale_rows_(self._int8_linear(qx), self.scale, step, bias)
        if input_scale is not None:
            x = x * input_scale
        step = torch.linalg.vector_norm(x, float("inf"), dim=1, keepdim=True).clamp_min_(1e-30).div_(self._int8_max)
        qx = torch.div(x, step).round_().to(torch.int8)
        y = self._int8_linear(qx).mul_(self.scale).mul_(step)
        return y if bias is None else y.add_(bias)

    def _int8_linear(self, qx: torch.Tensor) -> torch.Tensor:
        """oneDNN's exact integer dot products of int8 rows with the weight, as fp32."""
        return torch.ops.onednn.qlinear_pointwise(qx, 1.0, 0, self.packed, self._unit_scales, self._zero_points,
                                                  None, 1.0, 0, torch.float32, "none", [], "")


class Int8Linear(nn.Module):
    """``y = x @ (q * scale).T + bias`` with an int8 ``weight [out, in]`` and fp32 ``weight_scale [out]``.

    Before `prepare` it runs the reference matmul. `prepare` on the CPU reorders the weight for oneDNN's
    int8 linear and drops the plain int8 buffer; on CUDA it uses `kernels.int8_matmul`
    (or bitsandbytes' ``Linear8bitLt`` with ``backend="bnb"``).
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = False, backend: str = "auto",
                 device: torch.device | str | None = None) -> None:
        super().__init__()
        if backend not in ("auto", "bnb"):
            raise ValueError(f"unknown int8 backend {backend!r}; use 'auto' or 'bnb'")
        self.in_features, self.out_features, self.backend = in_features, out_features, backend
        self.register_buffer("weight", torch.zeros(out_features, in_features, dtype=torch.int8, device=device))
        self.register_buffer("weight_scale", torch.ones(out_features, dtype=torch.float32, device=device))
        self.register_buffer("bias", torch.zeros(out_features, device=device) if bias else None)
        # 1 / the convert-time smoothing scale per input channel (`engine.calibration`); None: no smoothing
        self.register_buffer("input_scale", None)
        self._packed: _OnednnWeight | None = None
        self._bnb: nn.Module | None = None

    @classmethod
    def from_int8(cls, weight: torch.Tensor, weight_scale: torch.Tensor, bias: torch.Tensor | None = None,
                  backend: str = "auto") -> "Int8Linear":
        """Wrap existing int8 weights without copying them (e.g. a tied head over the embedding table)."""
        layer = cls(0, 0, bias=False, backend=backend, device="meta")
        layer.out_features, layer.in_features = weight.shape
        layer.weight, layer.weight_scale, layer.bias = weight, weight_scale, bias
        return layer

    def _load_from_state_dict(self, state_dict, prefix, *args, **kwargs) -> None:
        scale = state_dict.pop(prefix + "input_scale", None)  # optional: only smoothed layers have one
        super()._load_from_state_dict(state_dict, prefix, *args, **kwargs)
        if scale is not None:
            self.input_scale = scale

    @property
    def is_prepared(self) -> bool:
        return self._packed is not None or self._bnb is not None

    def prepare(self) -> "Int8Linear":
        """Build the fast path for the weight's device; on the CPU this frees the plain int8 weight."""
        if self.is_prepared:
            return self
        if self.backend == "bnb" and self.weight.is_cuda:
            self._bnb = self._build_bnb()
        elif self.weight.device.type == "cpu" and onednn_int8_available():
            self._packed = _OnednnWeight(self.weight, self.weight_scale)
        else:  # CUDA without bnb, or a CPU build without oneDNN's int8 ops: the reference matmul
            return self
        from engine.loader import release_mapped_pages  # a memory-mapped table leaves the process's RSS

        release_mapped_pages(self.weight)
        big = self.weight.numel() >= _BIG_WEIGHT_ELEMENTS
        self.weight = None
        if big:
            _return_freed_heap()
        return self

    def _build_bnb(self) -> nn.Module:
        import bitsandbytes as bnb

        layer = bnb.nn.Linear8bitLt(self.in_features, self.out_features, bias=self.bias is not None,
                                    has_fp16_weights=False, threshold=6.0, device="cpu")
        fp16 = dequantize_per_channel(self.weight, self.weight_scale, torch.float16).cpu()
        layer.weight = bnb.nn.Int8Params(fp16, requires_grad=False, has_fp16_weights=False)
        if self.bias is not None:
            layer.bias = nn.Parameter(self.bias.detach().half().cpu(), requires_grad=False)
        return layer.to(self.weight.device)  # bitsandbytes quantizes row-wise on the move to CUDA

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self._packed is not None and x.dim() == 2 and x.dtype == torch.float32:  # the engine's flat batch
            return self._packed(x, self.input_scale, self.bias)
        lead, x2 = x.shape[:-1], x.reshape(-1, self.in_features)
        if self._packed is not None:
            y = self._packed(x2.float().contiguous(), self.input_scale, self.bias).to(x.dtype)
            return y.reshape(*lead, self.out_features)
        if self.input_scale is not None:  # the weight holds W * s: the weight-only paths divide x by s
            x2 = x2 * self.input_scale.to(x2.dtype)
        if self._bnb is not None:
            y = self._bnb(x2.half()).to(x.dtype)
        elif x.is_cuda:
            y = _cuda_int8_matmul()(x2, self.weight, self.weight_scale, self.bias)
        else:
            from kernels.linear_ref import int8_matmul_ref

            y = int8_matmul_ref(x2, self.weight, self.weight_scale, self.bias)
        return y.reshape(*lead, self.out_features)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}, prepared={self.is_prepared}")


class Int8Embedding(nn.Module):
    """An int8 table with one fp32 scale per row; `forward` gathers rows and scales them to ``dtype``.

    The table may be a memory-mapped file: only the rows looked up become resident.
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, dtype: torch.dtype = torch.float32,
                 device: torch.device | str | None = None) -> None:
        super().__init__()
        self.num_embeddings, self.embedding_dim, self.dtype = num_embeddings, embedding_dim, dtype
        self.register_buffer("weight", torch.zeros(num_embeddings, embedding_dim, dtype=torch.int8, device=device))
        self.register_buffer("weight_scale", torch.ones(num_embeddings, dtype=torch.float32, device=device))

    @classmethod
    def from_int8(cls, weight: torch.Tensor, weight_scale: torch.Tensor,
                  dtype: torch.dtype = torch.float32) -> "Int8Embedding":
        """Wrap an existing int8 table and its row scales without copying."""
        emb = cls(0, 0, dtype=dtype, device="meta")
        emb.num_embeddings, emb.embedding_dim = weight.shape
        emb.weight, emb.weight_scale = weight, weight_scale
        return emb

    def forward(self, ids: torch.Tensor, dtype: torch.dtype | None = None) -> torch.Tensor:
        rows = self.weight[ids].float() * self.weight_scale[ids].unsqueeze(-1)
        return rows.to(dtype or self.dtype)

    def as_linear(self, backend: str = "auto") -> Int8Linear:
        """A tied LM head over the same int8 table and scales (no copy until it is prepared)."""
        return Int8Linear.from_int8(self.weight, self.weight_scale, backend=backend)

    def extra_repr(self) -> str:
        return f"{self.num_embeddings}, {self.embedding_dim}, dtype={self.dtype}"


def swap_linears_to_int8(module: nn.Module, backend: str = "auto") -> None:
    """Replace every ``nn.Linear`` (recursively) by an `Int8Linear` and ``nn.Embedding`` by `Int8Embedding`."""
    for name, child in module.named_children():
        if isinstance(child, nn.Linear):
            new: nn.Module = Int8Linear(child.in_features, child.out_features, bias=child.bias is not None,
                                        backend=backend, device=child.weight.device)
        elif isinstance(child, nn.Embedding):
            dtype = child.weight.dtype if child.weight.is_floating_point() else torch.float32
            new = Int8Embedding(child.num_embeddings, child.embedding_dim, dtype=dtype, device=child.weight.device)
        else:
            swap_linears_to_int8(child, backend)
            continue
        setattr(module, name, new)


def prepare_int8(module: nn.Module) -> None:
    """`Int8Linear.prepare` every int8 layer of a module, then return the freed heap to the OS."""
    for layer in module.modules():
        if isinstance(layer, Int8Linear):
            layer.prepare()
    _return_freed_heap()
