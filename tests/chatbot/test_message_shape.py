"""How a message asks (`chatbot.message_shape`): its asking clauses, its separate questions, its shape."""
from __future__ import annotations

import pytest

from chatbot.message_shape import (asked_part, asking_clauses, clauses, is_open_question, plain_message,
                                   questions_asked, shape_mode, strip_courtesy, without_starting_event)


def test_shape_mode():
    assert shape_mode("How long is the warranty on electronics?") == "direct"
    assert shape_mode("How long do I have, and who pays for shipping?") == "sot"
    assert shape_mode("你们能寄到加拿大吗？要多久？") == "sot"
    assert shape_mode("标准配送和加急配送有什么区别？") == "sot"  # a comparison of both, as "and" asks (sweep 78)
    assert shape_mode("退货要多久，运费谁出？") == "sot"
    # A story that asks nothing is one message: its commas join what happened, not questions.
    assert shape_mode("我的订单到了，但少了一件。") == shape_mode("退款一周前就办了，但我的卡上还没看到。") == "direct"
    assert shape_mode("I want to return my lamp and get a refund") == "sot"
    # A story or a condition before one question: one clause asks ("$5.99" ends no clause).
    for one_question in ("I returned 1 of my 3 items, when will I get the money?", "If the price drops, do I get "
                         "the difference?", "我退了3件中的1件，钱什么时候到？", "Why did you deduct $5.99 from my refund?",
                         "我没有收据，还能退货吗？", "Hi, how long do returns take?"):
        assert shape_mode(one_question) == "direct", one_question
    assert shape_mode("How long do I have, who pays for shipping?") == shape_mode("退货、换货的政策是什么？") == "sot"
    assert shape_mode("我的卡被扣了两次，而且椅子降价了，怎么处理？") == "sot"
    # A question that names nothing asks about each told clause.
    assert shape_mode("账户被锁了，密码也重置不了，怎么办？") == shape_mode("被扣了两次钱，订单还没发货，怎么回事？") == "sot"
    for one_story in ("My order was cancelled, why?", "Hi, I ordered the wrong size, what do I do?", "订单被取消了，为什么？"):
        assert shape_mode(one_story) == "direct", one_story
    # Doubled question marks ask one question, louder.
    for one_question in ("Where is my refund??", "how long do returns take???", "退款怎么还没到？？"):
        assert shape_mode(one_question) == "direct", one_question


def test_clauses_split_at_commas_semicolons_and_sentence_ends():
    assert clauses("I want to return a lamp. How do I do it?") == ["I want to return a lamp.", " How do I do it?"]
    assert clauses("退货要多久，运费谁出？") == ["退货要多久，", "运费谁出？"]
    assert clauses("The fee is $5.99; it came at 8:00.") == ["The fee is $5.99;", " it came at 8:00."]


def test_asking_clauses_and_questions():
    assert asking_clauses("I lost my receipt, can I still return the lamp?") == [" can I still return the lamp?"]
    # A clause of time asks nothing without a question mark (the restocking fee was asked for "When I opened the
    # box,"); "When will I be charged," asks.
    assert asking_clauses("When I opened the box, the leg was bent. Can you send a replacement?") == [
        " Can you send a replacement?"]
    assert asking_clauses("When will I be charged, and is there a fee?") == ["When will I be charged,",
                                                                            " and is there a fee?"]
    assert asked_part("I have my receipt. How long is the warranty?") == " How long is the warranty?"
    assert asked_part("My order hasn't shipped yet") == "My order hasn't shipped yet"  # no question mark: all of it
    # A question that names nothing asks about what the message tells: all of it.
    assert asked_part("My refund was less than what I paid, why?") == "My refund was less than what I paid, why?"
    # A condition is part of what a clause asks.
    assert asked_part("I ordered a lamp. If I cancel, do I get a full refund?") == " If I cancel, do I get a full refund?"
    assert questions_asked("How do I return an item and how long until I get my refund?") == [
        "How do I return an item", "how long until I get my refund?"]
    assert questions_asked("退货要多久，还有运费谁出？") == ["退货要多久，", "运费谁出？"]
    assert questions_asked("Do you sell gift cards and gift wrap?") == [  # "and" starts no new question here
        "Do you sell gift cards and gift wrap?"]
    # Enumeration commas separate questions too (the whole was one question: no refund timing among its points).
    assert questions_asked("退款多久、退到哪、运费退不退？") == ["退款多久、", "退到哪、", "运费退不退？"]
    assert shape_mode("电视和沙发的保修分别多久？") == "sot"  # "分别", respectively: one answer each
    # A colon ends a clause ("So my questions: can I…" asked nothing before its question word); "8:00" does not.
    assert questions_asked("So my questions: can I return it for free, and how long will the refund take?") == [
        " can I return it for free,", "how long will the refund take?"]
    assert questions_asked("问题：退货要多久？运费谁出？") == ["退货要多久？", "运费谁出？"]
    assert asking_clauses("Do you ship before 8:00 pm?") == ["Do you ship before 8:00 pm?"]
    # Nor does a thousands separator ("$1,200" asked two questions, and the sofa's warranty joined the installments).
    assert questions_asked("Can I split my payment for a $1,200 sofa?") == ["Can I split my payment for a $1,200 sofa?"]
    assert questions_asked("Is Klarna only up to $1,000, and what does express cost?") == [
        "Is Klarna only up to $1,000,", "what does express cost?"]
    # "and get" starts a second request ("Can I cancel my order and get a refund to my gift card?" lost the
    # cancellation among its points, 2026-12-02).
    assert questions_asked("Can I cancel my order and get a refund to my gift card?") == [
        "Can I cancel my order", "get a refund to my gift card?"]
    # "or" before a second action asks a second question; between two things, one (2026-12-03).
    assert questions_asked("Can I add an item to my order or change the delivery address?") == [
        "Can I add an item to my order", "change the delivery address?"]
    assert shape_mode("Can I change my email or reset my password?") == "sot"
    assert shape_mode("Can I pay with PayPal or Klarna?") == "direct"
    # "或" before an action, the same in Chinese (zh-multi-16 asked to cancel or change the address as one question).
    assert questions_asked("能取消或改地址吗？能加商品吗？") == ["能取消", "改地址吗？", "能加商品吗？"]
    assert questions_asked("可以用PayPal或Klarna吗？") == ["可以用PayPal或Klarna吗？"]


def test_chinese_chat_parts_its_questions_with_spaces():
    """Stop 42's sweep: "退货的话运费谁出 多久能退款" was one clause, asked without a question mark, so the refund
    timing was dropped from its answer."""
    assert clauses("退货的话运费谁出 多久能退款") == ["退货的话运费谁出 ", "多久能退款"]
    assert clauses("我用Apple Pay 可以吗") == ["我用Apple Pay 可以吗"]  # a Latin word's space parts nothing
    assert shape_mode("退货的话运费谁出 多久能退款") == "sot"
    assert shape_mode("耳机进水了保修吗 能不能买延保") == "sot"
    assert shape_mode("地址写错了 能改吗") == "direct"  # one question


def test_chinese_chat_parts_its_questions_with_commas():
    """Stop 43's sweep: "怎么退货，退货运费谁出" asked two questions without a question mark and got one section; "好
    几次" (several times) and "几乎" (almost) ask nothing, so a story told with them is no second question."""
    assert shape_mode("怎么退货，退货运费谁出") == "sot"
    assert shape_mode("退货的话运费谁出，多久能退款") == "sot"
    assert shape_mode("密码输错好几次账号被锁了，要等多久") == "direct"
    assert shape_mode("几乎没用过，能退吗") == "direct"


def test_chinese_chat_asks_with_za_sha_and_a_final_bu():
    """Stop 44's sweep: "咋" (how), "啥" (what) and a question's closing "不" or "伐" ask; "想退货 咋操作 有啥要求不" was
    one question (the process alone), "降价了能退差价吗 优惠券结账后还能再用不" the promo codes alone."""
    assert questions_asked("想退货 咋操作 有啥要求不") == ["咋操作 ", "有啥要求不"]
    assert shape_mode("降价了能退差价吗 优惠券结账后还能再用不") == "sot"
    assert shape_mode("能寄日本伐 关税谁出") == "sot"
    assert asking_clauses("我不想要了") == []


def test_a_chinese_question_particle_marks_the_asked_part():
    """Stop 44's sweep: without a question mark the whole of "宝贝收到就是坏的 退货要钱吗" was asked, and the story's
    damaged parcels led; its closing "吗" marks what it asks."""
    assert asked_part("宝贝收到就是坏的 退货要钱吗") == "退货要钱吗"
    assert asked_part("宝贝收到就是坏的 退货要钱") == "宝贝收到就是坏的 退货要钱"


def test_courtesy_that_opens_a_message_is_set_aside():
    assert strip_courtesy("Hi! Quick question: how long do returns take?") == "how long do returns take?"
    assert strip_courtesy("Thank you so much, and how long is the warranty on a TV?") == (
        "how long is the warranty on a TV?")
    assert strip_courtesy("Hello?? Anyone there? I need to cancel my order!!!") == "I need to cancel my order!!!"
    assert strip_courtesy("在吗？我的订单到哪了？") == "我的订单到哪了？"
    assert strip_courtesy("谢谢！还有一个问题：支持PayPal吗？") == "支持PayPal吗？"
    assert strip_courtesy("客服在吗 我的订单到哪了") == "我的订单到哪了"  # stop 42: "客服在吗" asked for the agents
    assert strip_courtesy("亲 买的衣服能退吗") == "买的衣服能退吗"
    assert strip_courtesy("I love your store! Can I return a lamp?") == "Can I return a lamp?"  # the store credit
    # Nothing but courtesy stays whole (small talk answers it), and a word that merely starts alike stays.
    for whole in ("thanks", "Hi there!", "Okay", "还有吗", "Sofa returns?", "hippo", "welcome"):
        assert strip_courtesy(whole) == whole


def test_courtesy_that_closes_a_message_is_set_aside():
    """"time" and "help" are words of the policies: "Thank you so much for your time." brought the refund timing."""
    assert strip_courtesy("Hello, I hope you're doing well. Can I return a lamp? Thank you so much for your time.") == (
        "Can I return a lamp?")
    assert strip_courtesy("My order is late. Best regards, Ann Lee") == "My order is late."
    assert strip_courtesy("我的订单还没到。谢谢您的帮助！") == "我的订单还没到。"
    # Thanks inside a sentence, or after no sentence, stays.
    for whole in ("Can I thank the courier for his time?", "My order is late, thanks for your help"):
        assert strip_courtesy(whole) == whole


def test_a_plea_for_help_that_closes_a_message_is_set_aside():
    """"help" is the scope section's word: "... half the stuff is gone. Help?" was refused (stop 51)."""
    assert strip_courtesy("The box was open and half the stuff is gone. Help?") == (
        "The box was open and half the stuff is gone.")
    assert strip_courtesy("I was charged twice. Please help asap!") == "I was charged twice."
    assert strip_courtesy("My refund is late. Any help would be appreciated.") == "My refund is late."
    assert strip_courtesy("包裹被拆开了，少了两件东西。求助！") == "包裹被拆开了，少了两件东西。"
    assert strip_courtesy("My order never arrived. I need help!") == "My order never arrived."
    assert strip_courtesy("My order never arrived. Can you help me?") == "My order never arrived."
    # Thanks for earlier help opens a message too ("help" found standard shipping's "how long", stop 51).
    assert strip_courtesy("Thanks for the help earlier. One more: how long do refunds take?") == (
        "how long do refunds take?")
    assert strip_courtesy("One more item arrived broken") == "One more item arrived broken"
    # A plea alone, or one that asks for something, stays.
    for whole in ("Help!", "Please help me", "Can you help me track my order?", "I need help with my password."):
        assert strip_courtesy(whole) == whole


def test_an_indirect_question_asks():
    assert asking_clauses("I bought a lamp. I was wondering if I can return it.") == [
        " I was wondering if I can return it."]
    assert asking_clauses("I'd like to know the return window.") == ["I'd like to know the return window."]
    assert questions_asked("I'd like to know if I can get a refund, and whether I need to pay for the label.") == [
        "I'd like to know if I can get a refund,", "whether I need to pay for the label."]


def test_contact_details_a_customer_gives_are_set_aside():
    # "Hi, my email is sam.lee@gmail.com, how long do refunds take?" was answered with the email change (2026-12-02).
    assert plain_message("Hi, my email is sam.lee@gmail.com, how long do refunds take?") == "how long do refunds take?"
    assert plain_message("Can I return a lamp? My card is 4111 1111 1111 1111 and my e-mail is jo@example.com") == (
        "Can I return a lamp? My card is")  # a card number goes too
    assert plain_message("我的手机号是13800138000，订单什么时候发货？") == "订单什么时候发货？"
    assert plain_message("Order 55512 arrived damaged, email me at a@b.co") == "Order 55512 arrived damaged"
    # A message about changing the address keeps its words; only the addresses go.
    assert plain_message("How do I change my email from a@b.com to c@d.com?") == "How do I change my email from  to ?"
    assert plain_message("my email is jo@example.com") == plain_message("我的手机号是13800138000") == ""  # asks nothing
    assert shape_mode(plain_message("Can I return a lamp? My card is 4111 1111 1111 1111 and my e-mail is "
                                    "jo@example.com")) == "direct"  # the joining "and" went with the address


def test_where_a_customer_bought_is_set_aside():
    """"I recently purchased a lamp from your store" outlined the store credit ("store") for a return's process."""
    assert plain_message("I bought a lamp from your store. Can I return it?") == "I bought a lamp. Can I return it?"
    assert plain_message("我在你们店买的东西能退吗？") == "我买的东西能退吗？"
    assert plain_message("Can I return it at your store?") == "Can I return it at your store?"  # where, not whence


def test_the_middle_of_a_list_of_things_asked_asks_too():
    """"Can I still cancel it, change the address, or add an item?" lost its middle question (stop 54's sweep: the
    address change was no point); a told clause between two questions that end no list still tells."""
    message = "My order hasn't shipped. Can I still cancel it, change the address, or add an item?"
    assert [q.strip() for q in questions_asked(message)] == ["Can I still cancel it,", "change the address,",
                                                              "add an item?"]
    assert [c.strip() for c in asking_clauses("I lost my receipt, my order number is NW-1, can I return it?")] == [
        "can I return it?"]


@pytest.mark.parametrize(("question", "asked"), [
    ("How long after I drop it off will I get my refund?", "How long will I get my refund?"),
    ("How many days after I drop off the package will the refund arrive?", "How many days will the refund arrive?"),
    ("我把包裹寄回去之后多久能收到退款？", "多久能收到退款？"), ("仓库收到退货后多久退款？", "多久退款？"),
    *[("After I print the label, how long do I have to ship it?",) * 2],
    ("How long is the return window?", "How long is the return window?"),
])
def test_without_starting_event_leaves_what_a_how_long_question_asks(question, asked):
    assert without_starting_event(question) == asked


@pytest.mark.parametrize(("message", "is_open"), [
    ("can you send a new one?", True), ("Could you just send it again?", True),
    ("will you send me a replacement?", True),
    ("can I get a new one?", True), ("what can you do?", True), ("能换个新的吗？", True), ("可以补发吗", True),
    ("你们能做什么？", True),
    ("can I get a replacement?", False), ("Can you send me the return label?", False), ("能换货吗？", False),
])
def test_a_new_one_asked_for_names_nothing(message, is_open):
    assert is_open_question(message) is is_open
