"""Rule routing on the project's eval set (no model)."""
from __future__ import annotations

from datetime import date

import pytest

import chatbot.durations
from chatbot.pruning import prune_message
from chatbot.router import SMALL_TALK, RuleRouter


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


@pytest.mark.parametrize(("question", "section_id"), [
    ("Do you ship to Canada?", "shipping.international"),
    ("Can you deliver to Mexico?", "shipping.international"),
    ("Do you ship internationally?", "shipping.international"),
    ("What is the cancellation policy?", "orders.cancellation"),
    ("你们能寄到加拿大吗？", "shipping.international"),
    ("Do you ship to Germany?", "shipping.international"),
    ("能寄到德国吗？", "shipping.international"),
    ("可以发到日本吗？", "shipping.international"),
    ("关税谁付？", "shipping.international"),
    ("退货要多久？", "refunds.timing"),
    ("Who pays customs?", "shipping.international"),  # "customs" no longer stems to "customer"'s "custom"
    ("Can you send my order to Germany?", "shipping.international"),  # "send" had found the return process
    ("我的订单到了但是东西坏了，怎么办？", "shipping.lost-damaged"),  # 11.0, under the Chinese bar of 12.0
    # Keyword phrases: each scored under its bar on words alone, or found another section first.
    ("Where is my order?", "shipping.tracking"),  # "order" alone: 2.2
    ("The mug I received was smashed.", "shipping.lost-damaged"),  # refunds.timing's "received" first
    # A third sweep (2026-12-01 16:50): each was refused or found another section.
    ("What's not returnable?", "returns.non-returnable"),  # 2.6
    ("哪些东西不能退？", "returns.non-returnable"),  # 10.8
    ("可以换大一号吗？", "returns.exchanges"),  # 7.9
    ("包邮吗？", "shipping.standard"),  # 7.3
    ("我的包裹不見了", "shipping.lost-damaged"),  # 10.8, traditional characters
    ("My order shipped but I want to cancel", "orders.after-shipment"),  # the cancellation window first
    ("I bought a lamp 2 months ago, can I return it?", "returns.time-limit"),  # the protection plan's "bought"
    ("I ordered a sofa 3 weeks ago, can I return it?", "returns.time-limit"),  # the furniture warranty first
    ("My package is late", "shipping.lost-damaged"),
    ("My refund hasn't arrived yet.", "refunds.bank-processing"),  # longer than the parcel's "hasn't arrived"
    ("My order still hasn't arrived", "shipping.lost-damaged"),
    ("东西坏了怎么办？", "shipping.lost-damaged"),  # 8.1
    ("我的订单还没到", "shipping.lost-damaged"),  # the refund section's "到" first
    ("我的快递到哪了？", "shipping.tracking"),
    ("退款还没到账", "refunds.bank-processing"),
    ("How do I return something?", "returns.process"),  # 2.6
    ("I can't log in", "account.password-reset"),
    ("I got the wrong item", "returns.shipping-fees"),
    ("What are your hours?", "contact.human-agents"),
    ("When will my order ship?", "shipping.dispatch"),  # the after-shipment section first
    ("Do you take Venmo?", "payment.methods"),  # not accepted: the answer lists what is
    ("怎么退货？", "returns.process"),  # 9.2
    ("可以用支付宝吗？", "payment.methods"),  # 11.9
    ("发错货了", "returns.shipping-fees"),
    ("下单后还能加东西吗？", "orders.adding-items"),  # the cancellation section first
    ("快递显示已签收但我没收到", "shipping.lost-damaged"),  # the after-shipment section first
    ("运单号在哪里看？", "shipping.tracking"),
    ("保修需要什么材料？", "warranty.claims"),
    ("周末发货吗？", "shipping.dispatch"),
    ("能寄到香港吗？", "shipping.international"),
    ("退货寄到哪里？", "returns.process"),  # the refund method's "退到哪里" first
    ("Package says delivered but I don't have it", "shipping.lost-damaged"),
    ("Do you ship on weekends?", "shipping.dispatch"),
    ("Are you open on Sundays?", "contact.human-agents"),  # "open" found the restocking fee
    # Chinese messages naming a Latin brand have fewer Chinese terms, and a lower bar (`in_scope_bar`).
    ("可以用Apple Pay吗？", "payment.methods"),  # 10.1 against 9.3 (12.0 before)
    ("Klarna怎么用？", "payment.installments"),  # a phrase now: "klarna" is a word before "怎"
    ("Can I return my order after 40 days?", "returns.time-limit"),  # the process (its "Orders page") first
    ("Can I still return it after 5 weeks?", "returns.time-limit"),  # the restocking fee first
    ("我的订单在哪里？", "shipping.tracking"),  # the refund method's "退到哪里" first
    ("Can I get a refund in cash?", "refunds.method"),  # refused: no section named cash
    ("可以退现金吗？", "refunds.method"),
    ("Can I pay cash on delivery?", "payment.methods"),  # refused
    ("How do I contact you?", "contact.human-agents"),  # refused
    ("The item doesn't match the description", "returns.shipping-fees"),  # the price adjustment ("match")
    ("收到的东西和描述不一样", "returns.shipping-fees"),  # refused
    ("Can I get a discount?", "payment.promo-codes"), ("有折扣吗？", "payment.promo-codes"),  # both refused
    ("When will my order arrive?", "shipping.standard"),  # what to do after shipment
    ("什么时候能到？", "shipping.standard"), ("几天能到？", "shipping.standard"),  # both refused
    ("My order is delayed", "shipping.lost-damaged"), ("订单延误了", "shipping.lost-damaged"),  # both refused
    ("周末送货吗？", "shipping.dispatch"),  # refused
    ("What's your return shipping policy?", "returns.shipping-fees"),  # refused: "policy" found contact.scope
    ("Can I get my order faster?", "shipping.express"), ("我想早点收到", "shipping.express"),  # both refused
    ("My order hasn't shipped yet", "shipping.dispatch"),  # what to do after shipment
    ("箱子送到时是坏的", "shipping.lost-damaged"),  # refused
    ("你们有价格保护吗？", "payment.price-adjustment"),  # refused as a catalogue question ("价格")
    ("What is your email address?", "contact.human-agents"),  # changing the account's email
    ("How can I call you?", "contact.human-agents"), ("你们的电话号码是多少？", "contact.human-agents"),  # refused
    ("The delivery guy left my package at the wrong house.", "shipping.lost-damaged"),  # the return window
    ("快递送错地址了。", "shipping.lost-damaged"),  # the address change
    ("Do you deliver on Sundays?", "shipping.dispatch"), ("周日送货吗？", "shipping.dispatch"),  # both refused
    ("What's the cheapest shipping?", "shipping.standard"),  # refused
    ("寄到英国运费多少？", "shipping.international"),  # standard shipping ("运费", "多少")
    ("我的订单号是NW-12345，到哪了？", "shipping.tracking"),  # the refund method ("退到哪")
    ("Can I return a swimsuit?", "returns.non-returnable"),  # the return window ("swimwear" only)
    ("I lost my return label", "returns.process"),  # the label fee
    ("退货标签丢了", "returns.process"), ("退货标签费多少钱？", "returns.shipping-fees"),
    ("Can you pick up my return?", "returns.process"), ("能上门取件吗？", "returns.process"),  # window; refused
    ("退货去哪里寄？", "returns.process"), ("能换成别的商品吗？", "returns.exchanges"),  # window; refused
    ("What payment methods do you take?", "payment.methods"),  # the refund method ("payment method")
    ("I want to buy a gift card. What payment methods do you take?", "payment.methods"),
    ("你好，我的包裹晚了，怎么回事？", "shipping.lost-damaged"), ("能改成寄到公司吗？", "orders.address-change"),  # refused
    ("我忘了加一件商品", "orders.adding-items"), ("我想退一双鞋，怎么退？", "returns.process"),  # refused; the window
    ("怎么退款？", "refunds.timing"),  # "怎么退" is the process's phrase; "怎么退款" is longer
    ("I cancelled my order, when do I get my money back?", "refunds.timing"),  # the cancellation
    ("Can I return a gift?", "returns.time-limit"), ("How long do I have to return a gift?", "returns.time-limit"),
    ("Can I return a gift card?", "returns.non-returnable"),  # the gifts' two: gift cards ("gift")
    ("Can I return a gift I got for Christmas?", "returns.holiday-season"),
    ("My table arrived scratched", "shipping.lost-damaged"), ("桌子有划痕", "shipping.lost-damaged"),  # furniture's
    # warranty (the frame)
    ("My phone won't charge", "warranty.early-defects"),  # the agents, for "phone"
    ("My laptop is not charging", "warranty.early-defects"),  # the double charges
    ("I'm still waiting for my package", "shipping.lost-damaged"),  # the condition of returns
    ("我等了三个星期了，还没收到！", "shipping.lost-damaged"),  # the bank's processing time
    ("我还没收到退款", "refunds.bank-processing"),  # "还没收到" alone is now a parcel's, not the bank's
    ("Can I get free shipping on this order?", "shipping.standard"),  # the cancellation ("free")
    ("請問退款什麼時候到帳？", "refunds.bank-processing"),  # standard shipping's "什么时候到"
    ("Can I return shoes I wore outside?", "returns.condition"),  # the window
    ("Can I return a video game?", "returns.non-returnable"),  # the warranty claim
    ("我买的游戏光盘拆了还能退吗？", "returns.non-returnable"),  # the window
    ("运费多少？", "shipping.standard"), ("退货运费多少？", "returns.shipping-fees"),  # a bare "运费" is the overview
    ("The password reset email never came", "account.password-reset"),  # the lost parcels ("never came")
    ("How long until I can log in again?", "account.lockout"),  # refused
    # A fourteenth sweep, in customers' shorthand (before: refused, or the section after the colon).
    ("yo where's my stuff", "shipping.tracking"), ("ordered 2 weeks ago still nothing", "shipping.lost-damaged"),
    ("how do i get a refund for my order that never showed up", "shipping.lost-damaged"),  # the bank's time
    ("the box was empty!!", "shipping.lost-damaged"),  # express shipping
    ("i got someone elses order", "returns.shipping-fees"),  # refused as another customer's data
    ("i need to return a lamp but lost the box", "returns.condition"),  # the lost parcels
    ("can i get my money back instead of store credit", "refunds.method"),  # store credit
    ("when do u ship orders", "shipping.dispatch"),  # what to do after shipment
    ("r u open on sunday", "contact.human-agents"),  # the restocking fee ("open")
    ("order says shipped but tracking hasnt updated in 5 days", "shipping.lost-damaged"),  # after shipment
    ("我的东西呢", "shipping.tracking"), ("下单两周了还没动静", "shipping.lost-damaged"),  # both refused
    ("想退个台灯但盒子扔了", "returns.condition"), ("能退钱不要店铺余额吗", "refunds.method"),  # window; credit
    ("包裹卡在海关了", "shipping.international"), ("打折商品能退吗", "returns.non-returnable"),  # refused; price
    ("笔记本进水了，保修管吗？", "warranty.coverage"),  # the electronics' term
    ("狗把椅子腿咬坏了，能保修吗？", "warranty.coverage"),  # a defect's outline: damage is no defect
    # A cancelled order's charge is the authorization hold (the cancellation), an order never got a lost parcel.
    ("I was charged but my order was cancelled", "payment.double-charge"), ("订单取消了还扣钱", "payment.double-charge"),
    ("I was charged but never got my order", "shipping.lost-damaged"),  # the charge timing
    ("Can I change the quantity on my order?", "orders.adding-items"),  # the address change
    ("I ordered the wrong item, can I swap it?", "returns.exchanges"),  # "wrong item": a wrong delivery's free return
    ("I accidentally ordered twice", "orders.cancellation"),  # refused
    ("不小心下了两次单", "orders.cancellation"),  # the double charges
    # A return sent with no refund since: the refund's timing, then the bank's (the bank's first until stop 42).
    ("I returned a lamp 3 weeks ago and still no refund. What's going on?", "refunds.timing"),  # method
    ("I opened the headphones but didn't use them. Do I get a full refund?", "returns.restocking-fee"),  # credit
    ("The jacket I ordered has a stain on it. Can I send it back for free?", "returns.shipping-fees"),  # process
    ("买的夹克上有污渍，能免费寄回吗？", "returns.shipping-fees"),  # refused
    ("锁多久？", "account.lockout"),  # refused: the one of 50 questions for a single fact that missed
    # Courtesy first: "quick" is express shipping's word, "在吗？" a question of its own (SoT with the refund method).
    ("Hi! Quick question: how long do returns take?", "returns.time-limit"),  # express shipping
    ("Thanks! One more thing: do you take PayPal?", "payment.methods"),  # standard shipping
    ("在吗？我的订单到哪了？", "shipping.tracking"),
    # A twentieth sweep, refunds: a refund under what was paid is the label fee's deduction (the refund method).
    ("Why is my refund less than what I paid?", "returns.shipping-fees"), ("退款为什么比我付的少？", "returns.shipping-fees"),
    ("The refund says processed but I don't see it", "refunds.bank-processing"),  # when it is issued
    ("能退到另一张卡吗？", "refunds.method"),  # the return window
    ("快递把东西弄坏了", "shipping.lost-damaged"),  # a defect's outline: the courier broke it
    ("I want to return 2 of the 4 chairs I ordered.", "returns.time-limit"),  # Klarna's "4 interest-free payments"
    # 2026-12-02's sweep: what was found before in brackets.
    ("Is shipping free on a $45 order?", "shipping.standard"),  # cancelling "free of charge"
    ("Is return shipping free?", "returns.shipping-fees"), ("Are returns free?", "returns.shipping-fees"),
    ("What time do you ship orders?", "shipping.dispatch"),  # standard shipping
    ("退货要钱吗", "returns.shipping-fees"),  # the return window
    ("快递几天到", "shipping.standard"),  # refused, 11.9 against the bar of 12.0
    ("退款几天到", "refunds.timing"), ("国际订单几天到？", "shipping.international"),
    ("Can I exchange it for a different color?", "returns.exchanges"), ("我想换个颜色", "returns.exchanges"),
    ("I got a damaged TV. Do I return it or file a warranty claim?", "warranty.early-defects"),  # the claim
    ("I opened the software but it doesn't work. Can I return it?", "returns.non-returnable"),  # the restocking fee
    ("Someone signed for my package but it wasn't me", "shipping.lost-damaged"),  # the account lockout
    ("Do I need a receipt for a warranty claim?", "warranty.claims"),  # refused: "receipt" is uncovered
    ("我想把订单里的一个商品退掉，其他的留着", "returns.process"),  # adding items to an order
    ("双十一买的东西什么时候能退", "returns.time-limit"),  # when an order ships
    ("钱什么时候能退", "refunds.timing"), ("Can I get the refund to another account?", "refunds.method"),
    # A story, then who pays to send it back (the last notes' weak spot: damaged parcels, standard shipping).
    ("我买的台灯到了，打开箱子发现灯罩裂了，底座也有划痕，我很失望。退货需要我付运费吗？", "returns.shipping-fees"),
    ("台灯到了灯罩裂了，退货需要我付运费吗？", "returns.shipping-fees"),
    # Refused, the address change, refused and the order after shipment before (2026-12-02).
    ("do u ship to china", "shipping.international"), ("退货地址是什么", "returns.process"),
    ("支持七天无理由吗", "returns.time-limit"), ("Only part of my order arrived", "shipping.lost-damaged"),
    ("快递员说放在门口了，但是我没看到", "shipping.lost-damaged"),  # refused
    ("My order is late and I needed it for a birthday. Can I get shipping refunded?", "refunds.shipping-charges"),
    ("My card number is 4111 1111 1111 1111, why was I charged twice?", "payment.double-charge"),  # charge timing
    # Sweeps 27-30 (2026-12-02), before in brackets.
    ("What's the process for returning a large item like a couch?", "returns.process"),  # non-returnable items
    ("家具退货要运费吗", "returns.shipping-fees"), ("用过的东西能退吗", "returns.condition"),  # the window (both)
    ("耳机的充电器丢了还能退吗", "returns.condition"), ("11月20号收到的，最晚什么时候退", "returns.holiday-season"),  # the
    # window; the refund timing (the window until 2026-12-03: November 20 is in the holiday season's range)
    ("How do I know if my order shipped?", "shipping.tracking"),  # the order after shipment
    ("I need it by Friday, what are my options?", "shipping.express"),  # refused
    ("Why hasn't my order shipped yet? I ordered 3 days ago", "shipping.dispatch"),  # standard shipping
    ("Will I get my Klarna payments back if I return?", "refunds.method"),  # the installments
    ("Can I use my gift card online?", "payment.methods"),  # the refund method
    ("How many times can I try my password?", "account.lockout"),  # the return window
    ("Is my purchase protected?", "warranty.protection-plan"),  # the price adjustment
    ("能发短信通知我发货吗", "shipping.tracking"), ("怎么知道发货了没", "shipping.tracking"),  # refused (both)
    ("礼品卡能在网上用吗", "payment.methods"), ("用礼品卡买的能退现金吗？", "refunds.method"),  # the refund method;
    # and kept
    ("Return conditions for electronics?", "returns.condition"),  # the restocking fee
    ("优惠码能用在打折商品上吗？", "payment.promo-codes"),  # the non-returnable items ("打折商品")
    # An item sent twice is a wrong item, whose return is free (the promo codes).
    ("I received two of the same item but only ordered one", "returns.shipping-fees"),
    ("你们多发了一个，我只买了一个", "returns.shipping-fees"),
    ("可以用银联卡吗", "payment.methods"), ("Can I keep using my PayPal?", "payment.methods"),  # refused (both)
    # An order in processing has not shipped yet (the bank's processing time, the charge timing, refused).
    ("My order says processing for 3 days now, is that normal?", "shipping.dispatch"),
    ("why is my order still processing", "shipping.dispatch"), ("订单一直显示处理中，正常吗？", "shipping.dispatch"),
    ("退款显示处理中是什么意思？", "refunds.timing"),  # a refund in processing stays the refund's
    ("Has my order shipped yet?", "shipping.tracking"), ("has it shipped", "shipping.tracking"),  # after shipment;
    # refused
    ("If I order two things separately, do I pay shipping twice?", "shipping.standard"),  # the double charge
    ("The box arrived open and some things were missing", "shipping.lost-damaged"),  # the restocking fee
    ("What does the warranty exclude?", "warranty.coverage"), ("维修要多久？", "warranty.claims"),  # refused (both)
    ("延保可以以后再买吗？", "warranty.protection-plan"),  # the extended warranty bought later
    # A used item or one without an accessory is the return condition (the return window, all five).
    ("Can I return a mattress after sleeping on it?", "returns.condition"), ("床垫睡过了能退吗？", "returns.condition"),
    ("Can I return a TV without the remote?", "returns.condition"), ("电视遥控器丢了还能退吗？", "returns.condition"),
    ("鞋子穿出去一次还能退吗？", "returns.condition"),
    ("节假日买的东西退货期限是多久？", "returns.holiday-season"), ("节假日发货吗？", "shipping.dispatch"),  # the window;
    # the holiday season
    # A Christmas purchase's window ("什么时候之前" had found the same-day dispatch's "2点前"), a refund on the card
    # (the bank's time, not the refund method), a coffee maker's warranty (electronics, not furniture), what happens
    # to the data of a deleted account (not the assistant's privacy rule).
    ("圣诞节买的东西什么时候之前可以退？", "returns.holiday-season"),
    ("How long does a refund take to show on my credit card?", "refunds.bank-processing"),
    ("退款怎么还没到？？", "refunds.bank-processing"), ("What happens to my data if I delete my account?", "account.deletion"),
    ("注销账户后，我的数据会怎样？", "account.deletion"), ("我的咖啡机保修多久？", "warranty.electronics"),
    ("My refund was less than what I paid, why?", "returns.shipping-fees"),  # its phrase is in the told clause
    ("商品和图片不一样", "returns.shipping-fees"), ("The lamp looks nothing like the picture", "returns.shipping-fees"),
    ("Can I pay monthly?", "payment.installments"),
    ("If I cancel, do I get a full refund?", "orders.cancellation"),  # "full refund" found the restocking fee
    ("yo can i send back shoes i wore once", "returns.condition"),  # the return process
    ("how much does it cost to return a couch", "returns.shipping-fees"),  # standard shipping
    # An amount quoted is its section's (the refund timing, the charge timing, the return fees before).
    ("我的退款被扣了5.99美元，为什么？", "returns.shipping-fees"), ("Why did I pay 14.99 for shipping?", "shipping.express"),
    ("I was charged $4.99 for shipping on a $60 order", "shipping.standard"),
    ("What if I lose my return label?", "returns.process"),  # the label's fee
    ("我的快递被别人签收了", "shipping.lost-damaged"), ("Someone else signed for my package", "shipping.lost-damaged"),
    ("订单已经发货了还能取消吗？", "orders.after-shipment"),  # the cancellation window
    # A gift's return is the return window's (the non-returnable items: "gift cards"; the holiday season).
    ("I got this as a gift, can I return it?", "returns.time-limit"), ("别人送的礼物能退吗？", "returns.time-limit"),
    ("Can I return a gift card?", "returns.non-returnable"),
    ("My order total was $45, why did I pay shipping?", "shipping.standard"),  # the return label's fee
    ("退货需要自己付运费吗？", "returns.shipping-fees"), ("买东西需要自己付运费吗？", "shipping.standard"),
    # A phrase in the story of a question without one (2026-12-03; the refund method, the first two; the third by 4%).
    ("I bought a gift card, can I get a refund on it?", "returns.non-returnable"),
    ("我买了一张礼品卡，可以退款吗？", "returns.non-returnable"), ("礼品卡可以退吗？", "returns.non-returnable"),
    # An opened speaker's fee ("开过封" had no phrase: express shipping for "扣多少钱"; the non-returnable items).
    ("我想退一个开过封的蓝牙音箱，要扣多少钱？", "returns.restocking-fee"), ("开过封的音箱能退吗？", "returns.restocking-fee"),
    ("我的快递被偷了怎么办？", "shipping.lost-damaged"),  # refused ("被偷" was no phrase)
    # Another size or color is an exchange (2026-12-03; "change ... before it ships" found the address change).
    ("Is it possible to change the size of the shirt I ordered before it ships?", "returns.exchanges"),
    ("I ordered the wrong size, can I change it?", "returns.exchanges"),
    # Charged before it shipped is the charge's timing (standard dispatch before: "shipped"); cancelled and
    # charged is the authorization hold (the cancellation before).
    ("I got charged but my order hasn't shipped yet, why?", "payment.charge-timing"),
    ("订单还没发货，为什么已经扣钱了？", "payment.charge-timing"), ("订单取消了但是已经扣钱了", "payment.double-charge"),
    # Sweep 63: "charge" found the charge's timing, "什么时候" the dispatch.
    ("Do you charge for shipping if my order is $49?", "shipping.standard"),
    ("Do you charge for shipping on returns?", "returns.shipping-fees"),
    ("圣诞节前买的东西什么时候之前可以退？", "returns.holiday-season"),
    # Sweep 64: an A-not-A question ("能不能退") found "不能" ("cannot") and the non-returnable items; "运费是不是要我
    # 自己出" was refused; an agent's "Customer asks if gift cards are refundable" got the refund method.
    ("已拆封的耳机能不能退？", "returns.restocking-fee"), ("拆开的耳机可不可以退？", "returns.restocking-fee"),
    ("运费是不是要我自己出？", "shipping.standard"), ("退货运费是不是要我自己出？", "returns.shipping-fees"),
    ("我想退货，运费要我自己出吗？", "returns.shipping-fees"),
    ("Customer asks if gift cards are refundable", "returns.non-returnable"),
    # Sweep 65: "box" found express shipping's PO boxes; a missing item got what to do after shipment, or was refused.
    ("The box was crushed", "shipping.lost-damaged"), ("I ordered 3 items but only 2 arrived", "shipping.lost-damaged"),
    ("我买了3件东西只到了2件", "shipping.lost-damaged"),
    # A day the message names, in the holiday season's range, decides (`chatbot.dates`): the 30-day window's phrase
    # "最晚什么时候可以退" led, and "能退到什么时候" found the refund timing (2026-12-03).
    ("12月1日买的台灯，最晚什么时候可以退？", "returns.holiday-season"), ("我12月1号收到的东西，能退到什么时候？", "returns.holiday-season"),
    ("I got my order on Dec 28, can I still return it?", "returns.time-limit"),  # after the range: the 30 days
    # Opened cosmetics are the condition (unused, in the original packaging), not the electronics' restocking fee.
    ("I opened a bottle of perfume, can I return it?", "returns.condition"), ("香水拆封了还能退吗？", "returns.condition"),
    ("Can I return a lipstick I tried once?", "returns.condition"), ("I opened the headphones, can I return them?",
                                                                       "returns.restocking-fee"),
    ("It's been 2 weeks since you got my return and no refund", "refunds.bank-processing"),  # the refund timing
    ("how much is shiping to canda", "shipping.international"),  # standard shipping ("canda" was "canad")
    ("I want to cancel my order but it has already shipped", "orders.after-shipment"),
    ("订单已经发货了还能取消吗？", "orders.after-shipment"), ("Can I cancel my order? It hasn't shipped yet", "orders.cancellation"),
    # Sweep 69, terse messages (2026-12-03): refused; the furniture warranty ("sofa"); adding items ("order").
    ("how long shipping", "shipping.standard"), ("the sofa is cheaper now", "payment.price-adjustment"),
    ("item missing from order", "shipping.lost-damaged"), ("charged but order canceled", "payment.double-charge"),
    # A destination abroad beside standard shipping's phrase: "how long is shipping" and "to canada" shared a
    # space, counted as an overlap, and the longer phrase, standard shipping's, won.
    ("how long is shipping to canada", "shipping.international"), ("how long shipping to uk", "shipping.international"),
    # Sweep 70, terse Chinese: "延保" scored 11.9 against the bar of 12.0, Huabei named no policy (both refused);
    # "退货要收费吗" got the 30-day window.
    ("延保", "warranty.protection-plan"), ("花呗可以吗", "payment.methods"), ("退货要收费吗", "returns.shipping-fees"),
    # Sweep 71, their English twins: refused; the refund timing; what to do after shipment.
    ("afterpay?", "payment.installments"), ("do returns cost money", "returns.shipping-fees"),
    ("late delivery", "shipping.lost-damaged"),
    ("Customer wants to return a mattress after 40 days", "returns.time-limit"),  # "custom" items (sweep 74, agents)
    # Sweeps 75-77 (2026-12-03): refused ("洒在" was no water damage, "苹果支付" no Apple Pay, "运费怎么算" no price);
    # the order's dispatch ("hasn't shipped"); the return process ("怎么退"); the bank's time ("信用卡").
    ("咖啡洒在键盘上了，保修管吗？", "warranty.coverage"), ("可以用苹果支付吗？", "payment.methods"),
    ("運費怎麼算？", "shipping.standard"), ("I need to change the delivery address, the order hasn't shipped yet",
                                       "orders.address-change"),
    ("礼品卡付款的退款怎么退？", "refunds.method"), ("可以退款到信用卡嗎？", "refunds.method"),
    ("能快点发货吗？", "shipping.express"),  # refused (sweep 79; "Can I get my order faster?" found express)
    ("丢件政策", "shipping.lost-damaged"), ("refund processing time", "refunds.timing"),  # refused; the bank's time
    ("黑五买的能退吗？", "returns.holiday-season"),  # the 30-day window (sweep 82; English found the season)
    # Sweep 83: the cancellation ("cancelling"); refused ("receipt", a topic no policy covers, in the story); the
    # standard shipping ("运费怎么算", sweep 77's phrase, inside the return's).
    ("Can I return noise cancelling headphones?", "returns.time-limit"),
    ("My mom bought me headphones as a gift but they're the wrong model. I don't have the receipt. Can I exchange "
     "them?", "returns.exchanges"), ("退货运费怎么算？", "returns.shipping-fees"),
    # Sweep 84, colloquial Chinese: the cancellation ("不想要了"); refused (both); the 30-day window; the tracking
    # ("到哪了"); refused; the cancellation, though the goods had come ("收到货了" told no delivery).
    ("东西不想要了能退吗", "returns.time-limit"), ("买错了怎么办", "orders.cancellation"),
    ("维修要寄回去吗", "warranty.claims"), ("退货要自己寄吗", "returns.process"), ("退款退到哪了", "refunds.timing"),
    ("收到货了，买错了，能退吗？", "returns.time-limit"),
    # A place abroad decides which shipping: express's 1-2 days and $14.99 answered these (sweep 85).
    ("Is express shipping available to Canada?", "shipping.international"), ("能加急寄到日本吗？", "shipping.international"),
    ("I'm in Canada, can I return my order?", "returns.time-limit"),  # a return's, wherever the customer is
    ("paypal ok?", "payment.methods"),  # refused (3.98 against 4.0, stop 39's note); a refund to PayPal stays the
    ("Will my refund go back to PayPal?", "refunds.method"),  # refund method's (a bare "paypal" phrase took it)
    # Sweep 88 (stop 41): what to do after shipment for both; the electronics' term (a product's name was a phrase
    # that put its warranty first).
    ("Can you tell me if my order shipped? It's NW-48213", "shipping.tracking"),
    ("How late can I order to get it shipped today?", "shipping.dispatch"),
    ("Can I return an opened printer?", "returns.restocking-fee"), ("我的printer能退吗？拆封了", "returns.restocking-fee"),
    # Sweep 89: refused (10.3 against 12.0, though it came broken); the return process; the cancellation.
    ("收到的杯子碎了", "shipping.lost-damaged"), ("我想退货但是包装盒扔了", "returns.condition"),
    ("下单以后多久发货？", "shipping.dispatch"),
    # Sweep 93 (customers' longer messages): the password reset ("can't log in"); standard shipping ("运费"); the
    # return window.
    ("I can't log in, it says my account is locked. I need to place an order today.", "account.lockout"),
    ("收到的台灯是红色的，我订的是蓝色，退回去要运费吗？", "returns.shipping-fees"),
    ("I want to return 2 of the 3 items in my order. Will the shipping be refunded?", "refunds.shipping-charges"),
    ("我想退貨，已經用過了", "returns.condition"),  # the return process (sweep 94)
    ("My order is stuck on processing", "shipping.dispatch"),  # refused (sweep 95), as "订单处理中" is not
    # Sweep 99 (terse chat): the return window; the bank's processing time ("没收到"); refused; the lost parcels.
    ("how to return", "returns.process"), ("没收到货", "shipping.lost-damaged"), ("账号锁了", "account.lockout"),
    ("还没收到货就扣款了", "payment.charge-timing"),
    # Sweep 100 (warranty questions): the defect's outline; the return process ("start"); refused.
    ("椅子被猫抓坏了能保修吗？", "warranty.coverage"), ("When does the warranty start?", "warranty.electronics"),
    ("能不能换个新的，不要修？", "warranty.claims"),
    ("Can I return perfume if I opened it?", "returns.condition"),  # the electronics' restocking fee (sweep 101)
    ("圣诞节前能到吗？", "shipping.express"),  # the holiday returns (sweep 102), as "Can I get it by Christmas?" is not
])
def test_short_policy_questions_are_answered_not_refused(kb, question, section_id):
    """Two-word queries score low: "Do you ship to Canada?" is "ship" and "canada", 4.9 against an English
    bar that was 5.0, and "internationally" did not share a stem with "international". Short Chinese
    questions scored 13.0–14.6 against a Chinese bar that was 15.0, and countries other than Canada, Mexico
    and the UK were no keywords."""
    route = RuleRouter(kb).route(question)
    assert route.mode in ("direct", "sot") and route.hits[0].section.id == section_id



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


@pytest.mark.parametrize(("question", "section_id"), [
    ("我要cancel order，已经付款了", "orders.cancellation"),  # what to do after shipment, by "已经" (already)
    ("the tracking说delivered了但我没有收到", "shipping.lost-damaged"),  # the tracking number
    ("我被重复扣款了，多久能退回来？", "payment.double-charge")])  # the return window, by "多久能退"
def test_stop_41_weak_spots_are_answered_from_their_sections(kb, question, section_id):
    """"已经" is a stop bigram (it made every "already" a shipped order), "cancel order" and a tracking that "says
    delivered" in Chinese are phrases, and a question's phrase no longer leads where the story's phrase found a
    best hit scoring well over it (`ASKED_PHRASE_SHARE`)."""
    route = RuleRouter(kb).route(question)
    assert (route.mode, route.hits[0].section.id) == ("direct", section_id)


@pytest.mark.parametrize(("question", "section_id"), [
    ("hi, i ordered a blender 20 min ago and put the wrong street number. can i still fix it?",
     "orders.address-change"),  # the tracking number
    ("我的package还没到，怎么查物流？", "shipping.tracking"),  # the lost parcels ("还没到")
    ("泳衣试穿过，卫生贴撕了，可以退吗", "returns.non-returnable"),  # the return condition ("试穿过")
    ("我下单时付的运费，退货的时候能退给我吗？", "refunds.shipping-charges"),  # the charge timing
    ("請問訂單已經出貨了還可以取消嗎？", "orders.after-shipment"),  # the cancellation: "出货" (shipped) was no word
    ("我想在订单里加个东西", "orders.adding-items"),  # refused
    ("我的refund什么时候能到账？", "refunds.timing"),  # standard shipping ("什么时候能到")
    ("账号被lock了怎么办", "account.lockout"),  # refused: "lock" was no word of the English sections, only "locked"
    ("wheres my packge been 2 weeks", "shipping.tracking"),  # the return condition ("packaging")
    ("u guys take amex", "payment.methods"),  # refused
    ("got the wrong colour shoes need exchange", "returns.exchanges"),  # the free return of a wrong item
    ("dropped my phone screen cracked warranty?", "warranty.coverage"),  # the early defects: it was dropped
    # Stop 42's third sweeps: British words and plain phrases.
    ("Can I pay by cheque?", "payment.methods"), ("My basket comes to $38, how much is postage?", "shipping.standard"),
    ("Can I return a personalised mug with my daughter's name printed on it?", "returns.non-returnable"),  # process
    ("When I return something do I get back the $4.99 delivery I paid originally?", "refunds.shipping-charges"),
    ("How much does it cost me to send something back if I simply changed my mind?", "returns.shipping-fees"),
    # Stop 42's fourth sweeps: broken, damaged and incomplete orders; orders, payment and accounts.
    ("My order came with only 3 of the 4 chairs I paid for.", "shipping.lost-damaged"),  # the installments
    ("书架收到了，但是少了一袋螺丝。", "shipping.lost-damaged"), ("我付了四把椅子的钱，结果只收到三把。", "shipping.lost-damaged"),
    ("Will you repair my blender or send me a new one?", "warranty.claims"),  # the electronics' term
    ("东西坏了的话是给我修还是直接换新的？", "warranty.claims"),  # the lost parcels' reship
    ("我不小心把平板摔了，屏幕碎了，能保修吗？", "warranty.coverage"), ("咖啡洒到键盘上了，现在有好几个键按不动。", "warranty.coverage")])
def test_stop_42_sweep_messages_are_answered_from_their_sections(kb, question, section_id):
    """Stop 42's sweeps of 181 messages: keyword phrases (a wrong street number, "查物流", "卫生贴", "付的运费",
    "订单里加") and "出货" as a word of a shipped order."""
    assert RuleRouter(kb).route(question).hits[0].section.id == section_id


@pytest.mark.parametrize(("question", "section_id"), [
    # A wrong item told in the customer's own words: the adding of items, the electronics' term, refused.
    ("You sent me a blue toaster instead of the red one I ordered.", "returns.shipping-fees"),
    ("我订的是红色的烤面包机，你们寄来的是蓝色的。", "returns.shipping-fees"),
    ("You sent me a blue lamp, I ordered white. What now?", "returns.shipping-fees"),
    ("I received a red lamp but ordered a blue one", "returns.shipping-fees"),  # the promo codes ("order")
    ("I ordered a sofa but it has not arrived", "shipping.lost-damaged"),  # no wrong item
    ("Can I get store credit instead of a refund?", "refunds.store-credit"),
    ("台灯到货时灯罩碎了，怎么办？", "shipping.lost-damaged"),  # refused: the damaged parcels lead at the bar
    ("My laptop screen broke, how long is the warranty?", "warranty.electronics"),  # the early defects: the term asked
    ("我的笔记本电脑屏幕坏了，保修期多长？", "warranty.electronics"),
    ("My electric kettle stopped heating after 2 months. How do I get it fixed?", "warranty.electronics"),  # one point
    ("Does the mattress come with a warranty? The springs are already sagging after 8 months.", "warranty.furniture"),
    ("someone gave me a northwind gift card as a present, can i return the gift card for cash",
     "returns.non-returnable"),  # the refund method
    ("can we refund the original shipping on a wrong item?", "refunds.shipping-charges"),  # the return fees
    ("AI agent query: refund timing after warehouse receipt", "refunds.timing"),  # refused: "receipt"
    ("The bookshelf arrived with a split side panel yesterday", "shipping.lost-damaged"),  # the furniture's term
    ("The headphones I bought last week have a crackle in the right ear.", "warranty.early-defects"),  # refused
    ("The left earcup of my headphones went silent after 10 months.", "warranty.electronics"),  # refused
    ("电视用了半年就黑屏了，怎么办？", "warranty.electronics"),  # one point
    ("办公椅的气压杆坏了，用了三年了。", "warranty.furniture"),  # the electronics'
    ("地毯用了一年起球了，保修吗？", "warranty.coverage"), ("Curtains faded in the sun after a year, is that a warranty "
                                                   "thing?", "warranty.coverage"),  # normal wear: a product's term
    ("Can pay using PayNow or not?", "payment.methods"), ("支持京东白条吗？", "payment.methods"),  # refused
    ("Hi, my email is sam.lee@gmail.com, how long do refunds take?", "refunds.timing"),  # an address names no service
    ("My car charger stopped working after a week", "warranty.early-defects"),  # a car charger is no car
    ("Can I pay for the $400 desk in chunks?", "payment.installments"),  # refused
    ("我家猫把台灯打翻了，保修管吗？", "warranty.coverage"),  # the furniture's term
    ("what do you charge for delivery on a small order", "shipping.standard"),  # the charge's timing
    ("can i return a monogrammed towel set", "returns.non-returnable"),  # the return window
    ("My new kettle stopped working after 10 days, what should I do?", "warranty.early-defects"),  # the bank's time
    ("Help!! the sofa I ordered came with a crack in the frame, I want it replaced or my money back. Do I need to send "
     "photos?", "warranty.early-defects"),  # the refund's timing ("money back"): "a crack" is a defect
    ("收到的咖啡机盒子已经扔了 还能退吗", "returns.condition"),  # the return window
    ("地址写错了，能改吗，还没发货", "orders.address-change"),  # the dispatch ("还没发货")
    ("My phone charger stopped working", "warranty.early-defects"),  # the agents' phone number ("phone")
    ("Can I cancel my order? It shipped yesterday.", "orders.after-shipment"),  # the cancellation alone
    ("Hi, I forgot to add a lamp to my order, can you just put it on the same one?", "orders.adding-items"),
    ("Order shipped to my old address!! Can you reroute it to my new place?", "orders.address-change")])  # email
def test_stop_43_sweep_messages_are_answered_from_their_sections(kb, question, section_id):
    """Stop 43's sweeps: a wrong item (`intents._WRONG_ITEM`), a product broken on arrival, a defect's term asked,
    faults ("stopped heating"), keyword phrases ("mattress", "gift card for cash", "original shipping")."""
    route = RuleRouter(kb).route(question)
    assert route.mode in ("sot", "direct") and route.hits[0].section.id == section_id


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
    route = RuleRouter(kb).route(question)
    assert (route.mode, route.reason) == ("refuse", "catalog")


@pytest.mark.parametrize("question, section_id", [
    ("How much is the restocking fee?", "returns.restocking-fee"),
    ("How much is express shipping?", "shipping.express"),
    ("What does the extended protection plan cost?", "warranty.protection-plan"),
    ("延保多少钱？", "warranty.protection-plan"),
    ("Do you sell extended warranties?", "warranty.protection-plan"), ("退货标签费多少钱？", "returns.shipping-fees"),
    ("订单满多少钱免运费？", "shipping.standard"), ("价格降了能退差价吗？", "payment.price-adjustment"),
    ("分期付款最低多少钱？", "payment.installments"), ("加急多少钱、几天到？", "shipping.express")])  # a catalogue question
def test_prices_of_policies_are_answered(kb, question, section_id):
    route = RuleRouter(kb).route(question)
    assert route.mode in ("direct", "sot") and route.hits[0].section.id == section_id


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
    route = RuleRouter(kb).route(question, previous=previous)
    assert (route.mode, route.reason) == ("escalate", reason)


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


@pytest.mark.parametrize(("question", "section_id"), [
    ("宝贝收到就是坏的 退货要钱吗", "returns.shipping-fees"),  # the damaged parcels, by the story
    ("怎么申请退款？", "returns.process"),  # the warranty's claims, by "申请"
    ("信用卡和借记卡都能用吗？", "payment.methods"), ("Can I pay with Google Pay?", "payment.methods"),  # the bank, refused
    ("退款显示已办理，但是信用卡上一直没到账", "refunds.bank-processing"),  # the damaged parcels
    ("What counts as \"unused\"? I tried it on once.", "returns.condition"),  # what to do after shipment
    ("There's a pending charge on my debit card but my order hasn't shipped yet. Why?", "payment.charge-timing"),
    ("Does the 30 days start from the order date or the delivery date?", "returns.time-limit"),  # the process
    ("I accidentally placed the same order twice. How do I get rid of one of them?", "orders.cancellation"),
    ("There's a typo in the street name on my order, it was placed 5 minutes ago.", "orders.address-change"),
    ("我下单的时候地址填成了老家的地址，现在还没发货，能改吗？", "orders.address-change"),  # the dispatch, the lockout
    ("My order shipped and I don't want it anymore. What are my options now?", "orders.after-shipment")])  # shipping's
def test_stop_44_sweep_chinese_questions(kb, question, section_id):
    assert RuleRouter(kb).route(question).hits[0].section.id == section_id
