"""The words that name a return: what `intents` reads as a return asked, and what makes a date in a message count
against a policy's date range (`dates.SectionDates`)."""
from __future__ import annotations

import re

# "return", "send it back", 退 (but not 退订 "unsubscribe", 退出 "log out", 退休 "retire"; 退订单 is a return), 寄回.
RETURN_WORDS = re.compile(r"\breturn|\bsend (it|them|this|that|(the|my) \w+) back\b|退(?!订(?!单)|[出休])|寄回",
                          re.I | re.A)
