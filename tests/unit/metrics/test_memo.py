"""The per-metric memo: each key computed once, batches computed together, memory bounded."""

from mtmeta.metrics.base import Memo


def test_each_key_is_computed_once_and_batches_only_the_missing_ones():
    calls = []
    memo = Memo(lambda text: calls.append(text) or text.upper(), limit=10)
    assert [memo("a"), memo("b"), memo("a")] == ["A", "B", "A"]
    assert calls == ["a", "b"]
    batches = []
    values = memo.many(["a", "c", "c", "d"], lambda new: batches.append(new) or [k * 2 for k in new])
    assert values == ["A", "cc", "cc", "dd"]
    assert batches == [["c", "d"]] and len(memo) == 4 and "d" in memo


def test_memory_is_bounded_by_emptying_past_the_limit():
    memo = Memo(str.upper, limit=3)
    for text in "abc":
        memo(text)
    assert len(memo) == 3
    assert memo("d") == "D" and len(memo) == 1 and "a" not in memo
    assert memo.many(list("efg"), lambda new: [k.upper() for k in new]) == ["E", "F", "G"]
    assert len(memo) == 3


def test_a_batch_that_empties_the_memo_still_gives_the_keys_known_before():
    calls = []
    memo = Memo(lambda text: calls.append(text) or text.upper(), limit=3)
    memo.many(["a", "b"])  # the memo's own function, key by key
    assert calls == ["a", "b"] and len(memo) == 2
    # "a" was known, "c" and "d" are new: 2 + 2 > 3 empties the memo, so "a" is computed again.
    assert memo.many(["a", "c", "d", "a"]) == ["A", "C", "D", "A"]
    assert calls == ["a", "b", "a", "c", "d"] and len(memo) == 3 and "b" not in memo
