"""The patterns that tell of a product problem (no model)."""
from __future__ import annotations

import pytest

from chatbot.product_problems import (ACCIDENT_DENIED, CLAIM_ASKED, DEFECT, DEFECT_SUPPOSED, LOST_PART, PHONE,
                                      WRONG_ITEM)


@pytest.mark.parametrize(("text", "found"), [
    ("My TV doesn't turn on", True), ("The chair leg broke", True), ("椅子腿断了", True), ("耳机没声音了", True),
    ("The drawer is stuck", True), ("warranty多久？最近心情坏了", False), ("Nothing is broken, I just don't like it", False),
    ("I'm broke, can I pay in installments?", False),
])
def test_defect(text, found):
    assert bool(DEFECT.search(text)) is found


@pytest.mark.parametrize(("text", "found"), [("如果是坏的呢？", True), ("要是东西是坏的怎么办", True), ("这是坏的", False)])
def test_defect_supposed(text, found):
    assert bool(DEFECT_SUPPOSED.search(text)) is found


@pytest.mark.parametrize(("text", "found"), [
    ("my phone keeps crashing", True), ("手机充不上电", True), ("my phone number changed", False), ("手机号换了", False),
])
def test_phone(text, found):
    assert bool(PHONE.search(text)) is found


@pytest.mark.parametrize(("text", "found"), [("My vacuum lost suction", True), ("My parcel was lost", False)])
def test_lost_part(text, found):
    assert bool(LOST_PART.search(text)) is found


@pytest.mark.parametrize(("text", "found"), [
    ("You sent me a blue toaster instead of the red one", True), ("I ordered white but got blue", True),
    ("我买的是红色的，收到的是蓝色的", True), ("沙发颜色和我订的不一样", True),
    ("You sent me the wrong color mattress topper", True),
    ("I ordered a lamp last week", False), ("Can I get it in blue instead?", False),
])
def test_wrong_item(text, found):
    assert bool(WRONG_ITEM.search(text)) is found


@pytest.mark.parametrize(("text", "found"), [
    ("从来没摔过也没进水", True), ("I never dropped it", True), ("It wasn't dropped", True),
    ("我把它摔了", False), ("I dropped my laptop", False)])
def test_accident_denied(text, found):
    assert bool(ACCIDENT_DENIED.search(text)) is found


@pytest.mark.parametrize(("text", "found"), [
    ("how do I get it fixed under warranty?", True), ("How do I file a claim?", True), ("我想申请保修", True),
    ("多久能修好？", True), ("需要提供什么材料？", True), ("How long is the warranty?", False), ("保修多久？", False)])
def test_claim_asked(text, found):
    assert bool(CLAIM_ASKED.search(text)) is found
