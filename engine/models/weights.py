"""HF checkpoint names to the engine's fused parameters (QKV and gate/up stacked on dim 0)."""
from __future__ import annotations

import torch

FUSED_PARTS = (  # the engine's fused parameter and the HF parameters stacked into it
    ("qkv_proj", ("q_proj", "k_proj", "v_proj")),
    ("gate_up_proj", ("gate_proj", "up_proj")),
)


def stack_fused_weights(state_dict: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Concatenate q/k/v and gate/up tensors (weights, biases, int8 group scales) along dim 0.

    Scales are per output channel (and group of inputs), so they stay exact under this concatenation.
    """
    out = dict(state_dict)
    for fused, parts in FUSED_PARTS:
        for name in [n for n in state_dict if f".{parts[0]}." in n]:
            names = [name.replace(f".{parts[0]}.", f".{p}.") for p in parts]
            missing = [n for n in names if n not in state_dict]
            if missing:
                raise ValueError(f"checkpoint is missing {missing[0]}")
            tensors = [state_dict[n] for n in names]
            out[name.replace(f".{parts[0]}.", f".{fused}.")] = torch.cat(tensors, dim=0)
            for n in names:
                del out[n]
    return out
