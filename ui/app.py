"""`create_ui(service)`: the Gradio Blocks with the three tabs, and `mount_ui`, which serves it on the
API's FastAPI app (one port) with Gradio's MCP server on."""
from __future__ import annotations

import gradio as gr

from ui.admin_tab import build_admin_tab
from ui.agent_tab import build_agent_tab
from ui.chat_tab import build_chat_tab
from ui.tools import register_tools

TITLE = "Northwind support"
CSS = """
.sd-title h1 { margin-bottom: 0; }
"""
MAX_CONCURRENT_UI_EVENTS = 8  # per event listener, for the quick ones; chat answers are bounded by the service


def create_ui(service) -> gr.Blocks:
    """The customer chat (open), the agent desk (agent key) and the admin latency panel (admin key).
    Also registers the `lookup_policy` tool for MCP clients."""
    with gr.Blocks(title=TITLE, analytics_enabled=False) as blocks:
        gr.Markdown(f"# {TITLE}", elem_classes=["sd-title"])
        with gr.Tabs(elem_id="sd-tabs"):
            with gr.Tab("Customer chat", id="chat", elem_id="sd-tab-chat"):
                build_chat_tab(service)
            with gr.Tab("Agent desk", id="agent", elem_id="sd-tab-agent"):
                build_agent_tab(service)
            with gr.Tab("Admin latency", id="admin", elem_id="sd-tab-admin"):
                build_admin_tab(service)
        register_tools(service)
    blocks.queue(default_concurrency_limit=MAX_CONCURRENT_UI_EVENTS)
    return blocks


def mount_ui(app, service, path: str = "/", mcp_server: bool = True):
    """Mount the UI on `app` (the API's FastAPI app) at `path`, with the MCP server at
    `<path>gradio_api/mcp/`. Call it after every API route is added: a mount at "/" catches
    whatever no earlier route matched. Returns `app`."""
    return gr.mount_gradio_app(app, create_ui(service), path=path, css=CSS, mcp_server=mcp_server,
                               footer_links=["api"], show_error=True, ssr_mode=False)
