"""Guards around the model: input limits, escalation and refusal rules (their patterns: `guard_patterns.py` and
`refusal_patterns.py`), number grounding, length caps, PII masking and leak detection. Pure functions, no model, no
global state; each returns enough (a reason code, a list of offenders) for the caller to count."""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation
from typing import NamedTuple

from chatbot.chinese_script import to_simplified
from chatbot.guard_patterns import ESCALATION_RULES
from chatbot.refusal_patterns import REFUSAL_RULES
from chatbot.text_terms import split_sentences

STORE_PHONE = "1-800-555-0199"
_ALLOWED_CONTROL = {"\n", "\t"}
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\ufeff"))
_FULLWIDTH = str.maketrans("０１２３４５６７８９．，％＄－", "0123456789.,%$-")


class InputRejected(ValueError):
    """A customer message that fails the input limits; `reason` is a short code for metrics."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


def check_input(text: str, max_chars: int = 4000) -> str:
    """Normalise a customer message (NFC, newlines, trimmed) or raise `InputRejected`."""
    if not isinstance(text, str):
        raise InputRejected("type", f"message must be text, not {type(text).__name__}")
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    text = text.translate(_INVISIBLE).strip()
    if not text:
        raise InputRejected("empty", "message is empty")
    if len(text) > max_chars:
        raise InputRejected("too_long", f"message is too long: {len(text)} characters, the limit is {max_chars}")
    for char in text:
        if unicodedata.category(char) == "Cc" and char not in _ALLOWED_CONTROL:
            raise InputRejected("control_char", f"message contains a control character (U+{ord(char):04X})")
    return text


def _first_rule(rules: dict[str, re.Pattern], text: str) -> str | None:
    text = to_simplified(unicodedata.normalize("NFKC", text))  # the Chinese rules are written in simplified characters
    return next((reason for reason, pattern in rules.items() if pattern.search(text)), None)


def escalation_reason(text: str) -> str | None:
    """"safety", "fraud", "legal" or "human" when the message must go to a human agent, else None."""
    return _first_rule(ESCALATION_RULES, text)


def refusal_reason(text: str) -> str | None:
    """"prompt_injection", "instruction_extraction" or "other_customer_data", else None."""
    return _first_rule(REFUSAL_RULES, text)


class GroundingResult(NamedTuple):
    """`ok` when every number of a point is supported; `unsupported` lists the others as written."""

    ok: bool
    unsupported: list[str]


_PHONE_RE = re.compile(  # formatted numbers, optionally international, and bare Chinese mobiles
    r"(?<![A-Za-z0-9_+])(?<!\d[ .-])(?:\+\d{1,3}[ .-]?|1[ .-])?(?:\(\d{2,4}\)[ .-]?|\d{2,4}[ .-])\d{3,4}[ .-]\d{3,4}(?![ .-]?\d)"
    r"|(?<![A-Za-z0-9_+])\+\d{8,15}(?!\d)"
    r"|(?<!\d)1[3-9]\d{9}(?!\d)"
)
# a number glued to letters ("2FA", "4K", "1st") is a name, except a time such as "2pm"
_NUMBER_RE = re.compile(r"(?<![A-Za-z0-9.,])\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?%?(?!(?![ap]\.?m\b)[A-Za-z])")
_LIST_MARKER_RE = re.compile(r"^[ \t]*(?:[-*•][ \t]*)?\(?\d{1,2}(?:\.(?!\d)|[)、）]|\s*[：:])", re.MULTILINE)


def _phone_key(phone: str) -> str:
    digits = re.sub(r"\D", "", phone)
    return "phone:" + digits[-10:]


def _number_key(number: str) -> str:
    value = number.strip("$%").replace(",", "")
    try:
        return format(Decimal(value).normalize(), "f")
    except InvalidOperation:
        return value


def _without_list_markers(text: str) -> str:
    """`text` with full-width digits made ASCII and list markers ("1.", "2)") blanked: they are not facts."""
    return _LIST_MARKER_RE.sub(" ", text.translate(_FULLWIDTH))


def _numeric_facts(text: str) -> list[tuple[str, str]]:
    """(surface form, normalised key) for every phone number and number in `text`."""
    text = _without_list_markers(text)
    facts = [(m.group(), _phone_key(m.group())) for m in _PHONE_RE.finditer(text)]
    text = _PHONE_RE.sub(" ", text)
    facts += [(m.group(), _number_key(m.group())) for m in _NUMBER_RE.finditer(text)]
    return facts


def ground_numbers(point_text: str, allowed_texts: list[str]) -> GroundingResult:
    """Check that every number, amount, duration, percentage and phone in the point
    also appears in one of `allowed_texts` (its KB section, the question)."""
    allowed = {key for text in allowed_texts for _, key in _numeric_facts(text)}
    unsupported = list(dict.fromkeys(surface for surface, key in _numeric_facts(point_text) if key not in allowed))
    return GroundingResult(not unsupported, unsupported)


def _number_contexts(text: str, width: int) -> list[tuple[str, str, tuple[str, ...]]]:
    """(surface form, normalised key, the `width` words or CJK characters before it) for every number in `text`."""
    text = _PHONE_RE.sub(" ", _without_list_markers(text))
    return [(m.group(), _number_key(m.group()), tuple(_units(text[:m.start()])[-width:]))
            for m in _NUMBER_RE.finditer(text)]


def misattributed_numbers(point_text: str, allowed_texts: list[str], width: int = 3) -> list[str]:
    """Numbers of the point that no allowed text (its KB section, the question) puts after the same `width`
    words or CJK characters: a right number attached to the wrong thing, as in "订单记录将在30天内完成" (order
    records are completed within 30 days) where the policy says an account deletion is."""
    allowed = {(key, before) for text in allowed_texts for _, key, before in _number_contexts(text, width)}
    return list(dict.fromkeys(surface for surface, key, before in _number_contexts(point_text, width)
                              if (key, before) not in allowed))


def cap_length(text: str, max_chars: int) -> str:
    """Cut `text` to at most `max_chars`, at the last sentence boundary that fits
    (else at a word boundary, with an ellipsis)."""
    if len(text) <= max_chars:
        return text
    kept = ""
    for sentence in split_sentences(text):
        if len((kept + sentence).rstrip()) > max_chars:
            break
        kept += sentence
    if kept.strip():
        return kept.rstrip()
    if max_chars <= 0:
        return ""
    cut = text[: max_chars - 1]
    mid_word = not (cut[-1:].isspace() or text[max_chars - 1].isspace())
    if mid_word and " " in cut.strip():
        cut = cut[: cut.rstrip().rfind(" ")]
    return cut.rstrip() + "…"


_CARD_RE = re.compile(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])")
_EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")


def _is_luhn_valid(digits: str) -> bool:
    total = 0
    for i, char in enumerate(reversed(digits)):
        d = int(char) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def _mask_card(match: re.Match) -> str:
    digits = re.sub(r"\D", "", match.group())
    return "[card]" if 13 <= len(digits) <= 19 and _is_luhn_valid(digits) else match.group()


def _mask_phone(match: re.Match) -> str:
    return match.group() if _phone_key(match.group()) == _phone_key(STORE_PHONE) else "[phone]"


def mask_pii(text: str) -> str:
    """Replace card numbers (Luhn-valid), e-mail addresses and phone numbers with
    [card], [email], [phone]; the store's own phone number is kept."""
    text = _CARD_RE.sub(_mask_card, text)
    text = _EMAIL_RE.sub("[email]", text)
    return _PHONE_RE.sub(_mask_phone, text)


def _units(text: str) -> list[str]:
    """Comparison units for leak detection: lower-cased words and single CJK characters."""
    return re.findall(r"[a-z0-9]+|[^\sa-z0-9\W]", unicodedata.normalize("NFKC", text).lower())


def find_leaks(answer: str, secrets: list[str], min_units: int = 8) -> list[str]:
    """Secrets echoed in `answer`: a short secret (a canary) must appear whole; a long one
    (instructions) leaks when any `min_units` consecutive words/CJK characters appear.
    Returns the leaked fragment of each leaked secret."""
    answer_units = _units(answer)
    answer_joined = " " + " ".join(answer_units) + " "
    leaks = []
    for secret in secrets:
        units = _units(secret)
        window = min(len(units), min_units)
        for start in range(len(units) - window + 1) if units else ():
            fragment = units[start : start + window]
            if " " + " ".join(fragment) + " " in answer_joined:
                leaks.append(secret if window == len(units) else " ".join(fragment))
                break
    return leaks
