"""Prompt pruning for long messages (a pasted e-mail thread): keep the question and the sentences
most relevant to it by TF-IDF cosine similarity, in their original order, and find the customer's own
closing question for retrieval."""
from __future__ import annotations

import math
import re
from collections import Counter
from typing import NamedTuple

from chatbot.message_shape import asking_clauses
from chatbot.text_terms import split_sentences, tokenize

_QUESTION = re.compile(r"[?？]")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_QUOTED_LINE = re.compile(r"^\s*>")
PRUNE_OVER_CHARS = 700  # the default threshold: a message longer than this is pruned


class PrunedMessage(NamedTuple):
    text: str
    num_sentences: int
    num_kept: int
    ask: str = ""  # a pruned message's closing question (`closing_question`); "" when nothing was pruned

    @property
    def was_pruned(self) -> bool:
        return self.num_kept < self.num_sentences

    @property
    def asking(self) -> str:
        """Where the customer's separate questions are: the message kept whole, or a pruned one's closing question
        (most questions of a pasted thread are not the customer's)."""
        return self.ask if self.was_pruned else self.text

    @property
    def query(self) -> str:
        """What retrieval ranks the sections by: the kept text, and a pruned message's closing question once
        more, so that the customer's own question outweighs the thread it came with."""
        return f"{self.ask}\n{self.text}" if self.ask else self.text


def closing_question(text: str, max_chars: int = PRUNE_OVER_CHARS) -> str:
    """The customer's own question in a long message: its last paragraph with a question mark, quoted lines
    ("> ...") left out; where that paragraph is over ``max_chars`` (a thread pasted without breaks), its last
    sentence with a question mark. "" when there is none."""
    for paragraph in reversed(_PARAGRAPH_BREAK.split(text)):
        own = "\n".join(line for line in paragraph.splitlines() if not _QUOTED_LINE.match(line)).strip()
        if len(own) > max_chars:
            own = _last_question(split_sentences(own))
        if _QUESTION.search(own):
            return own
    return ""


def _last_question(sentences: list[str]) -> str:
    """The last sentence with a question mark, with the sentences right before it that ask too ("I would like to
    know if I can get a replacement. Also, how long does the refund take?"); "" when none has one."""
    last = next((i for i in range(len(sentences) - 1, -1, -1) if _asks(sentences[i])), None)
    if last is None:
        return ""
    first = last
    while first > 0 and asking_clauses(sentences[first - 1]) and not _QUOTED_LINE.match(sentences[first - 1]):
        first -= 1
    return " ".join(s.strip() for s in sentences[first:last + 1])


def _asks(sentence: str) -> bool:
    """Whether ``sentence`` is a question of the customer's own: a quoted one ("> On Nov 22, you wrote: Any
    update?") was asked before."""
    return bool(_QUESTION.search(sentence)) and not _QUOTED_LINE.match(sentence)


def _tfidf(docs: list[list[str]]) -> list[dict[str, float]]:
    df = Counter(t for doc in docs for t in set(doc))
    n = len(docs)
    vectors = []
    for doc in docs:
        tf = Counter(doc)
        vec = {t: (c / len(doc)) * math.log((1 + n) / (1 + df[t]) + 1) for t, c in tf.items()} if doc else {}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        vectors.append({t: v / norm for t, v in vec.items()})
    return vectors


def prune_message(text: str, max_chars: int = PRUNE_OVER_CHARS) -> PrunedMessage:
    """Messages up to ``max_chars`` pass unchanged (``max_chars <= 0`` disables pruning); longer ones
    keep their questions plus the most similar other sentences until ``max_chars`` is reached."""
    sentences = split_sentences(text)
    if max_chars <= 0 or len(text) <= max_chars or len(sentences) < 3:
        return PrunedMessage(text, len(sentences), len(sentences))
    num_sentences = len(sentences)
    sentences = list(dict.fromkeys(s.strip() for s in sentences))  # a thread quotes the same lines again and again
    ask = closing_question(text, max_chars)
    asked = {s.strip() for s in split_sentences(ask)}  # the closing question's sentences lead, as questions do
    questions = [i for i, s in enumerate(sentences) if _asks(s) or s in asked] or [len(sentences) - 1]
    vectors = _tfidf([tokenize(s) for s in sentences])
    query: Counter = Counter()
    for i in questions:
        query.update(vectors[i])
    scores = {i: sum(w * query.get(t, 0.0) for t, w in vectors[i].items()) for i in range(len(sentences))}
    keep = set(questions)
    used = sum(len(sentences[i]) for i in keep)
    for i in sorted(scores, key=lambda i: -scores[i]):
        if i in keep or scores[i] <= 0:
            continue
        if used + len(sentences[i]) > max_chars:
            break
        keep.add(i)
        used += len(sentences[i])
    kept = " ".join(sentences[i] for i in sorted(keep))
    pruned = len(keep) < num_sentences
    return PrunedMessage(kept, num_sentences, len(keep), ask if pruned else "")
