"""Traditional Chinese messages, with OpenCC: they are read in simplified characters (the knowledge base, the
prompts and the guard's rules are written in them) and answered in traditional ones."""
from __future__ import annotations

import re
from functools import cache

import opencc


@cache
def _converter(config: str) -> opencc.OpenCC:
    return opencc.OpenCC(config)


# OpenCC reads 帳 (accounts and money, and a tent's 帐) as 帐; simplified Chinese writes money's and accounts' 账.
_MONEY_WORDS = re.compile("帐(号|户|单|上|款|目)|(到|入|对|记|结|转)帐")


# Taiwan's and Hong Kong's words for what the policies name otherwise (OpenCC changes characters, not these words):
# 保固 is the warranty (保修), 退費 and 刷退 a refund, 鑑賞期 the return window, 回報 a report, 宅配 a home delivery;
# written Cantonese's 點樣 is how (怎么), 幾時 when, 冇 has not, 唔 not, 咗 a done deed, 嘅 of, 乜嘢 what, 邊度 where,
# 點解 why, 俾 give ("請問點樣退貨？" got the return window, "冇收到貨" the refund's timing).
_REGIONAL_WORDS = {"保固": "保修", "退费": "退款", "刷退": "退款", "鉴赏期": "退货期限", "回报": "报告", "宅配": "配送",
                   "点样": "怎么", "几时": "什么时候", "冇": "没有", "唔": "不", "咗": "了", "嘅": "的", "乜嘢": "什么",
                   "边度": "哪里", "点解": "为什么", "俾": "给",
                   # chat spellings and typos of a shop's words (stop 44's sweep: refused)
                   "肿么": "怎么", "神马": "什么", "包油": "包邮", "运废": "运费",
                   # Taiwan's 出貨 (shipped) and 登入 (sign in), and a pinyin keyboard's homophones (stop 45's sweeps:
                   # what to do after shipment, the refund timing; "订当" and "快第" are left: "预订当天", "最快第二天")
                   "出货": "发货", "退活": "退货", "保休": "保修", "密马": "密码", "登入": "登录",
                   "电邮": "邮箱", "邮费": "运费",  # postage: "邮费" alone was refused
                   # written Cantonese's 梳化 (sofa), 保養 (a warranty), 爛咗 (broken), 退錢 and 退返 (a refund back),
                   # 仲未 (not yet), 幾耐 (how long), 唔該晒 (thanks); Taiwan's 信箱 (an e-mail box), but not the post's
                   # 郵政信箱 (stop 46's sweep: refused, the restocking fee, the payment methods, the express shipping)
                   "梳化": "沙发", "保养": "保修", "烂咗": "坏了", "烂了": "坏了", "退钱": "退款", "退返": "退回",
                   "仲未": "还没", "几耐": "多久", "唔该晒": "谢谢", "多谢晒": "谢谢", "邮政信箱": "邮政信箱",
                   "信箱": "邮箱",
                   # a pinyin keyboard's 推 for 退 and 获 for 货, 保秀 for 保修 (refused, the standard shipping)
                   "推款": "退款", "推货": "退货", "发获": "发货", "收获地址": "收货地址", "保秀": "保修"}
# The longest word first where two start at one place: 唔該晒 before 唔, 郵政信箱 before 信箱.
_REGIONAL_WORD = re.compile("|".join(sorted(_REGIONAL_WORDS, key=len, reverse=True)))


def to_simplified(text: str) -> str:
    """Traditional characters and phrases in ``text`` as simplified ones (帳號 as 账号, 到帳 as 到账, 保固 as 保修, 點樣 as
    怎么); anything else is left as it is."""
    text = _MONEY_WORDS.sub(lambda m: m.group().replace("帐", "账"), _converter("t2s").convert(text))
    return _REGIONAL_WORD.sub(lambda m: _REGIONAL_WORDS[m.group()], text)


def to_traditional(text: str) -> str:
    """Simplified characters and phrases in ``text`` as traditional ones, in the standard forms of Taiwan (为 as
    為, as Taiwan and Hong Kong write it, not OpenCC's base 爲), without changing the words."""
    return _converter("s2tw").convert(text)


def _num_changed(text: str, converted: str) -> int:
    if len(converted) != len(text):  # a phrase of another length: count it once
        return 1
    return sum(a != b for a, b in zip(text, converted))


def is_traditional(text: str) -> bool:
    """Whether ``text`` is written in traditional characters: more of them would change in simplified script than
    the other way round (characters both scripts share count for neither)."""
    return _num_changed(text, _converter("t2s").convert(text)) > _num_changed(text, _converter("s2t").convert(text))
