"""How a message tells of a product problem: a defect, a defect supposed, a device that is the customer's phone, a
part of how a product works lost, a wrong item received. The intents (`chatbot.intents`) route by them."""
from __future__ import annotations

import re

# The patterns are ASCII (re.A): an English word's \b then holds next to a Chinese character ("warranty多久？").
DEFECT = re.compile(
    r"(?<!\bi'm )(?<!\bi am )\bbroke\b|(?<!\bnothing is )(?<!\bnothing was )(?<!\bnot )(?<!n't )\bbroken\b|"
    r"\bbreaks\b|\bbreaks? down\b|\bdefect|\bfaulty\b|"
    r"\b(not|stopped) (working|charging)\b|\bstopped (heating|cooling|spinning|responding|blowing|printing|"
    r"draining|turning on)\b|\bwent (silent|dead|dark|black|blank)\b|\bcrackl|\bcame off\b|"
    r"\b(won'?t|doesn'?t|does not|will not) (heat|cool|spin|drain|hold (a )?charge)\b|"
    r"\bdied\b|\bflicker|\bbuzz|\bbusted\b|\bno sound\b|\bdead pixels?\b|\bwobbl|"
    r"\bcracks?\b|\bonly works? (on|in|from) one side\b|\bonly (works?|charges?|turns? on) (when|if)\b|"
    r"\bpeeling\b|\bsnapped\b|\bchipping\b|\bstain(s|ed)?\b|\bsmells? (musty|moldy|mouldy|bad|weird|funny)\b|"
    r"\blines? (across|on|down) (my |the )?(screen|monitor|display)\b|"
    r"\b(coming|falling) apart\b|\bsqueak|\bsagging\b|\bcracked\b|\b(ripping|tearing|fraying)\b|"
    r"\b(ripped|torn) (at|after)\b|"
    r"\bkeeps (crashing|freezing)\b|\b(lost|losing|loses|no|weak|poor) suction\b|"
    r"\b(keeps )?(losing|loses|drops|dropping) (the )?(connection|signal|bluetooth|wi-?fi)\b|"
    r"\b(very|really|too|so|super) loud\b|\bstatic (noise|sound)?|\bhiss(es|ing)\b|"  # "My vacuum lost suction" got
    # the lost parcels, "The laptop fan is very loud" was refused (stop 60's sweep)
    r"\b(drawer|door|zipper|button|lid|wheel|handle|latch|hinge|lever)s? (is |are |gets? |got |keeps getting )?stuck\b|"
    r"\bbattery (drains|dies)\b|\bcollapsed\b|\bleak(s|ing)\b|\brust(ed|ing)\b|\bcame loose\b|"
    r"\bmak(es|ing) (a |an )?(\w+ )?(noise|sound)s?\b|\b(grinding|rattling|clicking|humming) (noise|sound)|\bnoisy\b|"
    r"\b(doesn'?t|does not|don'?t|do not|won'?t|will not|isn'?t|is not|no longer|can'?t|cannot) "
    r"(work|turn on|switch on|power on|start|charge|hold a charge|boot|connect|pair)\b"
    r"|(?<!心情)(?<!脾气)(?<!压)坏了|坏掉|不好用|不能用|用不了|不响|断了|裂了|开不了机|不工作|故障|失灵|不亮|没反应|充不了电|充不进电"
    r"|闪屏|闪烁|屏幕.{0,3}闪|灯.{0,2}闪|杂音|异响|吱吱响|没声音|坏点|掉漆|开线|死机|不好使|连不上|掉电|晃|塌|凹陷|变形|漏水|漏气|生锈|脱皮|松动"
    r"|嗡嗡|充不上电|竖线|横线|霉味|污渍|漆.{0,6}掉|按不动|关不上|不加热|烧不热|不热了|不转了|不制冷|不出水|黑屏|花屏|不开机|不脱水"
    # "收货一周即无法开机" (stop 45's sweep: the warranty claims); a box 压坏 (crushed) on its way is no defect
    r"|无法(开机|启动|充电|使用|工作)|吸力(变小|变弱|不够|没了)|没有?吸力|很吵|噪音(很|太)?大", re.I | re.A)
# A defect asked as a condition ("如果是坏的呢？" after "拆封的耳机能退吗？"; stop 58's sweep: the parcels damaged in transit,
# by "坏的"), not told to have come so ("如果收到的是坏的怎么办？").
DEFECT_SUPPOSED = re.compile(r"(如果|要是|万一|假如)(它|东西)?是?坏的")
# The customer's phone, a device, not a phone number or call ("my phone number changed").
PHONE = re.compile(r"\b(my|the|this) (smart)?phone\b(?! (number|no\b|call|line|support))|\biphone\b|手机(?!号)", re.I)
# A product that lost a part of how it works ("My vacuum lost suction" found the lost parcels by "lost"), not a parcel.
LOST_PART = re.compile(r"\b(lost|losing|loses) (suction|power|signal|connection|sound|color|colour|its)\b", re.I)
# A wrong item told in the customer's words ("You sent me a blue toaster instead of the red one", "I ordered white
# but got blue", "我买的是红色的，收到的是蓝色的"), which no keyword phrase finds; its return is free.
WRONG_ITEM = re.compile(
    r"\b(sent|send|received|got|delivered|came|arrived|shipped)\b[^.?!]{0,40}\binstead of\b|"
    r"\binstead of\b[^.?!]{0,30}\b(i|we) (had )?(ordered|bought|paid for)\b|"
    r"\b(i|we) (had )?(ordered|bought|paid for)\b[^.?!]{0,40}\b(but|yet)\b[^.?!]{0,20}\b(got|received|you sent|they "
    r"sent|sent me|(package|box|parcel) (had|contained))\b|"
    r"\b(received|got)\b[^.?!]{0,40}\bbut (i |we )?(had )?(ordered|bought|paid for)\b|"
    r"\b(i|we) (ordered|bought) [^.?!]{0,40}\band (got|received) (a|an) \w+ ones?\b|"  # "… and got a red one"
    r"\b(different|other) (colou?r|size|model|style|item|product)s? (than|from) (the one |what )?(i|we) (had )?"
    r"(ordered|bought|paid for)\b|"  # "The sofa delivered has a different color than the one I ordered" (stop 61)
    r"\b(you|they) sent\b[^.?!]{0,30}[,;]\s*(but |when |while |and )?(i|we) (had )?(ordered|bought|paid for)\b|"
    r"\b(you|they) (sent|shipped|delivered) (me|us) (the|a|an) wrong\b|"  # "You sent me the wrong color…" (stop 62)
    r"我(要|买|订|选|下单)的是[^。！？!?]{1,12}(不是|(收到|寄来|发来|送来|到)的?是)|"
    r"(和|跟|与)我(要|买|订|选|下单)的[^。！？!?]{0,6}(不一样|不同|不符)|(收到|寄来|发来|送来)的?\w{0,6}不是我(要|买|订|选|下单)的", re.I)
# An accident denied ("从来没摔过也没进水", "I never dropped it and it never got wet"), which names no accident the
# warranty's coverage leaves out (stop 62's sweep: the coverage led "…還在保固期內嗎？").
ACCIDENT_DENIED = re.compile(
    r"(从来|从)?(没有?|未)(摔|掉|进水|泡水|泡过水|磕|碰|撞)过?|"
    r"\b(never|wasn'?t|was not|hasn'?t been|has not been|haven'?t|have not|didn'?t|did not)\s+(been\s+)?(ever\s+)?"
    r"(dropped|drop|got wet|get wet|gotten wet|wet|spilled|spill|knocked)\b", re.I)
# A warranty claim or repair asked ("how do I get it fixed under warranty?", "我想申请保修，需要提交什么？多久能修好？"): the
# claim's form and its 10 business days, not the product's term, lead a defect past the return window (stop 62).
CLAIM_ASKED = re.compile(
    r"\bhow (do|can|would|should) (i|we) (get (it|them|this|that) (fixed|repaired|replaced)|claim|file|submit)\b|"
    r"\b(file|make|submit|start|open) a (warranty )?claim\b|\bwhat do (i|we) need to (claim|file|submit)\b|"
    r"申请保修|报修|(流程|手续)是?(怎样|怎么样|什么)|需要(提供|提交)什么|什么材料|(多久|多长时间)能?修好", re.I | re.A)
