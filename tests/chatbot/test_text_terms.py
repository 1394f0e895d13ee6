"""Text terms: index terms, phrase text, sentence splitting and language detection."""

import pytest

from chatbot.text_terms import detect_lang, phrase_text, split_keywords, split_sentences, tokenize


def test_an_a_not_a_question_reads_as_its_a():
    """"能不能退" asks "能退" ("can I return it?"): read whole, its "不能" ("cannot") found the non-returnable items
    for "已拆封的耳机能不能退？" (2026-12-03). The phrases read it the same way."""
    assert tokenize("能不能退") == tokenize("能退") and "不能" not in tokenize("可不可以退")
    assert tokenize("不能退") != tokenize("能退")  # a plain "cannot" stays
    assert phrase_text("运费是不是要我自己出？") == " 运费是要我自己出 "


def test_on_earth_is_read_out_of_a_chinese_phrase():
    """"到底"/"究竟" stress a question: "退款到底什么时候到" matched standard shipping's "什么时候到", not the refund's
    "退款什么时候到" (stop 54's sweep)."""
    assert phrase_text("退款到底什么时候到！！！") == phrase_text("退款什么时候到") == phrase_text("退款究竟什么时候到")


def test_customer_custom_and_customs_are_three_words():
    """Snowball stems "customer" and "customs" to "custom" (made to order): "Who pays customs?" found the payment
    methods, and an agent's "Customer wants to return a mattress after 40 days" the non-returnable custom items."""
    assert len({tokenize(word)[0] for word in ("customer", "custom", "customs")}) == 3
    assert tokenize("customers") == tokenize("customer")
    assert tokenize("package") != tokenize("packaging")  # "wheres my packge" found the original packaging (stop 42)


def test_installments_are_not_installing():
    """Snowball stems "installments" and "installed" to "instal": installing found Klarna's (stop 62)."""
    assert tokenize("installments instalments installment") == ["installment"] * 3
    assert "installment" not in tokenize("install installed installation")


def test_words_that_name_no_topic_where_they_stand_are_no_terms():
    """A number word counting days, a phone's accessory, "same" but of the same day (stop 45's sweeps: the
    two-factor authentication, the agents' phone line, the same-day dispatch)."""
    assert tokenize("I bought it two weeks ago, on day two") == tokenize("I bought it weeks ago, on day")
    assert "two" in tokenize("two-factor") and "phone" in tokenize("your phone number")
    assert "phone" not in tokenize("Can I return a phone case?")
    assert "same" not in tokenize("add it to the same order") and "same" in tokenize("ships the same day")


def test_tokenize():
    assert tokenize("Returns returned RETURNING") == ["return"] * 3
    assert tokenize("the shipping charges") == tokenize("shipped charge")
    # Snowball stems: "ships internationally" in the policy is what "international shipping" asks for.
    assert tokenize("internationally cancellation") == tokenize("international cancel")
    tokens = tokenize("退款到账 PayPal")
    assert {"退款", "到账", "款到", "退", "paypal"} <= set(tokens)
    assert tokenize("３０天") == tokenize("30天")
    # "can't" (straight or curly) is the policies' "cannot".
    assert tokenize("items can't be returned") == tokenize("items can\u2019t be returned") == tokenize("items cannot be returned")


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("How long do I have to return a lamp?", "en"),
        ("我的退款什么时候到账", "zh"),
        ("我用 PayPal 付的款，refund 退到哪里？", "zh"),
        ("Can I return the 台灯 I bought last week for my grandmother?", "en"),
        ("", "en"),
        ("12345", "en"),
    ],
)
def test_detect_lang(text, lang):
    assert detect_lang(text) == lang


def test_split_sentences():
    text = "Call 1-800-555-0199, 8 a.m.–8 p.m. ET. The fee is $5.99! Really? 退款已办理。到账需要3–10个工作日。"
    parts = split_sentences(text)
    assert "".join(parts) == text
    assert [p.strip() for p in parts] == [
        "Call 1-800-555-0199, 8 a.m.–8 p.m. ET.",
        "The fee is $5.99!",
        "Really?",
        "退款已办理。",
        "到账需要3–10个工作日。",
    ]


def test_a_phrase_with_a_word_of_symbols_alone_is_refused():
    """Matching drops "$$": the phrase "my $$ back" was " my back ", which "My back is killing me…" found (stop 62)."""
    assert split_keywords('refund, "get my back"')[1] == [" get my back "]
    with pytest.raises(ValueError, match="symbols alone"):
        split_keywords('refund, "get my $$ back"')
