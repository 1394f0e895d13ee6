"""SmoothQuant-style input scales for int8 linears, calibrated once at convert time.

The CPU int8 path quantizes activations per token (see `engine.quant`). A few input channels carry
much larger activations than the rest, which costs those tokens precision; a per-input-channel scale
``s`` moves that range into the weights: ``x @ W.T == (x / s) @ (W * s).T``. ``s = amax(|x|)^alpha /
amax(|W|)^(1 - alpha)`` per input channel, with activation maxima from one fp32 forward pass over a
short generic text (`calibration.txt`, English and Chinese). Linears that share an input (q/k/v,
gate/up) share one ``s``, so they still stack into one fused matrix.
"""
from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from engine.models.weights import FUSED_PARTS

SMOOTHING_ALPHA = 0.6  # the best of 0.5-0.8 for top-1 agreement with fp32, measured by fake quantization (README)
CALIBRATION_TEXT = Path(__file__).with_name("calibration.txt")
MAX_CALIBRATION_TOKENS = 1024


def smoothing_scales(input_amax: torch.Tensor, weight: torch.Tensor, alpha: float = SMOOTHING_ALPHA) -> torch.Tensor:
    """Per-input-channel ``s`` for one (fused) weight ``[out, in]`` given the input's channel maxima ``[in]``."""
    weight_amax = weight.detach().abs().amax(dim=0).float().clamp_min(1e-5)
    s = input_amax.float().clamp_min(1e-5) ** alpha / weight_amax ** (1 - alpha)
    return s / s.mean()  # only ratios matter; keep the weights' magnitude where it was


def calibrate_input_scales(config, state_dict: dict[str, torch.Tensor], tokenizer_path: Path,
                           source: Path) -> dict[str, torch.Tensor]:
    """``{HF weight name: s}`` for every linear inside the decoder layers, from an fp32 forward pass."""
    from engine.config import EngineConfig
    from engine.llm_engine import LLMEngine
    from engine.loader import LoadedCheckpoint

    engine = LLMEngine(EngineConfig(dtype="fp32", device="cpu", enable_prefix_caching=False,
                                    max_model_len=MAX_CALIBRATION_TOKENS + 16, kv_cache_bytes=64 << 20),
                       LoadedCheckpoint(config, state_dict, tokenizer_path, source))
    model = engine.runner.model
    amax: dict[str, torch.Tensor] = {}
    linears = {name: m for name, m in model.named_modules() if isinstance(m, nn.Linear) and ".layers." in f".{name}"}

    def record(name: str):
        def hook(_module, args):
            x = args[0].detach().reshape(-1, args[0].shape[-1]).abs().amax(dim=0).float()
            amax[name] = x if name not in amax else torch.maximum(amax[name], x)
        return hook

    handles = [m.register_forward_pre_hook(record(name)) for name, m in linears.items()]
    try:
        ids = engine.tokenizer.encode(CALIBRATION_TEXT.read_text(encoding="utf-8")).ids[:MAX_CALIBRATION_TOKENS]
        engine.prompt_logits(ids)
    finally:
        for handle in handles:
            handle.remove()
    scales: dict[str, torch.Tensor] = {}
    for name, module in linears.items():
        s = smoothing_scales(amax[name], module.weight)
        prefix, leaf = name.rsplit(".", 1)
        for part in dict(FUSED_PARTS).get(leaf, (leaf,)):
            scales[f"model.{prefix}.{part}.weight"] = s
    return scales
