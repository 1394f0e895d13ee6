"""The words that name a return: what `intents` reads as a return asked (and a refund asked within a span of weeks,
the return window's), and what makes a date in a message count against a policy's date range
(`dates.SectionDates`)."""
from __future__ import annotations

import re

# "return", "send it back", 退 (but not 退订 "unsubscribe", 退出 "log out", 退休 "retire"; 退订单 is a return), 寄回.
RETURN_WORDS = re.compile(r"\breturn|\bsend (it|them|this|that|(the|my) \w+) back\b|退(?!订(?!单)|[出休])|寄回",
                          re.I | re.A)
# A span of weeks a refund is asked within ("Can I get a refund within 60 days?"): the return window's question, not
# the refund's timing (5 business days), whose own spans are single digits.
WINDOW_ASKED = re.compile(r"\b(within|up to|for) (\d{2,3}|thirty|sixty|ninety) days\b|"
                          r"(\d{2,3}|三十|六十|九十)天(之内|以内|内)", re.I | re.A)  # "90天内能退款吗？" (stop 62)
# Nothing opened ("电视没拆封", "未开封的耳机", "It's still sealed"): no restocking fee, which is for opened electronics.
UNOPENED = re.compile(r"(没有?|未|还没有?)(拆封|开封|拆开|拆|开箱|打开)|\bunopened\b|\bnever (been )?opened\b|"
                      r"\b(haven'?t|have not|hasn'?t|has not|didn'?t|did not|not|never) (been |even |yet )?opened\b|"
                      r"\bstill (sealed|in (the|its) (original )?(box|packaging|shrink ?wrap))\b", re.I | re.A)
