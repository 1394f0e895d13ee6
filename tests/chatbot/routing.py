"""What the rule router makes of a message, for the router tests: the section it answers from, or its mode and
reason (no model)."""
from __future__ import annotations

from chatbot.knowledge import KnowledgeBase
from chatbot.router import RuleRouter


def answered_from(kb: KnowledgeBase, question: str, previous: str | None = None) -> str | None:
    """The id of the section the rule router answers ``question`` from (its lead hit, in `direct` or `sot` mode), or
    None where it escalates or refuses."""
    route = RuleRouter(kb).route(question, previous=previous)
    return route.hits[0].section.id if route.mode in ("direct", "sot") and route.hits else None


def mode_and_reason(kb: KnowledgeBase, question: str, previous: str | None = None) -> tuple[str, str]:
    """The rule router's mode and reason for ``question``."""
    route = RuleRouter(kb).route(question, previous=previous)
    return route.mode, route.reason
