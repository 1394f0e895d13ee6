"""What no policy covers, though a policy's word may find a section: the catalogue, other shops and services, the
weather, writing tasks and general knowledge, jobs, shop hours and bulk prices, products the store does not sell.
The router refuses a message that asks only about these, and answers the covered questions of one that asks about
these too."""
from __future__ import annotations

import re

from chatbot.chinese_script import to_simplified

# Topics no policy covers that a policy's word can make look covered (stop 43's sweeps: each was answered from a section
# such a word found), by kind.
_UNCOVERED_TOPICS = {
    # other shops, other companies' services and carriers, whose policies are theirs; an e-mail address at one
    # ("jo@gmail.com") names no service, nor does a customer's own one ("change my email to my new gmail"; stop 46's
    # sweep: refused)
    "shops": (r"\b(walmart|amazon|target|ebay|best ?buy|costco|ikea|wayfair)\b|京东(?!白条)|淘宝|天猫|拼多多|苏宁|宜家|亚马逊|"
              r"沃尔玛|百思买|好市多|开市客|塔吉特|(?<![@.])\b(netflix|spotify|hulu|youtube|"
              r"(?<!to my )(?<!to my new )(?<!to a )(?<!to a new )(?<!to )(?<!new )(gmail|hotmail|yahoo mail)|"
              r"icloud|facebook|instagram|tiktok|whatsapp|uber|airbnb|irs)\b"),
    # carriers' own services ("What's the shipping time for a letter with USPS?"), not one that lost or damaged the
    # customer's parcel ("FedEx lost my package": stop 55's sweep, refused)
    "carriers": (r"^(?![\s\S]*(\b(my|our|the) (package|parcel|order|delivery|shipment)s?\b|\b(lost|damaged|broke|"
                 r"stole|left)\b|我的(包裹|快递|订单)|弄丢|丢了|弄坏|损坏))[\s\S]*(\b(usps|fedex|dhl)\b|顺丰|圆通|中通|申通|韵达|极兔)"),
    # the weather ("… this weekend?" found the same-day dispatch, "… for Christmas?" the holiday returns)
    "weather": (r"\b(what'?s|what\s+is|how'?s|how\s+is|what will)\s+the\s+weather\b|\bforecast\b|天气|下雨|下雪|"
                r"\bweather\s+(like|today|tomorrow|this|next|going)\b|"
                r"\b(going to|gonna|will it|is it|it will|it'?ll)\s+(rain|snow)\b"),
    # writing and general knowledge ("Write me a poem about refunds", "Who invented the credit card?", "翻译一下")
    "knowledge": (r"\b(write|compose|make up)\s+(me\s+)?(a|an|some)\s+(\w+\s+)?"
                  r"(poem|song|story|essay|haiku|limerick|rap|"
                  r"cover letter|resume|cv)\b|\b(write|draft|compose)\s+(me\s+)?(a|an)\s+(reply|response|apology)\b|"
                  r"\b(write|draft|compose)\s+(me\s+)?(a|an)\s+(e-?mail|letter|message)\s+(to|for)\b|"
                  r"\btranslat(e|ion)\b|写(一首|首|一篇|篇)|翻译|\bwho invented\b|谁发明|\bhistory of\b|这个词|"
                  r"\bin economics\b|\bcryptograph|数学原理|\blegal age\b|\bis it legal\b|法定年龄"),
    # money outside the store ("What is the return on investment for index funds?", "tax refunds", "股票的回报率")
    "money": r"\breturn on investment\b|\bindex funds?\b|\bstock market\b|\btax refunds?\b|股票|回报率|退税|"
             # insurance on the shipping, which the store does not sell ("有运费险伐" got the shipping charges' refund)
             r"\bshipping insurance\b|\bpackage protection\b|运费险|退货险|退换货险|"
             # currencies and banks' rewards and fees ("pay in Canadian dollars" got the charge's timing)
             r"\b(canadian|australian|us|american) dollars\b|\bin usd\b|\bcurrenc(y|ies)\b|\bexchange rates?\b|"
             r"\bforeign transaction fees?\b|\bcashback\b|汇率|人民币|外币|返现",
    # jobs, a shop's opening hours, bulk prices (stop 45's sweep: "warehouse" found the refund timing, "open" the
    # restocking fee, "discount" the promo codes)
    "business": (r"\b(are|is) (you|northwind) hiring\b|\bjob (openings?|applications?|vacanc\w+)\b|"
                 r"\bapply for a\b[^.?!]{0,20}\bjob\b|\bwork (at|for) (your|northwind)\b|\bcareers?\b|"
                 r"招聘|招人|招(客服|员工|店员|仓库)|简历|应聘|求职|"
                 r"\b(physical|retail) (store|shop)s?\b|\b(store|shop) (hours|opening hours)\b|"
                 r"\bwhat time does your (store|shop)\b|\bwhen (is|does) your (store|shop) open\b|门店|实体店|"
                 r"\b(nearest|closest) (store|shop|location|branch)\b|\bstores? near me\b|\bstore locat(ions?|or)\b|"
                 r"\bwhere (is|are) (your|the) (stores?|shops?)\b|"  # stop 56's sweep: the store credit ("store")
                 r"\bbulk (discounts?|pricing|prices|orders?|purchases?)\b|\bbuy(ing)? in bulk\b|\bwholesale\b|"
                 # an invoice to issue (stop 62's sweep: the shipping), not one a warranty asks for ("没有发票能保修吗")
                 r"批发|批量采购|开(具|张|个)?(增值税)?(专用)?发票|发票(抬头|税号)|增值税|\b(vat|tax) invoices?\b|"
                 # signing in with another company's account ("Do you have a login with Google or Apple option?")
                 r"\b(log ?in|sign ?in|sign on|login)( option)? (with|through|via|using) "
                 r"(google|apple|facebook|microsoft)\b"),
    # sports, cars (not a car charger, nor a parcel "on the truck") and advice on what to buy, which the store does
    # not sell or give
    "not sold": (r"\b(tennis|football|soccer|basketball|baseball|golf|volleyball|badminton)\b|网球|足球|篮球|"
                 r"(?<!\bon the )(?<!\boff the )(?<!\bdelivery )\b(cars?|vehicles?|trucks?|motorcycles?)\b"
                 r"(?!\s+(charger|seat|mount|adapter|vacuum|stereo|speaker|audio)s?\b)|"
                 r"\b(toyota|honda|tesla|bmw|ford|corolla)\b|汽车|轿车|摩托车|"
                 r"\brecommend\s+(me\s+)?(a|an|some)\b|\b(which|what) [\w ]{1,30} (would|do|should) you recommend\b|"
                 r"\bwhich one should i (buy|get|choose)\b|推荐(一款|一个|一下|个|款)|"
                 # "Which vacuum is better, the X200 or the X300?", "哪个更好用？" (stop 46's sweep: the warranty)
                 r"\bwhich [\w ]{0,30}\bis better\b|哪(个|款|种)(牌子|品牌)?更?好用|哪(个|款)(牌子|品牌)更?好"),
    # services the shop does not offer: installing, mounting, assembling at home ("Can someone from Northwind come
    # and mount my TV on the wall? Do you do installation?" got the installments; stop 62's sweep)
    "services": (r"\b(come|send (someone|somebody|a technician)|technician)\b[^.?!]{0,30}\b(install|mount|assemble)\b|"
                 r"\bdo you (do|offer|provide) (installation|assembly|mounting|tv mounting)\b|"
                 r"\b(installation|assembly|mounting) services?\b|\bmount (my|the|a|our) (tv|television)\b|"
                 r"上门安装|安装服务|挂墙|装到墙上|上门组装|组装服务|礼品包装|包装成礼物|"
                 r"\b(offer|do|have|add|want|need|get)\s+(a\s+)?gift[- ]?wrap\w*"),  # "Do you offer gift wrapping…?"
    # the shop's website, app or checkout not working, a technical fault no policy covers ("ur website is broken" got
    # the early defects, "i cant checkout" the promo codes; stop 58's sweep)
    "site": (r"\b(website|web site|site|app|checkout( page)?)\s+(is\s+|keeps\s+)?(broken|down|crash(es|ing)?|"
             r"(not|isn'?t|won'?t|doesn'?t) (working|loading|load|work))\b|\bcan'?t check ?out\b|\bcannot check ?out\b|"
             r"网站(打不开|坏了|崩了|进不去)|(app|应用)(打不开|闪退|崩了)|(没法|无法|不能)(结账|下单)"),
}
_UNCOVERED = re.compile("|".join(f"(?:{pattern})" for pattern in _UNCOVERED_TOPICS.values()), re.I)
# Questions about the catalogue (what is sold, stock, prices of products), which no policy answers; a priced policy
# (shipping, fees, the protection plan, installments, refunds, price adjustments) keeps a price question in scope.
_CATALOG = re.compile(
    r"\bdo you (sell|carry|stock)\b(?! (my|our|your customers'?|customers'?) )|\b(in|out of|back in) stock\b|"
    r"\bhow much (is|are|does|do) (the|a|an|this|that|these|those|your)\b|\bprice of\b|"
    r"\bwhat does (the|a|an|this|that) [\w ]+ cost\b|"
    # a product's specifications ("How hot does the electric kettle get before it switches off?" got the dispatch)
    r"\bhow (hot|cold|big|heavy|tall|wide|loud|bright|powerful) (does|is|are|do|can) (the|a|an|this|that|your|it)\b|"
    r"\b(available|come|comes|have (it|this|that|these|those|the \w+|this \w+|that \w+)) in (a |an )?(other |"
    r"different |another |more )?(colou?rs?|sizes?|black|white|blue|red|"
    r"green|gr[ae]y|brown|beige|pink|yellow|purple|orange|small|medium|large|larger|smaller|bigger|xl)\b|"
    r"有(没有)?(别的|其他|其它)(颜色|尺码|尺寸|款式)|有[红蓝黑白灰绿黄粉紫棕]色的?吗|"
    r"你们卖|有没有卖|卖不卖|有卖|有货|没货|库存|缺货|补货|多少钱|价格|价钱|售价|"
    # a list of the codes on offer ("把你们现在能用的所有优惠码都发给我"), which no policy gives
    r"(所有|全部)的?(优惠码|优惠券|折扣码)|\b(list|all)( of)? (your |the )?(current |available |active )?"
    r"(promo|discount|coupon) codes\b", re.I)
# Whether a product is on sale, where no purchase is told ("Is the sofa on sale?" got the furniture's warranty);
# one bought that went on sale asks for a price adjustment.
_ON_SALE = re.compile(r"\b(is|are) (the|this|that|these|those|your|there (a|an|any)) [\w ]{0,30}\bon sale\b|"
                      r"\b(is|are) there (a |an |any )?(sales?|deals?|discounts?)\b|(打折|促销|优惠活动)吗", re.I)
_PURCHASE_TOLD = re.compile(r"\b(i|we) (just )?(bought|ordered|purchased|paid|got)\b|(买|下单|订)了|买的|已经买", re.I)
_PRICED_POLICY = re.compile(
    r"ship|deliver|express|postage|label|fee|restock|warrant|protection|install|klarna|gift card|refund|return|drop|"
    r"differen|adjust|cheap|sale|match|deduct|运费|运输|配送|快递|加急|邮|标签|费|保修|延保|保障|保护|分期|礼品卡|退|降|差价|"
    r"价保|保价|价格调整|便宜|打折|寄|送货|扣", re.I)


def not_ours(question: str, query: str) -> str | None:
    """Why ``question`` is about something no policy covers, though a policy's word may find a section: "catalog"
    (what is sold, in stock, a product's price, not a priced policy of ``query``; whether a product is on sale,
    where ``query`` tells no purchase), or "out_of_scope" (another shop, the weather); else None."""
    simplified = to_simplified(question)  # the Chinese rules are written in simplified characters
    if _CATALOG.search(simplified) and not _PRICED_POLICY.search(to_simplified(query)):
        return "catalog"
    if _ON_SALE.search(simplified) and not _PURCHASE_TOLD.search(to_simplified(query)):
        return "catalog"
    return "out_of_scope" if _UNCOVERED.search(simplified) else None
