"""What no policy covers (`chatbot.uncovered`), by kind, and what stays covered beside it."""
from __future__ import annotations

import pytest

from chatbot.uncovered import not_ours


@pytest.mark.parametrize(("question", "reason"), [
    ("Do you sell laptops?", "catalog"), ("沙发有货吗？", "catalog"),
    ("What's IKEA's return policy?", "out_of_scope"), ("How do I cancel my Netflix subscription?", "out_of_scope"),
    ("What's the weather like tomorrow?", "out_of_scope"), ("Write me a poem about refunds", "out_of_scope"),
    ("What is the return on investment for index funds?", "out_of_scope"),
    ("How long is the warranty on a Toyota Corolla?", "out_of_scope"), ("推荐一款好用的笔记本电脑", "out_of_scope"),
    # Stop 44's sweeps: the e-mail change, the shipping charges' refund answered
    ("Write a reply email to a customer apologizing for the delay", "out_of_scope"), ("有运费险伐", "out_of_scope"),
    ("Do you offer shipping insurance?", "out_of_scope"),
    ("Do you charge in USD or can I pay in Canadian dollars?", "out_of_scope"),  # the charge's timing
    ("可以退人民币吗？汇率怎么算？", "out_of_scope"), ("What's the legal age to buy from Northwind?", "out_of_scope"),
    ("What's the best credit card for cashback rewards?", "out_of_scope"),
    ("Write me a funny poem about forgetting my password.", "out_of_scope"),  # the password reset
    ("How hot does the electric kettle get before it switches off?", "catalog"),  # the dispatch
    # Stop 45's sweeps: jobs, a shop's hours, bulk prices, a product to recommend (the refund timing by "warehouse",
    # the agents' hours, the electronics' warranty)
    ("Are you hiring? I'd like to apply for a warehouse job.", "out_of_scope"), ("你们公司招客服吗，怎么投简历", "out_of_scope"),
    ("What time does your store open on Sundays?", "out_of_scope"), ("公司采购100台显示器有批发价吗", "out_of_scope"),
    ("Which robot vacuum would you recommend for pet hair?", "out_of_scope"),
    ("Do you have a login with Google or Apple option?", "out_of_scope"),  # Apple Pay
])
def test_what_no_policy_covers_has_a_reason(question, reason):
    assert not_ours(question, question) == reason


@pytest.mark.parametrize("question", [
    "How much is express shipping?",  # a priced policy, not the catalogue
    "Hi, my email is sam.lee@gmail.com, how long do refunds take?",  # an address names no service
    "My car charger stopped working", "支持京东白条吗？", "How long do I have to return a lamp?",
    "What email address should I write to?",
    "I paid with a gift card, if I return it do I get cash back?",
    "价格调整的14天从哪天算起？",  # refused as the catalogue's (stop 44's sweep)
    "What are your live chat hours?", "Can I return an order I placed for my store?",
])
def test_covered_questions_have_none(question):
    assert not_ours(question, question) is None
