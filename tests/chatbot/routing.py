"""What the rule router makes of a message, for the router tests: the section it answers from, its mode and reason,
or the points the planner outlines (no model)."""
from __future__ import annotations

from chatbot.knowledge import KnowledgeBase
from chatbot.outline_points import points_phrased, select_points
from chatbot.pruning import prune_message
from chatbot.router import OUT_OF_SCOPE_SECTION, RuleRouter
from chatbot.separate_requests import points_asked
from chatbot.text_terms import detect_lang


def answered_from(kb: KnowledgeBase, question: str, previous: str | None = None) -> str | None:
    """The id of the section the rule router answers ``question`` from (its lead hit, in `direct` or `sot` mode), or
    None where it escalates or refuses."""
    route = RuleRouter(kb).route(question, previous=previous)
    return route.hits[0].section.id if route.mode in ("direct", "sot") and route.hits else None


def mode_and_reason(kb: KnowledgeBase, question: str, previous: str | None = None) -> tuple[str, str]:
    """The rule router's mode and reason for ``question``."""
    route = RuleRouter(kb).route(question, previous=previous)
    return route.mode, route.reason


def planner_points(kb, question: str):
    """The points the planner outlines for ``question`` (`Planner.stream`: a pasted thread is split at its closing
    question), chosen from the rule router's hits on the pruned message, the scope section left out."""
    pruned = prune_message(question)
    lang = detect_lang(question)
    route = RuleRouter(kb).route(pruned.text, pruned.query)
    hits = [h for h in route.hits if h.section.id != OUT_OF_SCOPE_SECTION]
    asked, only_asked = points_asked(kb, route.requests, pruned, lang)
    return select_points(hits, asked, points_phrased(kb, pruned.text, lang), only_asked)


def point_ids(kb: KnowledgeBase, question: str) -> list[str]:
    """The section ids of the points the planner outlines for ``question``, in outline order."""
    return [hit.section.id for hit in planner_points(kb, question)]
