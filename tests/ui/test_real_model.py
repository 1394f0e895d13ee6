"""The customer chat in a real browser over the real default model (Gemma 3 270M, int8)."""
from __future__ import annotations

import pytest

from tests.ui import harness
from tests.ui.pages import ask_in_chat, open_app


@pytest.fixture(scope="module")
def real_server_url():
    with harness.serve(harness.real_service(), startup_timeout_s=600) as url:
        yield url


@pytest.mark.real_model
def test_real_model_answer_streams_outline_first_then_points_with_sources(page, real_server_url):
    open_app(page, real_server_url)
    answer, frames = ask_in_chat(page, "How do I return an item, and who pays for return shipping?",
                                 timeout_ms=180_000, record=True)
    assert answer.get_attribute("data-mode") == "sot"
    outline_first = next(i for i, f in enumerate(frames) if f["num_titles"] >= 2)
    assert set(frames[outline_first]["point_states"]) == {"pending"}
    assert any(f["point_states"].count("streaming") >= 2 for f in frames[outline_first:])
    text = answer.inner_text()
    assert "$5.99" in text and "returns.shipping-fees" in text
