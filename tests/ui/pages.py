"""Page actions shared by the UI tests and the screenshot script (Playwright, sync API)."""
from __future__ import annotations

# Records every state the last answer card goes through, from DOM mutations, into window.__frames.
RECORD_FRAMES_JS = """(selector) => {
  window.__frames = [];
  const root = document.querySelector(selector);
  const snap = () => {
    const answers = root.querySelectorAll('.sd-answer');
    const answer = answers[answers.length - 1];
    if (!answer) return;
    const points = [...answer.querySelectorAll('.sd-point')];
    window.__frames.push({
      time_ms: performance.now(), state: answer.dataset.state, mode: answer.dataset.mode,
      num_titles: answer.querySelectorAll('.sd-point-title').length,
      point_states: points.map(p => p.dataset.state),
      num_sources: answer.querySelectorAll('.sd-source').length,
    });
  };
  new MutationObserver(snap).observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
}"""


def open_app(page, url: str) -> None:
    """Load the app and wait until Gradio has rendered the customer chat."""
    page.goto(url)
    page.locator("#sd-chat-question textarea").wait_for()  # the chat's question box has two lines


def open_tab(page, name: str) -> None:
    """Select a top-level tab by its label."""
    page.get_by_role("tab", name=name).click()


def ask_in_chat(page, question: str, timeout_ms: float = 60_000, record: bool = False):
    """Ask in the customer chat and wait for the answer card to finish; returns its locator
    (and the recorded frames when `record`)."""
    if record:
        page.evaluate(RECORD_FRAMES_JS, "#sd-chat-transcript")
    num_done = page.locator("#sd-chat-transcript .sd-answer[data-state=done]").count()
    fill(page, "sd-chat-question", question)
    page.locator("#sd-chat-ask").click()
    done = page.locator("#sd-chat-transcript .sd-answer[data-state=done]").nth(num_done)
    done.wait_for(timeout=timeout_ms)
    return (done, page.evaluate("window.__frames")) if record else done


def log_in(page, tab: str, key: str) -> None:
    """Open a protected tab and submit a key in its login box."""
    open_tab(page, tab)
    box = page.locator(".sd-login:visible")
    box.locator("input[type=password]").fill(key)  # the key box is a one-line input
    box.locator(".sd-login-button").click()


def fill(page, elem_id: str, text: str) -> None:
    """Type into the Gradio textbox with this elem_id (an input or a textarea, depending on its lines)."""
    page.locator(f"#{elem_id} :is(input, textarea)").first.fill(text)
