"""Every Triton kernel compiles for Hopper and Ampere, checked on a machine without a GPU (see ``lower_for_gpu.py``).

The interpreter, which the other kernel tests use here, accepts code the compiler rejects: with the decode
merge's running sum started as ``0`` instead of ``0.0`` its tests still pass, while this one fails ("loop-carried
variable" of another type)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("triton")
SCRIPT = Path(__file__).with_name("lower_for_gpu.py")


@pytest.mark.slow
def test_every_kernel_compiles_for_sm90_and_sm80():
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    run = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, env=env, timeout=600)
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    failed = [row for row in rows if not row["ok"]]
    assert not failed, failed
    assert run.returncode == 0, run.stderr[-2000:]
    assert {row["target"] for row in rows} == {"sm_90", "sm_80"}
    assert len(rows) == 28, [row["kernel"] for row in rows]
