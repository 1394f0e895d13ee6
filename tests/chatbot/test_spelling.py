"""Typos read as the knowledge base's words (`chatbot.spelling`), alone and through the rule router."""
from __future__ import annotations

import pytest

from chatbot.router import RuleRouter
from chatbot.spelling import correct_typos


@pytest.mark.parametrize("text, corrected", [
    ("can i retrun this", "can i return this"), ("how do i get a refnd", "how do i get a refund"),
    ("Warrenty on my TV", "warranty on my TV"), ("shiping to canada", "shipping to canada"),
    ("my acount is locked", "my account is locked"), ("change adress", "change address"),
    ("the cabel you sent", "the cable you sent"), ("my pakcage", "my package"),
    ("how much is shiping to canda", "how much is shipping to canada"), ("wat is it", "what is it"),
    ("I was dubble charged", "I was double charged"),  # two edits away: a word of its own (stop 61)
    ("is ther a warrenty on headfones", "is there a warranty on headphones")])  # stop 62
def test_a_typo_becomes_the_knowledge_base_s_word(kb, text, corrected):
    """"shiping" is one edit from "shining" too, and "acount" from "count": the knowledge base's word wins.
    Two swapped letters are read as the word they swap, known or not, where that word is the commoner: "cabel" was
    "label"; "canda" was the rare "canad" (2026-12-03)."""
    assert correct_typos(text, kb.words("en")) == corrected


@pytest.mark.parametrize("text", [
    "I bought a present, a shirt and some stock", "It turned out fine",  # English words: one edit from KB words
    "Pay with Klarna or Venmo", "Mark Whitfield, order NW-48213", "my acct",  # names, codes, short words
    "可以用paypal吗？"])
def test_words_that_are_no_typos_stay(kb, text):
    assert correct_typos(text, kb.words("zh" if "吗" in text else "en")) == text


@pytest.mark.parametrize("question, section_id", [
    ("can i retrun this", "returns.time-limit"), ("how do i get a refnd", "refunds.timing"),  # both refused
    ("warrenty on tv", "warranty.electronics"), ("forgot pasword", "account.password-reset"),
    ("cancle my order", "orders.cancellation"), ("how long is delivry", "shipping.standard"),  # refused
    ("wher is my package", "shipping.tracking")])  # the return condition ("wher" read as "when", then "wear")
def test_a_question_with_a_typo_finds_its_section(kb, question, section_id):
    route = RuleRouter(kb).route(question)
    assert route.mode == "direct" and route.hits[0].section.id == section_id


@pytest.mark.parametrize("question", ["wat is your return policy", "wut is ur return policy?",
                                      "whats ur return policy"])  # the window alone (stop 44's sweep)
def test_a_chat_spelling_of_what_asks_for_the_overview(kb, question):
    """"wat", three letters, stayed as written and was a word of its own: the 30-day window alone (sweep 77)."""
    route = RuleRouter(kb).route(question)
    assert (route.mode, route.reason) == ("sot", "overview")


def test_texting_abbreviations_read_as_words(kb):
    assert correct_typos("can u tell me ur hours pls, thx", kb.words("en")) == (
        "can you tell me your hours please, thanks")
    assert correct_typos("when r u gonna ship it", kb.words("en")) == "when are you going to ship it"
