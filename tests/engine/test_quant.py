"""int8 weight-only quantization: error bounds, `Int8Linear` against fp32, `Int8Embedding`, the module swap."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
import torch
from safetensors.torch import save_file
from torch import nn

from engine import loader, quant
from kernels import cpu_extension
from engine.quant import (Int8Embedding, Int8Linear, dequantize_per_channel, prepare_int8, quantize_per_channel,
                          quantize_state_dict, swap_linears_to_int8)


def _linear(out_features=48, in_features=64, bias=False, seed=0) -> nn.Linear:
    torch.manual_seed(seed)
    return nn.Linear(in_features, out_features, bias=bias)


def _int8_from(linear: nn.Linear) -> Int8Linear:
    q, scale = quantize_per_channel(linear.weight)
    return Int8Linear.from_int8(q, scale, None if linear.bias is None else linear.bias.detach())


def test_quantize_error_bound():
    torch.manual_seed(0)
    w = torch.randn(300, 70) * torch.logspace(-3, 1, 300)[:, None]
    w[7] = 0.0
    q, scale = quantize_per_channel(w)
    assert q.dtype == torch.int8 and scale.dtype == torch.float32 and scale.shape == (300,)
    assert q.abs().max() <= 127 and (q.abs().amax(dim=1)[scale > 0] == 127).all()
    error = (dequantize_per_channel(q, scale) - w).abs()
    assert (error <= scale[:, None] / 2 + 1e-6 * w.abs()).all()  # round to nearest, per output channel
    assert (q[7] == 0).all() and scale[7] == 0


def test_quantize_state_dict_picks_linear_weights_and_embedding():
    config = SimpleNamespace(vocab_size=10, hidden_size=8)
    sd = {"model.embed_tokens.weight": torch.randn(10, 8), "model.layers.0.self_attn.q_proj.weight": torch.randn(8, 8),
          "model.layers.0.self_attn.q_proj.bias": torch.randn(8), "model.norm.weight": torch.randn(8).half(),
          "lm_head.weight": torch.randn(10, 8), "model.layers.0.self_attn.q_norm.weight": torch.randn(4)}
    out = quantize_state_dict(sd, config)
    for name in ("model.embed_tokens.weight", "model.layers.0.self_attn.q_proj.weight", "lm_head.weight"):
        assert out[name].dtype == torch.int8 and out[name + "_scale"].shape == (sd[name].shape[0],)
    for name in ("model.layers.0.self_attn.q_proj.bias", "model.norm.weight", "model.layers.0.self_attn.q_norm.weight"):
        assert out[name].dtype == torch.float32 and name + "_scale" not in out
    with pytest.raises(ValueError, match="embed_tokens"):
        quantize_state_dict({"model.embed_tokens.weight": torch.randn(9, 8)}, config)


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("prepared", [False, True])
def test_int8_linear_matches_fp32(bias, prepared):
    dense = _linear(bias=bias)
    layer = _int8_from(dense)
    if prepared:
        layer.prepare()
    x = torch.randn(2, 3, 64)
    y = layer(x)
    assert y.shape == (2, 3, 48) and y.dtype == torch.float32
    with torch.no_grad():
        ref = dense(x)
        exact = nn.functional.linear(x, dequantize_per_channel(*quantize_per_channel(dense.weight)), dense.bias)
    rel = ((y - ref).norm() / ref.norm()).item()
    assert rel < 0.02, rel  # int8 weights (and, prepared, int8 activations per token)
    if not prepared:
        torch.testing.assert_close(y, exact)


def test_int8_linear_keeps_input_dtype():
    layer = _int8_from(_linear()).prepare()
    x = torch.randn(5, 64, dtype=torch.bfloat16)
    assert layer(x).dtype == torch.bfloat16


def test_prepare_frees_the_plain_weight():
    layer = _int8_from(_linear(bias=True))
    assert "weight" in layer.state_dict()
    layer.prepare()
    assert layer.weight is None and layer.is_prepared
    assert "weight" not in layer.state_dict() and "weight_scale" in layer.state_dict()
    assert layer.prepare() is layer  # idempotent


def test_int8_embedding_rows_match():
    torch.manual_seed(0)
    table = torch.randn(50, 16)
    q, scale = quantize_per_channel(table)
    emb = Int8Embedding.from_int8(q, scale)
    ids = torch.tensor([[0, 7, 49], [3, 3, 1]])
    rows = emb(ids)
    assert rows.shape == (2, 3, 16) and rows.dtype == torch.float32
    torch.testing.assert_close(rows, dequantize_per_channel(q, scale)[ids])
    assert (rows - table[ids]).abs().max() <= scale.max() / 2 + 1e-6
    assert emb(ids, dtype=torch.bfloat16).dtype == torch.bfloat16


def test_tied_head_shares_the_int8_table():
    torch.manual_seed(0)
    q, scale = quantize_per_channel(torch.randn(50, 16))
    emb = Int8Embedding.from_int8(q, scale)
    head = emb.as_linear()
    assert head.weight.data_ptr() == emb.weight.data_ptr()  # no copy
    x = torch.randn(3, 16)
    ref = x @ dequantize_per_channel(q, scale).T
    torch.testing.assert_close(head(x), ref)
    head.prepare()
    assert ((head(x) - ref).norm() / ref.norm()) < 0.02
    assert emb.weight is not None  # the embedding still gathers from the table


class _Tiny(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed_tokens = nn.Embedding(40, 32)
        self.block = nn.ModuleDict({"q_proj": nn.Linear(32, 64, bias=True), "down_proj": nn.Linear(64, 32)})
        self.norm = nn.LayerNorm(32)
        self.lm_head = nn.Linear(32, 40, bias=False)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        h = self.embed_tokens(ids)
        h = h + self.block["down_proj"](torch.relu(self.block["q_proj"](h)))
        return self.lm_head(self.norm(h))


def test_swap_then_load_quantized_state_dict():
    torch.manual_seed(0)
    model = _Tiny().eval()
    ids = torch.tensor([[1, 5, 39, 0]])
    with torch.no_grad():
        ref = model(ids)
    sd = quantize_state_dict(model.state_dict(), SimpleNamespace(vocab_size=40, hidden_size=32))
    swap_linears_to_int8(model)
    assert isinstance(model.embed_tokens, Int8Embedding) and isinstance(model.lm_head, Int8Linear)
    assert isinstance(model.block["q_proj"], Int8Linear) and model.block["q_proj"].bias is not None
    assert isinstance(model.norm, nn.LayerNorm)
    model.load_state_dict(sd, strict=True)
    prepare_int8(model)
    assert all(m.is_prepared for m in model.modules() if isinstance(m, Int8Linear))
    with torch.no_grad():
        out = model(ids)
    assert ((out - ref).norm() / ref.norm()) < 0.03


def test_prepare_releases_a_memory_mapped_weight(tmp_path):
    dense = _linear(out_features=4096, in_features=256)
    q, scale = quantize_per_channel(dense.weight)
    save_file({"w": q, "s": scale}, tmp_path / "w.safetensors")
    mapped = loader._map_safetensors(tmp_path / "w.safetensors")
    layer = Int8Linear.from_int8(mapped["w"], mapped["s"])
    x = torch.randn(2, 256)
    before = layer(x)  # the reference path touches every page
    assert loader.release_mapped_pages(mapped["w"])
    torch.testing.assert_close(mapped["w"], q, rtol=0, atol=0)  # pages come back from the file
    layer.prepare()
    assert layer.weight is None
    assert ((layer(x) - before).norm() / before.norm()) < 0.02


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_int8_linear_on_cuda():
    dense = _linear(bias=True).cuda()
    layer = _int8_from(dense).prepare()
    x = torch.randn(3, 64, device="cuda")
    torch.testing.assert_close(layer(x), dense(x), rtol=0.05, atol=0.05)
    pytest.importorskip("bitsandbytes")
    q, scale = quantize_per_channel(dense.weight)
    bnb_layer = Int8Linear.from_int8(q, scale, dense.bias.detach(), backend="bnb").prepare()
    torch.testing.assert_close(bnb_layer(x), dense(x), rtol=0.05, atol=0.05)


def test_per_token_activations_make_rows_independent_of_the_batch():
    torch.manual_seed(0)
    q, scale = quantize_per_channel(torch.randn(96, 64))
    layer = Int8Linear.from_int8(q, scale).prepare()
    x = torch.randn(7, 64) * torch.tensor([1e-3, 1.0, 5.0, 100.0, 0.5, 2.0, 3.0])[:, None]
    together = layer(x)
    assert torch.equal(together, torch.cat([layer(x[i:i + 1]) for i in range(7)]))
    exact = x @ (q.float() * scale[:, None]).t()
    assert ((together - exact).norm(dim=1) / exact.norm(dim=1)).max() < 0.02
    # A prefill-sized batch takes other kernels (AMX tiles): the rows still come out bit-identical.
    big = torch.cat([x, torch.randn(505, 64)])
    assert torch.equal(layer(big)[:7], together)


def test_input_scale_undoes_the_smoothing():
    torch.manual_seed(1)
    w, x = torch.randn(48, 32), torch.randn(5, 32)
    s = torch.rand(32) + 0.5
    q, scale = quantize_per_channel(w * s)
    for prepare in (False, True):
        layer = Int8Linear.from_int8(q, scale)
        layer.input_scale = 1.0 / s
        if prepare:
            layer.prepare()
        exact = x @ w.t()
        assert (layer(x) - exact).norm() / exact.norm() < 0.02


def test_a_cpu_build_without_onednn_int8_keeps_the_reference_matmul(monkeypatch):
    monkeypatch.setattr(quant, "onednn_int8_available", lambda: False)
    torch.manual_seed(2)
    q, scale = quantize_per_channel(torch.randn(24, 16))
    layer = Int8Linear.from_int8(q, scale).prepare()
    assert not layer.is_prepared and layer.weight is not None
    x = torch.randn(3, 16)
    torch.testing.assert_close(layer(x), x @ dequantize_per_channel(q, scale).t())


@pytest.mark.parametrize("smoothed, bias", [(False, False), (True, False), (True, True)])
def test_cpp_quantization_gives_the_same_bits_as_the_pytorch_ops(monkeypatch, smoothed, bias):
    """`kernels.cpu_extension`'s one-pass quantization and scaling against the PyTorch ops they replace."""
    if cpu_extension.load() is None:
        pytest.skip("no C++ compiler to build the CPU kernels")
    torch.manual_seed(3)
    q, scale = quantize_per_channel(torch.randn(80, 48))
    layer = Int8Linear.from_int8(q, scale, bias=torch.randn(80) if bias else None).prepare()
    if smoothed:
        layer.input_scale = torch.rand(48) + 0.5
    x = torch.randn(8, 48) * torch.tensor([1e-4, 1.0, 7.0, 300.0, 0.5, 2.0, 3.0, 1.0])[:, None]
    x[7] = 0.0  # an all-zero row: step clamped, every q 0
    fast = layer(x)
    monkeypatch.setattr(cpu_extension, "load", lambda: None)
    assert torch.equal(fast, layer(x))
