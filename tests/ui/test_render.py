"""The answer rendering without a browser: events fold into the view; every string is escaped."""
from __future__ import annotations

import pytest

from chatbot.knowledge import KnowledgeBase
from chatbot.planner import Answer, AnswerDone, OutlineReady, PointDelta, PointDone
from chatbot.service import ChatError
from ui.render import AnswerView, render_answer, render_notice, render_turn

EVIL = '<script>alert(1)</script><img src=x onerror=alert(2)>"\''


@pytest.fixture(scope="module")
def kb():
    return KnowledgeBase.load()


def _answer(text: str, mode: str = "sot", lang: str = "en") -> Answer:
    return Answer(text, mode, "returns", ["A", "B"], ["returns.shipping-fees", "returns.process"], lang,
                  {"total_s": 1.0}, {"prompt_tokens": 1, "completion_tokens": 2, "cached_prompt_tokens": 0})


def test_outline_then_points_then_done(kb):
    view = AnswerView("q")
    assert view.state == "waiting"
    assert view.apply(OutlineReady("sot", "returns", [EVIL, "B"], ["returns.shipping-fees", "returns.process"], "en"))
    html = render_answer(view, kb)
    assert html.count('class="sd-point" data-state="pending"') == 2 and "Return shipping fees" in html and "<script>" not in html
    assert view.apply(PointDelta(0, "Hel"))  # a point's first text is drawn at once
    assert not view.apply(PointDelta(0, "lo"))  # more text waits for the next frame
    assert view.apply(PointDelta(1, EVIL))
    html = render_answer(view, kb)
    assert html.count('class="sd-point" data-state="streaming"') == 2 and "Hello" in html
    assert view.apply(PointDone(0, "Final", None))
    view.apply(PointDone(1, "Other", "grounding"))
    assert view.apply(AnswerDone(_answer("- A: Final\n- B: Other")))
    html = render_answer(view, kb)
    assert 'data-state="done"' in html and view.text.startswith("- A")
    assert "<script" not in html and "<img" not in html and "&lt;script&gt;" in html


def test_every_string_is_escaped(kb):
    view = AnswerView(EVIL)
    view.apply(OutlineReady("direct", "returns", [EVIL], [EVIL], "en"))
    view.apply(PointDone(0, EVIL, None))
    html = render_turn(EVIL, render_answer(view, kb), "en") + render_notice(EVIL)
    assert "<script" not in html and "<img" not in html and "onerror=alert" in html
    view.apply(ChatError("internal", EVIL))
    assert "<script" not in render_answer(view, kb)


def test_escalation_cites_the_contact_section_in_the_question_language(kb):
    view = AnswerView("转人工")
    view.apply(OutlineReady("escalate", None, [], [], "zh"))
    view.apply(PointDone(0, kb.get("contact.human-agents", "zh").text, None))
    html = render_answer(view, kb)
    assert "sd-escalate" in html and "转人工客服" in html and "来源" in html and "contact.human-agents" in html


def test_a_question_in_traditional_characters_gets_labels_and_sources_in_them(kb):
    view = AnswerView("退貨運費誰付？流程是什麼？", lang="zh", traditional=True)
    view.apply(OutlineReady("sot", "returns", ["退貨運費", "退貨流程"], ["returns.shipping-fees", "returns.process"], "zh"))
    html = render_answer(view, kb)
    assert "要點" in html and "來源" in html and "退貨政策" in html
    assert "要点" not in html and "来源" not in html
    failed = AnswerView("退貨運費誰付？", lang="zh", traditional=True)
    failed.apply(ChatError("internal", "engine error"))
    assert "出錯了" in render_answer(failed, kb)
