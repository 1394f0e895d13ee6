"""Customers' typos, read as the knowledge base's words: "retrun" is "return", "shiping" is "shipping".

BM25, the intents' patterns and the keyword phrases all match words exactly, so a misspelt word finds nothing
and a short question with one ("can i retrun this") was refused. A word that is neither in an English
dictionary (pyspellchecker's word frequency list) nor among the knowledge base's own words is replaced by the
knowledge base's word one edit away (an insertion, deletion, substitution or transposition), if there is one.
Two swapped letters are the commonest slip, so an English word that is the written one with two neighbours
swapped is a reading even where the knowledge base lacks it, and the commoner word wins: "cabel" is "cable", not
"label", but "canda" is "canada", not the rare "canad".
"""
from __future__ import annotations

import re
from functools import cache

from spellchecker import SpellChecker

TYPO_MIN_LEN = 4  # shorter words are too often other words or abbreviations ("thx", "pls", "acct")
# Chat spellings of short words, which the rule above leaves as written: "wat is your return policy" asked for no
# overview ("wat" was a word of its own). Slips of short words too: "teh" and "wher" (one edit from "when", commoner
# than "where": "wher is my package" found the return condition's "wear").
_CHAT_WORDS = {"wat": "what", "wut": "what", "whta": "what", "teh": "the", "hte": "the", "wher": "where",
               "whre": "where",
               # texting's abbreviations ("whats ur return policy" asked for no overview, stop 44's sweep)
               "u": "you", "ur": "your", "pls": "please", "plz": "please", "thx": "thanks", "smth": "something",
               "sth": "something", "whats": "what's", "idk": "i don't know", "cuz": "because",
               # "when r u gonna ship my order" got what to do after shipment (stop 60's sweep)
               "r": "are", "gonna": "going to", "wanna": "want to", "gotta": "got to",
               "giftcard": "gift card", "giftcards": "gift cards",  # "went to my giftcard??" (stop 45's sweep)
               "dubble": "double",  # two edits away: "I was dubble charged" got the charge's timing (stop 61)
               # "is ther a warrenty on headfones" (stop 62's sweep: refused; "ther" read as "the")
               "ther": "there", "headfones": "headphones", "headfone": "headphone",
               # contractions without their apostrophe, which the keyword phrases have ("my oder hasnt arived yet" was
               # refused, stop 57's sweep)
               **{f"{stem}nt": f"{stem}n't" for stem in ("has", "have", "is", "are", "was", "were", "does", "do", "did",
                                                         "could", "should", "would")},
               "cant": "can't", "wont": "won't", "im": "i'm", "ive": "i've"}
_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")


@cache
def _checker() -> SpellChecker:
    return SpellChecker(language="en", distance=1)


def correct_typos(text: str, known: frozenset[str]) -> str:
    """``text`` with each word of at least `TYPO_MIN_LEN` letters that is neither an English word nor one of
    ``known`` (lower case: the knowledge base's words) replaced by the word of ``known`` one edit away, the
    commonest in English where there are several ("shiping" is "shipping", not "shining"), an English word that
    is the written one with two neighbouring letters swapped counting too ("cabel" is "cable", commoner than
    "label"; "canda" is "canada", commoner than "canad"); other words, and words with no such neighbour (names,
    "klarna" where the knowledge base has it), stay as written."""
    checker = _checker()

    def fix(match: re.Match) -> str:
        word = match.group().lower()
        if word in _CHAT_WORDS:
            return _CHAT_WORDS[word]
        if len(word) < TYPO_MIN_LEN or word in known or word in checker:
            return match.group()
        english = checker.candidates(word) or ()
        candidates = [c for c in english if c in known or _swaps_two_neighbours(word, c)]
        return max(candidates, key=checker.word_usage_frequency) if candidates else match.group()

    return _WORD.sub(fix, text)


def _swaps_two_neighbours(word: str, other: str) -> bool:
    """Whether ``other`` is ``word`` with two neighbouring letters swapped ("cabel", "cable")."""
    differ = [i for i, (a, b) in enumerate(zip(word, other)) if a != b]
    return (len(word) == len(other) and len(differ) == 2 and differ[1] == differ[0] + 1
            and word[differ[0]] == other[differ[1]] and word[differ[1]] == other[differ[0]])
