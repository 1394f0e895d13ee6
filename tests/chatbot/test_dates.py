import pytest

from chatbot.dates import SectionDates, date_ranges, dates_in, in_range
from chatbot.text_terms import phrase_text


@pytest.mark.parametrize("text, expected", [
    ("12月1日买的台灯", [(12, 1)]), ("我12月1号收到的", [(12, 1)]), ("I got it on Dec. 1st", [(12, 1)]),
    ("the 3rd of December", [(12, 3)]), ("Sept 30 or October 2", [(9, 30), (10, 2)]),
    ("May I return it?", []), ("12/1", []),  # "may" names no day; a numeric date's order is the writer's
    ("December 41", []), ("13月1日", []),
    ("敝人于十二月十日收到商品", [(12, 10)]), ("十一月二十号收到的", [(11, 20)]), ("二十三月五日", []),  # stop 45's sweep
    # a shopping day a purchase was on (stop 58's sweep), not one a sale is asked of
    ("i bought it on black friday", [(11, 26)]), ("黑五买的电视", [(11, 26)]), ("网络星期一下单的", [(11, 29)]),
    ("got one on cyber monday and one on december 1", [(11, 29), (12, 1)]),
    ("will there be a black friday sale", []), ("黑五有活动吗", []),
    # today's date, told to count from, is no day anything came (stop 62's sweep)
    ("10月8号送到的，现在已经11月20号了", [(10, 8)]), ("delivered oct 8 and today is nov 20", [(10, 8)]),
    ("今天都6月9号了", []), ("我今天12月1日收到的台灯", [(12, 1)]),  # "今天" alone may be the day it came
])
def test_dates_in(text, expected):
    assert dates_in(phrase_text(text)) == expected


def test_the_holiday_season_s_range_in_both_languages(kb):
    for lang in ("en", "zh"):
        text = phrase_text(kb.get("returns.holiday-season", lang).text)
        assert date_ranges(text) == [((11, 15), (12, 24))], lang  # "until January 31" is one date, not a range


def test_in_range_includes_both_ends_and_runs_over_the_new_year():
    assert in_range((11, 15), (11, 15), (12, 24)) and in_range((12, 24), (11, 15), (12, 24))
    assert not in_range((12, 25), (11, 15), (12, 24)) and not in_range((11, 14), (11, 15), (12, 24))
    assert in_range((1, 2), (12, 20), (1, 5)) and not in_range((1, 6), (12, 20), (1, 5))


def test_section_dates_holding():
    dates = SectionDates([phrase_text("From November 15 to December 24."), phrase_text("Within 30 days.")])
    assert dates.holding(phrase_text("bought on December 1, can I return it?")) == {0}
    assert dates.holding(phrase_text("bought on December 28, can I return it?")) == set()
    assert dates.holding(phrase_text("bought last week, can I return it?")) == set()


def test_section_dates_holding_and_missing():
    """Stop 44's sweep: the texts whose ranges hold none of the dates named ("delivered to me on December 28" got
    the holiday returns by "December"); none where no date is named, and none for a text without ranges."""
    dates = SectionDates([phrase_text("From November 15 to December 24."), phrase_text("Within 30 days.")])
    assert dates.holding_and_missing("delivered on december 28 can i return it") == (set(), {0})
    assert dates.holding_and_missing("delivered on december 1 can i return it") == ({0}, set())
    assert dates.holding_and_missing("delivered last week can i return it") == (set(), set())


@pytest.mark.parametrize("query", ["i ordered on december 3 when will it ship", "我12月3号下的单 什么时候发货",
                                   "delivered on december 1"])
def test_a_date_counts_only_for_a_return(query):
    """Stop 59's sweep: a date range is when an item came, for its return; a date in a message that asks no return,
    exchange or refund holds none ("I ordered on December 3, when will it ship?" led with the holiday returns)."""
    dates = SectionDates([phrase_text("From November 15 to December 24."), phrase_text("Within 30 days.")])
    assert dates.holding_and_missing(query) == (set(), set())
    assert dates.holding_and_missing(f"{query} 能退吗") != (set(), set())
