"""Traditional Chinese: detected, read in simplified characters, answered in traditional ones."""
from chatbot.chinese_script import is_traditional, to_simplified, to_traditional
from chatbot.planner import Answer, AnswerDone, OutlineReady, PointDelta, PointDone, in_traditional


def test_traditional_messages_are_told_from_simplified_ones():
    assert is_traditional("我想退貨，運費誰付？")
    assert is_traditional("密碼重置連結多長時間有效？")
    assert not is_traditional("我想退货，运费谁付？")
    assert not is_traditional("收到的杯子碎了")  # characters both scripts share: read as simplified
    assert not is_traditional("Can I return it?") and not is_traditional("")


def test_conversion_keeps_numbers_amounts_and_latin_text():
    text = "送达后30天内可以退货，标签费$5.99，Apple Pay 和 PayPal 都可以。"
    traditional = to_traditional(text)
    assert traditional == "送達後30天內可以退貨，標籤費$5.99，Apple Pay 和 PayPal 都可以。"
    assert is_traditional(traditional) and to_simplified(traditional) == text
    assert to_traditional("请客服代为发起") == "請客服代為發起"  # Taiwan's and Hong Kong's 為, not 爲



def test_money_s_and_account_s_zhang_reads_as_the_knowledge_base_writes_it():
    """OpenCC reads 帳 as 帐, and the knowledge base writes 账号, 账户, 到账: "請問退款什麼時候到帳？" missed the bank's
    "到账" and got standard shipping's "什么时候到". A tent (帐篷) keeps its 帐."""
    assert to_simplified("請問退款什麼時候到帳？我的帳號、帳戶和帳單") == "请问退款什么时候到账？我的账号、账户和账单"
    assert to_simplified("帳篷能退嗎？") == "帐篷能退吗？"
    assert not is_traditional("我的帐号被锁了")  # a simplified message that writes 帐号 stays simplified


def test_taiwan_s_words_read_as_the_knowledge_base_s():
    """"延長保固多少錢？可以之後再買嗎？" was refused as a catalogue question (保固 is Taiwan's warranty), and
    "要多久內回報？" (report) got the refund timing."""
    assert to_simplified("延長保固多少錢？") == "延长保修多少钱？"
    assert to_simplified("退費要多久？刷退會退到哪？鑑賞期幾天？") == "退款要多久？退款会退到哪？退货期限几天？"
    assert to_simplified("包裹遺失了要多久內回報？宅配幾天到？") == "包裹遗失了要多久内报告？配送几天到？"


def test_written_cantonese_words_read_as_mandarin_ones():
    """Stop 43's sweep: "請問點樣退貨？" (how) got the return window, "請問幾時扣款？" (when) a second point."""
    assert to_simplified("請問點樣退貨？") == "请问怎么退货？"
    assert to_simplified("可唔可以退貨？我冇收到貨，幾時到？") == "可不可以退货？我没有收到货，什么时候到？"



def test_chat_spellings_and_typos_of_shop_words_are_read():
    """Stop 44's sweep: "包油吗" (free shipping) and "运废谁出" (the return's fee) were refused; the text is not thereby
    traditional."""
    assert to_simplified("包油吗 运废谁出 肿么退货 神马时候发货") == "包邮吗 运费谁出 怎么退货 什么时候发货"
    assert not is_traditional("包油吗")
    outline = OutlineReady("sot", "returns", ["退货时限", "退货运费"], ["returns.time-limit", "returns.shipping-fees"],
                           "zh")
    assert in_traditional(outline).points == ["退貨時限", "退貨運費"]
    assert in_traditional(outline).sources == outline.sources  # ids stay as they are
    assert in_traditional(PointDelta(1, "运费")) == PointDelta(1, "運費")
    assert in_traditional(PointDone(0, "30天内", "grounding")) == PointDone(0, "30天內", "grounding")
    answer = Answer("- 退货时限：30天内", "sot", "returns", ["退货时限"], ["returns.time-limit"], "zh", {}, {})
    shown = in_traditional(AnswerDone(answer)).answer
    assert (shown.answer, shown.outline, shown.category) == ("- 退貨時限：30天內", ["退貨時限"], "returns")


def test_taiwan_s_shipped_and_pinyin_homophones_are_the_shop_s_words():
    """Stop 45's sweeps: "已經出貨了還可以改地址嗎" got what to do after shipment, "退活要在几天之内办" the refund timing,
    "登入不了" and "怎麼改電郵" were refused;
    "预订当天" and "最快第二天" keep their words (订当 and 快第 are typos of 订单 and 快递 elsewhere)."""
    assert to_simplified("已經出貨了 退活 保休 密马 登入不了 怎麼改電郵") == "已经发货了 退货 保修 密码 登录不了 怎么改邮箱"
    assert to_simplified("邮费多少") == "运费多少"
    assert to_simplified("预订当天 最快第二天") == "预订当天 最快第二天"


def test_cantonese_taiwan_words_and_pinyin_homophones_are_read():
    """Stop 46's sweeps: "梳化嘅保養有幾耐？" (a sofa's warranty) was refused, 信箱 (Taiwan's e-mail box) found the PO box
    of express shipping, "推款" (a pinyin keyboard's 退款) the standard shipping; the longest word is read first."""
    assert to_simplified("梳化嘅保養有幾耐？") == "沙发的保修有多久？"
    assert to_simplified("個盒已經爛咗，退錢退返張卡，仲未到，唔該晒") == "个盒已经坏了，退款退回张卡，还没到，谢谢"
    assert to_simplified("我想換帳號綁定的信箱") == "我想换账号绑定的邮箱"
    assert to_simplified("可以寄到郵政信箱嗎") == "可以寄到邮政信箱吗"  # the post's box stays the post's
    assert to_simplified("推款 推货 发获了 收获地址 保秀") == "退款 退货 发货了 收货地址 保修"
