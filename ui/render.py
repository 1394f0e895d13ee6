"""HTML for answers and summaries. Every string from the model, the knowledge base or the user passes
through `html.escape` here; nothing else reaches the page as HTML, so model text can never inject markup."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from html import escape

from chatbot.chinese_script import to_traditional
from chatbot.planner import AnswerDone, OutlineReady, PointDelta, PointDone
from chatbot.service import ChatError

ESCALATION_SECTION = "contact.human-agents"  # the planner's canned escalation reply quotes this section

LABELS = {
    "en": {"outline": "Outline", "sources": "Sources", "thinking": "Thinking…", "writing": "…",
           "escalate": "Talk to a person", "refuse": "Outside what I can help with", "error": "Sorry, something went wrong",
           "you": "You", "assistant": "Northwind assistant"},
    "zh": {"outline": "要点", "sources": "来源", "thinking": "正在思考…", "writing": "…",
           "escalate": "转人工客服", "refuse": "超出服务范围", "error": "抱歉，出错了",
           "you": "您", "assistant": "Northwind 助手"},
}

# Component-scoped CSS for the gr.HTML that shows answers (gr.HTML(css_template=...)).
ANSWER_CSS = """
.sd-turn { margin: 0 0 1rem 0; }
.sd-question { background: var(--background-fill-secondary); border-radius: 8px; padding: .5rem .75rem;
  white-space: pre-wrap; }
.sd-who { font-size: .8rem; opacity: .7; margin-bottom: .15rem; }
.sd-answer { border: 1px solid var(--border-color-primary); border-radius: 8px; padding: .6rem .8rem; margin-top: .5rem; }
.sd-answer[data-state=error] { border-color: #c0392b; }
.sd-heading { font-weight: 600; margin-bottom: .3rem; }
.sd-outline { margin: .2rem 0 .4rem 1.2rem; padding: 0; }
.sd-point { margin: .25rem 0; }
.sd-direct { list-style: none; margin-left: 0; }
.sd-point-title { font-weight: 600; }
.sd-point-text { white-space: pre-wrap; }
.sd-point[data-state=pending] .sd-point-text { opacity: .5; }
.sd-point[data-state=streaming] .sd-point-text { opacity: .8; }
.sd-escalate { background: #fff4e5; color: #222; border-radius: 6px; padding: .5rem .7rem; }
.sd-sources { margin-top: .5rem; font-size: .85rem; }
.sd-sources ol { margin: .1rem 0 0 1.2rem; padding: 0; }
.sd-source-id { opacity: .6; font-family: monospace; }
.sd-status { font-size: .85rem; opacity: .75; }
"""


@lru_cache(maxsize=8)  # rendered on every streamed frame; the traditional labels go through OpenCC once
def _labels(lang: str | None, traditional: bool = False) -> dict[str, str]:
    labels = LABELS.get(lang or "en", LABELS["en"])
    return {key: to_traditional(text) for key, text in labels.items()} if traditional else labels


@dataclass
class AnswerView:
    """One answer as it streams: the outline, each point's text so far, and the final `Answer`."""

    question: str
    lang: str = "en"
    traditional: bool = False  # a question in traditional Chinese: labels and sources in traditional characters
    mode: str | None = None
    category: str | None = None
    titles: list[str] = field(default_factory=list)
    source_ids: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    point_states: list[str] = field(default_factory=list)  # pending | streaming | done
    answer: object | None = None  # chatbot.planner.Answer once done
    error: str | None = None

    def apply(self, event) -> bool:
        """Fold one service event into the view; True when the page should be redrawn now
        (structural events and a point's first text), False for more text that may wait for the next frame."""
        if isinstance(event, OutlineReady):
            self.mode, self.category, self.lang = event.mode, event.category, event.lang
            num_points = max(1, len(event.points))
            self.titles, self.source_ids = list(event.points), list(event.sources)
            self.texts, self.point_states = [""] * num_points, ["pending"] * num_points
            return True
        if isinstance(event, PointDelta):
            started = self.point_states[event.index] == "pending"  # a point's first text is shown at once
            self.texts[event.index] += event.text
            self.point_states[event.index] = "streaming"
            return started
        if isinstance(event, PointDone):
            self.texts[event.index], self.point_states[event.index] = event.text, "done"
            return True
        if isinstance(event, AnswerDone):
            self.answer = event.answer
            self.lang = event.answer.lang
            return True
        if isinstance(event, ChatError):
            self.error = event.message
            return True
        raise TypeError(f"unexpected event {type(event).__name__}")

    @property
    def state(self) -> str:
        if self.error is not None:
            return "error"
        if self.answer is not None:
            return "done"
        return "streaming" if self.mode is not None else "waiting"

    @property
    def text(self) -> str:
        """The plain answer text (for copying), empty until the answer is done."""
        return self.answer.answer if self.answer is not None else ""


def render_sources(kb, source_ids: list[str], lang: str, traditional: bool = False) -> str:
    """An ordered list citing each KB section as "Category › Title (id)"."""
    items = []
    for source_id in source_ids:
        try:
            section = kb.get(source_id, lang)
            label = f"{kb.category_label(section.category, lang)} › {section.title}"
            label = to_traditional(label) if traditional else label
        except KeyError:
            label = source_id
        items.append(f'<li class="sd-source">{escape(label)} <span class="sd-source-id">{escape(source_id)}</span></li>')
    if not items:
        return ""
    heading = _labels(lang, traditional)["sources"]
    return f'<div class="sd-sources"><div class="sd-heading">{escape(heading)}</div><ol>{"".join(items)}</ol></div>'


def render_answer(view: AnswerView, kb) -> str:
    """The answer card: outline first (titles, points pending), then each point's text as it streams,
    then the cited sources. Escalations are highlighted and cite the contact section."""
    labels = _labels(view.lang, view.traditional)
    attrs = f'class="sd-answer" data-state="{view.state}" data-mode="{escape(view.mode or "")}"'
    if view.error is not None:
        return f'<div {attrs}><div class="sd-heading">{escape(labels["error"])}</div><div>{escape(view.error)}</div></div>'
    if view.mode is None:
        return f'<div {attrs}><div class="sd-status">{escape(labels["thinking"])}</div></div>'
    if view.mode in ("escalate", "refuse"):
        body = escape("".join(view.texts))
        css = "sd-escalate" if view.mode == "escalate" else "sd-refuse"
        sources = render_sources(kb, [ESCALATION_SECTION], view.lang, view.traditional) if view.mode == "escalate" else ""
        return (f'<div {attrs}><div class="{css}"><div class="sd-heading">{escape(labels[view.mode])}</div>'
                f'<div class="sd-point-text">{body}</div></div>{sources}</div>')
    points = []
    for index, (text, state) in enumerate(zip(view.texts, view.point_states)):
        title = view.titles[index] if view.mode == "sot" and index < len(view.titles) else ""
        title_html = f'<div class="sd-point-title">{escape(title)}</div>' if title else ""
        shown = escape(text) if text else escape(labels["writing"])
        points.append(f'<li class="sd-point" data-state="{state}">{title_html}<div class="sd-point-text">{shown}</div></li>')
    if view.mode == "sot":
        body = (f'<div class="sd-heading">{escape(labels["outline"])}</div>'
                f'<ol class="sd-outline">{"".join(points)}</ol>')
    else:
        body = f'<ul class="sd-outline sd-direct">{"".join(points)}</ul>'
    return f'<div {attrs}>{body}{render_sources(kb, view.source_ids, view.lang, view.traditional)}</div>'


def render_turn(question: str, answer_html: str, lang: str) -> str:
    """One question and its answer card."""
    labels = _labels(lang)
    return (f'<div class="sd-turn"><div class="sd-who">{escape(labels["you"])}</div>'
            f'<div class="sd-question">{escape(question)}</div>{answer_html}</div>')


def render_notice(message: str, state: str = "error") -> str:
    """A message that is not an answer (input rejected, busy, still loading)."""
    return f'<div class="sd-answer" data-state="{escape(state)}"><div>{escape(message)}</div></div>'


def render_metrics(answer) -> dict:
    """The agent desk's view of an answer: routing, outline, sources, timings and tokens."""
    timings = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in answer.timings.items()}
    return {"request_id": answer.request_id, "mode": answer.mode, "category": answer.category, "lang": answer.lang,
            "outline": answer.outline, "sources": answer.sources, "timings_s": timings, "usage": answer.usage,
            "guard_firings": answer.guard_firings}
