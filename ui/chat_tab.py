"""Customer chat, open to all: the answer streams in (outline first, then its points fill in together),
with the sources cited under it."""
from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import gradio as gr

from chatbot.chinese_script import is_traditional
from chatbot.guard import InputRejected
from chatbot.service import NotReady, Overloaded
from chatbot.text_terms import detect_lang
from ui.render import ANSWER_CSS, AnswerView, render_answer, render_notice, render_turn

FRAME_INTERVAL_S = 0.1  # more text is redrawn at most this often; structural events and first text at once
MAX_TURNS_SHOWN = 50

EXAMPLES = [
    "How do I return an item, and who pays for return shipping?",
    "How long is the warranty on electronics?",
    "I want to talk to a human agent.",
    "退货运费谁来付？退款多久到账？",
]


class AnswerUnavailable(Exception):
    """The service did not admit the question; `message` is safe to show (it gets escaped)."""


async def stream_view(service, question: str, conversation_id: str | None = None,
                      previous: str | None = None) -> AsyncIterator[AnswerView]:
    """`service.answer` as a stream of redraw-worthy `AnswerView` states (text deltas at most every
    FRAME_INTERVAL_S). Raises AnswerUnavailable when the question is rejected, or the service is busy or
    loading. Closing this stream (the customer left) closes the service's, which aborts its engine requests."""
    try:
        events = service.answer(question, conversation_id, previous)
    except InputRejected as exc:
        raise AnswerUnavailable(str(exc)) from exc
    except Overloaded as exc:
        raise AnswerUnavailable(f"We are busy right now; please try again in {exc.retry_after_s} s.") from exc
    except NotReady as exc:
        raise AnswerUnavailable(f"The assistant is not ready yet ({exc}); please try again shortly.") from exc
    view = AnswerView(question, lang=detect_lang(question), traditional=is_traditional(question))
    last_frame = time.perf_counter()
    async with contextlib.aclosing(events):
        yield view
        async for event in events:
            if view.apply(event) or time.perf_counter() - last_frame >= FRAME_INTERVAL_S:
                last_frame = time.perf_counter()
                yield view


@dataclass
class ChatSession:
    """One browser's conversation: its id and the finished turns, already rendered."""

    conversation_id: str | None = None
    turns: list[str] = field(default_factory=list)
    last_question: str | None = None  # a follow-up is read with it


def build_chat_tab(service) -> dict:
    """Components: transcript, question, ask, new_conversation, session."""
    gr.Markdown("Ask about orders, shipping, returns, refunds, payment, warranty or your account. "
                "English or Chinese (中文) both work.")
    session = gr.State(ChatSession())
    transcript = gr.HTML(render_notice("Ask a question below.", "empty"), elem_id="sd-chat-transcript",
                         css_template=ANSWER_CSS, js_on_load=None, min_height=120)
    with gr.Row():
        question = gr.Textbox(label="Your question", placeholder="e.g. Who pays for return shipping?", lines=2,
                              max_lines=6, scale=5, elem_id="sd-chat-question")
        with gr.Column(scale=1, min_width=120):
            ask = gr.Button("Ask", variant="primary", elem_id="sd-chat-ask")
            new_conversation = gr.Button("New conversation", elem_id="sd-chat-new")
    gr.Examples(EXAMPLES, inputs=question, label="Examples")
    components = {"transcript": transcript, "question": question, "ask": ask,
                  "new_conversation": new_conversation, "session": session}
    _bind(service, components)
    return components


def _bind(service, c: dict) -> None:
    async def ask(question: str, session: ChatSession):
        """Inputs: the question box and the session. Streams outputs: the transcript HTML (past turns plus
        this answer as it fills in), the question box (cleared), the session (this turn appended when done)."""
        if not question.strip():
            yield gr.skip(), gr.skip(), session
            return
        past = "".join(session.turns[-MAX_TURNS_SHOWN:])
        try:
            async for view in stream_view(service, question, session.conversation_id, session.last_question):
                turn = render_turn(question, render_answer(view, service.kb), view.lang)
                if view.state in ("done", "error"):  # the turn is final: keep it in the session
                    conversation_id = view.answer.conversation_id if view.answer else session.conversation_id
                    yield past + turn, "", ChatSession(conversation_id, [*session.turns, turn], question)
                else:
                    yield past + turn, "", session
        except AnswerUnavailable as exc:
            yield past + render_turn(question, render_notice(str(exc)), "en"), question, session

    def new_conversation():
        """Outputs: an empty transcript and a fresh session."""
        return render_notice("Ask a question below.", "empty"), ChatSession()

    gr.on([c["ask"].click, c["question"].submit], ask, inputs=[c["question"], c["session"]],
          outputs=[c["transcript"], c["question"], c["session"]], api_visibility="private",
          concurrency_limit=None)  # the service bounds admission itself (Overloaded)
    c["new_conversation"].click(new_conversation, outputs=[c["transcript"], c["session"]], api_visibility="private")
