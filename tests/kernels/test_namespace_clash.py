"""Our top-level ``kernels`` package shadows Hugging Face's ``kernels`` hub package, which
transformers and bitsandbytes probe for optional speed-ups. Prove they still work beside it.

Runs in a fresh interpreter with the repository first on ``sys.path``, as the app runs, so the
result does not depend on what this test session imported before.
"""
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_SCRIPT = r"""
import sys
sys.path.insert(0, sys.argv[1])
import kernels
ours = kernels.__file__
assert ours.startswith(sys.argv[1]), ours

import torch
import transformers
from transformers.utils.import_utils import is_kernels_available
# transformers sees a `kernels` without the hub API or version and must not try to use it
assert not is_kernels_available()
config = transformers.LlamaConfig(vocab_size=32, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                                  num_attention_heads=2, num_key_value_heads=1)
model = transformers.LlamaForCausalLM(config).eval()
with torch.no_grad():
    logits = model(torch.tensor([[1, 2, 3]])).logits
assert logits.shape == (1, 3, 32) and torch.isfinite(logits).all()

import bitsandbytes as bnb
torch.manual_seed(0)
dense = torch.nn.Linear(64, 32)
layer = bnb.nn.Linear8bitLt(64, 32, has_fp16_weights=False, threshold=0.0)
layer.load_state_dict(dense.state_dict())
layer = layer.to("cpu")  # quantises the weight to int8
assert layer.weight.dtype == torch.int8, layer.weight.dtype
x = torch.randn(4, 64)
with torch.no_grad():
    err = (layer(x) - dense(x)).abs().max().item()
assert err < 0.05, err

assert sys.modules["kernels"].__file__ == ours  # nobody replaced ours
print("NAMESPACE_OK")
"""


@pytest.mark.skipif(importlib.util.find_spec("transformers") is None, reason="transformers not installed")
@pytest.mark.skipif(importlib.util.find_spec("bitsandbytes") is None, reason="bitsandbytes not installed")
def test_transformers_and_bitsandbytes_work_beside_our_kernels_package():
    result = subprocess.run([sys.executable, "-c", _SCRIPT, str(ROOT)], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0 and "NAMESPACE_OK" in result.stdout, result.stdout + result.stderr


def test_hugging_face_s_kernels_distribution_is_not_installed():
    """transformers 5.25 requires the hub's `kernels` distribution: transformers then sees it installed, imports its
    API under the name our package holds, and every model import fails (CI, 2026-12-03). pyproject.toml keeps
    transformers below 5.25; this names the cause where some other requirement brings the distribution back."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        found = distribution("kernels")
    except PackageNotFoundError:
        return
    pytest.fail(f"the hub's `kernels` distribution {found.version} is installed (transformers 5.25 and later require "
                "it); its import name clashes with this repository's kernels/ package")
