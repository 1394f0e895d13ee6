"""Every fact of the policy fact sheet is stated, exactly, in both languages."""

import json
import re
from pathlib import Path

import pytest

from chatbot.guard import ground_numbers

REPO_ROOT = Path(__file__).resolve().parents[2]
FACT_SHEET = REPO_ROOT.parent / "shared" / "kb_facts.md"
FACTS = json.loads((REPO_ROOT / "data" / "eval" / "kb_facts.json").read_text(encoding="utf-8"))
_NUMBER_RE = re.compile(r"\$?\d+(?:[.,]\d+)*%?")


def test_facts_file_shape(kb):
    assert len(FACTS) >= 40
    for fact in FACTS:
        assert set(fact) == {"category", "fact", "en", "zh"}
        assert fact["category"] in kb.categories
        assert fact["en"] and fact["zh"], fact["fact"]
    assert {f["category"] for f in FACTS} == set(kb.categories)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_facts_stated_in_policies(kb_text, normalise, lang):
    missing = [
        (fact["category"], s)
        for fact in FACTS
        for s in fact[lang]
        if normalise(s) not in kb_text(lang, fact["category"])
    ]
    assert not missing, f"{lang} policies lack {missing}"


def _fact_sheet_bullets(path) -> dict[str, list[str]]:
    bullets: dict[str, list[str]] = {}
    category = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            category = line[3:].split()[0].lower()
            bullets[category] = []
        elif line.startswith("- ") and category:
            bullets[category].append(line[2:].strip())
    return bullets


@pytest.mark.skipif(not FACT_SHEET.exists(), reason="needs ../shared/kb_facts.md beside the repository")
def test_facts_json_covers_fact_sheet():
    """The json carries every bullet of the fact sheet, with every number in both languages."""
    sheet = _fact_sheet_bullets(FACT_SHEET)
    by_text = {(f["category"], f["fact"]): f for f in FACTS}
    assert sum(map(len, sheet.values())) == len(FACTS)
    for category, bullets in sheet.items():
        for bullet in bullets:
            fact = by_text.get((category, bullet))
            assert fact is not None, f"kb_facts.json lacks {category}: {bullet}"
            for lang in ("en", "zh"):
                joined = " ".join(fact[lang])
                missing = [n for n in _NUMBER_RE.findall(bullet) if n not in joined]
                assert not missing, f"{lang} substrings of {bullet!r} lack {missing}"


def test_numbers_agree_across_languages(kb):
    """Each section states the same numbers, amounts and phone numbers in English and Chinese."""
    for en in kb.sections("en"):
        zh_text = kb.get(en.id, "zh").text
        zh_without_months = re.sub(r"\d{1,2}月", "", zh_text)  # English spells months out
        assert ground_numbers(zh_without_months, [en.text]).ok, (en.id, ground_numbers(zh_without_months, [en.text]))
        assert ground_numbers(en.text, [zh_text]).ok, (en.id, ground_numbers(en.text, [zh_text]))
