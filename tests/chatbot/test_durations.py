from datetime import date

import pytest

import chatbot.durations

from chatbot.durations import Duration, durations, past_the_return_window


@pytest.mark.parametrize("text, expected", [
    ("It's been 2 weeks", [Duration("2", "week")]),
    ("a few days ago", [Duration("few", "day")]),
    ("I bought it two years ago, it broke after 3 months", [Duration("two", "year"), Duration("3", "month")]),
    ("bought it last year", [Duration("1", "year")]),
    ("两周了", [Duration("两", "week")]),
    ("2个小时前下的单", [Duration("2", "hour")]),
    ("买了1个多月", [Duration("1", "month")]),
    ("去年买的", [Duration("1", "year")]),
    ("上周买的", [Duration("1", "week")]), ("上个月收到的", [Duration("1", "month")]),
    ("I bought it last week", [Duration("1", "week")]), ("last month", [Duration("1", "month")]),
    ("用了半年", [Duration("半", "year")]),
    # Minutes (2026-12-03): "I placed it 10 minutes ago" after "Can I cancel my order?" was refused.
    ("I placed it 10 minutes ago", [Duration("10", "minute")]), ("30min ago", [Duration("30", "minute")]),
    ("我10分钟前下的单", [Duration("10", "minute")]),
    # Chat's abbreviations (stop 42: "my chair leg snapped after 2 yrs" was outlined with the early defects).
    ("after 2 yrs", [Duration("2", "year")]), ("3wks ago", [Duration("3", "week")]),
    ("2 mos", [Duration("2", "month")]),
    # A day counted from delivery (stop 47: "Can I return it on day 31?" found the holiday returns' January 31).
    ("Can I return it on day 31?", [Duration("31", "day")]),
    ("It's day 3 and still no tracking", [Duration("3", "day")]),
])
def test_durations_reads_counts_and_units(text, expected):
    assert durations(text) == expected


@pytest.mark.parametrize("text", ["3月买的", "I ordered 3 items", "Where is my order?", "订单号12345",
                                  "Is there a min order?"])
def test_dates_and_other_numbers_are_no_durations(text):
    assert durations(text) == []  # "3月" is March: a Chinese month needs its measure word


@pytest.mark.parametrize("text, one", [("a month", True), ("一个月", True), ("半个月", True), ("1 year", True),
                                       ("few weeks", False), ("2 months", False), ("三个月", False)])
def test_at_most_one_is_a_count_of_one_or_a_half(text, one):
    assert durations(text)[0].at_most_one is one


@pytest.mark.parametrize("text, number", [("31 days", 31), ("two weeks", 2), ("六个星期", 6), ("四十五天", 45),
                                          ("十天", 10), ("两个月", 2), ("a few days", None), ("几天", None)])
def test_a_duration_s_count_as_a_number(text, number):
    """Stop 42: days and weeks past the 30-day window count ("六个星期前买的" kept the early defects)."""
    assert durations(text)[0].number == number


@pytest.mark.parametrize(("text", "today", "days"), [
    ("I bought it last Christmas", date(2026, 12, 3), "343"),  # stop 43's sweep: outlined with the early defects
    ("got it last Black Friday", date(2026, 12, 3), "6"),  # November 27, 2026
    ("a present from last xmas", date(2027, 1, 5), "11"),
    ("last black friday", date(2025, 11, 29), "1"),  # November 28, 2025
])
def test_last_christmas_and_black_friday_are_days_before_today(monkeypatch, text, today, days):
    monkeypatch.setattr(chatbot.durations, "today", lambda: today)
    assert durations(text) == [Duration(days, "day")]


@pytest.mark.parametrize(("text", "past"), [
    ("My headphones broke after 13 months", True), ("It's 5 weeks old", True), ("bought it 40 days ago", True),
    ("The warranty on my microwave expired last week", True), ("My TV is out of warranty", True),
    ("保修期已经过了", True), ("电视过保了", True),
    ("It's a month old", False), ("I got it 2 weeks ago", False), ("Has the warranty expired?", True),
    ("How long is the warranty?", False), ("买了三天", False),
])
def test_past_the_return_window_reads_ages_and_a_warranty_run_out(text, past):
    assert past_the_return_window(text) is past
