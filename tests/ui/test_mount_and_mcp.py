"""One port: the API routes keep working with the UI mounted at "/", Gradio's MCP server lists exactly
one tool, `lookup_policy` (agent key required), and no UI handler answers without its login."""
from __future__ import annotations

import asyncio
import concurrent.futures
import json

import gradio as gr
import httpx
import pytest

from chatbot.api import ROUTE_ROLES
from tests.ui import harness
from tests.ui.harness import ADMIN_KEY, AGENT_KEY
from ui import create_ui


def test_every_route_of_the_served_app_is_declared(server):
    """The API's routes are declared in ROUTE_ROLES; the only other route is the UI's mount at "/",
    whose protected tabs and MCP tool check keys themselves (tested below)."""
    from starlette.routing import Mount

    app = harness.build_app(server.service)
    mounts = [r for r in app.routes if isinstance(r, Mount)]
    paths = {r.path for r in app.routes if not isinstance(r, Mount)}
    assert paths - {"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"} == set(ROUTE_ROLES)
    assert [m.path for m in mounts] == [""]  # "/" is stored as ""


def test_api_routes_and_ui_share_one_port(server_url):
    assert httpx.get(f"{server_url}/healthz").json() == {"status": "alive"}
    assert httpx.get(f"{server_url}/readyz").status_code == 200
    assert httpx.get(f"{server_url}/metrics").status_code == 401  # API roles still hold under the mount
    assert httpx.get(f"{server_url}/v1/models").json()["data"]
    page = httpx.get(f"{server_url}/")
    assert page.status_code == 200 and "gradio" in page.text.lower()
    info = httpx.get(f"{server_url}/gradio_api/info").json()
    assert list(info["named_endpoints"]) == ["/lookup_policy"]  # every UI event is private


def _run(coro):
    """asyncio.run in a thread of its own: Playwright's sync API may own this thread's event loop."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result(timeout=60)


async def _mcp(url: str, headers: dict, call: dict | None = None):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async with httpx.AsyncClient(headers=headers, timeout=30) as http, \
            streamable_http_client(f"{url}/gradio_api/mcp/", http_client=http) as (read, write, _), \
            ClientSession(read, write) as session:
        await session.initialize()
        if call is None:
            return (await session.list_tools()).tools
        return await session.call_tool("lookup_policy", call)


def test_mcp_server_lists_the_lookup_policy_tool(server_url):
    tools = _run(_mcp(server_url, {}))
    assert [t.name for t in tools] == ["lookup_policy"]
    (tool,) = tools
    assert "policies" in tool.description
    assert tool.inputSchema["required"] == ["query"]
    assert set(tool.inputSchema["properties"]) == {"query", "lang", "limit"}


@pytest.mark.parametrize("headers", [{"Authorization": f"Bearer {AGENT_KEY}"}, {"X-API-Key": ADMIN_KEY}])
def test_mcp_lookup_policy_returns_sections(server_url, headers):
    result = _run(_mcp(server_url, headers, {"query": "退货运费", "limit": 2}))
    assert not result.isError, result.content
    hits = json.loads(result.content[0].text)
    assert len(hits) == 2 and hits[0]["lang"] == "zh"
    assert {"id", "lang", "category", "title", "text", "score"} <= set(hits[0])
    assert any(h["id"] == "returns.shipping-fees" for h in hits)


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}])
def test_mcp_lookup_policy_needs_an_agent_key(server_url, headers):
    result = _run(_mcp(server_url, headers, {"query": "return shipping"}))
    assert result.isError and "agent key" in result.content[0].text


def _handler(blocks: gr.Blocks, name: str):
    (fn,) = [f.fn for f in blocks.fns.values() if getattr(f.fn, "__name__", None) == name]
    return fn


def test_protected_handlers_check_the_key_themselves(server):
    """Event endpoints can be called without the page, so hiding the content is not the protection."""
    blocks = create_ui(server.service)
    search, refresh = _handler(blocks, "search"), _handler(blocks, "refresh")
    for key in (None, "wrong"):
        with pytest.raises(gr.Error):
            search(key, "return shipping", "auto", 3)
        with pytest.raises(gr.Error):
            refresh(key, 900)
    with pytest.raises(gr.Error):
        refresh(AGENT_KEY, 900)  # agents may not see the latency panel
    assert "returns.shipping-fees" in search(AGENT_KEY, "return shipping", "auto", 3)["id"].tolist()
    assert len(refresh(ADMIN_KEY, 900)) == 10
