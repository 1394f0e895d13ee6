"""Browser fixtures: Debian's chromium through Playwright (installed here when missing; never skipped),
and the real app (ChatService over a real tiny-model engine) served on a free localhost port."""
from __future__ import annotations

import subprocess
from typing import NamedTuple

import pytest

from tests.ui import harness


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Debian's chromium; apt-get installs it when missing. Fails (never skips) when that is impossible."""
    try:
        return harness.ensure_chromium()
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:  # no browser, no UI tests: say why
        pytest.fail(f"Debian's chromium is required by the UI tests and could not be installed: {exc}",
                    pytrace=False)


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = harness.launch_browser(playwright)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    yield page
    context.close()


class Served(NamedTuple):
    url: str
    service: object


@pytest.fixture(scope="module")
def server(tiny_checkpoints, tmp_path_factory) -> Served:
    """The app over the real policies and a tiny random-weight Gemma 3 engine, served on localhost."""
    service = harness.tiny_service(tiny_checkpoints["gemma3"], tmp_path_factory.mktemp("ui-cache"))
    with harness.serve(service) as url:
        yield Served(url, service)


@pytest.fixture(scope="module")
def server_url(server) -> str:
    return server.url
