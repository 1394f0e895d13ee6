"""The patterns behind `guard.escalation_reason`: which messages go to a human agent (safety hazards, fraud, legal
threats, asking for a person); those behind `guard.refusal_reason` are in `refusal_patterns.py`. Each table maps a
reason code to one compiled pattern; the first that matches names the reason. The Chinese patterns are written in
simplified characters."""

from __future__ import annotations

import re


def rules(*patterns: str, flags: re.RegexFlag = re.NOFLAG) -> re.Pattern:
    """One pattern that matches where any of ``patterns`` does (case-insensitive, multiline, and ``flags``)."""
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE | re.MULTILINE | flags)


# The escalation rules are ASCII (re.A): an English word's \b then holds next to a Chinese character ("我想talk to a
# human" was answered with the agents' section, not escalated).
ESCALATION_RULES = {
    "safety": rules(
        # a Fire TV stick or tablet is a product (praise, "it's fire!!", still goes to a human: "there's fire" is not)
        r"\b(caught|catch(es|ing)?|on)\s+fire\b|"
        r"(?<!deal is )(?<!price is )\bfire\b(?!\s*(tv|stick|tablet|hd|os|kids|pit)\b)|"
        r"\bflames?\b",  # "this deal is fire" is praise, a fire pit cover a product (stop 44's sweep)
        r"\bsmell(s|ed|ing)?\s+(of\s+|like\s+)?burn(ing|t)\b|\bburning\s+smell\b",
        r"\bsmok(e|es|ing|ed|y)\b(?!\s+(detector|alarm)s?|\s+gr[ae]y)",  # "in smoke grey" is a colour
        # "I'm about to explode" is anger (stop 46's sweep: escalated)
        r"\bspark(s|ing|ed)?\b|(?<!i'm about to )(?<!i am about to )(?<!i'm going to )(?<!i am going to )"
        r"\bexplo(ded|sion|de|ding)\b|\boverheat\w*",
        # food or wax that melted on its way is a damaged delivery ("The box of chocolates arrived completely melted",
        # stop 45's sweep: escalated)
        r"(^|[.?!]\s*)(?![^.?!]*\b(chocolates?|candles?|ice\s*cream|wax|cheese|butter|candy|candies|gumm\w+|cakes?|"
        r"frozen|popsicles?)\b)[^.?!]*\bmelt(ed|ing)\b",
        r"\bbatter(y|ies)\s+([\w ]{0,30}\s)?(is\s+|are\s+)?(swell\w*|swollen|bulg\w*|puff\w*)|"
        r"\b(gets|getting|got|runs|running)\s+(very\s+|really\s+|so\s+|too\s+)?hot\b",
        r"\belectric(al)?\s+shock|\bshock(ed)?\s+(me|him|her|us|them|my)\b|\belectrocut\w*|"
        r"\b(gives?|gave|giving|got|get)\s+(me|him|her|us)?\s*(a\s+)?(little\s+|slight\s+|small\s+)?tingl\w*|"
        r"\b(got|get|gets|getting|gave\s+(me|him|her))\s+a\s+(small\s+|little\s+|slight\s+|big\s+|nasty\s+)?"
        r"shock\b|\b(got|get|gets|getting)\s+shocked\b|"
        r"\bzapp?(ed|s)?\s+(me|him|her|us|them|my)\b|"
        r"\b(gave|gives|give|got|get|gets)\s+(me|him|her|us)?\s*(a\s+)?(little\s+|small\s+|slight\s+|big\s+)?jolt\b|"
        r"\bshocked\s+by\s+(the|my|a|an|this|that|your)\s+(\w+\s+){0,2}(lamp|outlet|cord|cable|plug|charger|wire|"
        r"socket|appliance|device|tv|kettle|toaster|heater|microwave|blender|vacuum|speaker|laptop|fan|dryer|washer|"
        r"switch)\b",  # "I was shocked by the price" is no hazard
        r"\bcut\s+(my|his|her|their|our)\s+(hand|finger|foot|feet|leg|arm|face|head)s?\b|"
        # "My kid got cut on the broken glass" (stop 45's sweep: the return fees)
        r"\b(i|he|she|we|they|my\s+(son|daughter|kid|child|baby|wife|husband|mother|father|mom|dad))\s+"
        r"(got|was|has\s+been|have\s+been)\s+cut\b",
        r"\binjur(y|ies|ed)\b|\bhurt\b|\bbleeding\b|\bburn(s|ed|t|ing)?\b|\bhospital\b",
        r"\bswallow(ed|s|ing)?\b|\bchok(e|ed|es|ing)\b|\bpoison(ed|ing|ous)?\b",
        # "My kid ate a battery from the remote" (stop 60's sweep: refused)
        r"\b(ate|eaten|eats)\s+(a|an|the|some|one|two)?\s*(\w+\s+)?(batter(y|ies)|magnets?|button\s+cells?)\b|"
        r"\b(batter(y|ies)|magnets?|button\s+cells?)\s+in\s+(his|her|their|my|the\s+baby's)\s+mouth\b",
        r"\b(i|he|she|we|they|my\s+(son|daughter|kid|child|wife|husband|mother|father|mom|dad))\s+fell\b",
        r"起火|着火|失火|火苗|冒烟|火花|爆炸|触电|漏电|被电|电到|电了(我|他|她|孩子|小孩)|烧焦|焦味|糊味|跳闸|烧伤|烫伤|受伤|割伤|割破|夹伤|"
        r"(孩子|小孩|宝宝|儿子|女儿|老人|我|他|她)被.{0,10}?(划伤|划破|弄伤)|"
        r"烫得不能(碰|摸)|烫手|(插头|插座|电线)有?(黑印|烧黑|发黑)|(手|脚|脸|胳膊|手指|手臂)(被.{0,4}?)?(划伤|划破|弄伤)|"
        r"流血|过热|吞(了|下|进)|误吞|噎|中毒|摔伤|摔倒|砸伤|砸到",
        # "台灯的玻璃炸了，划伤了孩子" (stop 53's sweep: the damaged parcels)
        r"(划伤|划破|弄伤|割伤|烫伤|砸伤)了?(孩子|小孩|宝宝|儿子|女儿|老人|我|他|她|人(?!家))|"
        r"(玻璃|灯泡|电池|灯罩|水壶)(突然)?(炸了|炸裂|爆了|爆裂)|摔了一跤|摔了个跤|跌倒|跌伤|"
        r"电池.{0,4}(鼓包|鼓起|膨胀)|过敏反应|起疹子|起红疹",
        # a fire, a shock and a child hurt told in other words ("适配器烧起来了", "摸着会电人，刚才麻了一下",
        # "把孩子腿划伤了"; stop 62's sweep: answered from the warranty, refused, the damaged parcels)
        r"夹到(了)?(手|脚|手指|脚趾)|被.{0,6}?夹(到|伤|住)了?(手|脚|手指)|肿得(很|厉害)|烧起来|烧了起来|烧着了|(?<![充来])电人(?!员)|电了一下|麻了一下|被电麻|戳伤|扎伤|"
        r"把(孩子|小孩|宝宝|儿子|女儿|老人|我|他|她|人).{0,4}?(划伤|划破|弄伤|割伤|烫伤|砸伤)",
        # stop 53's sweep (refused or answered from a policy): a danger named, a tripped breaker, bare wires, furniture
        # that tips over onto someone, glass that bursts on its own, a rash, a small part in a child's mouth
        r"('s|'re|\b(is|are|was|were|seems|looks))\s+(really\s+|very\s+|so\s+)?(dangerous|unsafe|hazardous)\b"
        r"(?!\s+to\s+(ship|send|order|buy|pay))|\b(is|are)\s+(it|that|this|they)\s+(dangerous|unsafe|hazardous)\W*$|"
        r"\b(fire|safety)\s+hazard\b|\b(dangerous|unsafe)\s+to\s+use\b|\bsafe\s+to\s+use\s*\?|"
        r"\bfuse\s+(\w+\s+){0,3}(blew|blown)\b|\b(cord|cable|plug|outlet|socket|charger|battery|wire)s?\s+"
        r"(is|are|was|gets?|got|feels?)\s+(very\s+|really\s+|too\s+|so\s+)?hot\b|"
        r"\btripp(ed|ing|s)\s+(the\s+|a\s+)?(breaker|circuit|fuse)|"
        r"\bblew\s+(a|the)\s+fuse\b|\bfrayed\b|\bexposed\s+wires?\b|\bwires?\s+(are\s+|is\s+)?(exposed|showing)\b",
        r"\b(almost|nearly)\s+(hit|crushed|fell\s+on)\s+(me|him|her|us|my)\b|"
        r"\b(tipped|toppled|tips|topples|fell)\s+over\s+on(to)?\s+(me|him|her|us|my)\b|"
        r"\b(shattered|exploded|burst)\s+(on\s+its\s+own|by\s+itself)\b|"
        r"\b(got|have|has|gave\s+(me|him|her))\s+a\s+rash\b|"
        r"\ballergic\s+reaction\b|\bchoking\s+hazard\b|\bput\s+(\w+\s+){0,2}in\s+(his|her|their)\s+mouth\b",
        flags=re.A,
    ),
    "fraud": rules(
        r"\bfraud\w*|\bscam\w*|\bphishing\b|\bidentity\s+theft\b",
        r"\bunauthori[sz]ed\s+(charge|purchase|order|transaction|payment|access)",
        r"\b(stolen|hacked|compromised)\s+(credit\s+)?(card|account)",
        r"\b(card|account)\s+(was|has\s+been|got|is)\s+(stolen|hacked|compromised)",
        r"\b(card|account)\s+(was|has\s+been|got)\s+used\b[^.?!]{0,40}\b(wasn'?t|was\s+not)\s+me\b",
        r"\b(i|we)('ve|\s+have)?\s+(been|got)\s+hacked\b",  # "I think I've been hacked" (stop 43's sweep)
        # a password or e-mail changed by someone else ("an email saying my password was changed but I didn't change
        # it", "有人改了我的密码"; stop 45's sweep: the password reset)
        r"\b(password|e-?mail|email\s+address)\s+(was|has\s+been|got)\s+changed\b[^.?!]{0,40}\b(i\s+)?"
        r"(didn'?t|did\s+not|never)\b|\b(someone|somebody)\s+(else\s+)?(has\s+)?changed\s+my\s+(password|e-?mail)\b|"
        r"(有人|别人|陌生人)(修?改|更改)了我的(密码|邮箱)|"
        r"(密码|邮箱)被(别人|人|陌生人)?(修?改|更改)了[^。！？!?]{0,12}(没有?改|不是我)",
        r"\b(hacked|hacked\s+into|broke\s+into|took\s+over)\s+my\s+(credit\s+)?(card|account)|"
        # English words in a Chinese message: "有人 hack 了我的 account" (stop 46's sweep: the bank's time)
        r"\bhack(ed)?\b\s*(了|咗)\s*(我的?|我个|我個)\s*(account|card|账户|账号|帐号|帐户|卡)",
        r"\b(stole|steal|stealing)\s+my\s+(credit\s+|debit\s+|bank\s+)?(card|account|identity|wallet|purse)\b",
        # "Somebody spent my gift card balance" (stop 62's sweep: refused)
        r"\b(someone|somebody)\s+(else\s+)?(has\s+)?(spent|used\s+up|drained|emptied)\s+my\s+"
        r"(gift\s+card|balance|store\s+credit)",
        # a reset or code the customer never asked for ("I got a password reset email I never requested…"; stop 62)
        r"\b(reset|verification|sign-?in|login)\s+(e-?mail|code|text|link)\s+(that\s+)?(i|we)\s+"
        r"(never|didn'?t|did\s+not)\s+(request|ask)|"
        # someone trying to get into the account ("I'm worried someone is trying to hack it", "有人想盗我的号"; stop 50's
        # sweep: refused, and the lockout)
        r"\b(someone|somebody|hackers?)\s+(is\s+|are\s+|was\s+|were\s+|has\s+been\s+|have\s+been\s+)?(trying|tried|"
        r"attempting|attempted)\s+to\s+(hack|break\s+into|get\s+into|access|log\s+into|sign\s+into)\b|"
        r"(有人|别人|黑客)(想|在|试图|企图|尝试)(盗|黑|登录|登陆|进入)我的?(号|账户|账号|帐号|帐户)",
        r"\b(someone|somebody)\s+(else\s+)?(has\s+|is\s+|was\s+)?(logged|signed|got)\s+(in|into|onto)\s+(to\s+)?"
        r"my\s+account",
        r"\b(someone|somebody|anyone|anybody)\s+(else\s+)?(is\s+|has\s+(been\s+)?)?us(ed|ing)\s+(my|their|his|her)\s+"
        r"(credit\s+)?(card|account|paypal)",
        r"\b(someone|somebody)\s+(else\s+)?(has\s+)?(ordered|bought|purchased|shopped)\s+(\w+\s+)?(with|using|on)\s+"
        r"my\s+(credit\s+|debit\s+)?(card|account|paypal)",  # "Someone ordered with my credit card" (stop 55)
        # an order or a card used without the customer knowing ("Someone has done the order from my account without
        # my knowledge", stop 45's sweep: the account deletion)
        r"\b(card|account|orders?|purchases?|charges?)\b[^.?!]{0,40}\bwithout\s+(my|our|their|his|her)\s+"
        r"(knowledge|permission|consent|authori[sz]ation)\b",
        # "My daughter used my card without asking"
        r"\bus(ed|ing|es)\s+(my|their|his|her)\s+(credit\s+|debit\s+)?(card|account|paypal)\s+"
        r"(on\s+\w+\s+site\s+)?without\s+(asking|my\s+"
        r"(permission|consent|knowledge|authori[sz]ation)|permission|consent|telling\s+me)",
        r"\b(orders?|charges?|purchases?)\s+(that\s+)?i\s+(never|didn'?t|did\s+not)\s+"
        r"(make|made|place|placed|authori[sz]e)",
        # "Someone placed an order on my account that I did not make" (stop 42: the address change was answered)
        r"\b(someone|somebody)\s+(else\s+)?(placed|made|ordered|bought)\b[^.?!]{0,30}\bon\s+my\s+(account|card)\b|"
        r"\b(orders?|charges?|purchases?)\b[^.?!]{0,25}\b(that\s+)?(i|we|they|he|she)\s+(never|didn'?t|did\s+not)\s+"
        r"(make|made|place|placed)\b",
        # a charge that is not the customer's ("a charge … that isn't mine", "这笔扣款不是我买的"; stop 59's sweep)
        r"\b(charges?|transactions?|purchases?)\b[^.?!]{0,30}\b(isn'?t|is\s+not|aren'?t|are\s+not)\s+mine\b|"
        r"(扣款|消费|交易|收费)[^。！？!?]{0,6}不是我(本人)?(买|下|刷|消费|付)?的|不是我(本人)?的(消费|扣款|交易)",
        r"\bi\s+(never|didn'?t|did\s+not)\s+(make|made|place|placed|authori[sz]ed?|order(ed)?)\s+"
        r"(this|that|these|those|the|any)\s+"
        r"(purchase|order|charge|payment|transaction)s?\b|"
        # a charge from a shop never used ("… and I've never ordered anything from you", "我根本没在你们这买过东西")
        r"\b(i|we)('ve|\s+have)?\s+never\s+(ordered|bought|purchased|shopped)\s+(anything\s+|something\s+)?"
        r"(from|with|at)\s+(you|northwind|your\s+(store|shop|site))\b|"
        r"(根本|从来|从)?没(有)?在你们(这|这里|家|店|网站)?(买过|下过单)|(根本|从来)没(有)?下过单",
        r"(有人|别人|陌生人)(用|登录了?|登陆了?)我的(账户|账号|卡|信用卡)|(偷偷|偷|私自|擅自)用了?我的(信用)?卡|"
        r"(没有?|未)经(过)?我的?(允许|同意)(就)?用了?我的(信用)?卡|"
        r"诈骗|欺诈|盗刷|(盗用|冒用|盗)了?我的(账户|账号|卡|信用卡|身份|号)|(盗用|冒用)了?我的|骗子|钓鱼|(?<!有人)(?<!别人)(?<!朋友)(账户|账号|卡|钱包)(被盗|被黑|被盗用|被偷)|"
        r"(账户|账号)被(别人|他人|陌生人|人)登(录|陆)|盗号|不是我(本人)?下的|(没|未)(下过|买过)的订单|"
        r"我(从来)?(没|没有|从没|未)下过?(这个|这笔|那个|这些)订单",  # stop 53's sweep: refused
        # a message asking for a password or card ("I got an email asking for my password, was it you?")
        r"\b(e-?mail|text|sms|message|call)\s+(asking|asked|that\s+asked|that\s+asks)\s+(me\s+)?for\s+my\s+"
        r"(password|card|credit\s+card|card\s+number|login|code|verification\s+code)\b|"
        r"(短信|邮件|电话)[^。！？!?]{0,10}(要|索要|问)我的?(密码|验证码|卡号)|(?<!重置)(?<!密码)(短信|邮件)[^。！？!?]{0,20}(点|点击)(链接|网址)|"
        r"冒充|假冒|山寨(网站|网店|店)|不认识的(扣款|消费|交易|订单|收费)|(网站|网店)[^。！？!?]{0,6}骗了我",  # stop 56
        # stop 53's sweep (answered from a policy, or refused): an identity stolen, a charge not recognized, a link
        # to click in a message, someone pretending to be the shop, suspicious activity, charges never signed up for
        r"\bidentity\s+(was|has\s+been|got|is)\s+stolen\b|\bunrecogni[sz]ed\s+(charge|transaction|payment)|"
        r"\b(charge|transaction|payment|purchase)s?\b[^.?!]{0,30}\b(don'?t|do\s+not|didn'?t|did\s+not)\s+"
        r"recogni[sz]e\b",
        r"\b(text|sms|e-?mail|message)\b[^.?!]{0,60}\bclick\s+(on\s+)?(a|the|this|that)\s+link\b|"
        r"\b(pretending|claiming|pretends|claims)\s+to\s+be\s+(from\s+)?(northwind|you|your)\b|\bimpersonat\w*|"
        r"\bsuspicious\s+(activity|charges?|transactions?|log-?ins?|sign-?ins?|e-?mails?|texts?|calls?)\b|"
        r"\b(charged|billed|paying)\b[^.?!]{0,40}\bnever\s+signed\s+up\s+for\b",
        flags=re.A,
    ),
    "legal": rules(
        # "My lawyer friend told me to ask…" asks the deletion's records (stop 62's sweep: escalated)
        r"\b(lawyer|attorney|solicitor|lawsuit|litigation)s?\b(?!\s+(friend|buddy|pal)\b)|"
        r"\blegal\s+action\b|\bsmall\s+claims\b",
        r"\bclass\s+action\b|\b(sue|suing)\s+(you|us|northwind|your|the)\b|"
        r"(?<!not )\b(i'?ll|will|going\s+to|gonna)\s+sue\b|"  # "I'm not going to sue anyone" (stop 56's sweep)
        r"\b(threaten\w*|wants?|wanted|plans?|planning|decided)\s+to\s+sue\b",  # an agent's "customer wants to sue"
        r"\b(take|see)\s+(you|northwind)\s+(to|in)\s+court\b|\bconsumer\s+court\b|"
        r"\b(go|going|gonna|take\s+(this|it|the\s+matter))\s+to\s+court\b",  # stop 45's sweep: answered
        r"\breport(ing)?\s+(you|northwind|this|your\s+(company|store))\s+to\s+(the\s+)?"
        r"(bbb|better\s+business\s+bureau|ftc|attorney\s+general|authorities|police|consumer)",
        r"\bbetter\s+business\s+bureau\b|\bconsumer\s+protection\b",
        r"\bcharge-?backs?\b|\b(file|do|request|initiate|open)\s+a\s+charge\s+back\b|"
        r"\b(dispute|disputing)\s+(the|this|that|my)?\s*(charge|payment|transaction)",
        r"\b(dispute|disputing)\s+(it|this|that)\s+with\s+(my|the)\s+(bank|card\s+company|credit\s+card)",  # stop 55
        r"律师|(?<!不会)(?<!不想)(?<!不打算)起诉|诉讼|法院|告你们|法律途径|法律行动|消协|消费者协会|12315|工商局|市场监管|拒付|银行申诉|法务",
        r"\blegal\s+(department|team|dept)\b",  # "I'd like to speak with your legal department" (stop 53's sweep)
        # the police threatened ("我要报警", stop 56's sweep: refused); a theft reported to them is the lost parcels'
        r"^(?!.*(\b(stole|stolen|theft|thief|lost|missing)\b|偷|丢|盗))(.*\b(i'?ll|i\s+will|i'?m\s+going\s+to|gonna)\s+"
        r"(call|contact|go\s+to)\s+the\s+(police|cops)\b|.*(我|就)(要|会|去)+报警(?!吗))",
        flags=re.A,
    ),
    "human": rules(
        r"\b(talk|speak|chat)\s+(to|with)\s+(a|an|some|your)?\s*(real\s+|live\s+|actual\s+)?"
        r"((customer\s+)?(support|service|care)\s+)?"  # "a support agent" (stop 61's sweep: answered)
        r"(human|person|agent|representative|rep|manager|supervisor|someone|somebody|sum1|some1)\b",
        r"\b(real|live|actual)\s+(person|human|agent)\b|\bhuman\s+(agent|being|support)\b",
        r"\b(don'?t|do\s+not)\s+want\s+(to\s+(talk|speak|chat)\s+(to|with)\s+)?(a|the|your)\s+(bot|robot|machine|ai)\b",
        # "Get me a supervisor", "I want a human NOW", "human pls" (stop 44's sweep: answered or refused)
        r"\b(get|give|want|need)\s+(me\s+)?(a|an|your)\s+(human|manager|supervisor|representative)\b|"
        r"^\W*(human|agent|representative|operator)\s+(pls|plz|please)\W*$",
        r"\b(transfer|connect|put)\s+me\s+(through\s+)?(to|with)\s+(a|an|some|your)?\s*(real\s+|live\s+)?"
        r"((customer\s+)?(support|service|care)\s+)?"
        r"(human|person|agent|representative|rep|manager|supervisor|someone)\b",
        r"(?<!\bno )(?<!\bany )\bcomplain(t|ts|ing)?\b|\bcompensat(e|ion)\b|"  # "no complaints" is praise
        r"\b(bad|negative|1-star|one-star|1 star|one star)\s+review\b",
        r"\b(can|could|would|will)\s+(you|someone|somebody|anyone)\s+(please\s+)?(call|phone|ring)\s+me\b|"
        r"\bplease\s+(call|phone|ring)\s+me\b|\b(call|phone|ring)\s+me\s+back\b|\bgive\s+me\s+a\s+(call|ring)\b",
        # "nobody has called"
        r"\b(nobody|no\s+one|no-one)\s+(has\s+|have\s+)?(ever\s+)?(answers|answered|responds|responded|replies|"
        r"replied|gets\s+back|got\s+back|gotten\s+back|picks\s+up|picked\s+up|called|contacted|helped|help)\b|"
        # the assistant's answer did not help ("that didn't help", "you're useless", "没用"; stop 59's sweep: refused)
        r"^\W*((that|this|it)\s+(didn'?t|doesn'?t|did\s+not|does\s+not)\s+help|(you'?re|you\s+are)\s+(useless|"
        r"no\s+help|not\s+helpful)|i('?ve|\s+have)?\s+already\s+tried\s+that)\W*$|"
        r"^[\s,.!?，。！？]*(没用|你说的不对|没有?帮助|我已经试过了)[\s,.!?，。！？]*$",
        # "This is the third time I'm contacting you about …" (stop 58's sweep: refused)
        r"\b(second|third|fourth|fifth|2nd|3rd|4th|5th|\d+(th)?)\s+time\s+(i'?m\s+|i\s+am\s+|i'?ve\s+|i\s+have\s+)?"
        r"(contact|contacting|contacted|writ|calling|called|asking|asked|reach|reaching|reached)",
        # "人工客服几点上班", "周日有人工客服吗" ask for the agents' hours (stop 43's and 54's sweeps: escalated)
        r"^[\s,.!?，。！？]*人工[\s,.!?，。！？]*$|转人工|(?<!周[六日天末]有)(?<!星期[六日天]有)(?<!时候有)(?<!几点有)"
        r"人工客服(?![^，。？！,?!]{0,4}(几点|什么时候|时间|电话|号码|上班|下班|在线))|"
        r"(跟|和|同|找)(一个|个)?(活|真)?人(说话|聊天|聊|讲话|沟通|对话)|不(要|想)(跟|和)?机器人|"
        r"人工服务|(给|跟)我(打|回)个?电话|打电话给我|回个?电话|(找|要|叫|接)人工|"
        r"(跟|和|与)人工(客服)?(说话|聊|沟通|对话|谈)|真人|投诉|差评|赔偿|补偿|(找|叫)(你们)?的?(经理|主管|领导|负责人|老板)|没人(回复|理|回|管|接)|"
        # "你们老板在哪", "让你们领导来跟我说", "有没有活人" (stop 46's sweep: refused)
        r"(你们|你家)的?(老板|领导|经理|主管|负责人)(呢|在哪|在不在)|让你们的?(老板|领导|经理|主管|负责人)来|活人",
        # "Where is your manager??", "Your supervisor. Now.", "GET ME SOMEONE WHO CAN ACTUALLY HELP" (stop 46's sweep)
        r"\bwhere('?s|\s+is)\s+(your|the)\s+(manager|supervisor|boss)\b|"
        r"^\W*(your\s+)?(manager|supervisor)\W+(now|please|pls)\W*$|"
        r"\bget\s+me\s+(someone|somebody|a\s+person)\s+who\b|"
        # "Is there a supervisor I can talk to?" (stop 53's sweep: refused)
        r"\b(manager|supervisor|human|person|agent)\s+(i|we)\s+(can|could)\s+(talk|speak|chat)\s+(to|with)\b",
        flags=re.A,
    ),
}
