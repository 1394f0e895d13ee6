"""The project's eval set is valid and consistent with the knowledge base."""

from collections import Counter

from chatbot.chinese_script import is_traditional
from chatbot.message_shape import plain_message
from chatbot.text_terms import detect_lang

MODES = {"multi": "sot", "single": "direct", "escalation": "escalate", "out_of_scope": "refuse",
         "other_customer_data": "refuse", "instruction_extraction": "refuse", "prompt_injection": "refuse"}
FIELDS = {"id", "question", "lang", "kind", "expected_mode", "expected_category", "expected_facts"}


def test_fields_kinds_and_modes(eval_questions):
    for q in eval_questions:
        optional = ({"expected_sections"} if q["kind"] == "multi" else set()) | ({"script", "previous"} & set(q))
        assert set(q) == FIELDS | optional, q.get("id")
        assert q.get("script", "traditional") == "traditional", q["id"]
        assert is_traditional(q["question"]) == ("script" in q), q["id"]
        assert q["lang"] in ("en", "zh") and q["question"].strip()
        assert detect_lang(q["question"]) == q["lang"], q["id"]
        assert MODES[q["kind"]] == q["expected_mode"], q["id"]
        assert isinstance(q["expected_facts"], list)


def test_size_and_balance(eval_questions):
    assert len(eval_questions) >= 60
    assert len({q["id"] for q in eval_questions}) == len(eval_questions)
    langs = Counter(q["lang"] for q in eval_questions)
    assert abs(langs["en"] - langs["zh"]) <= len(eval_questions) // 5
    for lang in ("en", "zh"):
        kinds = {q["kind"] for q in eval_questions if q["lang"] == lang}
        assert kinds == set(MODES), f"{lang} lacks {set(MODES) - kinds}"
    assert {q["kind"] for q in eval_questions if q.get("script") == "traditional"} >= {"multi", "single", "escalation"}
    follow_ups = [q for q in eval_questions if "previous" in q]
    assert {(q["lang"], q["expected_mode"]) for q in follow_ups} == {(lang, mode) for lang in ("en", "zh")
                                                                     for mode in ("direct", "refuse")}
    long = [q for q in eval_questions if len(q["question"]) > 1500]
    assert {q["lang"] for q in long} == {"en", "zh"}


def test_categories(kb, eval_questions):
    for q in eval_questions:
        if q["expected_mode"] in ("escalate", "refuse"):
            assert q["expected_category"] is None, q["id"]
        elif q["expected_category"] is None:  # a greeting
            assert q["kind"] == "single" and not q["expected_facts"], q["id"]
        else:
            assert q["expected_category"] in kb.categories, q["id"]


def test_expected_facts_exist_in_kb(kb_text, normalise, eval_questions):
    """In the expected category's policies, or in those of the expected sections where a question spans two
    categories (who pays for return shipping, and when the refund comes)."""
    for q in eval_questions:
        categories = {section_id.split(".")[0] for section_id in q.get("expected_sections", [])}
        text = " ".join(kb_text(q["lang"], category) for category in sorted(categories or {q["expected_category"]}))
        for fact in q["expected_facts"]:
            assert normalise(fact) in text, f"{q['id']}: {fact!r} not in the {q['lang']} KB"


def test_facts_where_they_matter(eval_questions):
    for q in eval_questions:
        if q["expected_mode"] == "sot" or (q["expected_mode"] == "direct" and q["expected_category"]):
            assert q["expected_facts"], q["id"]
        if q["expected_mode"] == "refuse":
            assert not q["expected_facts"], q["id"]
        if q["expected_mode"] == "escalate":
            assert "1-800-555-0199" in q["expected_facts"] and len(q["expected_facts"]) == 2, q["id"]


def test_expected_sections_exist_and_hold_the_facts(kb, normalise, eval_questions):
    """Every multi-point question names the sections that answer it; its expected facts are in them."""
    for q in eval_questions:
        if q["kind"] != "multi":
            continue
        sections = [kb.get(section_id, q["lang"]) for section_id in q["expected_sections"]]
        assert sections and len(set(q["expected_sections"])) == len(sections), q["id"]
        text = normalise(" ".join(s.text for s in sections))
        for fact in q["expected_facts"]:
            assert normalise(fact) in text, f"{q['id']}: {fact!r} is in none of its expected sections"


def test_retrieval_finds_expected_category(kb, eval_questions):
    """For short policy questions, the expected category is the top hit's, or at worst in the top 3."""
    scored = [q for q in eval_questions if q["expected_category"] and len(q["question"]) <= 1500]
    top1_misses, top3_misses = [], []
    for q in scored:
        question = plain_message(q["question"])  # as the router reads it: no courtesy, no contact details
        query = f"{q['previous']}\n{question}" if "previous" in q else question  # a follow-up
        categories = [h.section.category for h in kb.search(query, lang=q["lang"], k=3)]
        if categories[:1] != [q["expected_category"]]:
            top1_misses.append(q["id"])
        if q["expected_category"] not in categories:
            top3_misses.append(q["id"])
    assert not top3_misses
    assert len(top1_misses) <= len(scored) // 20, top1_misses
