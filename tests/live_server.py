"""Serve an ASGI app with uvicorn on a free localhost port in a background thread, for tests that need
real HTTP (the openai client, SSE disconnects, a browser)."""
from __future__ import annotations

import contextlib
import socket
import threading
import time
from typing import Iterator

import httpx
import uvicorn


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def live_server(app, ready_path: str = "/readyz", timeout_s: float = 120.0) -> Iterator[str]:
    """Yield the base URL once `ready_path` answers 200; stop the server (running the app's shutdown) after."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            try:
                if httpx.get(base + ready_path, timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError(f"server on {base} did not become ready")
            time.sleep(0.1)
        yield base
    finally:
        server.should_exit = True
        thread.join(30)
