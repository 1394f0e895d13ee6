"""The tools AI agents get through Gradio's MCP server (at /gradio_api/mcp/): `lookup_policy`.

Gradio names each tool after its function and describes it from the docstring and type hints.
Like the API's policy lookup, it needs an agent (or admin) key, sent as `Authorization: Bearer <key>`
or `X-API-Key: <key>` by the MCP client."""
from __future__ import annotations

import json

import gradio as gr

from chatbot.auth import api_key_from_headers, has_role


def register_tools(service) -> None:
    """Register the MCP tools (as API-only endpoints) on the Blocks being built."""

    def lookup_policy(query: str, lang: str = "", limit: int = 5, request: gr.Request = None) -> str:
        """Search Northwind's customer-service policies (orders, shipping, returns, refunds, payment,
        warranty, account, contact) and return the best-matching sections, best first. Quote the section
        text when answering customers; it is the authoritative wording.

        Args:
            query: the customer's question or some keywords, in English or Chinese.
            lang: "en" or "zh"; empty searches in the query's own language.
            limit: how many sections to return, 1 to 20.
        Returns:
            A JSON list of sections, each with id, lang, category, title, text and its BM25 score.
        """
        key = api_key_from_headers(request.headers) if request is not None else None
        if not has_role(service.role_for_key(key), "agent"):
            raise gr.Error("lookup_policy needs an agent key: send 'Authorization: Bearer <key>'.",
                           title="Unauthorized", print_exception=False)
        try:
            hits = service.lookup_policy(query, lang or None, int(limit))
        except ValueError as exc:
            raise gr.Error(str(exc), print_exception=False) from exc
        return json.dumps([hit._asdict() for hit in hits], ensure_ascii=False)

    gr.api(lookup_policy, api_name="lookup_policy", queue=False)
