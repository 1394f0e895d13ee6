"""`supportdesk`'s command line: the routers `eval`, `ask` and `serve` can use."""
from __future__ import annotations

import pytest

from chatbot.cli import _router, build_parser
from chatbot.router import HybridRouter, ModelRouter, RuleRouter


@pytest.mark.parametrize(("flag", "router_type"), [
    ([], RuleRouter), (["--router", "rules"], RuleRouter), (["--router", "model"], ModelRouter),
    (["--router", "both"], HybridRouter)])
def test_eval_takes_each_router(kb, flag, router_type):
    args = build_parser().parse_args(["eval", "--questions", "q.jsonl", "--out", "o.jsonl", *flag])
    assert type(_router(args, llm=None, kb=kb)) is router_type


def test_an_unknown_router_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["ask", "How long do I have?", "--router", "magic"])
    assert exit_info.value.code == 2 and "invalid choice: 'magic'" in capsys.readouterr().err
