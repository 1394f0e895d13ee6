"""Calendar dates in a message, and the date ranges a policy states ("delivered from November 15 to December 24").

A customer who names a day ("12月1日买的台灯", "I got it on Dec 1st") asks about the section whose range holds that
day, whatever other words the message shares with other sections: `KnowledgeBase` counts such a section as if
one of its keyword phrases were in the message. Dates are read from `text_terms.phrase_text` (lower case,
punctuation as spaces), as a month and a day; numeric dates ("12/1") are left alone, since the order of
month and day is the writer's.
"""
from __future__ import annotations

import re

from chatbot.durations import zh_number
from chatbot.order_events import CANCEL
from chatbot.return_words import RETURN_WORDS

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = (r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_ZH_COUNT = r"(\d{1,2}|[一二三四五六七八九十]{1,3})"  # "12月1日", "十二月十日" (stop 45's sweep: not read)
_DATE = re.compile(rf"\b{_MONTH}\s+{_DAY}\b|\b{_DAY}\s+(?:of\s+)?{_MONTH}\b|{_ZH_COUNT}\s*月\s*{_ZH_COUNT}\s*[日号號]")
_RANGE_JOINER = re.compile(r"^\s*(?:to|and|through|until|至|到|-|–)\s*$")

MonthDay = tuple[int, int]


def _month_day(match: re.Match) -> MonthDay | None:
    english_month, english_day, day_first, month_after, month_number, day_number = match.groups()
    if month_number:
        month, day = _count(month_number), _count(day_number)
        if month is None or day is None:
            return None
    else:
        name = english_month or month_after
        month, day = _MONTHS.index(name[:3]) + 1, int(english_day or day_first)
    return (month, day) if 1 <= month <= 12 and 1 <= day <= 31 else None


def _count(number: str) -> int | None:
    return int(number) if number.isdigit() else zh_number(number)


# Shopping days a purchase or a delivery was on, on a day of their week of every year: Black Friday falls on November
# 23–29, Cyber Monday on November 26 to December 2 ("黑五买的电视最晚什么时候退？" got the 30-day window; stop 58's
# sweep). A sale or shipping asked of the day ("Will there be a Black Friday sale?") names no day anything came.
_NAMED_DAYS = {"black friday": (11, 26), "黑五": (11, 26), "黑色星期五": (11, 26), "cyber monday": (11, 29),
               "网络星期一": (11, 29)}
_NAMED_DAY = re.compile(r"(?<=\bon )(black friday|cyber monday)\b|(黑五|黑色星期五|网络星期一)(?=(的时候|期间)?(买|下单|收到|到货))")


# Today's date, told to count from ("…10月8号送到的…现在已经11月20号了，还能退吗？", "today is dec 1"), is no day anything
# came (stop 62's sweep: the holiday returns led, by November 20).
_TODAY = re.compile(r"(今天|今儿)(已经|都|是|已经是)\s*$|现在(已经|都)?是?\s*$|"  # "我今天12月1日收到的" is a delivery
                    r"\b(today is|today's|it'?s now|it is now|now it'?s)\s*$")
_NOW_AFTER = re.compile(r"\s*(now|today)\b")  # "It's December 10 now"


def dates_in(text: str) -> list[MonthDay]:
    """The (month, day) of each date named in ``text`` (`text_terms.phrase_text`: "december 1", "1st of dec",
    "12月1日", and the shopping days of `_NAMED_DAYS`), in order; not today's, told as such (`_TODAY`)."""
    found = [(m.start(), d) for m in _DATE.finditer(text)
             if (d := _month_day(m)) is not None and not _TODAY.search(text[max(0, m.start() - 12):m.start()])
             and not _NOW_AFTER.match(text, m.end())]
    found += [(m.start(), _NAMED_DAYS[m.group()]) for m in _NAMED_DAY.finditer(text)]
    return [d for _, d in sorted(found)]


def date_ranges(text: str) -> list[tuple[MonthDay, MonthDay]]:
    """The ranges ``text`` states as two dates joined by "to", "and", "through", "until", "至", "到" or a dash
    ("from november 15 to december 24", "11月15日至12月24日")."""
    matches = list(_DATE.finditer(text))
    return [(first, last) for a, b in zip(matches, matches[1:])
            if _RANGE_JOINER.match(text[a.end():b.start()])
            and (first := _month_day(a)) is not None and (last := _month_day(b)) is not None]


def in_range(day: MonthDay, first: MonthDay, last: MonthDay) -> bool:
    """Whether ``day`` falls in ``first``..``last`` (both included; a range may run over the new year)."""
    return first <= day <= last if first <= last else (day >= first or day <= last)


# A policy's date range is when an item came, for its return: a date in a message that asks no return, exchange or
# refund ("I ordered on December 3, when will it ship?", "我12月3号下的单，什么时候发货？") holds none (stop 59's sweep: the
# holiday returns led), nor one in a message that cancels.
_EXCHANGE_OR_REFUND = re.compile(r"\b(refund|exchange)|换货", re.I)


class SectionDates:
    """The date ranges each of a list of texts states (`date_ranges`), and which of them hold a query's dates."""

    def __init__(self, texts: list[str]) -> None:
        self.ranges = [date_ranges(text) for text in texts]

    def holding(self, query: str) -> set[int]:
        """Indexes of the texts with a range that holds a date ``query`` names (`dates_in`)."""
        return self.holding_and_missing(query)[0]

    def holding_and_missing(self, query: str) -> tuple[set[int], set[int]]:
        """Indexes of the texts with a range that holds a date ``query`` names, and of those with ranges that hold
        none of them (none where it names none, or asks no return, exchange or refund)."""
        days = dates_in(query) if (RETURN_WORDS.search(query) or _EXCHANGE_OR_REFUND.search(query)) and not (
            CANCEL.search(query)) else []  # an order cancelled came on no day: "我12月3号下的单，后来取消了…" (stop 61)
        held = {i for i, ranges in enumerate(self.ranges) if any(in_range(d, *r) for d in days for r in ranges)}
        return held, {i for i, ranges in enumerate(self.ranges) if days and ranges and i not in held}
