"""What a message tells has happened to its order: it shipped, or has not; it was delivered; it came broken; it was
charged; the customer asks to cancel it. The intents (`chatbot.intents`) route on these."""
from __future__ import annotations

import re

from chatbot.chinese_script import to_simplified
from chatbot.durations import durations

# A product broken when it came ("沙发今天到了，但是一条腿断了", "收到的时候就裂了", "The chair arrived broken", "came with a rip")
# was damaged in transit; not one that broke a while after ("收到一周后坏了"; "came with a broken leg" is a keyword).
ARRIVED_BROKEN = re.compile(r"(到了|到货|收到|送到|送来|寄到)[^。！？!?后]{0,10}?(坏|断|裂|碎|破|变形|凹)|"
                            r"\b(arrived|came|showed up)( \w+){0,2} (broken|broke|cracked|damaged|smashed|shattered|"
                            r"dented|split|scratched|torn|ripped|bent|chipped)\b|"
                            # "the lamp I got has a dent" too (stop 59's sweep: refused)
                            r"\b((arrived|came|showed up) with|(i|we) (just )?(got|received)( \w+){0,2} "
                            r"(has|had|have)) (a |an )?(\w+ )?(rip|tear|hole|scratch|dent|crack|chip)s?\b|"
                            r"\b(broken|cracked|damaged|smashed) \w+ (that|which) (arrived|came)\b", re.I)
# A delivered order is past cancelling: "I changed my mind about the sofa, it was delivered yesterday" is a return.
DELIVERED = re.compile(r"\b(was|were|been|got|it'?s|they'?re) delivered\b|\barrived\b|"
                       r"\b(it|they|order|package|parcel) came\b|已经(送到|签收|收到)|已(签收|送达)|送到了|收到了|收到货", re.I)
# An order that has shipped ("It already shipped", "已经发货了"); "hasn't shipped", "if it's shipped", "还没发货" not.
SHIPPED = re.compile(r"(?<!\bif )(?<!\bonce )(?<!\bwhen )\b(already|has|have|it'?s|was|were) (been )?"
                     r"(shipped|dispatched)\b|\b(it|they|order) (already )?(shipped|dispatched)\b|已经发货|已发货|发货了|"
                     r"发出了|已经发出|已发出|已经出货|已出货|出货了|发出去了|寄出去了|已经寄出", re.I)
# ... and one that has not, asked of cancelling ("Is it too late to cancel? I ordered 3 hours ago but it hasn't").
NOT_SHIPPED = re.compile(r"\b(hasn'?t|has not|haven'?t|have not|didn'?t|did not|not)( yet)? (been )?"
                         r"(shipped|dispatched)\b|还没(有)?发货|未发货|没(有)?发货|还没(有)?寄出", re.I)
CANCEL = re.compile(r"\bcancel|取消", re.I)
# The order's total told ("If my order is $49, do I pay shipping?", "订单只有45美元要付运费吗"), beside its shipping:
# the standard shipping's free threshold, not a return's label fee (stop 62).
ORDER_TOTAL = re.compile(r"\border (is|was|totals?|comes to|of) (only |just |about |around |under )?\$\s?\d|"
                         r"\$\d+(\.\d+)? order\b|订单(只有|是|才|金额是?)?\d+(\.\d+)?(美元|刀|块)", re.I | re.A)
# Charged already, for an order cancelled: the authorization hold that drops off, not the free cancellation
# ("I was charged for an order I cancelled within 10 minutes. When will that money come back?"; stop 51).
CHARGED = re.compile(r"\b(was|were|been|got|still) (charged|billed)\b|\bcharged me\b|\bpending (charge|hold)|"
                     r"扣了|已扣|已经扣|被扣|扣款了", re.I)  # pending: "I see a pending charge of $45 but I cancelled" (stop 61)


def says_it_shipped(text: str) -> bool:
    """Whether ``text`` says the order has shipped ("It already shipped", "It was dispatched", "已经发货了")."""
    return bool(SHIPPED.search(to_simplified(text)))


def past_cancelling(text: str) -> bool:
    """Whether ``text`` says its order came (`DELIVERED`) or, asking no cancelling and telling no order unshipped, that
    a week or more has passed: "I changed my mind about the rug, it's been 10 days" is a return (stop 61)."""
    return bool(DELIVERED.search(text)) or not (CANCEL.search(text) or NOT_SHIPPED.search(text)) and any(
        d.unit in ("week", "month", "year") or d.unit == "day" and (d.number or 0) >= 7 for d in durations(text))
