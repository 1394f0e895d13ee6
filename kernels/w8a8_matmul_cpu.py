"""The CPU int8 linear's C++ kernel (``csrc/w8a8_matmul_cpu.cpp``): packing, and the call.

`pack_weight` reorders an int8 weight ``[N, K]`` and its group scales ``[N, K // G]`` once, at load time,
into tiles of 16 output channels with four consecutive inputs side by side (the layout of AVX-512 VNNI's
dot product), stored plus 128 as uint8 (VNNI's unsigned operand), and fp16 scales. `w8a8_matmul` then
gives the bits of `kernels.w8a8_matmul_ref`, with AVX-512 VNNI, with AVX2 (where there is no AVX-512) or with
the portable loop.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import torch
import torch.nn.functional as F

from kernels import cpu_extension
from kernels.w8a8_matmul_ref import activation_group_size

TILE = 16


class PackedWeight(NamedTuple):
    """A weight in the kernel's layout: uint8 ``[tiles, K/4, 16, 4]`` (weight + 128), fp16 scales ``[tiles, groups, 16]``."""
    weight: torch.Tensor
    scale: torch.Tensor
    out_features: int


def can_pack(weight_int8: torch.Tensor, weight_scale: torch.Tensor) -> bool:
    """Whether the kernel takes this shape: weight groups that split K, activation groups of a multiple of 4."""
    k, groups = weight_int8.shape[1], weight_scale.shape[1]
    return k % groups == 0 and activation_group_size(k // groups) % 4 == 0


def packed_shapes(out_features: int, in_features: int, groups: int) -> tuple[tuple[tuple[int, ...], torch.dtype], ...]:
    """Shape and dtype of the packed weight and of its scales, as `pack_weight` allocates them."""
    tiles = -(-out_features // TILE)
    return ((tiles, in_features // 4, TILE, 4), torch.int8), ((tiles, groups, TILE), torch.float16)


def pack_weight(weight_int8: torch.Tensor, weight_scale: torch.Tensor,
                allocate: Callable[[torch.Size, torch.dtype], torch.Tensor] = torch.empty) -> PackedWeight:
    """The kernel's layout of an int8 ``weight [N, K]`` and ``weight_scale [N, K // G]``, written into tensors
    from ``allocate(shape, dtype=...)`` (the engine's puts them on huge pages)."""
    if not can_pack(weight_int8, weight_scale):
        raise ValueError(f"weight {tuple(weight_int8.shape)} with {weight_scale.shape[1]} scale groups: "
                         "the groups must split K, into multiples of 4")
    n, k = weight_int8.shape
    pad = -n % TILE
    tiles = F.pad(weight_int8, (0, 0, 0, pad)).view(-1, TILE, k // 4, 4).permute(0, 2, 1, 3)
    weight = allocate(tiles.shape, dtype=torch.int8).copy_(tiles)
    weight = weight.view(torch.uint8).bitwise_xor_(0x80)  # two's complement + 128: the sign bit flipped
    scales = F.pad(weight_scale.half(), (0, 0, 0, pad)).view(-1, TILE, weight_scale.shape[1]).permute(0, 2, 1)
    return PackedWeight(weight, allocate(scales.shape, dtype=torch.float16).copy_(scales), n)


def w8a8_matmul(x: torch.Tensor, packed: PackedWeight, bias: torch.Tensor | None = None,
                portable: bool = False, out: torch.Tensor | None = None) -> torch.Tensor:
    """fp32 ``x [M, K]`` (contiguous) times the packed weight, + ``bias``, written into ``out`` (contiguous fp32
    ``[M, N]``) when given; ``portable`` skips the SIMD path (VNNI or AVX2)."""
    kernels = cpu_extension.load()
    if kernels is None:
        raise RuntimeError("the C++ CPU kernels are not built on this machine")
    act_group = activation_group_size(x.shape[-1] // packed.scale.shape[1])
    return kernels.w8a8_matmul(x, packed.weight, packed.scale, packed.out_features, act_group, bias, portable, out)
