"""Smoke tests of `supportdesk bench quant` and `bench engine` on a tiny checkpoint, and of `bench attention` at
shrunken dimensions: shapes and keys only, never timings."""
from __future__ import annotations

import json

import pytest

from engine.bench import attention, common, quant, serving

INNER_QUANT_KEYS = {"rss_mb", "decode_tok_s", "prefill_tok_s", "perplexity"}
SYSTEM_KEYS = {"throughput_tok_s", "ttft_p50_s", "ttft_p99_s", "tpot_p50_s", "tpot_p99_s", "peak_rss_mb"}


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@pytest.fixture(scope="module")
def tiny(tiny_checkpoints, tmp_path_factory):
    """``(model, cache_dir, tokenizer path, policy token ids)`` for the tiny Gemma 3."""
    model, cache_dir = str(tiny_checkpoints["gemma3"]), str(tmp_path_factory.mktemp("bench-cache"))
    tok_path = common.tokenizer_path(model, cache_dir)
    return model, cache_dir, tok_path, common.policy_token_ids(tok_path, 600)


def test_percentile_and_table():
    assert common.percentile([], 50) is None
    assert common.percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert common.percentile([0.0, 10.0], 99) == pytest.approx(9.9)
    assert common.verdict(None, 1.0) == "n/a" and common.verdict(0.3, 0.35, at_most=True) == "met"
    lines = common.table(["a", "b"], [["x", 1.25], ["y", None]]).splitlines()
    assert len(lines) == 4 and lines[2].startswith("| x")


def test_policy_token_ids_are_the_sorted_policies(tiny):
    _, _, tok_path, ids = tiny
    assert len(ids) == 600
    assert common.policy_token_ids(tok_path, 600) == ids  # deterministic


def test_workload_is_fixed_and_in_range():
    first = serving.make_workload(list(range(10, 500)), 20, seed=1)
    assert first == serving.make_workload(list(range(10, 500)), 20, seed=1)
    burst, poisson = first["burst"], first["poisson"]
    assert [r.prompt_ids for r in burst] == [r.prompt_ids for r in poisson]
    assert all(32 <= len(r.prompt_ids) <= 512 and 32 <= r.max_tokens <= 256 for r in burst)
    assert all(r.arrival_s == 0 for r in burst)
    arrivals = [r.arrival_s for r in poisson]
    assert arrivals == sorted(arrivals) and arrivals[-1] > 0


def test_summarize_records():
    # [arrival, first token, last token, number of output tokens]
    s = serving.summarize([[0.0, 1.0, 3.0, 5], [1.0, 2.0, 4.0, 3]])
    assert s["throughput_tok_s"] == pytest.approx(8 / 4.0)
    assert s["ttft_p50_s"] == pytest.approx(1.0)
    assert s["tpot_p50_s"] == pytest.approx(0.75)
    assert SYSTEM_KEYS - {"peak_rss_mb"} <= set(s)


def test_quant_measurements_in_process(tiny):
    model, cache_dir, tok_path, ids = tiny
    ours = quant.measure_engine(model, cache_dir, "int8", tok_path, ids)
    ref = quant.measure_transformers(model, ids)
    for r in (ours, ref):
        assert INNER_QUANT_KEYS <= set(r) and all(_is_number(r[k]) for k in INNER_QUANT_KEYS)
        assert r["perplexity"] > 1
    assert ours["kv_cache_mb"] > 0


@pytest.mark.slow
def test_quant_bench_json(tiny, capsys):
    model, cache_dir, _, _ = tiny
    result = quant.run_quant_bench(model=model, cache_dir=cache_dir, as_json=True, dtypes=("int8",),
                                   include_transformers=False, num_tokens=64)
    printed = json.loads(capsys.readouterr().out)  # exactly one JSON object on stdout
    assert printed == json.loads(json.dumps(result))
    assert {"fp32", "bf16", "int8", "transformers_fp32", "warm_start_s"} <= set(printed)
    assert printed["fp32"] is None and printed["bf16"] is None and printed["transformers_fp32"] is None
    assert INNER_QUANT_KEYS <= set(printed["int8"])
    assert _is_number(printed["warm_start_s"]) and printed["warm_start_s"] > 0
    assert printed["targets"]["int8_decode_speedup_vs_transformers"]["status"] == "n/a"


@pytest.mark.slow
def test_engine_bench_json(tiny, capsys):
    model, cache_dir, _, _ = tiny
    result = serving.run_engine_bench(model=model, cache_dir=cache_dir, as_json=True, num_requests=3,
                                      rate_per_s=50.0, prompt_tokens=(8, 24), output_tokens=(4, 8))
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(result))
    assert {"systems", "single_stream_decode_tok_s", "prefill_tok_s"} <= set(printed)
    systems = printed["systems"]
    assert set(systems) == {"supportdesk", "transformers", "llama_cpp"}
    assert systems["llama_cpp"] is None  # a safetensors directory is not a GGUF
    for name in ("supportdesk", "transformers"):
        assert SYSTEM_KEYS <= set(systems[name]) and all(_is_number(systems[name][k]) for k in SYSTEM_KEYS)
        assert {"burst", "poisson"} <= set(systems[name]["scenarios"])
        assert _is_number(printed["single_stream_decode_tok_s"][name]) and _is_number(printed["prefill_tok_s"][name])
    assert "concurrent_16" in systems["supportdesk"]["scenarios"]
    for scenario in systems["supportdesk"]["scenarios"].values():
        assert 0 <= scenario["num_accepted_draft_tokens"] <= scenario["num_draft_tokens"]
    assert _is_number(printed["supportdesk_single_stream_decode_without_drafts_tok_s"])
    assert printed["single_stream_decode_tok_s"]["llama_cpp"] is None and printed["prefill_tok_s"]["llama_cpp"] is None
    assert set(printed["targets"]) >= {"single_stream_decode_tok_s", "prefill_512_tok_s"}


def test_attention_bench_json(monkeypatch, capsys):
    """The whole bench (attention timings and the random-weight decoder) at a small vocabulary, context and depth."""
    for name, value in [("VOCAB_SIZE", 512), ("SEQ_LEN", 64), ("NUM_LAYERS", 2), ("ATTENTION_BATCHES", (1, 2)),
                        ("KV_BUDGET_BYTES", 2 << 20)]:
        monkeypatch.setattr(attention, name, value)
    result = attention.run_attention_bench(as_json=True)
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1]) == json.loads(json.dumps(result))
    assert [row["variant"] for row in result["variants"]] == ["MHA", "GQA", "MQA"]
    per_token = [row["kv_bytes_per_token"] for row in result["variants"]]
    assert per_token == [4 * 256 * 2 * 2 * 2, 2 * 256 * 2 * 2 * 2, 256 * 2 * 2 * 2]  # K+V, bf16, 2 layers
    for row in result["variants"]:
        assert row["max_batch_in_budget"] == (2 << 20) // (row["kv_bytes_per_token"] * 64)
        assert set(row["attention_ms_per_step"]) == {"1", "2"}
        assert all(_is_number(v) and v > 0 for v in row["attention_ms_per_step"].values())
        assert row["decode_tok_s_batch_1"] > 0 and row["decode_tok_s_max_batch"] > 0
