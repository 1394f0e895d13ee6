"""How a customer's message asks: its clauses, the ones that ask, its separate questions, and so its shape, one
question (direct) or several (sot).

A message splits into clauses at commas (enumeration commas too: "退款多久、退到哪、运费退不退？"), semicolons and
sentence ends. A clause asks when it ends in a question mark or has a question word; a question that names nothing
("怎么办？", "What should I do?") asks about what the message tells. The router reads the asking clauses for a
one-question message's keyword phrases, and the planner gives each separate question its own section.
"""
from __future__ import annotations

import re

from chatbot.guard import mask_pii
from chatbot.text_terms import split_after

# A greeting, and whether anyone is there ("hiya, u there?", "Good morning, anyone around?", "hello，有人吗", "在吗？")
_ANYONE_THERE_ZH = r"(亲\W*)?(客服)?(在吗|在不在|有人吗|有人在吗|人呢)"
GREETING = re.compile(
    # a season's wishes ("Merry Christmas to everyone at Northwind :)", "新年快乐！"; stop 45's sweep: refused)
    r"^\s*(happy new year|merry (christmas|xmas)|happy holidays|season'?s greetings|happy (thanksgiving|easter|"
    r"valentine'?s day)|新年快乐|圣诞快乐|节日快乐|春节快乐|中秋快乐)(\W+(to )?(you|everyone|all|you all)( at northwind)?)?"
    r"(\W*祝[^?？。!！a-z]{0,12})?\W*$|"
    r"^\s*((hi|hiya|hello|hey|howdy|good (morning|afternoon|evening))(\W+(hi|hello|hey))*( there| all| team)?|"
    r"(你好|您好|嗨|哈喽|哈啰|早上好|上午好|下午好|晚上好|早安)(呀|啊|哇|哦)?)"
    rf"(\W+(are |is )?(u|you|anyone|anybody|someone)( even)? (there|around|here|online))?(\W*{_ANYONE_THERE_ZH})?\W*$|"
    rf"^\s*{_ANYONE_THERE_ZH}\W*$|"
    r"^\s*((is|are)\s+)?(u|you|anyone|anybody|someone|somebody)( even)?\s+(there|around|here|online|home)\W*$", re.I)
_QUESTION_MARKS = re.compile(r"[?？]+")  # "??" is one question, asked louder
_ZH_QUESTION_END = re.compile(r"[吗呢]\W*$")  # a Chinese question's closing particle marks it as "?" does
_LIST_COMMA = re.compile("、")  # "退货、换货的政策是什么？": several topics
# A clause ends at a comma, a semicolon or a sentence's end; it asks when it ends in a question mark or has a
# question word (English ones lead the clause: "How long do I have, who pays?"; "If I return it, ..." does not).
_CLAUSE = re.compile(r"(?:[^,，、;；:：.。!！?？]|[.:](?=\S)|(?<=\d),(?=\d{3}\b))+[,，、;；:：.。!！?？]*")
# ("$5.99", "8:00" and "$1,200" end no clause)
_ASKING_WORDS = re.compile(
    r"^\W*((and|or|but|also|plus)\s+)?(how|what|what's|when|where|which|who|whose|why|can|could|do|does|did|is|are|"
    r"will|would|should|may|i('m| am| was) wondering|i wonder|i'?d like to know|i would like to know|i want to know|"
    r"please let me know|whether)\b|"
    r"吗|什么|多久|多少|多长|怎么|怎样|如何|哪|谁|是否|呢|(?<!好)几(?!乎)|能不能|可不可以|有没有|要不要|会不会|是不是|"
    r"咋|啥|[^\W\d_a-zA-Z]不\W*$|伐\W*$", re.I)  # chat's how and what, and a question's 不 or 伐 at the end ("能用不")
_OPEN_QUESTION = re.compile(
    r"^\W*(so\W+)?(what('s| is) (happening|going on|wrong)|what (should|can|do) i do( now)?|what are my options|"
    r"what (can|could|will) (you|u) do( for me)?|"  # after a problem told before; alone it asks what the assistant does
    r"what now|what happened|what happens( now| next)?|why( not)?|how come|help( me)?|any ideas|"
    r"what do i (need|have) to do( next| now)?|"
    r"what('s| is) next|what are the (next )?steps|(can|could) (you|someone|anyone) (please )?help( me)?"
    r"( with (it|this|that))?|how (do|can|could) i get (it|this|that|them) (fixed|repaired|replaced|sorted( out)?)|"
    r"what (info|information|details|documents|proof) (do|will|would) you need( from me)?|"  # stop 56's sweep
    # a new one asked for what the previous message tells: a lost parcel's, a broken product's (stop 58)
    r"(can|could|will|would) (you|u) (please )?(just )?(send|ship|mail) (me )?(a new one|a replacement|another( one)?|"
    r"(it|them|one) again|the right one)( instead)?( please)?|(can|could) i (just )?(get|have) (a new one|another"
    r"( one)?))\W*$|"
    r"^\W*(那|那么|请问)?(我)?(该)?(具体)?(要)?(怎么办|怎么回事|咋办|怎么弄|怎么处理|怎么解决|怎么搞|为什么|咋回事|"
    r"为什么不行|为啥不行|为什么不能|怎么操作|怎么做|(你|你们)(能|可以)(帮我)?做(些)?什么|"
    r"(能|可以)(不能|不可以)?(给我)?((换|重新发|重发|再寄|再发|补发)一?[个件](新的)?|补发|重新发货)(吗|么|嘛)?)"
    r"(呢|啊|呀)?\W*$", re.I)
# "or" before a second action asks a second question ("Can I add an item to my order or change the delivery address?"
# was answered about the address alone, 2026-12-03); "or" between two things asks one ("PayPal or Klarna?").
_OR_AN_ACTION = (r"\bor\s+(?=(?:add|change|cancel|return|exchange|update|track|delete|reset|use|get)\b)"
                 r"|或者?(?=(?:加|改|修改|更改|取消|退|换|更新|删|重置|用))")  # "能取消或改地址吗？"
_JOINED_QUESTION = re.compile(
    r"\s*\b(?:and|also|plus)\s+(?=(?:how|what|when|where|who|which|why|whether|can|could|do|does|is|are|will|would|"
    r"should|(?:i\s+)?(?:want|need|would\s+like)\s+to\s+know|get)\b)"
    rf"|\s*{_OR_AN_ACTION}|还有|另外", re.I)
_LIST_END = re.compile(r"\s*(or|and)\b", re.I)  # "…, or add an item?": the last of a list of things asked
_CONDITION = re.compile(r"^\W*(if|when|once|after|如果|要是|假如|万一)", re.I)  # "If I cancel, ...": part of what it asks
# "A和B有什么区别？" asks about both, as "and" and "vs" do ("warranty length for electronics vs furniture" was answered of
# the furniture alone, stop 57), and so does "和" between two things asked ("想改邮箱和密码" was answered of the email
# alone, "怎么取消订单和改地址？" of the address; stop 59), but not after a person ("我和我老公共用一个账户") or before a
# likeness ("商品和图片不一样" tells one thing).
_JOINING_WORDS = re.compile(rf"\b(and|also|plus|as well as|vs|versus|compared (to|with))\b|{_OR_AN_ACTION}|以及|还有|"
                            r"(?<![我你您他她它])和(?![^，。？！,?!]{0,12}(一样|不同|相同|不符|相符|差不多))|"
                            r"并且|而且|另外|同时|分别|各自|区别|差别|有什么不同", re.I)


# Courtesy that opens a message ("Hi! Quick question:", "Thanks! One more thing:", "在吗？", "有人吗？？") and says
# nothing about what it asks: "quick" is express shipping's word, "在吗？" a question of its own.
_COURTESY = re.compile(
    r"^[\W_]*(hi|hello|hey|good (morning|afternoon|evening)|(is )?any ?one there|are you there|quick question|"
    r"one more (thing|question)|one more(?=\s*[:：])|sorry to bother you|sorry|excuse me|"
    r"thanks?( you)?( so much| a lot| very much)?( for (the|your|all (the|your)) (help|time|assistance|answer|info)"
    r"( earlier| before| so far| again)?)?|"
    r"i hope (you('re| are)( doing)? well|this (message |email |e-mail )?finds you well|you can help)|"
    r"ok(ay)?|great|um+|uh+|well|so|hope you can help|and|also|but|i (love|like) (your|this) (store|shop|site|website)|"
    r"(just )?to (confirm|double[- ]check)|hold on|wait|确认一下|确认下|"  # "confirm" is the e-mail change's word
    # an agent saying who asks ("Hi, I'm a support agent. Customer asks …" led with the human agents; stop 61)
    r"(i'?m|i am) (a |an )?((customer )?(support|service)|ai|human) agent( here)?|(support |ai )?agent here|"
    r"as (a|an) ((customer )?(support|service)|ai) agent|我是(客服|人工客服|客服人员)|"
    r"(客服)?(你好|您好|在吗|在不在)|嗨|亲(?![自手人戚密])|有人吗|有人在吗|请问|麻烦了?|打扰一下|打扰了|不好意思|谢谢(你|您)?|还有一个问题|还有)"
    r"(?![a-z0-9'])( there)?[\s\W_]*", re.I)

# Courtesy that closes a message of two sentences or more ("... Thank you so much for your time.", "Best regards,
# Ann"): "time" and "help" are words of the policies.
_CLOSING = re.compile(
    r"(?<=[.!?。！？])\s*((thanks?( you)?( so much| very much| a lot| in advance)?( for (your|the|all your) "
    r"(time|help|assistance|patience))?|(best |kind |warm )?regards|cheers|best)\b[\s\W]*([a-z]+\W*){0,2}"
    r"|(please\s+)?help( me)?( please| asap)?\W*|any help (would be|is) (much |greatly )?appreciated\W*"
    r"|(i (really )?)?need (some )?help( please)?\W*|(can|could) (you|someone|anyone) (please )?help( me)?( please)?\W*"
    r"|谢谢(您|你)?(的帮助)?\W*|感谢(您|你)?的?(帮助|耐心)?\W*|求助\W*|求救\W*|帮帮我\W*)$", re.I)

# Contact details a customer gives ("my email is jo@example.com", "call me at 555-123-4567", "我的手机号是13800138000")
# say how to reach them, not what they ask: "email" would otherwise find the email change. `guard.mask_pii` finds
# them; a card number goes too.
_CONTACT_DETAILS = re.compile(
    r"(?:\s*(?:,|，|;|；|and)\s*)?(?:\b(?:my|our)\s+(?:e-?mail(?:\s+address)?|(?:phone|mobile|cell)(?:\s+number)?|"
    r"number)\s*(?:is|:)?\s*|\b(?:e-?mail|call|text|reach|contact)\s+me\s+(?:at|on)\s+|"
    r"我的(?:邮箱|电子邮件|邮件地址|手机号?码?|电话(?:号码)?)(?:是|：|:)?\s*)?\[(?:email|phone|card)\]", re.I)

# Where the customer bought: "from your store", "on your website", "在你们店", "在你们网站上".
_SHOP = re.compile(r"\s*\b(from|on|through) (your|the|this) (online )?(store|shop|website|site)\b|"
                   r"在你们(的)?(店|网店|商店|网站|官网)(里|上)?", re.I)


def strip_courtesy(message: str) -> str:
    """``message`` without the courtesy that opens it ("Hi! Quick question: how long do returns take?" asks "how
    long do returns take?") or closes it ("... Thank you so much for your time."); all of it when it is nothing
    but courtesy ("thanks")."""
    rest = message
    while (match := _COURTESY.match(rest)) and match.end():
        rest = rest[match.end():]
    rest = _CLOSING.sub("", rest)
    return rest if len(rest.strip()) > 1 else message  # "还有吗" is not "吗"


def plain_message(message: str) -> str:
    """``message`` as the router reads it: without its opening courtesy (`strip_courtesy`), the contact details it
    gives ("Hi, my email is jo@example.com, how long do refunds take?" asks about refunds) and where it says it
    bought ("I purchased a lamp from your store": "store" is the store credit's word)."""
    return strip_courtesy(_SHOP.sub("", _CONTACT_DETAILS.sub("", mask_pii(message))).strip(" ,，;；"))


# Chinese chat parts its clauses with spaces ("退货的话运费谁出 多久能退款"): a space between Chinese characters ends one.
_CJK_SPACE = re.compile(r"(?<=[\u4e00-\u9fff])[ \t\u3000]+(?=[\u4e00-\u9fff])")


def clauses(message: str) -> list[str]:
    """The clauses of ``message``, split at commas, semicolons, sentence ends ("$5.99" and "8:00" end none) and
    spaces between Chinese characters."""
    return [part for clause in _CLAUSE.findall(message) for part in split_after(_CJK_SPACE, clause)]


# "When I opened the box, …": a clause of time, which asks nothing without a question mark ("When will I be charged,"
# asks).
_WHEN_CLAUSE = re.compile(r"^\W*when\s+(i|we|you|he|she|they|it|my|our|the|this|that)\b", re.I)


# "When do you charge my card, at checkout or when it ships?": the choices the question before offers, not a question
_CHOICES = re.compile(r"^\W*(at|on|in|by|with|before|after|during)\b[^,;]*\bor\b", re.I)


def asking_clauses(message: str) -> list[str]:
    """The clauses of ``message`` that ask: "I lost my receipt, can I still return it?" asks in its second; so does
    the middle of a list of things asked ("Can I still cancel it, change the address, or add an item?")."""
    parts = clauses(message)
    asks = [bool(_QUESTION_MARKS.search(c) or (_ASKING_WORDS.search(c) and not _WHEN_CLAUSE.match(c))) for c in parts]
    asks = [ask and not (i and asks[i - 1] and _CHOICES.match(c)) for i, (c, ask) in enumerate(zip(parts, asks))]
    listed = [0 < i < len(parts) - 1 and asks[i - 1] and asks[i + 1] and parts[i - 1].rstrip().endswith(",")
              and bool(_LIST_END.match(parts[i + 1])) for i in range(len(parts))]
    return [c for c, ask, in_list in zip(parts, asks, listed) if ask or in_list]


def questions_asked(message: str) -> list[str]:
    """The separate questions of ``message``: its asking clauses, split again where a joining word starts a new
    question ("How do I return an item and how long until I get my refund?" asks two)."""
    return [part for clause in asking_clauses(message) for part in _JOINED_QUESTION.split(clause) if part.strip()]


def asked_part(message: str) -> str:
    """The clauses of ``message`` that ask, or all of it when it has no question mark or asks only a question that
    names nothing ("My refund was less than I paid, why?" asks about what it tells)."""
    asking = asking_clauses(message)
    marked = _QUESTION_MARKS.search(message) or any(_ZH_QUESTION_END.search(c) for c in asking)  # "退货要钱吗"
    if not marked or all(is_open_question(c.strip()) for c in asking):
        return message
    return "".join(c for c in clauses(message) if c in asking or _CONDITION.match(c))


# What a how-long question counts from ("How long after I drop it off will I get my refund?", "寄回去之后多久能收到退款？"):
# the event it starts at, not what it asks about.
_STARTING_EVENT = re.compile(
    r"\b(how (?:long|soon)|how many (?:days|weeks))\s+(?:after|once)\s+[^,?]+?(?=\s+(?:will|do|does|can|could|is|"
    r"are|should|would|until|till|before|must)\b)|[^,，。?？\s]{2,}?(?:之后|以后|后)(?=多久|几天|多长时间|要多久)", re.I)


def without_starting_event(question: str) -> str:
    """``question`` without the event a how-long question counts from (`_STARTING_EVENT`)."""
    return _STARTING_EVENT.sub(lambda m: m.group(1) or "", question)


def is_open_question(message: str) -> bool:
    """Whether ``message`` is a question that names nothing ("What do I do now?", "怎么办？"): it asks about what
    the message, or the conversation's previous one, tells."""
    return bool(_OPEN_QUESTION.match(message))


def shape_mode(question: str) -> str:
    """sot when the message asks several things (several questions, or clauses joined up), else direct."""
    if len(_QUESTION_MARKS.findall(question)) >= 2 or _JOINING_WORDS.search(question):
        return "sot"
    # Commas join the questions of a message ("How long do I have, who pays?", "退货要多久，运费谁出？"), or a
    # story or a condition to its one question ("I returned 1 of my 3 items, when will I get the money?",
    # "我的订单到了，但少了一件。"): a message splits at them only where two of its clauses ask.
    # A question that names nothing ("怎么办？", "What should I do?") asks about what the message tells, and
    # so about each told clause ("账户被锁了，密码也重置不了，怎么办？").
    if not _QUESTION_MARKS.search(question):  # Chinese chat asks without question marks: "运费谁出 多久能退款",
        return "sot" if len(asking_clauses(question)) >= 2 else "direct"  # "怎么退货，退货运费谁出"
    asking = asking_clauses(question)
    if asking and all(is_open_question(c) for c in asking):
        asking = [c for c in clauses(question) if c not in asking and not GREETING.match(c)]  # the told
    return "sot" if len(asking) >= 2 or _LIST_COMMA.search(question) else "direct"
