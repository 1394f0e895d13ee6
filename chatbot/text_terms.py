"""How the knowledge base reads text: index terms for BM25 (stemmed English words, Chinese characters and
bigrams), phrase text for keyword phrases, sentence splitting and language detection."""

from __future__ import annotations

import re
import unicodedata

import snowballstemmer

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RE = re.compile(f"[{_CJK}]")
LATIN_WORD_RE = re.compile(r"\d*[A-Za-z]+")  # "2FA" too
_TOKEN_RE = re.compile(rf"[a-z0-9]+(?:['.][a-z0-9]+)*|[{_CJK}]+")
# A Chinese A-not-A question ("能不能退", "可不可以", "是不是") asks "A?": read as its A, so that "能不能退" ("can I
# return it?") does not find "不能" ("cannot") and the non-returnable items.
_A_NOT_A_RE = re.compile(rf"([{_CJK}])不\1")
# "到底", "究竟" ("on earth") stress a question and name nothing: "退款到底什么时候到" is "退款什么时候到", whose phrase
# is the refund's, not standard shipping's "什么时候到" (stop 54's sweep).
_EMPHATIC_RE = re.compile(r"到底|究竟")
_SENTENCE_END_RE = re.compile(
    r"(?<![ap]\.m)(?<!\be\.g)(?<!\bi\.e)[.!?]+[\"')\]]*\s+"
    r"|[。！？]+[”’」』）)]*\s*"
    r"|\n+"
)

_STOPWORDS = frozenset(
    """a about after all also am an and any are as at be been but by can could did do does
    doing for from get got had has have hello hey hi how i i'm if in into is it it's its just
    me my of on or our please should so still than thank thanks that the their them then there these
    they this those to us was we were what when where which who why will with would you your
    until placed u ur pls plz northwind policy policies possible possibly wondering wonder hope unfortunately
    recently one""".split()
)  # every section is a policy: "What's your return shipping policy?" found the assistant's own section first
# Contractions the policies spell out, so that "can't be returned" finds "cannot be returned".
_CONTRACTIONS = {"can't": "cannot"}
# The policies' phrases spell "cancelled" as the British do; a customer's "canceled" matches them (BM25 stems both).
_AMERICAN_CANCEL_RE = re.compile(r"\bcancel(ed|ing)\b")
_STEMMER = snowballstemmer.stemmer("english")
# Words that are no terms where they stand (stop 45's sweeps): a number word that counts days or weeks ("two weeks
# ago" found the two-factor authentication, "day two" too), the phone of a phone's accessory ("Can I return a phone
# case?" found the agents' phone line), "same" but of the same day ("the same blender is $69 now" found the same-day
# dispatch).
_NO_TERM_RE = re.compile(r"\b(one|two|three|four|five|six|seven|eight|nine|ten)(?=[\s-]+(days?|weeks?|months?|"
                         r"years?|hours?|minutes?)\b)|(?<=\bday )(one|two|three)\b|"
                         r"\bphone(?=\s+(case|cases|charger|chargers|stand|stands|holder|holders|mount|cover|"
                         r"covers)\b)|"
                         r"\bsame\b(?!\s+(business\s+)?day)")
_ZH_STOP_CHARS = frozenset("的了吗呢吧啊呀嘛我你您他她它是在和与或及也都就这那么什怎们请个一把给让对")
_ZH_STOP_BIGRAMS = frozenset({"什么", "怎么", "如何", "可以", "我的", "你们", "我们", "请问", "是否", "一下", "已经"})
_AMOUNT_RE = re.compile(r"(?<![\d.])\d+\.\d\d(?!\d|\.\d)")
_NOT_WORD_RE = re.compile(rf"[^a-z0-9'\s{_CJK}]+")  # what phrase matching ignores


def detect_lang(text: str) -> str:
    """Return "zh" when there are at least as many CJK characters as Latin words, else "en"
    (brand names such as "Apple Pay" in a Chinese sentence keep it Chinese)."""
    num_cjk = len(_CJK_RE.findall(text))
    num_latin_words = len(LATIN_WORD_RE.findall(text))
    return "zh" if num_cjk and num_cjk >= num_latin_words else "en"


# Words whose Snowball stem would merge them with an unrelated word: "customs" (duties) with "customer", so "Who
# pays customs?" ranked the payment methods first; "customer" with "custom" (made to order), so an agent's
# "Customer wants to return a mattress after 40 days" found the non-returnable custom items; "installment" (paying in
# parts) with "install", so "Do you do installation?" and "what if I never installed it?" found Klarna (stop 62).
_STEM_EXCEPTIONS = {"customs": "customs", "customer": "customer", "customers": "customer", "packaging": "packaging",
                    "installment": "installment", "installments": "installment", "instalment": "installment",
                    "instalments": "installment"}


def _stem(word: str) -> str:
    """The Snowball (Porter2) English stem, so that return/returns/returned and international/internationally
    share one (`_STEM_EXCEPTIONS` aside)."""
    return _STEM_EXCEPTIONS.get(word) or _STEMMER.stemWord(word)


def tokenize(text: str) -> list[str]:
    """Index terms: stemmed English words without stopwords; CJK runs as unigrams plus bigrams."""
    tokens: list[str] = []
    text = _NO_TERM_RE.sub("", unicodedata.normalize("NFKC", text).lower().replace("\u2019", "'"))
    for match in _TOKEN_RE.finditer(text):
        word = match.group().removesuffix("'s")
        word = _CONTRACTIONS.get(word, word)
        if _CJK_RE.match(word):
            word = _A_NOT_A_RE.sub(r"\1", word)
            tokens.extend(c for c in word if c not in _ZH_STOP_CHARS)
            bigrams = (word[i : i + 2] for i in range(len(word) - 1))
            tokens.extend(b for b in bigrams if b not in _ZH_STOP_BIGRAMS)
        elif word not in _STOPWORDS:
            tokens.append(_stem(word))
    return tokens


def word_terms(text: str) -> list[str]:
    """The index terms of ``text`` that are words: English words and Chinese characters (not the bigrams)."""
    return [term for term in tokenize(text) if len(term) == 1 or not _CJK_RE.match(term)]


def is_cjk(token: str) -> bool:
    """Whether an index term (`tokenize`) is Chinese: a character or a bigram."""
    return bool(_CJK_RE.match(token))


def phrase_text(text: str) -> str:
    """``text`` as keyword phrases are matched against it: NFKC, lower case, "canceled" as "cancelled",
    punctuation and runs of space as one space, none between CJK characters but one between them and a Latin
    word, an A-not-A question as its A ("运费是不是要我自己出" as "运费是要我自己出"), without "到底"/"究竟", padded
    with a space on both sides."""
    text = _NOT_WORD_RE.sub(" ", unicodedata.normalize("NFKC", text).lower().replace("\u2019", "'"))
    text = _AMERICAN_CANCEL_RE.sub(r"cancell\1", text)
    text = _A_NOT_A_RE.sub(r"\1", _EMPHATIC_RE.sub("", re.sub(rf"(?<=[{_CJK}])\s+(?=[{_CJK}])", "", text)))
    text = re.sub(rf"(?<=[a-z0-9'])(?=[{_CJK}])|(?<=[{_CJK}])(?=[a-z0-9'])", " ", text)  # "klarna怎么用": a word
    return f" {' '.join(text.split())} "


def split_keywords(keywords: str) -> tuple[str, list[str]]:
    """A section's keywords as the words to index (the unquoted keywords) and its phrases (the quoted ones) as
    they are searched for in `phrase_text`: a Chinese phrase anywhere, any other between spaces. A phrase with a word
    of symbols alone ("$$"), which `phrase_text` drops, is a ValueError."""
    words, phrases = [], []
    for keyword in keywords.split(","):
        if re.fullmatch(r'\s*".+"\s*', keyword):
            if any(not re.search(r"\w", word) for word in keyword.strip().strip('"').split()):
                # matching drops such a word: "my $$ back" was " my back ", and "My back is killing me…" found it
                raise ValueError(f"keyword phrase {keyword.strip()} has a word of symbols alone, which matching drops")
            phrases.append(phrase_text(keyword).strip())
        else:
            words.append(keyword)
    return ",".join(words), [p if _CJK_RE.search(p) else f" {p} " for p in phrases if p]


def split_after(pattern: re.Pattern, text: str) -> list[str]:
    """``text`` split after each match of ``pattern``, the match kept: "".join(parts) == text."""
    parts, start = [], 0
    for match in pattern.finditer(text):
        if match.end() > start:
            parts.append(text[start : match.end()])
            start = match.end()
    if start < len(text):
        parts.append(text[start:])
    return parts


def split_sentences(text: str) -> list[str]:
    """Split into sentences, keeping terminators and trailing space: "".join(parts) == text."""
    return split_after(_SENTENCE_END_RE, text)


def amount_phrases(text: str) -> list[str]:
    """The amounts with cents in ``text`` ("$5.99") as keyword phrases: a customer who quotes one ("Why was 5.99
    taken from my refund?", "我的退款被扣了5.99美元") asks about the section that states it."""
    return [f" {phrase_text(amount).strip()} " for amount in dict.fromkeys(_AMOUNT_RE.findall(text))]
