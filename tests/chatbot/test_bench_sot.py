"""`supportdesk bench sot`'s question sets (the timing itself is a benchmark, not a test)."""
from chatbot.bench_sot import multi_point_rows, timed_and_warm_up_rows


def test_multi_point_rows_interleave_english_and_chinese():
    rows = multi_point_rows(12)
    assert [r["lang"] for r in rows] == ["en", "zh"] * 6
    assert all(r["kind"] == "multi" for r in rows) and len({r["id"] for r in rows}) == 12


def test_warm_up_questions_are_one_per_language_and_never_timed():
    timed, warm_up = timed_and_warm_up_rows(12)
    assert timed == multi_point_rows(12)
    assert sorted(r["lang"] for r in warm_up) == ["en", "zh"]
    assert not {r["id"] for r in warm_up} & {r["id"] for r in timed}
    timed, warm_up = timed_and_warm_up_rows(1)
    assert [r["lang"] for r in timed] == ["en"] and [r["lang"] for r in warm_up] == ["en"]
