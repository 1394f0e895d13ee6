"""What the UI tests and the screenshot script share: Debian's chromium (installed when missing),
a ChatService over a real engine, and the real app served by uvicorn on a free localhost port."""
from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
AGENT_KEY = "agent-key-for-tests"
ADMIN_KEY = "admin-key-for-tests"
# Tiny checkpoints have a small vocabulary, so prompts run to ~1,300 tokens: room for the outline prompt.
TINY_UI_ENGINE = {"block_size": 16, "max_model_len": 4096, "kv_cache_bytes": 64 << 20, "max_num_seqs": 16,
                  "max_num_batched_tokens": 512}


def ensure_chromium() -> str:
    """Debian's chromium, installed with apt-get if missing (apt-get update first when apt cannot find it).
    Raises RuntimeError with apt's output when it cannot be installed (subprocess.TimeoutExpired when apt hangs)."""
    if os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    if shutil.which("apt-get") is None:
        raise RuntimeError(f"{CHROMIUM} is missing and there is no apt-get to install Debian's chromium")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "--no-install-recommends", "chromium"]
    start = time.perf_counter()
    proc = subprocess.run(install, capture_output=True, text=True, env=env, timeout=900, check=False)
    if proc.returncode != 0:
        update = subprocess.run(["apt-get", "update"], capture_output=True, text=True, env=env, timeout=600, check=False)
        proc = subprocess.run(install, capture_output=True, text=True, env=env, timeout=900, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"could not install Debian's chromium (apt-get update rc={update.returncode}):\n"
                               f"{update.stderr[-2000:]}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    if not os.access(CHROMIUM, os.X_OK):
        raise RuntimeError(f"apt-get installed chromium but {CHROMIUM} is missing")
    print(f"installed Debian's chromium in {time.perf_counter() - start:.1f} s")
    return CHROMIUM


def launch_browser(playwright):
    """Headless chromium through Playwright, with flags that avoid hangs on a closed network."""
    return playwright.chromium.launch(executable_path=ensure_chromium(), args=CHROMIUM_ARGS, headless=True)


def tiny_service(checkpoint_dir, cache_dir, kb_root=None):
    """A ChatService over a real AsyncLLM on a tiny random-weight checkpoint, with test agent and admin keys.
    The guard replaces its garbage point text with the KB sections, so answers are KB text."""
    from chatbot.auth import KeyAuth
    from chatbot.knowledge import KnowledgeBase
    from chatbot.service import ChatService
    from engine.async_llm import AsyncLLM
    from engine.config import EngineConfig
    from tests.conftest import track_engine

    llm = AsyncLLM(EngineConfig(model=str(checkpoint_dir), cache_dir=str(cache_dir), dtype="fp32", **TINY_UI_ENGINE))
    track_engine(llm.engine)
    return ChatService(llm, KnowledgeBase.load(kb_root), auth=KeyAuth([AGENT_KEY], [ADMIN_KEY]))


def real_service():
    """A ChatService over the real default model (packaged Gemma 3 270M, int8)."""
    from chatbot.auth import KeyAuth
    from chatbot.knowledge import KnowledgeBase
    from chatbot.service import ChatService
    from engine.async_llm import AsyncLLM
    from engine.config import EngineConfig
    from tests.conftest import track_engine

    llm = AsyncLLM(EngineConfig(max_num_seqs=8))
    track_engine(llm.engine)
    return ChatService(llm, KnowledgeBase.load(), auth=KeyAuth([AGENT_KEY], [ADMIN_KEY]))


def build_app(service):
    """The app `supportdesk serve` runs: the API (its lifespan warms the service up and closes it) with the
    UI and the MCP server mounted at "/"."""
    from chatbot.api import create_app
    from ui import mount_ui

    return mount_ui(create_app(service), service)


@contextlib.contextmanager
def serve(service, startup_timeout_s: float = 120.0):
    """Serve build_app(service) with uvicorn in a background thread; yields the base URL once /readyz is
    200. On exit the server stops, which drains and closes the service (engine included)."""
    from tests.live_server import live_server

    with live_server(build_app(service), timeout_s=startup_timeout_s) as base:
        yield base


def poisoned_kb(root: Path, payload: str) -> Path:
    """A copy of data/policies in which every English returns section ends with `payload`."""
    from chatbot.knowledge import DEFAULT_ROOT

    shutil.copytree(DEFAULT_ROOT, root)
    path = root / "en" / "returns.md"
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines):
        out.append(line)
        is_text = line.strip() and not line.startswith(("#", "<!--"))
        next_is_text = i + 1 < len(lines) and lines[i + 1].strip() and not lines[i + 1].startswith(("#", "<!--"))
        if is_text and not next_is_text:
            out[-1] = f"{line} {payload}"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return root
