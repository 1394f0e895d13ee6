"""Skeleton-of-thought planner: route, outline under a JSON schema, expand the points in parallel.

The outline request and every expansion share one token prefix (instructions, examples, the
question, the outline exactly as generated), so the engine's prefix cache prefills it once and
each point only adds its KB section. Points stream concurrently and are assembled in outline order;
each finished point passes the grounding guard before it is shown as final.
"""
from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import AsyncIterator, NamedTuple

from chatbot import prompts
from chatbot.chinese_script import is_traditional, to_simplified, to_traditional
from chatbot.guard import cap_length, escalation_reason, ground_numbers, misattributed_numbers
from chatbot.knowledge import KnowledgeBase, Section
from chatbot.other_languages import OTHER_LANGUAGE_REPLY
from chatbot.outline_points import points_phrased, select_points
from chatbot.pruning import PRUNE_OVER_CHARS, PrunedMessage, prune_message
from chatbot.router import OUT_OF_SCOPE_SECTION, SMALL_TALK, Route, RuleRouter
from chatbot.separate_requests import points_asked
from chatbot.text_terms import detect_lang, split_sentences, tokenize
from engine.sampling import SamplingParams

MAX_ANSWER_CHARS = 1500
POINT_MAX_TOKENS = 64
# A point must keep this share of the terms of each sentence of its section, or the section is shown: a point
# that drops a sentence drops a fact ("换货仅限同一商品的其他尺码或颜色。", exchanges only for another size or color).
MIN_COVERAGE = 0.6


class OutlineReady(NamedTuple):
    mode: str
    category: str | None
    points: list[str]
    sources: list[str]
    lang: str = "en"


class PointDelta(NamedTuple):
    index: int
    text: str


class PointDone(NamedTuple):
    index: int
    text: str
    guard: str | None  # why the guard replaced the model's text, or None


@dataclass
class Answer:
    """The assembled answer with everything `supportdesk ask --json` prints."""

    answer: str
    mode: str
    category: str | None
    outline: list[str]
    sources: list[str]
    lang: str
    timings: dict[str, float | None]
    usage: dict[str, int]
    route_reason: str = ""
    guard_firings: list[str] = field(default_factory=list)
    pruned_chars: int = 0
    expansion_prompt_tokens: int = 0
    expansion_cached_tokens: int = 0
    expansion_completion_tokens: int = 0  # the answer's own tokens (the outline's JSON excluded)
    request_id: str = ""  # set by ChatService
    conversation_id: str = ""

    def as_json(self) -> dict:
        return {"answer": self.answer, "mode": self.mode, "category": self.category, "outline": self.outline,
                "sources": self.sources, "timings": self.timings, "usage": self.usage}


class AnswerDone(NamedTuple):
    answer: Answer


class _Usage:
    """Token counts and engine timings summed over one answer's engine requests."""

    def __init__(self) -> None:
        self.prompt = self.completion = self.cached = 0
        self.queue_s: list[float] = []
        self.inter_token_s: list[float] = []

    def add(self, out) -> None:
        self.prompt += out.num_prompt_tokens
        self.completion += len(out.token_ids)
        self.cached += out.num_cached_tokens
        if out.metrics is not None:
            if out.metrics.queue_s is not None:
                self.queue_s.append(out.metrics.queue_s)
            self.inter_token_s.extend(out.metrics.inter_token_s)

    def merge(self, other: "_Usage") -> None:
        self.prompt += other.prompt
        self.completion += other.completion
        self.cached += other.cached
        self.queue_s += other.queue_s
        self.inter_token_s += other.inter_token_s

    def engine_timings(self) -> dict[str, float | None]:
        """queue_s: the first engine request's wait; tpot_s: mean gap between tokens across requests."""
        return {"queue_s": self.queue_s[0] if self.queue_s else None,
                "tpot_s": sum(self.inter_token_s) / len(self.inter_token_s) if self.inter_token_s else None}

    def as_dict(self) -> dict[str, int]:
        return {"prompt_tokens": self.prompt, "completion_tokens": self.completion, "cached_prompt_tokens": self.cached}


def _coverage(kept: set[str], reference: str) -> float:
    """The smallest share of a reference sentence's terms among the ``kept`` terms."""
    shares = [len(terms & kept) / len(terms) for sentence in split_sentences(reference)
              if (terms := set(tokenize(sentence)))]
    return min(shares, default=1.0)


def guard_point(text: str, section: Section, question: str, lang: str) -> tuple[str, str | None]:
    """Keep the model's point only if it is grounded, complete and in the question's language;
    otherwise fall back to the section's own wording. Returns (text, reason it fired or None)."""
    text = text.strip()
    if not text:
        return section.text, "empty"
    if not ground_numbers(text, [section.text, question]).ok:
        return section.text, "grounding"
    if misattributed_numbers(text, [section.text, question]):
        return section.text, "attribution"
    kept, policy, asked = (set(tokenize(t)) for t in (text, section.text, question))
    # A term of the question that the policy lacks: "Can I get a refund in cash?" got "Cash refunds go back to the
    # original payment method", which the policy does not say.
    if kept & asked - policy:
        return section.text, "unsupported"
    # A number or a sentence of the policy left out, or a term it shares with the question (the words of what was
    # asked: "Is a final sale item returnable?" got the non-returnable items without "final-sale items").
    if (not ground_numbers(section.text, [text]).ok or _coverage(kept, section.text) < MIN_COVERAGE
            or asked & policy - kept):
        return section.text, "incomplete"
    if detect_lang(text) != lang:
        return section.text, "language"
    return text, None


def assemble_answer(mode: str, lang: str, titles: list[str], texts: list[str]) -> str:
    """The answer text from the outline's ``titles`` and the first ``len(texts)`` points' texts (a stream passes
    those done so far): a direct answer, or an outline of one point, is that point's text; SoT answers of
    several points list them."""
    if mode != "sot" or len(titles) == 1:
        return cap_length(texts[0] if texts else "", MAX_ANSWER_CHARS)
    sep = "：" if lang == "zh" else ": "
    return cap_length("\n".join(f"- {title}{sep}{text}" for title, text in zip(titles, texts)), MAX_ANSWER_CHARS)


def in_traditional(event):
    """A planner event with its shown texts (points, answer, outline titles) in traditional characters."""
    if isinstance(event, OutlineReady):
        return event._replace(points=[to_traditional(p) for p in event.points])
    if isinstance(event, (PointDelta, PointDone)):
        return event._replace(text=to_traditional(event.text))
    if isinstance(event, AnswerDone):
        answer = event.answer
        answer.answer, answer.outline = to_traditional(answer.answer), [to_traditional(t) for t in answer.outline]
    return event


class Planner:
    """Answers one question at a time over a shared `AsyncLLM`; many answers may run concurrently."""

    def __init__(self, llm, kb: KnowledgeBase, router=None, prune_over_chars: int = PRUNE_OVER_CHARS) -> None:
        self.llm, self.kb = llm, kb
        self.router = router or RuleRouter(kb)
        self.prune_over_chars = prune_over_chars
        self.tokenizer = llm.tokenizer
        llm.prepare_grammars()

    async def answer(self, question: str, previous: str | None = None) -> Answer:
        """Run the whole pipeline and return the final answer."""
        async for event in self.stream(question, previous):
            if isinstance(event, AnswerDone):
                return event.answer
        raise RuntimeError("planner ended without an answer")

    async def stream(self, question: str, previous: str | None = None) -> AsyncIterator:
        """Events: `OutlineReady`, then `PointDelta`/`PointDone` per point (interleaved), then `AnswerDone`.
        ``previous``, the customer's previous message in the conversation, is read with a short follow-up
        (`follow_ups.follow_up_hits`). A message in traditional Chinese is planned in simplified characters and
        answered in traditional ones."""
        if not is_traditional(question):
            async for event in self._stream(question, previous):
                yield event
            return
        async for event in self._stream(to_simplified(question), previous and to_simplified(previous)):
            yield in_traditional(event)

    async def _stream(self, question: str, previous: str | None) -> AsyncIterator:
        start = time.perf_counter()
        pruned = prune_message(question, self.prune_over_chars)
        previous = prune_message(previous, self.prune_over_chars).query if previous else None
        route = await self._route(question, pruned, previous)
        route_s = time.perf_counter() - start
        usage = _Usage()
        if route.mode in ("escalate", "refuse") or route.reason in SMALL_TALK:
            text = self._canned_reply(route)
            yield OutlineReady(route.mode, None, [], [], route.lang)
            yield PointDone(0, text, None)
            timings = {"route_s": route_s, "outline_s": None, "expand_s": None, "queue_s": None, "tpot_s": None,
                       "ttft_s": time.perf_counter() - start, "total_s": time.perf_counter() - start}
            category = None
            yield AnswerDone(Answer(text, route.mode, category, [], [], route.lang, timings, usage.as_dict(),
                                    route.reason, [], len(question) - len(pruned.text)))
            return
        if route.mode == "sot":
            outline_start = time.perf_counter()
            asked, only_asked = points_asked(self.kb, route.requests, pruned, route.lang)
            category, sections, prefix_ids = await self._outline(pruned.text, route, asked, only_asked, usage)
            outline_s = time.perf_counter() - outline_start
        else:
            section = route.hits[0].section
            category, sections, prefix_ids, outline_s = section.category, [section], None, None
        yield OutlineReady(route.mode, category, [s.title for s in sections], [s.id for s in sections], route.lang)
        expand_start = time.perf_counter()
        first_text: list[float] = []
        texts: list[str] = [""] * len(sections)
        firings: list[str] = []
        exp_usage = _Usage()
        async for event in self._expand(pruned.text, route, sections, prefix_ids, exp_usage):
            if isinstance(event, PointDelta) and event.text and not first_text:
                first_text.append(time.perf_counter())
            if isinstance(event, PointDone):
                texts[event.index] = event.text
                if event.guard:
                    firings.append(event.guard)
            yield event
        usage.merge(exp_usage)
        end = time.perf_counter()
        body = assemble_answer(route.mode, route.lang, [s.title for s in sections], texts)
        timings = {"route_s": route_s, "outline_s": outline_s, "expand_s": end - expand_start,
                   "ttft_s": (first_text[0] if first_text else end) - start, "total_s": end - start,
                   **usage.engine_timings()}
        yield AnswerDone(Answer(body, route.mode, category, [s.title for s in sections] if route.mode == "sot" else [],
                                [s.id for s in sections], route.lang, timings, usage.as_dict(), route.reason, firings,
                                len(question) - len(pruned.text), exp_usage.prompt, exp_usage.cached,
                                exp_usage.completion))

    async def _route(self, question: str, pruned: PrunedMessage, previous: str | None) -> Route:
        """The router's route for the ``pruned`` message; escalated where the whole ``question`` has a hazard, a
        threat or fraud that pruning left out (a lawyer named in the middle of a long complaint was refused)."""
        route = self.router.route(pruned.text, pruned.query, previous)
        route = await route if asyncio.iscoroutine(route) else route
        if route.mode != "escalate" and pruned.was_pruned and (reason := escalation_reason(question)):
            return Route("escalate", reason, route.lang, route.hits)
        return route

    def _canned_reply(self, route: Route) -> str:
        """Escalations give the phone number and chat hours; refusals say what we can help with and how to reach
        a human agent for anything else (a question about the catalogue says it cannot look up products); small
        talk (`router.SMALL_TALK`: a greeting, thanks, goodbye, a question about the assistant) its short reply."""
        lang = route.lang
        agents = self.kb.get("contact.human-agents", lang).text
        if route.mode == "escalate":
            return ("这个问题需要人工客服处理。" if lang == "zh" else "This needs a human agent. ") + agents
        topics = ("、" if lang == "zh" else ", ").join(
            self.kb.category_label(c, lang) for c in self.kb.categories if c != "contact")
        if route.reason == "greeting":
            return (f"您好！我可以解答关于{topics}的问题。" if lang == "zh"
                    else f"Hello! I can help with Northwind's policies: {topics}.")
        if route.reason == "thanks":
            return (f"不客气！如果还有关于{topics}的问题，欢迎随时问我。" if lang == "zh"
                    else f"Glad to help! If you have another question about Northwind's policies ({topics}), just ask.")
        if route.reason == "language":  # neither English nor Chinese (`other_languages`)
            return f"{OTHER_LANGUAGE_REPLY} {agents}"
        if route.reason == "goodbye":
            return "再见，感谢您选择 Northwind！" if lang == "zh" else "Goodbye, and thank you for shopping with Northwind!"
        if route.reason == "about":
            return (f"我是 Northwind 的自动客服助手，可以解答关于{topics}的问题；其他问题请咨询人工客服。{agents}" if lang == "zh"
                    else f"I'm Northwind's automated support assistant. I can answer questions about Northwind's "
                         f"policies: {topics}. For anything else, please ask a human agent. {agents}")
        if lang == "zh":
            lead = "抱歉，我查不到商品、价格或库存。" if route.reason == "catalog" else "抱歉，这个问题我无法回答。"
            return f"{lead}我可以帮您解答关于{topics}的问题；其他问题请咨询人工客服。{agents}"
        lead = "Sorry, I can't look up products, prices or stock." if route.reason == "catalog" else \
            "Sorry, I can't help with that."
        return (f"{lead} I can answer questions about Northwind's policies: {topics}. For anything else, please ask "
                f"a human agent. {agents}")

    async def _outline(self, question: str, route: Route, asked: dict[str, int], only_asked: bool,
                       usage: _Usage) -> tuple[str, list[Section], list[int]]:
        """Generate the outline JSON under the schema (the points: `select_points` with ``asked``), or write it
        where the schema admits only one; returns the category, the point sections and the shared prefix ids."""
        lang = route.lang
        hits = [h for h in route.hits if h.section.id != OUT_OF_SCOPE_SECTION]  # describes the assistant, not a policy
        # The key points are fixed by retrieval (`select_points`); the model picks the category, among those
        # of the points (offering the top hits' too let it name one no point is in: "shipping" for an email
        # change). Letting it choose the points, or how many, was measured worse: it always took the shortest
        # list (see README). The prompt offers the hits down to the last point as candidates.
        points = select_points(hits, asked, points_phrased(self.kb, question, lang), only_asked)
        candidates = [h.section for h in hits[:max(hits.index(p) for p in points) + 1]]
        titles = [s.title for s in candidates]
        labels = list(dict.fromkeys(self.kb.category_label(h.section.category, lang) for h in points))
        point_lists = [[h.section.title for h in points]]
        schema = {
            "type": "object",
            "properties": {"category": {"type": "string", "enum": labels}, "key_points": {"enum": point_lists}},
            "required": ["category", "key_points"],
            "additionalProperties": False,
        }
        prompt_ids = self.tokenizer.encode(prompts.outline_prompt(lang, question, titles)).ids
        if len(labels) == 1:
            # The schema admits one outline: it is written without a model step, as jump-forward decoding writes
            # forced text (the engine does so for every outline token after the first), and the expansions
            # prefill its prompt with their own, in one step.
            text = prompts.outline_json(labels[0], point_lists[0])
            output_ids = self.tokenizer.encode(text, add_special_tokens=False).ids
        else:
            final = None
            async for out in self.llm.generate(prompt_ids, SamplingParams(max_tokens=96, json_schema=schema)):
                final = out
            usage.add(final)
            text = final.text
            output_ids = [t for t in final.token_ids if t not in self.llm.eos_token_ids]
        outline = json.loads(text)
        by_title = {s.title: s for s in candidates}
        sections = [by_title[t] for t in dict.fromkeys(outline["key_points"])]
        return self.kb.category_key(outline["category"]), sections, prompt_ids + output_ids

    async def _expand(self, question: str, route: Route, sections: list[Section], prefix_ids: list[int] | None,
                      usage: _Usage) -> AsyncIterator:
        """All points at once as concurrent engine requests; events are yielded as they stream."""
        lang = route.lang
        events: asyncio.Queue = asyncio.Queue()
        params = SamplingParams(max_tokens=POINT_MAX_TOKENS, stop=["\n"], repetition_penalty=1.05)

        async def run_point(index: int, section: Section) -> None:
            try:
                if prefix_ids is None:
                    ids = self.tokenizer.encode(prompts.direct_prompt(lang, question, section.title, section.text)).ids
                else:
                    suffix = self.tokenizer.encode(prompts.point_suffix(lang, section.title, section.text),
                                                   add_special_tokens=False).ids
                    ids = prefix_ids + suffix
                final = None
                async for out in self.llm.generate(ids, params):
                    final = out
                    if out.delta_text:
                        await events.put(PointDelta(index, out.delta_text))
                usage.add(final)
                text, reason = guard_point(final.text, section, question, lang)
                await events.put(PointDone(index, text, reason))
            except Exception as exc:  # a failed point falls back to its section; the answer still completes
                await events.put(PointDone(index, section.text, f"error: {exc}"))

        tasks = [asyncio.create_task(run_point(i, s)) for i, s in enumerate(sections)]
        try:
            for _ in range(len(sections)):
                while True:
                    event = await events.get()
                    yield event
                    if isinstance(event, PointDone):
                        break
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

