"""Agent desk, behind an agent login: search the policies; ask as a customer would and see the outline,
sources, timings and tokens; copy the answer."""
from __future__ import annotations

import gradio as gr
import pandas as pd

from ui.chat_tab import AnswerUnavailable, stream_view
from ui.login import bind_login, build_login, require_role
from ui.render import ANSWER_CSS, render_answer, render_metrics, render_notice

HIT_COLUMNS = ["score", "id", "lang", "category", "title", "text"]
LANG_CHOICES = [("Question's language", "auto"), ("English", "en"), ("中文", "zh")]


def build_agent_tab(service) -> dict:
    """Components: the login's, plus content, logout, query, lang, limit, search, hits, question, ask,
    answer, details, answer_text."""
    c = build_login("agent")
    with gr.Column(visible=False, elem_id="sd-agent-content") as c["content"]:
        with gr.Row():
            gr.Markdown("### Policy search")
            c["logout"] = gr.Button("Log out", size="sm", scale=0, min_width=90)
        with gr.Row():
            c["query"] = gr.Textbox(label="Search the policies", placeholder="e.g. return shipping fee", scale=4,
                                    elem_id="sd-agent-query")
            c["lang"] = gr.Dropdown(LANG_CHOICES, value="auto", label="Language", scale=1)
            c["limit"] = gr.Slider(1, service.config.max_policy_results, value=5, step=1, label="Results", scale=1)
        c["search"] = gr.Button("Search", elem_id="sd-agent-search")
        c["hits"] = gr.Dataframe(pd.DataFrame(columns=HIT_COLUMNS), label="Matching sections", interactive=False,
                                 wrap=True, column_widths=["7%", "18%", "6%", "10%", "19%", "40%"],
                                 elem_id="sd-agent-hits")
        gr.Markdown("### Ask as a customer would")
        with gr.Row():
            c["question"] = gr.Textbox(label="Customer question", lines=2, scale=5, elem_id="sd-agent-question")
            c["ask"] = gr.Button("Ask", variant="primary", scale=1, elem_id="sd-agent-ask")
        with gr.Row():
            with gr.Column(scale=3):
                c["answer"] = gr.HTML("", elem_id="sd-agent-answer", css_template=ANSWER_CSS, js_on_load=None)
                c["answer_text"] = gr.Textbox(label="Answer text (copy and paste)", lines=5, interactive=False,
                                              buttons=["copy"], elem_id="sd-agent-answer-text")
            with gr.Column(scale=2):
                c["details"] = gr.JSON(label="Outline, sources, timings (s) and tokens", open=True,
                                       elem_id="sd-agent-details")
    bind_login(service, c, "agent")
    _bind(service, c)
    return c


def _bind(service, c: dict) -> None:
    def search(key: str | None, query: str, lang: str, limit: float) -> pd.DataFrame:
        """Inputs: the session key, the query, "auto"/"en"/"zh", the number of results.
        Output: one row per matching KB section (shown as plain text)."""
        require_role(service, key, "agent")
        try:
            hits = service.lookup_policy(query, None if lang == "auto" else lang, int(limit))
        except ValueError as exc:
            raise gr.Error(str(exc), print_exception=False) from exc
        return pd.DataFrame([h._asdict() for h in hits], columns=HIT_COLUMNS)

    async def ask(key: str | None, question: str):
        """Inputs: the session key and a customer question. Streams outputs: the answer card, the details
        (outline, sources, timings, tokens, guard firings) once done, and the plain answer text to copy."""
        require_role(service, key, "agent")
        try:
            async for view in stream_view(service, question):
                details = render_metrics(view.answer) if view.answer is not None else {"state": view.state}
                yield render_answer(view, service.kb), details, view.text
        except AnswerUnavailable as exc:
            yield render_notice(str(exc)), {"error": str(exc)}, ""

    gr.on([c["search"].click, c["query"].submit], search, inputs=[c["key_state"], c["query"], c["lang"], c["limit"]],
          outputs=c["hits"], api_visibility="private")
    gr.on([c["ask"].click, c["question"].submit], ask, inputs=[c["key_state"], c["question"]],
          outputs=[c["answer"], c["details"], c["answer_text"]], api_visibility="private", concurrency_limit=None)
