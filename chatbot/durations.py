"""Spans of time as customers write them ("10 minutes", "2 weeks", "a few days", "三个月", "两周", "半年",
"last year", "on day 31"): how long ago something happened or how old a product is, read by the follow-ups and by
the defect intent."""

import re
from datetime import date, timedelta
from typing import NamedTuple

_EN_NUMBERS = {word: n for n, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split()) if n} | {"a": 1, "an": 1}
_EN_COUNT = "|".join([r"\d+", *_EN_NUMBERS, "several", "few"])
_EN_UNITS = {"minute": "minute", "hour": "hour", "day": "day", "week": "week", "month": "month", "year": "year"}
_ABBREVIATED_UNITS = {"hr": "hour", "wk": "week", "mo": "month", "yr": "year"}
# "3月" is March, not three months: a Chinese month needs its measure word, 个.
_ZH_UNITS = {"分钟": "minute", "小时": "hour", "天": "day", "周": "week", "星期": "week", "月": "month", "年": "year"}
_PATTERN = re.compile(
    rf"\b(?P<en_count>{_EN_COUNT})\s+(?P<en_unit>minute|hour|day|week|month|year)s?\b"
    r"|\b(?P<min_count>\d+)\s*mins?\b"  # "10 min", "30mins"; "a min order" is no time
    r"|\b(?P<abbr_count>\d+)\s*(?P<abbr_unit>hrs?|wks?|mos?|yrs?)\b"  # chat: "2 yrs", "3wks"
    r"|(?P<zh_count>\d+|[一两二三四五六七八九十几半]+)\s*(?:个多?)?(?P<zh_unit>分钟|小时|天|周|星期|(?<=个)月|(?<=个多)月|年)"
    r"|\bday (?P<day_nth>\d{1,3})\b"  # "on day 31": 31 days ("第31天" is the Chinese pattern's "31天")
    r"|(?P<last_year>去年|\blast year\b)"
    r"|(?P<last_unit>上周|上个?星期|上个?月|\blast (?:week|month)\b)"  # "上周买的": a week ago
    r"|\blast (?P<holiday>christmas|xmas|black friday)\b", re.I | re.A)
_ZH_DIGITS = {c: n for n, c in enumerate("零一二三四五六七八九", 0) if n} | {"两": 2}
_ONE_OR_LESS = frozenset({"a", "an", "one", "1", "一", "半"})


def zh_number(count: str) -> int | None:
    """A number written in Chinese numerals up to 99 ("六", "两", "十", "十五", "四十五"), else None."""
    tens, _, ones = count.partition("十")
    if "十" in count and all(c in _ZH_DIGITS for c in tens + ones):
        return _ZH_DIGITS.get(tens, 1) * 10 + _ZH_DIGITS.get(ones, 0)
    return _ZH_DIGITS.get(count)


class Duration(NamedTuple):
    count: str  # as written: "2", "a", "few", "两", "半"
    unit: str  # minute | hour | day | week | month | year

    @property
    def number(self) -> int | None:
        """The count as a number ("2", "two", "六", "四十五"), or None ("a few", "几")."""
        count = self.count.lower()
        if count.isdigit():
            return int(count)
        if count in _EN_NUMBERS:
            return _EN_NUMBERS[count]
        return zh_number(count)

    @property
    def at_most_one(self) -> bool:
        """Whether the count is one or a half ("a month", "一个月", "半个月"); "few" and the numbers above one are
        not."""
        return self.count.lower() in _ONE_OR_LESS


def _days_since(holiday: str, on: date) -> int:
    """Days from the last ``holiday`` ("christmas", "xmas", "black friday": the day after November's fourth
    Thursday) before the date ``on``."""
    def day_in(year: int) -> date:
        if holiday.lower() == "black friday":
            first = date(year, 11, 1)
            return first + timedelta(days=(3 - first.weekday()) % 7 + 22)
        return date(year, 12, 25)
    this_year = day_in(on.year)
    return (on - (this_year if this_year < on else day_in(on.year - 1))).days


def today() -> date:
    """The date that "last Christmas" is counted back from (tests fix it)."""
    return date.today()


def durations(text: str) -> list[Duration]:
    """Every span of time in ``text``, in order; "last year" and "去年" are a year ago ("last week", "上个月" a week,
    a month), "last Christmas" and "last Black Friday" as many days ago as they were before `today`."""
    found = []
    for match in _PATTERN.finditer(text):
        if match["holiday"]:
            found.append(Duration(str(_days_since(match["holiday"], today())), "day"))
        elif match["day_nth"]:
            found.append(Duration(match["day_nth"], "day"))
        elif match["last_year"]:
            found.append(Duration("1", "year"))
        elif match["last_unit"]:
            found.append(Duration("1", "month" if match["last_unit"].endswith(("月", "month")) else "week"))
        elif match["min_count"]:
            found.append(Duration(match["min_count"], "minute"))
        elif match["abbr_unit"]:
            found.append(Duration(match["abbr_count"], _ABBREVIATED_UNITS[match["abbr_unit"].lower().rstrip("s")]))
        elif match["en_unit"]:
            found.append(Duration(match["en_count"], _EN_UNITS[match["en_unit"].lower()]))
        else:
            found.append(Duration(match["zh_count"], _ZH_UNITS[match["zh_unit"]]))
    return found


# A warranty that has run out ("The warranty on my microwave expired last week", "out of warranty", "过保了"): the
# product is a year old or more, past the return window whatever the days it names.
_WARRANTY_OVER = re.compile(r"\bwarranty\b[^.?!,;]{0,30}?\b(expired|run out|ran out|ended|is over|was over|is up)\b|"
                            r"\b(out of|past the|past its|past my) warranty\b|保修期?(已经|早就?)?(过了|到期|过期|结束)|过保",
                            re.I)


def past_the_return_window(text: str) -> bool:
    """Whether ``text`` says the product is past the 30-day return window: over 30 days, 5 weeks or more, 2 months or
    more ("2 years ago", "13个月", "六个星期", "去年"), or its warranty has run out (`_WARRANTY_OVER`), where a defect
    is no return, so the early defects' section no longer applies ("My headphones broke after 13 months"). One month
    is too close to the window to tell."""
    if _WARRANTY_OVER.search(text):
        return True
    for d in durations(text):
        n = d.number
        if (d.unit == "year" or (d.unit == "month" and not d.at_most_one) or (d.unit == "day" and (n or 0) > 30)
                or (d.unit == "week" and (n or 0) >= 5)):
            return True
    return False
