"""Northwind's policy knowledge base: sections parsed from `data/policies`, BM25 retrieval.

Each `data/policies/<lang>/<category>.md` file holds one category:

    # <category title>
    ## <section title>
    <!-- id: <category>.<name> -->
    <!-- keywords: optional, comma separated, indexed but never shown -->
    Self-contained text of one to four sentences.

A keyword in double quotes, such as "where is my order" or "订单还没到", is a phrase instead: not indexed
word by word, but found whole in a message it adds `PHRASE_BONUS` to its section's score (where phrases of
several sections match, only the longest of overlapping matches counts: "refund hasn't arrived" over
"hasn't arrived"). Short customer messages are mostly stopwords and one or two common terms ("Where is my
order?" keeps only "order"), and their BM25 scores alone fall under the router's in-scope floor; a phrase
says what the message is about where its words cannot.

Every language has the same categories and the same section ids in the same order.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from pathlib import Path
from typing import NamedTuple

from chatbot.chinese_script import to_simplified
from chatbot.dates import SectionDates
from chatbot.text_terms import (
    LATIN_WORD_RE,
    amount_phrases,
    is_cjk,
    phrase_text,
    split_keywords,
    tokenize,
    word_terms,
)

DEFAULT_ROOT = Path(__file__).resolve().parents[1] / "data" / "policies"

_ID_RE = re.compile(r"<!--\s*id:\s*([a-z0-9_-]+\.[a-z0-9_.-]+)\s*-->")
_KEYWORDS_RE = re.compile(r"<!--\s*keywords:\s*(.*?)\s*-->")
# What a keyword phrase found whole in a message adds to its section's score (once per section): as much as
# the in-scope floor (`MIN_TOP_SCORE`), so the phrase alone keeps the message in scope.
PHRASE_BONUS = {"en": 4.0, "zh": 12.0}
RANKING_CACHE_SIZE = 4096  # queries whose rankings a knowledge base keeps (`KnowledgeBase.search`)


@dataclass(frozen=True)
class Section:
    """One self-contained policy section, the unit of retrieval and of SoT outline points."""

    id: str
    category: str
    lang: str
    title: str
    text: str


class ScoredSection(NamedTuple):
    """A search hit: the section and its BM25 score (higher is better)."""

    section: Section
    score: float


def lead_with(score: float, hits: list[ScoredSection], *sections: Section) -> list[ScoredSection]:
    """``hits`` with ``sections`` first, in their order, at ``score``, and not again further down."""
    ids = {s.id for s in sections}
    return [ScoredSection(s, score) for s in sections] + [h for h in hits if h.section.id not in ids]


class _Bm25:
    """Okapi BM25 over tokenized documents, with Lucene's always-positive idf."""

    def __init__(self, docs: list[list[str]], k1: float = 1.5, b: float = 0.75):
        self.k1, self.b = k1, b
        self.term_freqs = [Counter(doc) for doc in docs]
        self.doc_lens = [len(doc) for doc in docs]
        self.avg_len = (sum(self.doc_lens) / len(docs) if docs else 0.0) or 1.0
        doc_freqs = Counter(term for tf in self.term_freqs for term in tf)
        n = len(docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in doc_freqs.items()}

    def scores(self, query_tokens: list[str]) -> list[float]:
        terms = [t for t in dict.fromkeys(query_tokens) if t in self.idf]  # the query's order: the same sums every run
        out = []
        for tf, doc_len in zip(self.term_freqs, self.doc_lens):
            norm = self.k1 * (1 - self.b + self.b * doc_len / self.avg_len)
            out.append(sum(self.idf[t] * tf[t] * (self.k1 + 1) / (tf[t] + norm) for t in terms if t in tf))
        return out


def _parse_policy(path: Path, lang: str) -> tuple[str, list[tuple[Section, str]]]:
    """Parse one category file into its title and (section, keywords) pairs."""
    category = path.stem
    title = ""
    raw: list[dict] = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        where = f"{path}:{lineno}"
        if line.startswith("## "):
            raw.append({"title": line[3:].strip(), "id": None, "keywords": "", "lines": [], "where": where})
        elif line.startswith("# "):
            if title or raw:
                raise ValueError(f"{where}: the '# ' title must come once, before any section")
            title = line[2:].strip()
        elif not line:
            continue
        elif not raw:
            raise ValueError(f"{where}: text before the first '## ' section")
        elif raw[-1]["id"] is None:
            if not (m := _ID_RE.fullmatch(line)):
                raise ValueError(f"{where}: expected '<!-- id: {category}.<name> -->' after the heading")
            raw[-1]["id"] = m.group(1)
        elif m := _KEYWORDS_RE.fullmatch(line):
            raw[-1]["keywords"] = m.group(1)
        else:
            raw[-1]["lines"].append(line)
    if not title:
        raise ValueError(f"{path}: missing '# ' category title")
    sections = []
    for r in raw:
        if r["id"] is None or not r["id"].startswith(f"{category}.") or not r["lines"]:
            raise ValueError(f"{r['where']}: section needs an id '{category}.<name>' and some text")
        section = Section(r["id"], category, lang, r["title"], " ".join(r["lines"]))
        sections.append((section, r["keywords"]))
    return title, sections


# Below these BM25 scores the best section does not answer the message: between the best score of an
# out-of-scope question that no other rule refuses and the lowest of an in-scope one (English 3.0 and 4.2,
# "Who pays customs?"; Chinese 9.3 and 13.0, "关税谁付？", with "今天几号？", what's the date, at 11.7).
# Chinese bigram queries score higher than English words.
MIN_TOP_SCORE = {"en": 4.0, "zh": 12.0}


def in_scope_bar(message: str, lang: str) -> float:
    """The in-scope bar for ``message``: `MIN_TOP_SCORE` weighted by its index terms. The Chinese bar is higher
    because Chinese text gives more terms (characters and bigrams) than English words; a Chinese message
    that names a Latin brand ("可以用Apple Pay吗？") has fewer CJK terms, and a bar between the two."""
    tokens = tokenize(message)
    if lang != "zh" or not tokens:
        return MIN_TOP_SCORE.get(lang, MIN_TOP_SCORE["en"])
    num_cjk = sum(1 for t in tokens if is_cjk(t))
    return (num_cjk * MIN_TOP_SCORE["zh"] + (len(tokens) - num_cjk) * MIN_TOP_SCORE["en"]) / len(tokens)


class KnowledgeBase:
    """The parsed policies of every language, with per-language BM25 indexes."""

    def __init__(self, labels: dict[tuple[str, str], str], entries: list[tuple[Section, str]]):
        self._labels = labels
        self._ranked = lru_cache(maxsize=RANKING_CACHE_SIZE)(self._rank)
        self._sections = [section for section, _ in entries]
        self._by_id = {(s.id, s.lang): s for s in self._sections}
        if len(self._by_id) != len(self._sections):
            raise ValueError("duplicate section id within one language")
        self._categories = tuple(dict.fromkeys(s.category for s in self._sections))
        self._langs = tuple(dict.fromkeys(s.lang for s in self._sections))
        self._indexes: dict[str, tuple[_Bm25, list[Section]]] = {}
        self._phrases: dict[str, list[list[str]]] = {}  # per language, per section in index order: its needles
        self._dates: dict[str, SectionDates] = {}  # per language: the date ranges its sections state
        self._words: dict[str, frozenset[str]] = {}  # per language, the English words its sections use
        for lang in self._langs:
            docs = [(s, split_keywords(kw)) for s, kw in entries if s.lang == lang]
            texts = [f"{labels[s.category, lang]} {s.title} {s.title} {words} {s.text}" for s, (words, _) in docs]
            self._indexes[lang] = (_Bm25([tokenize(t) for t in texts]), [s for s, _ in docs])
            self._phrases[lang] = [phrases + amount_phrases(s.text) for s, (_, phrases) in docs]
            self._dates[lang] = SectionDates([phrase_text(s.text) for s, _ in docs])
            text = " ".join(texts + [p for _, (_, phrases) in docs for p in phrases]).lower()
            self._words[lang] = frozenset(re.findall(r"\d*[a-z]+(?:'[a-z]+)?", text))

    @classmethod
    def load(cls, root: Path | None = None) -> KnowledgeBase:
        """Load `<root>/<lang>/<category>.md` (default: the packaged `data/policies`)."""
        root = Path(root) if root is not None else DEFAULT_ROOT
        lang_dirs = sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
        if not lang_dirs:
            raise FileNotFoundError(f"no policy languages found under {root}")
        labels: dict[tuple[str, str], str] = {}
        entries: list[tuple[Section, str]] = []
        layouts: dict[str, list[tuple[str, list[str]]]] = {}
        for lang_dir in lang_dirs:
            lang = lang_dir.name
            layouts[lang] = []
            for path in sorted(lang_dir.glob("*.md")):
                title, sections = _parse_policy(path, lang)
                labels[path.stem, lang] = title
                entries.extend(sections)
                layouts[lang].append((path.stem, [s.id for s, _ in sections]))
        reference_lang, reference = next(iter(layouts.items()))
        for lang, layout in layouts.items():
            if layout != reference:
                raise ValueError(f"policies in {lang!r} differ from {reference_lang!r} in categories or section ids")
        return cls(labels, entries)

    @property
    def categories(self) -> tuple[str, ...]:
        """English category keys, in file order."""
        return self._categories

    @property
    def langs(self) -> tuple[str, ...]:
        return self._langs

    def category_label(self, key: str, lang: str = "en") -> str:
        """The category's title in `lang`, e.g. ("returns", "zh") -> "退货政策"."""
        try:
            return self._labels[key, lang]
        except KeyError:
            raise KeyError(f"unknown category {key!r} or language {lang!r}") from None

    def category_key(self, key_or_label: str) -> str:
        """The English key of a category given its key or its title in any language."""
        if key_or_label in self._categories:
            return key_or_label
        for (key, _), label in self._labels.items():
            if label == key_or_label:
                return key
        raise KeyError(f"unknown category {key_or_label!r}")

    def sections(self, lang: str | None = None, category: str | None = None) -> list[Section]:
        """Sections in file order, optionally of one language and/or one category."""
        return [
            s for s in self._sections
            if (lang is None or s.lang == lang) and (category is None or s.category == category)
        ]

    def get(self, section_id: str, lang: str) -> Section:
        """The section with this id in this language; KeyError when there is none."""
        try:
            return self._by_id[section_id, lang]
        except KeyError:
            raise KeyError(f"no section {section_id!r} in {lang!r}") from None

    def _english_scores(self, query: str, lang: str) -> list[float] | None:
        """For a message in ``lang`` with English words in it ("我的order还没到", "warranty多久？"): the scores of those
        the English sections use and ``lang``'s do not, on the English sections (BM25 and phrases), by index (every
        language has the same sections in the same order), on ``lang``'s scale (`MIN_TOP_SCORE`: "password" weighs
        as "密码" would); None when there are none (or no English sections). The other languages' sections know
        few English words (names: "Apple Pay", "Klarna"), and score those themselves."""
        known, own = self._words.get("en", frozenset()), self._words.get(lang, frozenset())
        words = [w for w in LATIN_WORD_RE.findall(query) if w.lower() in known]
        if not words:
            return None
        index = self._indexes["en"][0]
        matched = self._phrase_matches(phrase_text(" ".join(words)), "en")
        foreign = tokenize(" ".join(w for w in words if w.lower() not in own))
        more = MIN_TOP_SCORE.get(lang, MIN_TOP_SCORE["en"]) / MIN_TOP_SCORE["en"] - 1
        return [score + PHRASE_BONUS["en"] * (i in matched) + more * extra for i, (score, extra) in enumerate(
            zip(index.scores(tokenize(" ".join(words))), index.scores(foreign) if foreign else repeat(0.0)))]

    def _phrase_matches(self, text: str, lang: str) -> set[int]:
        """Indexes of the sections (in ``lang``'s index order) with a phrase in ``text`` (`phrase_text` of the
        query), overlapping matches reduced to the longest ("怎么退出登录" is "退出登录", not "怎么退"); and those
        whose text states a date range that holds a date of the query (`chatbot.dates`: "12月1日买的")."""
        spans = []  # (start, end, section index) of each match's words: its padding space may be another's
        for i, needles in enumerate(self._phrases[lang]):
            for needle in needles:
                lead, trail = len(needle) - len(needle.lstrip()), len(needle) - len(needle.rstrip())
                at = text.find(needle)
                while at >= 0:
                    spans.append((at + lead, at + len(needle) - trail, i))
                    at = text.find(needle, at + 1)
        return self._dates[lang].holding(text) | {i for start, end, i in spans
                                                  if not any(s < end and start < e and e - s > end - start
                                                             for s, e, _ in spans)}

    def dated_sections(self, query: str, lang: str) -> tuple[set[str], set[str]]:
        """Ids of the sections of ``lang`` whose stated date range holds a date ``query`` names (`chatbot.dates`), and
        of those whose ranges hold none of the dates it names."""
        sections = self._indexes[lang][1]
        held, missing = self._dates[lang].holding_and_missing(phrase_text(to_simplified(query)))
        return {sections[i].id for i in held}, {sections[i].id for i in missing}

    def phrase_sections(self, query: str, lang: str) -> set[str]:
        """Ids of the sections of ``lang`` with a keyword phrase found whole in ``query``."""
        sections = self._indexes[lang][1]
        return {sections[i].id for i in self._phrase_matches(phrase_text(to_simplified(query)), lang)}

    def words(self, lang: str) -> frozenset[str]:
        """The English words (lower case) that the sections of ``lang`` use, keywords and titles included; none for
        a language the knowledge base does not have (`search` names the error)."""
        return self._words.get(lang, frozenset())

    def knows_words(self, text: str, lang: str) -> bool:
        """Whether every word of ``text`` (each English word, each Chinese character; stopwords aside) occurs in
        the knowledge base of ``lang``: "How long does it take?" does, "What's the weather in Paris?" does not."""
        index = self._indexes[lang][0]
        return all(term in index.idf for term in word_terms(to_simplified(text)))

    def search(
        self, query: str, lang: str | None = None, k: int = 5, category: str | None = None
    ) -> list[ScoredSection]:
        """Top-`k` sections by BM25 score plus `PHRASE_BONUS` where a keyword phrase is in the query (only
        positive scores), best first. A query in traditional Chinese is read in simplified characters; the
        English words of a query searched in another ``lang`` add their English sections' scores."""
        if lang is not None and lang not in self._indexes:
            raise ValueError(f"unknown language {lang!r}; expected one of {self._langs}")
        if category is not None and category not in self._categories:
            raise ValueError(f"unknown category {category!r}")
        return list(self._ranked(query, lang, category)[:k]) if k > 0 else []

    def _rank(self, query: str, lang: str | None, category: str | None) -> tuple[ScoredSection, ...]:
        """Every section with a positive score for ``query`` (`search`), best first; cached per knowledge base, as
        routing one message searches the same text several times."""
        query = to_simplified(query)
        tokens = tokenize(query)
        if not tokens:
            return ()
        hits = []
        text = phrase_text(query)
        for lg in [lang] if lang else self._langs:
            index, sections = self._indexes[lg]
            matched = self._phrase_matches(text, lg)
            english = self._english_scores(query, lg) if lg != "en" and lang else None
            for i, (section, score) in enumerate(zip(sections, index.scores(tokens))):
                if i in matched:
                    score += PHRASE_BONUS.get(lg, PHRASE_BONUS["en"])
                if english is not None:
                    score += english[i]
                if score > 0 and (category is None or section.category == category):
                    hits.append(ScoredSection(section, score))
        hits.sort(key=lambda hit: -hit.score)
        return tuple(hits)
