"""Rule routing on the project's eval set (no model)."""
from __future__ import annotations

from datetime import date

import pytest

import chatbot.durations
from chatbot.pruning import prune_message
from chatbot.router import SMALL_TALK, RuleRouter
from tests.chatbot.routing import answered_from, mode_and_reason


def test_rule_router_accuracy_on_eval_set(kb, eval_questions):
    router = RuleRouter(kb)
    rows = eval_questions
    pruned = [prune_message(r["question"]) for r in rows]
    correct = sum(router.route(p.text, p.query, r.get("previous")).mode == r["expected_mode"]
                  for p, r in zip(pruned, rows))
    assert correct / len(rows) >= 0.95


@pytest.mark.parametrize(("question", "section_id"), [
    ("I returned 1 of my 3 items, when will I get the money?", "refunds.timing"),
    ("我退了3件中的1件，钱什么时候到？", "refunds.timing"),  # shipping's "什么时候到"
    ("我没有收据，还能退货吗？", "returns.time-limit"),  # the receipt's phrase is in the clause that tells
    ("My order still hasn't shipped, can I cancel it?", "orders.cancellation"),
    ("收到的东西有质量问题，运费谁出？", "returns.shipping-fees"),
    ("The sofa is custom made, can I return it?", "returns.non-returnable")])
def test_the_asking_clause_decides_a_one_question_message(kb, question, section_id):
    """Its commas made these SoT, with sections of the story ("I returned 1 of my 3 items, ..." had three return
    sections after the refund timing): one question gets one answer, from what the asking clause asks."""
    route = RuleRouter(kb).route(question)
    assert route.mode == "direct" and route.hits[0].section.id == section_id


@pytest.mark.parametrize("question,section_id", [
    ("Hi, my email is sam.lee@gmail.com, how long do refunds take?", "refunds.timing"),
    ("Can I return a lamp? My email is jo@example.com", "returns.time-limit"),
    ("我的邮箱是 wang@163.com，退货要多久退款？", "refunds.timing"),
    ("I want to cancel order #48213, my email is kim@yahoo.com", "orders.cancellation")])
def test_contact_details_given_are_no_question(kb, question, section_id):
    """An e-mail address given to be reached at found the email change first (2026-12-02)."""
    route = RuleRouter(kb).route(question)
    assert route.mode == "direct" and route.hits[0].section.id == section_id


def test_contact_details_alone_ask_nothing(kb):
    """They are refused (the reply says what the assistant answers and how to reach an agent), also after a question:
    "my email is jo@example.com" got the email change."""
    for message in ("my email is jo@example.com", "我的邮箱是 wang@163.com", "555-123-4567"):
        assert RuleRouter(kb).route(message).mode == "refuse", message
    assert RuleRouter(kb).route("my email is jo@example.com", previous="Can I return a lamp?").mode == "refuse"

def test_courtesy_makes_no_second_question(kb):
    """Two question marks, or "and" after thanks, made these SoT with sections of other questions."""
    for message in ("Hello?? Anyone there? I need to cancel my order!!!", "有人吗？？我要取消订单！！！",
                    "Thank you so much, and how long is the warranty on a TV?", "谢谢！还有一个问题：支持PayPal吗？"):
        assert RuleRouter(kb).route(message).mode == "direct", message


@pytest.mark.parametrize("question", [
    "Caller asks if we ship to Canada and how much", "你们能寄到加拿大吗？要多久？",  # the standard and express's
    "I ordered from Germany. How long will delivery take and will I have to pay import taxes?",  # the standard's
    "shipping到Canada要多久，duties谁付"])  # the standard and express shipping's
def test_a_place_abroad_gets_no_domestic_times_or_prices(kb, question):
    """Stop 44's sweeps: the standard shipping's 3–5 days and the express's price joined the international
    shipping's 7–14 days."""
    route = RuleRouter(kb).route(question)
    assert route.hits[0].section.id == "shipping.international"
    assert not {"shipping.standard", "shipping.express"} & {h.section.id for h in route.hits}


@pytest.mark.parametrize(("question", "section_id"), [
    ("我想return这个lamp", "returns.time-limit"), ("我的account被lock了", "account.lockout"),  # both refused
    ("我的order还没到", "shipping.lost-damaged"),  # the bank's time ("还没")
    ("express shipping多少钱？", "shipping.express"),  # standard shipping ("多少钱")
    ("warranty多久？", "warranty.electronics"),  # refused; now the warranty's overview
    # Stop 41 (2026-12-03): an English word counted on the English scale, a third of a Chinese word's weight.
    ("我的password忘了怎么办", "account.password-reset"), ("2FA code收不到", "account.two-factor"),  # refused
    ("shipping到Canada要多久？", "shipping.international"),  # the refund timing
    ("holiday期间买的东西什么时候之前可以退？", "returns.holiday-season"),  # the dispatch times
    ("promo code用不了", "payment.promo-codes")])  # not a defect: it names no product
def test_english_words_in_a_chinese_message_count(kb, question, section_id):
    """A Chinese message is searched in the Chinese sections, which know no "return" or "account": its English
    words now add their scores on the English sections of the same ids, those the Chinese sections do not use
    ("password", not "PayPal") on the Chinese scale (`MIN_TOP_SCORE`), and the intents' patterns find them
    next to Chinese characters (re.A: "warranty多久" has a word boundary)."""
    assert RuleRouter(kb).route(question).hits[0].section.id == section_id


@pytest.mark.parametrize(("question", "points"), [
    # Past the window: the window says no, the warranty what instead (the warranty alone).
    ("My blender broke after 2 months. Can I still return it or do I need a warranty claim?",
     ["returns.time-limit", "warranty.electronics", "warranty.claims", "warranty.coverage"]),
    ("洗衣机漏水，买了两个月。能退吗？", ["returns.time-limit", "warranty.electronics", "warranty.claims", "warranty.coverage"]),
    # Within it: the early defects (the restocking fee, for electronics in working condition).
    ("My headphones stopped working after 2 weeks, can I return them?",
     ["warranty.early-defects", "warranty.electronics", "warranty.claims", "warranty.coverage"])])
def test_a_return_asked_for_a_defect_is_answered_by_its_age(kb, question, points):
    route = RuleRouter(kb).route(question)
    assert (route.mode, [h.section.id for h in route.hits[:4]]) == ("sot", points)


@pytest.mark.parametrize("question", [
    "What's the weather in Boston this weekend?", "明天天气怎么样", "Is it going to rain during my delivery tomorrow?",
    "What's the weather going to be like for Christmas in Boston?", "客户问宜家的退货政策是多少天？",
    # Other services and carriers, writing, general knowledge, cars, sports (stop 43's second sweeps: each answered
    # from the section a policy word found)
    "How do I cancel my Netflix subscription?", "How do I reset the password on my Gmail account?",
    "What's the shipping time for a letter with USPS?", "顺丰快递寄到北京要几天？", "Write me a poem about refunds",
    "帮我写一首关于退款的诗", "翻译一下'退货政策'成英文", "Who invented the credit card?",
    "What does 'restocking' mean in economics?", "What is the return on investment for index funds?",
    "股票的回报率怎么算？", "Can you explain how tax refunds work with the IRS?", "How long is the warranty on a Toyota Corolla?",
    "你们卖汽车吗？我想退我的车", "How do I return a serve in tennis?", "推荐一款好用的笔记本电脑",
    "help me write a cover letter for a job application"])  # the coverage ("cover")
def test_the_weather_and_other_shops_are_refused_though_a_policy_word_finds_a_section(kb, question):
    """"weekend" found the same-day dispatch, "Christmas" the holiday returns; 宜家 is IKEA (stop 43's sweep);
    `chatbot.uncovered`."""
    assert RuleRouter(kb).route(question).mode == "refuse"


@pytest.mark.parametrize("question", ["今天几号？", "明天上海天气怎么样？", "给我讲个笑话吧。", "What time is it?",
                                      "Do you sell used cars?", "我心情坏了", "I'm late for work",
                                      "你们卖iPad吗？", "帮我写一个Python程序"])
def test_short_questions_outside_the_policies_are_refused(kb, question):
    assert RuleRouter(kb).route(question).mode == "refuse"


@pytest.mark.parametrize("question", ["你们卖笔记本电脑吗？", "你們賣筆記本電腦嗎？", "iPhone 15多少钱？", "這張沙發多少錢？",
                                      "沙发有货吗？", "这款耳机还有库存吗？", "Do you sell laptops?", "Is the oak table in stock?",
                                      "When will the blue sweater be back in stock?",
                                      "What's the price of the Aero sofa?",
                                      "How much is the iPhone 15?", "What does the oak table cost?",
                                      "Is the sofa available in blue?", "Does this lamp come in other colors?",
                                      "Is the desk available in a larger size?", "这个沙发有别的颜色吗？", "有蓝色的吗？",
                                      "Do you have this sofa in blue?",  # the furniture's warranty (sweep 92)
                                      "把你们现在能用的所有优惠码都发给我", "Send me a list of your current promo codes"])
def test_questions_about_the_catalogue_are_refused(kb, question):
    """Products, prices and stock are in no policy; product names are warranty keywords ("笔记本", "沙发"), and
    "多少钱" a shipping one, so retrieval alone answered "你们卖笔记本电脑吗？" with the electronics warranty and
    "iPhone 15多少钱？" with standard shipping; colours and sizes are the exchanges' words ("Is the sofa available in
    blue?" got the furniture warranty)."""
    assert mode_and_reason(kb, question) == ("refuse", "catalog")


@pytest.mark.parametrize("question, section_id", [
    ("How much is the restocking fee?", "returns.restocking-fee"),
    ("How much is express shipping?", "shipping.express"),
    ("What does the extended protection plan cost?", "warranty.protection-plan"),
    ("延保多少钱？", "warranty.protection-plan"),
    ("Do you sell extended warranties?", "warranty.protection-plan"), ("退货标签费多少钱？", "returns.shipping-fees"),
    ("订单满多少钱免运费？", "shipping.standard"), ("价格降了能退差价吗？", "payment.price-adjustment"),
    ("分期付款最低多少钱？", "payment.installments"), ("加急多少钱、几天到？", "shipping.express")])  # a catalogue question
def test_prices_of_policies_are_answered(kb, question, section_id):
    assert answered_from(kb, question) == section_id


def test_a_price_follow_up_of_a_policy_is_answered(kb):
    route = RuleRouter(kb).route("要多少钱？", previous="加急配送多久能到？")
    assert route.mode == "direct" and route.hits[0].section.id == "shipping.express"


@pytest.mark.parametrize("question", [
    "What if I lost my receipt?", "Can I pick up in store?", "Do you have a physical store?",
    "Why was my card declined?",
    "How do I unsubscribe from your emails?", "Do you have a loyalty program?", "Can I schedule a delivery time?",
    "Does the warranty transfer to a new owner?", "我可以去门店自提吗？", "有会员积分吗？", "能指定送货时间吗？", "要签收吗？",
    "保修可以转给别人吗？", "怎么修改信用卡信息？", "My payment failed", "付款失败了",
    "Will someone need to sign for the package?", "Do you charge sales tax?", "I never got a confirmation email",
    "我没收到确认邮件", "How do I update my credit card?", "How do I update my phone number?", "怎么修改手机号？",
    "Do you have a store near me?", "How do I log out?", "怎么退出登录？",  # store credit; the lockout (both)
    "Can I return it to the store?",  # the store credit
    "Can you help me write an email to my boss?",  # the email change
    "How do I change my name on my account?",  # the email change
    "Can you hold my order until I get back from vacation?", "Can I add a gift message to my order?",  # the double
    # charge ("hold"), the added items
    "Is my credit card info stored?", "Do you sell my data?",  # the refund method; a catalogue question
    "my gift card isnt working", "礼品卡用不了",  # the refund method
    "You charged me the wrong amount", "你们多收了我的钱",  # the shipping charges' refund; under the bar
    "Can I choose my delivery date?",  # the electronics' warranty ("from the delivery date")
    "I was charged $200 but my order was only $150", "You charged me more than my order total",  # the refund
    # of shipping charges; the charge timing
    "Can I have two accounts?",  # two-factor authentication
    "My order was split into two packages",  # Klarna's installments ("split the payment")
    "Do you assemble furniture?", "Do you deliver furniture to the room?",  # the furniture warranty (both)
    "Do gift cards expire?", "礼品卡会过期吗", "Where can I find my order number?", "我的订单号在哪里看",  # the refund
    # method, tracking
    "I was charged $200 but my order was $150",  # the charge timing
    "Do you ship to APO addresses?", "Is there a warranty if I buy a floor model?",  # the address change; the
    # protection plan
    "Can someone else return an item for me?",  # the privacy section ("someone else")
    "Can I change my username?",
    # Sweep 78 (2026-12-03): the store credit ("credit"); refused already, kept so.
    "Is it safe to use my credit card on your site?", "Is my credit card info safe?", "在你们网站用信用卡支付安全吗？",
    "快递来的时候我不在家怎么办？",  # the refund timing ("时候", sweep 79)
    "Will there be a Black Friday sale?", "黑五有活动吗？", "什么时候打折？",  # the holiday returns (sweep 82)
    "What happens if I'm not home when the delivery arrives?", "Is there a warranty on refurbished items?"])  # the
    # lost parcels, the warranty claim (sweep 88)
def test_topics_no_policy_covers_are_refused(kb, question):
    """Each was answered from a section it shares a word with: the lost parcels ("lost"), store credit
    ("store", "积分"), the charge timing ("card", "charge"), the return window ("时间"), the privacy section
    ("别人"), the account lockout ("failed", "sign"), the email change ("confirmation email", "确认邮件"), the
    agents ("phone number"). A keyword phrase of the uncovered topics in a one-question message decides."""
    route = RuleRouter(kb).route(question)
    assert route.mode == "refuse" and route.hits[0].section.id == "contact.scope"


def test_shipping_charged_on_an_order_over_the_minimum_is_about_free_shipping(kb):
    """Not an overcharge, whose phrase "but my order was" it shares: the charge timing answered it."""
    route = RuleRouter(kb).route("I was charged $4.99 shipping but my order was $55")
    assert route.mode == "direct" and route.hits[0].section.id == "shipping.standard"


def test_a_phrase_in_an_other_sentence_does_not_decide(kb):
    """Only the sentences that ask count: the receipt here is said on the way."""
    route = RuleRouter(kb).route("I have my receipt. How long is the warranty on my TV?")
    assert route.mode == "direct" and route.hits[0].section.id == "warranty.electronics"


@pytest.mark.parametrize("question, section_id", [
    ("Can I pick up in store, or how much is shipping?", "shipping.standard"),
    ("能自提吗？退货要多久？", "returns.time-limit"),
    # The weather, the catalogue, another shop (stop 43's sweep: refused whole)
    ("What's the weather like in Seattle today, also when will my refund be issued after you get my return?",
     "refunds.timing"), ("今天天气怎么样？另外退款多久到账？", "refunds.bank-processing"),
    ("Do you sell cars, and do you accept Apple Pay?", "payment.methods"), ("你们卖汽车吗？支持Apple Pay吗？", "payment.methods"),
    ("Can you tell me the return policy at IKEA, and what's your restocking fee on opened electronics?",
     "returns.restocking-fee")])
def test_a_covered_question_after_an_uncovered_one_is_answered(kb, question, section_id):
    """Where the uncovered topic's phrase led, the whole message was refused; its covered question is answered,
    from the covered clauses alone (the store pickup's "store" brought store credit)."""
    route = RuleRouter(kb).route(question)
    assert route.mode == "sot" and route.hits[0].section.id == section_id
    assert "refunds.store-credit" not in [h.section.id for h in route.hits[:3]]
    assert RuleRouter(kb).route("Is there a loyalty program? Is there a physical store?").mode == "refuse"


@pytest.mark.parametrize("question, reason", [
    ("Hi there!", "greeting"), ("你好！", "greeting"), ("thanks", "thanks"), ("ok thanks", "thanks"),
    ("Thanks so much for your help!", "thanks"), ("好的，谢谢", "thanks"), ("thanks, that helps!", "thanks"),
    ("That was helpful, thank you", "thanks"), ("ok great, thanks", "thanks"), ("bye", "goodbye"), ("再见", "goodbye"),
    ("who are you?", "about"), ("Are you a bot?", "about"), ("你能做什么？", "about"),
    ("Are you ChatGPT?", "about"), ("What model are you?", "about"), ("你是什么模型？", "about"),  # refused
    # Sweep 92: refused; the store credit ("store"), refused, refused.
    ("你们是机器人吗？", "about"), ("I love your store!", "thanks"), ("You guys are great", "thanks"), ("你们太棒了！", "thanks"),
    ("I appreciate it", "thanks"), ("我知道了", "thanks"), ("I'm done", "goodbye"), ("That's it", "goodbye"),  # refused
    # Stop 43's sweep: refused.
    ("hiya, u there?", "greeting"), ("Good morning, anyone around?", "greeting"),
    ("Thanks so much, that sorted it!", "thanks"), ("ok brill, cheers for that", "thanks"),
    ("thx for the help, have a good one", "thanks"), ("Appreciate it, you've been really helpful today.", "thanks"),
    ("你好呀", "greeting"), ("hello，有人吗", "greeting"), ("早上好～", "greeting"), ("在吗？", "greeting"),
    ("谢谢啦 问题解决了", "thanks"), ("好的 明白了 谢谢你的耐心", "thanks"), ("辛苦了，拜拜", "goodbye"),
    # Stop 44's sweeps: refused (the fourth answered from the standard shipping, the thanks "info helped" too).
    ("fine", "thanks"), ("alright", "thanks"), ("fine, whatever", "thanks"), ("that's fine thanks", "thanks"),
    ("Ugh, fine. Thanks for nothing.", "thanks"), ("thanks, that helped a lot!", "thanks"),
    ("Thanks, the $50 free shipping info helped!", "thanks"), ("Hello?? Is anyone even there?", "greeting"),
    ("行吧", "thanks"), ("好吧", "thanks"), ("好哒 谢谢亲😘", "thanks"), ("么么哒😘", "thanks"), ("亲 在吗~", "greeting"),
    ("谢谢你，30天的退货期我知道了", "thanks"), ("thx so much ur the best", "thanks"),
    ("Thanks, that cleared up the double charge thing!", "thanks"), ("thanks, that explains it!", "thanks"),
    ("谢谢，扣款的问题搞清楚了", "thanks"), ("thanks, that fixed my login!", "thanks"),
    ("Thanks, that's all I needed.", "goodbye")])
def test_small_talk(kb, question, reason):
    assert RuleRouter(kb).route(question)[:2] == ("direct", reason)


@pytest.mark.parametrize("question", ["¿Puedo devolver un producto?", "Puis-je retourner un article ?",
                                      "返品できますか？"])
def test_a_message_in_another_language_is_refused_for_its_language(kb, question):
    """They were refused as out of scope, with an English reply that named no language."""
    assert RuleRouter(kb).route(question)[:2] == ("refuse", "language")


@pytest.mark.parametrize("question", ["ok, how do I return it?", "Thanks, but how long is the warranty?",
                                      "Bye the way, can I return a lamp?", "Is it fine to return a used blender?",
                                      "退货要多久我不懂了", "whatever you say, how do I return it?"])
def test_small_talk_with_a_question_is_a_question(kb, question):
    assert RuleRouter(kb).route(question).reason not in SMALL_TALK


@pytest.mark.parametrize(("previous", "question", "reason"), [
    # Stop 43's sweep: refused, answered from the escalation's section.
    ("My lamp gave me an electric shock", "is it safe to keep using?", "safety"),
    ("我的电暖器冒烟了", "很危险吗？", "safety"),
    ("I was charged for an order I never placed", "what should I do?", "fraud"),
])
def test_a_follow_up_of_an_escalation_is_escalated(kb, previous, question, reason):
    assert mode_and_reason(kb, question, previous) == ("escalate", reason)


@pytest.mark.parametrize(("previous", "question", "mode"), [
    ("My lamp gave me an electric shock", "thanks", "direct"),  # small talk
    ("I want to talk to a human", "I forgot my password, how do I reset it?", "direct"),  # a topic of its own
])
def test_a_message_after_an_escalation_that_is_no_follow_up_keeps_its_own_route(kb, previous, question, mode):
    assert RuleRouter(kb).route(question, previous=previous).mode == mode


def test_a_defect_dated_by_last_christmas_is_a_defect(monkeypatch, kb):
    """Stop 44: a best hit that answers for the other side of the 30-day window keeps no defect from its outline
    (`intents._dated_defect`): 344 days after Christmas the holiday returns answered alone, where the window and
    the warranty do. "last Christmas" is counted back from `durations.today`."""
    monkeypatch.setattr(chatbot.durations, "today", lambda: date(2026, 12, 4))
    route = RuleRouter(kb).route("My kettle stopped working, I bought it last Christmas. Can I return it?")
    assert (route.mode, route.reason, route.hits[0].section.id) == ("sot", "defect", "returns.time-limit")


def test_a_defect_within_the_window_asking_return_or_claim_leads_with_the_early_defects(kb):
    """Stop 44's sweep: the claim alone answered, where a defect within the window is a return."""
    route = RuleRouter(kb).route("I received a defective vacuum 10 days ago. Should I return it or make a warranty "
                                 "claim?")
    assert (route.mode, route.hits[0].section.id) == ("sot", "warranty.early-defects")


def test_a_lockout_told_in_other_words_is_the_lockout(kb):
    """Stop 44's sweep: "tried to log in 5 times … can't get in" found the refund timing and the standard shipping by
    "How long do I have to wait?"."""
    route = RuleRouter(kb).route("I tried to log in 5 times and now I can't get in. How long do I have to wait?")
    assert route.hits[0].section.id == "account.lockout"


@pytest.mark.parametrize("question", [
    "A lamp was delivered to me on December 28 — can I return it in late January?",
    "11月10号送到的外套，现在1月5号了还能退吗？"])
def test_a_delivery_date_outside_the_holiday_season_leads_with_the_window(kb, question):
    """Stop 44's sweep: the holiday returns answered, found by "December" and "January" (`KnowledgeBase.dated_sections`
    names the sections whose ranges hold none of the dates told)."""
    assert RuleRouter(kb).route(question).hits[0].section.id == "returns.time-limit"


def test_an_international_order_is_the_international_shipping_s(kb):
    """Stop 44's sweep: the standard shipping's 3–5 days answered."""
    route = RuleRouter(kb).route("My international order shipped 10 business days ago, when will it arrive?")
    assert route.hits[0].section.id == "shipping.international"
