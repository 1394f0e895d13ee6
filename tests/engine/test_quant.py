"""int8 quantization with group-wise scales: error bounds, `Int8Linear` against fp32 and against the
reference, `Int8Embedding`, the module swap."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
import torch
from safetensors.torch import save_file
from torch import nn

from engine import loader
from engine.quant import (GROUP_SIZE, Int8Embedding, Int8Linear, dequantize_groupwise, group_size, prepare_int8,
                          quantize_groupwise, quantize_state_dict, swap_linears_to_int8)
from kernels import cpu_extension
from kernels.w8a8_matmul_ref import w8a8_matmul_ref


def _linear(out_features=48, in_features=64, bias=False, seed=0) -> nn.Linear:
    torch.manual_seed(seed)
    return nn.Linear(in_features, out_features, bias=bias)


def _int8_from(linear: nn.Linear) -> Int8Linear:
    q, scale = quantize_groupwise(linear.weight)
    return Int8Linear.from_int8(q, scale, None if linear.bias is None else linear.bias.detach())


def _needs_cpp() -> None:
    if cpu_extension.load() is None:
        pytest.skip("no C++ compiler to build the CPU kernels")


def test_quantize_error_bound():
    torch.manual_seed(0)
    w = torch.randn(300, 96) * torch.logspace(-3, 1, 300)[:, None]
    w[7] = 0.0
    w[9, 32:64] = 0.0
    q, scale = quantize_groupwise(w)
    assert q.dtype == torch.int8 and scale.dtype == torch.float16 and scale.shape == (300, 96 // GROUP_SIZE)
    assert q.abs().max() <= 127
    error = (dequantize_groupwise(q, scale) - w).abs()
    step = scale.float().repeat_interleave(GROUP_SIZE, dim=1)
    assert (error <= step / 2 + 1e-6 * w.abs()).all()  # round to nearest, per group
    assert (q[7] == 0).all() and (scale[7] == 0).all() and (q[9, 32:64] == 0).all() and scale[9, 1] == 0


def test_group_size_falls_back_to_whole_rows():
    assert group_size(640) == GROUP_SIZE and group_size(48) == 48 and group_size(20) == 20
    assert quantize_groupwise(torch.randn(5, 20))[1].shape == (5, 1)


def test_quantize_state_dict_picks_linear_weights_and_embedding():
    config = SimpleNamespace(vocab_size=10, hidden_size=64)
    sd = {"model.embed_tokens.weight": torch.randn(10, 64),
          "model.layers.0.self_attn.q_proj.weight": torch.randn(8, 64),
          "model.layers.0.self_attn.q_proj.bias": torch.randn(8), "model.norm.weight": torch.randn(8).half(),
          "lm_head.weight": torch.randn(10, 64), "model.layers.0.self_attn.q_norm.weight": torch.randn(4)}
    out = quantize_state_dict(sd, config)
    for name in ("model.embed_tokens.weight", "model.layers.0.self_attn.q_proj.weight", "lm_head.weight"):
        assert out[name].dtype == torch.int8 and out[name + "_scale"].shape == (sd[name].shape[0], 2)
    for name in ("model.layers.0.self_attn.q_proj.bias", "model.norm.weight", "model.layers.0.self_attn.q_norm.weight"):
        assert out[name].dtype == torch.float32 and name + "_scale" not in out
    with pytest.raises(ValueError, match="embed_tokens"):
        quantize_state_dict({"model.embed_tokens.weight": torch.randn(9, 64)}, config)


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("prepared", [False, True])
def test_int8_linear_matches_fp32_and_the_reference(bias, prepared):
    if prepared:
        _needs_cpp()
    dense = _linear(bias=bias)
    layer = _int8_from(dense)
    if prepared:
        layer.prepare()
        assert layer.is_prepared
    x = torch.randn(2, 3, 64)
    y = layer(x)
    assert y.shape == (2, 3, 48) and y.dtype == torch.float32
    with torch.no_grad():
        ref = dense(x)
    rel = ((y - ref).norm() / ref.norm()).item()
    assert rel < 0.01, rel  # int8 weights and activations, groups of 32
    q, scale = quantize_groupwise(dense.weight)
    exact = w8a8_matmul_ref(x.reshape(6, 64), q, scale, None if dense.bias is None else dense.bias.detach())
    assert torch.equal(y.reshape(6, 48), exact)  # the C++ kernel gives the reference's bits
    out = torch.empty(6, 48)
    assert layer(x.reshape(6, 64), out=out) is out and torch.equal(out, exact)  # in place, or copied


def test_int8_linear_keeps_input_dtype():
    layer = _int8_from(_linear()).prepare()
    x = torch.randn(5, 64, dtype=torch.bfloat16)
    assert layer(x).dtype == torch.bfloat16


def test_prepare_frees_the_plain_weight():
    _needs_cpp()
    layer = _int8_from(_linear(bias=True))
    assert "weight" in layer.state_dict()
    layer.prepare()
    assert layer.weight is None and layer.is_prepared
    assert "weight" not in layer.state_dict() and "weight_scale" not in layer.state_dict()  # packed copies
    assert layer.prepare() is layer  # idempotent


def test_int8_embedding_rows_match():
    torch.manual_seed(0)
    table = torch.randn(50, 64)
    q, scale = quantize_groupwise(table)
    emb = Int8Embedding.from_int8(q, scale)
    ids = torch.tensor([[0, 7, 49], [3, 3, 1]])
    rows = emb(ids)
    assert rows.shape == (2, 3, 64) and rows.dtype == torch.float32
    torch.testing.assert_close(rows, dequantize_groupwise(q, scale)[ids], rtol=0, atol=0)
    assert (rows - table[ids]).abs().max() <= scale.float().max() / 2 + 1e-6
    assert emb(ids, dtype=torch.bfloat16).dtype == torch.bfloat16


def test_tied_head_shares_the_int8_table():
    torch.manual_seed(0)
    q, scale = quantize_groupwise(torch.randn(50, 64))
    emb = Int8Embedding.from_int8(q, scale)
    head = emb.as_linear()
    assert head.weight.data_ptr() == emb.weight.data_ptr()  # no copy
    x = torch.randn(3, 64)
    before = head(x)
    ref = x @ dequantize_groupwise(q, scale).T
    assert ((before - ref).norm() / ref.norm()) < 0.01
    head.prepare()
    assert torch.equal(head(x), before)
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
    assert all(m.is_prepared for m in model.modules() if isinstance(m, Int8Linear)) or cpu_extension.load() is None
    with torch.no_grad():
        out = model(ids)
    assert ((out - ref).norm() / ref.norm()) < 0.03


def test_swapped_embedding_gives_rows_in_the_compute_dtype():
    """int8 runs in bf16 on CUDA, so the embedding's rows must come out bf16 as the KV cache is; they came out
    fp32, the meta model's dtype, and the first attention refused them (seen on an H200, 2026-12-04)."""
    model = _Tiny().eval()
    sd = quantize_state_dict(model.state_dict(), SimpleNamespace(vocab_size=40, hidden_size=32))
    swap_linears_to_int8(model, dtype=torch.bfloat16)
    model.load_state_dict(sd, strict=True)
    ids = torch.tensor([1, 5, 39])
    assert model.embed_tokens(ids).dtype == torch.bfloat16
    swap_linears_to_int8(fresh := _Tiny().eval())
    fresh.load_state_dict(sd, strict=True)
    assert fresh.embed_tokens(ids).dtype == torch.float32  # without a dtype: the float embedding's
    assert torch.allclose(model.embed_tokens(ids).float(), fresh.embed_tokens(ids), rtol=1e-2, atol=1e-3)


def test_prepare_releases_a_memory_mapped_weight(tmp_path):
    _needs_cpp()
    dense = _linear(out_features=4096, in_features=256)
    q, scale = quantize_groupwise(dense.weight)
    save_file({"w": q, "s": scale}, tmp_path / "w.safetensors")
    mapped = loader._map_safetensors(tmp_path / "w.safetensors")
    layer = Int8Linear.from_int8(mapped["w"], mapped["s"])
    x = torch.randn(2, 256)
    before = layer(x)  # the reference path touches every page
    assert loader.release_mapped_pages(mapped["w"])
    torch.testing.assert_close(mapped["w"], q, rtol=0, atol=0)  # pages come back from the file
    layer.prepare()
    assert layer.weight is None
    assert torch.equal(layer(x), before)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_int8_linear_on_cuda():
    dense = _linear(bias=True).cuda()
    layer = _int8_from(dense).prepare()
    x = torch.randn(3, 64, device="cuda")
    torch.testing.assert_close(layer(x), dense(x), rtol=0.05, atol=0.05)
    pytest.importorskip("bitsandbytes")
    q, scale = quantize_groupwise(dense.weight)
    bnb_layer = Int8Linear.from_int8(q, scale, dense.bias.detach(), backend="bnb").prepare()
    torch.testing.assert_close(bnb_layer(x), dense(x), rtol=0.05, atol=0.05)


def test_rows_are_independent_of_the_batch():
    _needs_cpp()
    torch.manual_seed(0)
    q, scale = quantize_groupwise(torch.randn(96, 64))
    layer = Int8Linear.from_int8(q, scale).prepare()
    x = torch.randn(7, 64) * torch.tensor([1e-3, 1.0, 5.0, 100.0, 0.5, 2.0, 3.0])[:, None]
    together = layer(x)
    assert torch.equal(together, torch.cat([layer(x[i:i + 1]) for i in range(7)]))
    big = torch.cat([x, torch.randn(505, 64)])  # a prefill-sized batch
    assert torch.equal(layer(big)[:7], together)


def test_a_cpu_without_the_cpp_kernels_keeps_the_reference_matmul(monkeypatch):
    monkeypatch.setattr(cpu_extension, "load", lambda: None)
    torch.manual_seed(2)
    q, scale = quantize_groupwise(torch.randn(24, 64))
    layer = Int8Linear.from_int8(q, scale).prepare()
    assert not layer.is_prepared and layer.weight is not None
    x = torch.randn(3, 64)
    assert torch.equal(layer(x), w8a8_matmul_ref(x, q, scale))
