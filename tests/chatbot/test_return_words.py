"""The words that name a return, shared by the intents and the date ranges, and a refund asked within the window."""
import pytest

from chatbot.return_words import RETURN_WORDS, UNOPENED, WINDOW_ASKED


@pytest.mark.parametrize("text", ["Can I return it?", "I returned a lamp", "how do I send it back", "我想return这个",
                                  "能退吗", "退订单", "寄回去"])
def test_a_return_is_named(text):
    assert RETURN_WORDS.search(text)


@pytest.mark.parametrize("text", ["How do I unsubscribe? 退订邮件", "怎么退出登录", "退休了", "Can I send it today?"])
def test_other_words_name_no_return(text):
    assert not RETURN_WORDS.search(text)


@pytest.mark.parametrize(("text", "asked"), [
    ("Can I get a refund within 60 days?", True), ("full refunds on anything within ninety days", True),
    ("Will I get my refund within 5 days?", False), ("refunded within 5 business days", False),
    ("90天内能退款吗？", True), ("5天内能退款吗？", False)])  # stop 62
def test_a_span_of_weeks_asks_the_return_window(text, asked):
    assert bool(WINDOW_ASKED.search(text)) is asked


@pytest.mark.parametrize(("text", "unopened"), [
    ("电视没拆封", True), ("未开封的耳机", True), ("I haven't opened it", True), ("It's still sealed", True),
    ("an unopened lamp", True), ("拆封了", False), ("I opened the box", False)])
def test_nothing_opened(text, unopened):
    assert bool(UNOPENED.search(text)) is unopened
