"""FastAPI routes over `ChatService`: OpenAI-compatible chat completions (with SSE), policy lookup,
latency, health, readiness and Prometheus metrics. Every route's role is declared in `ROUTE_ROLES`."""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from chatbot.api_openai import completion_body, openai_stream
from chatbot.auth import api_key_from_headers, has_role
from chatbot.guard import InputRejected
from chatbot.service import ChatError, ChatService, NotReady, Overloaded
from chatbot.store import StoreUnavailable

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 1 << 20

# Who may call each route: None is anyone. A test checks that every route of the app is listed here.
ROUTE_ROLES: dict[str, str | None] = {
    "/healthz": None,
    "/readyz": None,
    "/v1/models": None,
    "/v1/chat/completions": None,
    "/api/policies": "agent",
    "/api/conversations/{conversation_id}": "agent",
    "/api/latency": "admin",
    "/metrics": "admin",
}


class ChatMessage(BaseModel):
    role: Literal["system", "user", "assistant", "tool", "developer"]
    content: str | list[dict[str, Any]] | None = None

    def text(self) -> str:
        if isinstance(self.content, list):
            return "".join(part.get("text", "") for part in self.content if part.get("type") == "text")
        return self.content or ""


class ChatCompletionRequest(BaseModel):
    """The OpenAI request body; sampling fields are accepted and checked, the planner decodes greedily."""

    model_config = ConfigDict(extra="allow")
    model: str | None = None
    messages: list[ChatMessage] = Field(min_length=1)
    stream: bool = False
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, gt=0, le=1)
    n: int = Field(default=1, ge=1, le=1)
    user: str | None = Field(default=None, max_length=256)
    conversation_id: str | None = Field(default=None, min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")


def _error(status: int, message: str, kind: str, headers: dict | None = None, param: str | None = None) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": kind, "param": param, "code": status}},
                        status_code=status, headers=headers)


def require(role: str):
    """A dependency that admits callers whose API key has `role` (401 without a key, 403 with a weaker one)."""

    def check(request: Request) -> str:
        service: ChatService = request.app.state.service
        key = api_key_from_headers(request.headers)
        found = service.role_for_key(key)
        if not has_role(found, role):
            status = 401 if found is None else 403
            raise HTTPException(status, f"this route needs an {role} API key" if status == 401
                                else f"this route needs the {role} role")
        return found

    return Depends(check)


def _validate_tokens(body: ChatCompletionRequest, service: ChatService) -> None:
    limit = body.max_completion_tokens or body.max_tokens
    if limit is not None and limit > service.max_model_len:
        raise InputRejected("max_tokens", f"max_tokens={limit} is beyond the model's context of "
                                          f"{service.max_model_len} tokens")
    if body.model not in (None, "", service.model_name):
        raise InputRejected("model", f"unknown model {body.model!r}; this server serves {service.model_name!r}")
    if body.messages[-1].role != "user":
        raise InputRejected("messages", "the last message must come from the user")


def create_app(service: ChatService, *, manage_service: bool = True) -> FastAPI:
    """The API app. With `manage_service`, startup warms the service up in the background (so /healthz
    answers at once and /readyz turns 200 when ready) and shutdown drains and closes it."""

    async def lifespan(app: FastAPI):
        warmup = asyncio.create_task(service.start()) if manage_service else None
        yield
        if manage_service:
            await service.drain(timeout_s=10.0)
            warmup.cancel()
            service.close()

    app = FastAPI(title="supportdesk", version="0.1.0", lifespan=lifespan)
    app.state.service = service

    @app.middleware("http")
    async def limit_body(request: Request, call_next):
        length = request.headers.get("content-length")
        if length and length.isdigit() and int(length) > MAX_BODY_BYTES:
            return _error(413, f"request body over {MAX_BODY_BYTES} bytes", "invalid_request_error")
        return await call_next(request)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return _error(422, f"{where}: {first.get('msg', 'invalid request')}", "invalid_request_error", param=where)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException):
        return _error(exc.status_code, str(exc.detail), "authentication_error" if exc.status_code in (401, 403)
                      else "invalid_request_error", headers=exc.headers)

    @app.exception_handler(InputRejected)
    async def rejected(_: Request, exc: InputRejected):
        return _error(400, str(exc), "invalid_request_error", param=exc.reason)

    @app.exception_handler(Overloaded)
    async def overloaded(_: Request, exc: Overloaded):
        return _error(429, str(exc), "rate_limit_error", headers={"Retry-After": str(exc.retry_after_s)})

    async def unavailable(_: Request, exc: StoreUnavailable | NotReady):
        return _error(503, str(exc), "service_unavailable", headers={"Retry-After": "5"})

    for unavailable_error in (StoreUnavailable, NotReady):
        app.add_exception_handler(unavailable_error, unavailable)

    @app.get("/healthz")
    async def healthz() -> dict:
        return {"status": "alive"}

    @app.get("/readyz")
    async def readyz() -> JSONResponse:
        if service.is_ready:
            return JSONResponse({"status": "ready"})
        state = "draining" if service.is_draining else "loading"
        return JSONResponse({"status": state}, status_code=503, headers={"Retry-After": "5"})

    @app.get("/v1/models")
    async def models() -> dict:
        return {"object": "list", "data": [{"id": service.model_name, "object": "model", "created": 0,
                                            "owned_by": "supportdesk", "max_model_len": service.max_model_len}]}

    @app.post("/v1/chat/completions")
    async def chat_completions(body: ChatCompletionRequest):
        _validate_tokens(body, service)
        conversation_id = body.conversation_id or body.user
        earlier = [m.text() for m in body.messages[:-1] if m.role == "user"]
        # raises 400/429/503 before streaming; a follow-up is read with the customer's previous message
        events = service.answer(body.messages[-1].text(), conversation_id, earlier[-1] if earlier else None)
        created = int(time.time())
        if body.stream:
            return StreamingResponse(openai_stream(events, service.model_name, created),
                                     media_type="text/event-stream",
                                     headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        final = None
        async for event in events:
            if isinstance(event, ChatError):
                status = 503 if event.code in ("overloaded", "engine") else 500
                return _error(status, event.message, "server_error", headers={"Retry-After": "2"})
            final = event
        if final is None:
            return _error(500, "the answer ended without a result", "server_error")
        return completion_body(final.answer, service.model_name, created)

    @app.get("/api/policies")
    async def policies(q: str = Query(..., min_length=1, max_length=4000),
                       lang: Literal["en", "zh"] | None = None, limit: int = Query(5, ge=1, le=20),
                       _role: str = require("agent")) -> dict:
        hits = service.lookup_policy(q, lang, limit)
        return {"query": q, "results": [hit._asdict() for hit in hits]}

    @app.get("/api/conversations/{conversation_id}")
    async def conversation(conversation_id: str, _role: str = require("agent")) -> dict:
        messages = await asyncio.to_thread(service.conversation, conversation_id)
        if messages is None:
            raise HTTPException(404, f"no conversation {conversation_id!r}")
        return {"id": conversation_id, "messages": messages}

    @app.get("/api/latency")
    async def latency(window_s: float = Query(900.0, gt=0, le=7 * 86400), _role: str = require("admin")) -> dict:
        report = await asyncio.to_thread(service.latency_report, window_s)
        return report.as_dict()

    @app.get("/metrics")
    async def metrics(_role: str = require("admin")) -> Response:
        return Response(service.metrics.render(), media_type="text/plain; version=0.0.4; charset=utf-8")

    return app
