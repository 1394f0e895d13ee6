"""OpenAI chat-completion bodies and SSE chunks from ChatService events.

The answer's text goes in `choices[0].delta.content`, in outline order: a point's text is sent once it
and every point before it are final, so the concatenated content always equals the final answer. The
SoT view (outline, every point's live deltas, guard firings, timings) rides in an extra `supportdesk`
field that the official client keeps as an extra attribute.
"""
from __future__ import annotations

import json
import uuid
from typing import AsyncIterator

from chatbot.planner import Answer, AnswerDone, OutlineReady, PointDelta, PointDone, assemble_answer
from chatbot.service import ChatError


def sot_metadata(answer: Answer) -> dict:
    return {"request_id": answer.request_id, "conversation_id": answer.conversation_id, "mode": answer.mode,
            "category": answer.category, "outline": answer.outline, "sources": answer.sources,
            "lang": answer.lang, "timings": answer.timings, "guard_firings": answer.guard_firings}


def _usage(answer: Answer) -> dict:
    usage = answer.usage
    return {"prompt_tokens": usage["prompt_tokens"], "completion_tokens": usage["completion_tokens"],
            "total_tokens": usage["prompt_tokens"] + usage["completion_tokens"],
            "prompt_tokens_details": {"cached_tokens": usage["cached_prompt_tokens"]}}


def completion_body(answer: Answer, model: str, created: int) -> dict:
    """A non-streaming `chat.completion` object."""
    return {"id": f"chatcmpl-{answer.request_id}", "object": "chat.completion", "created": created, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": answer.answer},
                         "finish_reason": "stop", "logprobs": None}],
            "usage": _usage(answer), "supportdesk": sot_metadata(answer)}


def _sse(payload: dict) -> str:
    return f"data: {json.dumps(payload, ensure_ascii=False)}\n\n"


class _InOrderText:
    """Releases the answer text point by point, in outline order, as points become final."""

    def __init__(self) -> None:
        self.mode, self.lang, self.titles = "direct", "en", []
        self.done: dict[int, str] = {}
        self.sent = ""

    def outline(self, event: OutlineReady) -> None:
        self.mode, self.titles, self.lang = event.mode, event.points, event.lang

    def point_done(self, event: PointDone) -> str:
        self.done[event.index] = event.text
        ready = 0
        while ready in self.done:
            ready += 1
        return self._advance(assemble_answer(self.mode, self.lang, self.titles, [self.done[i] for i in range(ready)])
                             if ready else "")

    def final(self, answer: Answer) -> str:
        return self._advance(answer.answer)

    def _advance(self, target: str) -> str:
        if not target.startswith(self.sent):  # the final cap cut inside text already sent: send nothing more
            return ""
        delta, self.sent = target[len(self.sent):], target
        return delta


async def openai_stream(events: AsyncIterator, model: str, created: int) -> AsyncIterator[str]:
    """SSE lines: `chat.completion.chunk`s, then `data: [DONE]`. Closing the stream early (a client that
    disconnects) closes `events`, which cancels the answer's engine requests and frees their KV blocks."""
    chunk_id = f"chatcmpl-{uuid.uuid4().hex}"
    text = _InOrderText()

    def chunk(delta: dict, extra: dict | None = None, finish: str | None = None, usage: dict | None = None) -> str:
        body = {"id": chunk_id, "object": "chat.completion.chunk", "created": created, "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]}
        if extra is not None:
            body["supportdesk"] = extra
        if usage is not None:
            body["usage"] = usage
        return _sse(body)

    try:
        async for event in events:
            if isinstance(event, ChatError):
                yield _sse({"error": {"message": event.message, "type": "server_error", "code": event.code}})
                break
            if isinstance(event, OutlineReady):
                text.outline(event)
                yield chunk({"role": "assistant", "content": ""}, {"event": "outline", **event._asdict()})
            elif isinstance(event, PointDelta):
                yield chunk({}, {"event": "point_delta", "index": event.index, "text": event.text})
            elif isinstance(event, PointDone):
                delta = text.point_done(event)
                yield chunk({"content": delta} if delta else {},
                            {"event": "point_done", "index": event.index, "text": event.text, "guard": event.guard})
            elif isinstance(event, AnswerDone):
                answer = event.answer
                delta = text.final(answer)
                yield chunk({"content": delta} if delta else {}, {"event": "done", **sot_metadata(answer)},
                            finish="stop", usage=_usage(answer))
        yield "data: [DONE]\n\n"
    finally:
        await events.aclose()
