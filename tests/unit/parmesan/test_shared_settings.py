"""Rule paraphrase_references' sharing across settings (texts tokenised and lemmatised once, each
lexicon's candidates found once, the thesaurus read once) against a brute-force paraphraser that
follows the module's definition setting by setting, on random tables."""

import random

import pandas as pd
import pytest

from mtmeta.lexicons import paraphrases
from mtmeta.parmesan import study as ps
from mtmeta.parmesan.paraphraser import ORDERS, Lexicon, Paraphraser, SegmentTexts, paraphrase_segments

LEMMAS = {"As": "a", "Bs": "b", "cc": "c", "Dd": "d", "ee": "e", "Ff": "f"}
VOCABULARY = ["a", "b", "c", "d", "e", "f", "g", "h", *LEMMAS]


def lemma(word):
    return LEMMAS.get(word, word).lower()


def brute_force(reference, hypothesis, lexicon, order, links):
    """(tokens, substitutions as (kind, before, after)): the paraphraser's definition, walked naively."""
    ref_l, hyp_l = [lemma(w) for w in reference], [lemma(w) for w in hypothesis]
    slots, changed, used, subs = [[w] for w in reference], [False] * len(reference), set(), []

    def replace(i0, i1, j0, j1, kind):
        subs.append((kind, " ".join(reference[i0:i1]), " ".join(hypothesis[j0:j1])))
        slots[i0:i1] = [list(hypothesis[j0:j1])] + [[] for _ in range(i0 + 1, i1)]
        changed[i0:i1] = [True] * (i1 - i0)
        used.update(range(j0, j1))

    def words():
        for i, r in enumerate(ref_l):
            if changed[i] or r in hyp_l:
                continue
            for y in lexicon.words.get(r, ()):  # the lexicon's order
                free = [j for j, h in enumerate(hyp_l) if h == y and y not in ref_l and j not in used
                        and (links is None or (i, j) in links)]
                if free:
                    replace(i, i + 1, free[0], free[0] + 1, "word")
                    break

    def occurs(seq, text):
        return any(tuple(text[k : k + len(seq)]) == seq for k in range(len(text) - len(seq) + 1))

    def consistent(i0, i1, j0, j1):
        if any((i0 <= i < i1) != (j0 <= j < j1) for i, j in links):
            return False
        return any(i0 <= i < i1 for i, _ in links)

    def phrases():
        candidates = []
        for a in range(1, len(ref_l) + 1):
            for i in range(len(ref_l) - a + 1):
                seq = tuple(ref_l[i : i + a])
                if seq not in lexicon.phrases or occurs(seq, hyp_l):
                    continue
                for target in lexicon.phrases[seq]:
                    if occurs(target, ref_l):
                        continue
                    b = len(target)
                    candidates += [(a, b, i, j) for j in range(len(hyp_l) - b + 1) if tuple(hyp_l[j : j + b]) == target]
        for a, b, i, j in sorted(candidates, key=lambda c: (-c[0], -c[1], c[2], c[3])):
            if any(changed[i : i + a]) or any(k in used for k in range(j, j + b)):
                continue
            if links is None or consistent(i, i + a, j, j + b):
                replace(i, i + a, j, j + b, "phrase")

    for step in {"one-word-only": [words], "one-word-first": [words, phrases],
                 "multi-word-first": [phrases, words]}[order]:
        step()
    return [w for slot in slots for w in slot], subs


def random_case(seed):
    rng = random.Random(seed)

    def sentence(lo, hi):
        return " ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(lo, hi)))

    entries = [(sentence(1, 1), sentence(1, 1)) for _ in range(25)] + [(sentence(1, 3), sentence(2, 3))
                                                                      for _ in range(25)]
    references = [sentence(1, 9) for _ in range(8)]
    rows = [{"system": system, "seg_id": k + 1, "hypothesis": sentence(1, 9) if rng.random() > 0.1 else references[k],
             "reference": references[k], "source": ""} for system in ("s1", "s2", "s3") for k in range(8)]
    segments = pd.DataFrame(rows).sample(frac=1, random_state=seed).reset_index(drop=True)
    links = {}
    for system, seg_id, hyp, ref in zip(segments["system"], segments["seg_id"], segments["hypothesis"],
                                        segments["reference"], strict=True):
        n, m = len(ref.split()), len(hyp.split())
        links[(system, int(seg_id))] = {(i, j) for i in range(n) for j in range(m) if rng.random() < 0.4}
    # The second lexicon: a reduction, as a filter makes one (other one-word pairs, no phrases).
    return Lexicon.build(entries, lemma), Lexicon.build([e for e in entries[::2] if " " not in e[0] + e[1]], lemma), \
        segments, links


@pytest.mark.parametrize("seed", range(12))
def test_shared_settings_equal_each_setting_alone_and_the_definition(seed):
    full, one_word, segments, links = random_case(seed)
    texts = SegmentTexts(segments, str.split, lemma)  # shared by every setting below, in this order
    equal = Lexicon(dict(one_word.words), dict(one_word.phrases), one_word.max_phrase, one_word.n_entries)
    for lexicon in (full, one_word, full, equal):
        for order in ORDERS:
            for pair_links in (None, links):
                paraphraser = Paraphraser(lexicon, lemma, order)
                table, subs = paraphrase_segments(segments, paraphraser, str.split, pair_links, texts)
                # The straightforward computation: a fresh paraphraser and texts for this setting alone.
                alone = paraphrase_segments(segments, Paraphraser(lexicon, lemma, order), str.split, pair_links)
                pd.testing.assert_frame_equal(table, alone[0], check_exact=True)
                pd.testing.assert_frame_equal(subs, alone[1], check_exact=True)
                expected_subs = []
                for row, (system, seg_id, hyp, ref) in enumerate(zip(
                        segments["system"], segments["seg_id"], segments["hypothesis"], segments["reference"],
                        strict=True)):
                    tokens, found = brute_force(ref.split(), hyp.split(), lexicon, order,
                                                None if pair_links is None else pair_links[(system, seg_id)])
                    assert table["reference"].iloc[row] == " ".join(tokens)
                    assert table["words_replaced"].iloc[row] == sum(kind == "word" for kind, *_ in found)
                    assert table["phrases_replaced"].iloc[row] == sum(kind == "phrase" for kind, *_ in found)
                    expected_subs += [(system, seg_id, *s) for s in found]
                assert list(subs[["system", "seg_id", "kind", "before", "after"]].itertuples(index=False, name=None)) \
                    == expected_subs


def test_shared_texts_need_the_paraphrasers_lemmas():
    _, _, segments, _ = random_case(0)
    texts = SegmentTexts(segments, str.split, lemma)
    with pytest.raises(ValueError, match="lemmatises"):
        paraphrase_segments(segments, Paraphraser(Lexicon({}, {}), str.lower), str.split, None, texts)


def test_paraphrase_settings_read_the_thesaurus_once_and_equal_each_setting_alone(tmp_path, monkeypatch):
    thesaurus = tmp_path / "th_en.dat"
    thesaurus.write_text("UTF-8\nshop|2\n(noun)|store|market\n(verb)|buy|go shopping\nbig|1\n(adj)|large|great\n"
                         "go shopping|1\n(verb)|shop|buy things\n", encoding="utf-8")
    segments = pd.DataFrame({"system": ["s", "s", "t", "t"], "seg_id": [1, 2, 1, 2],
                             "hypothesis": ["store big", "we buy things", "market great", "go shopping now"],
                             "reference": ["shop big", "we go shopping", "shop big", "we go shopping"],
                             "source": [""] * 4})
    settings = {f"{order}.{filter_kind}": {"order": order, "selection": "greedy", "filter": filter_kind}
                for filter_kind in (None, "one-word", "same-pos") for order in ORDERS}
    reads = []
    real_raw = paraphrases.raw_entries
    monkeypatch.setattr(paraphrases, "raw_entries", lambda *a: reads.append(a) or real_raw(*a))
    runs = list(ps.paraphrase_settings(segments, settings, {"kind": "mythes", "source": "th"}, thesaurus, "abc",
                                       "en", "none", None, "tiny", "xx-en"))
    assert len(reads) == 1
    from mtmeta.data.tokenize import tokenizer

    for (_, table, subs, _), setting in zip(runs, settings.values(), strict=True):
        lexicon = ps.build_lexicon("mythes", thesaurus, "en", setting["filter"])
        alone_table, alone_subs = ps.paraphrase(segments, lexicon, "en", setting["order"], "greedy", tokenizer("none"))
        pd.testing.assert_frame_equal(table, alone_table, check_exact=True)
        pd.testing.assert_frame_equal(subs, alone_subs, check_exact=True)
    assert runs[2][1]["phrases_replaced"].sum() > 0  # the fixture exercises phrases
