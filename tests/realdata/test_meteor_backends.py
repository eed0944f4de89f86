"""METEOR's compiled aligner against its readable Python reference on real output: identical
statistics segment by segment (English with every module; Czech with Meteor's Czech preset)."""

import gzip
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from mtmeta import metrics
from mtmeta.app.config import load_config
from mtmeta.data.corpus import Layout, load_segments

pytestmark = pytest.mark.realdata


def segments(fetch_sources, label, sources, dataset, lp, n):
    config = load_config()
    resources = fetch_sources(label, sources)
    layout = Layout.from_config(config["datasets"][dataset]["layout"])
    table = load_segments(resources / sources[0] / "extracted", layout, lp)
    systems = sorted(table["system"].unique())[:2]
    rows = table[table["system"].isin(systems)].sort_values(["system", "seg_id"]).groupby("system").head(n)
    return resources, rows


def both_backends(resources, rows, lang, **params):
    out = []
    for backend in ("compiled", "python"):
        metric = metrics.get("meteor", lang=lang, resources=str(resources), backend=backend, **params)
        out.append(np.vstack([metric.stats(g["hypothesis"].tolist(), [g["reference"].tolist()])
                              for _, g in rows.groupby("system", sort=True)]))
    return out


def meteor_english_table() -> Path:
    """Meteor 1.5's English paraphrase table, as pycocoevalcap ships it."""
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None:
        pytest.skip("needs Meteor's English paraphrase table (pip package pycocoevalcap, in requirements.lock)")
    return Path(list(spec.submodule_search_locations)[0]) / "meteor" / "data" / "paraphrase-en.gz"


@pytest.fixture(scope="module")
def english_sample(fetch_sources, tmp_path_factory):
    """(resources, rows, table): 300 WMT13 de-en segments of two systems and the entries of Meteor's
    English table that can match against their references, in table order. ParaphraseTable keeps an
    entry only if a side is a reference n-gram (no other entry can ever match), so this table gives
    exactly the candidates of the whole one on these segments, and each test reads 2 MB instead of
    the 5-million-entry file (about a minute a read here). The whole table is read in the test after."""
    from mtmeta.lexicons.paraphrases import reference_phrases

    resources, rows = segments(fetch_sources, "meteor-backends-en", ["wmt13_data", "function_words_en", "wordnet"],
                               "wmt13", "de-en", 300)
    whole = meteor_english_table()
    tokens = metrics.get("meteor", lang="en", paraphrase=str(whole))._tokenizer
    # Lowercased on both sides: a superset of the entries either casing keeps.
    keep = reference_phrases([word.lower() for word in tokens(ref)] for ref in rows["reference"])
    table = tmp_path_factory.mktemp("meteor-en-sample") / "paraphrase-en-sample.gz"
    kept = 0
    with gzip.open(whole, "rt", encoding="utf-8") as source, gzip.open(table, "wt", encoding="utf-8") as out:
        for probability, phrase, paraphrase in zip(source, source, source, strict=True):
            sides = (" ".join(phrase.lower().split()), " ".join(paraphrase.lower().split()))
            if sides[0] in keep or sides[1] in keep:
                out.write(probability + phrase + paraphrase)
                kept += 1
    assert kept > 10_000, kept
    return resources, rows, table


def test_english_every_module(english_sample):
    resources, rows, table = english_sample
    compiled, python = both_backends(resources, rows, "en", paraphrase=str(table))
    np.testing.assert_array_equal(compiled, python)
    assert len(compiled) == 600 and (compiled[:, 4:20].reshape(-1, 4, 4).sum(axis=(0, 2)) > 0).all()  # all modules


@pytest.mark.parametrize("beam", [1, 3])
def test_narrow_beams(fetch_sources, beam):
    """With a beam far below the number of paths a step makes, the compiled search keeps exactly the
    paths the reference's full stable sort keeps (ties included). Czech: every module (exact, stem,
    thesaurus synonyms and paraphrases), and the table loads in seconds."""
    resources, rows = segments(fetch_sources, "meteor-backends-cs", ["wmt12_data", "function_words_en", "thesaurus_cs"],
                               "wmt12", "en-cs", 300)
    compiled, python = both_backends(resources, rows, "cs", beam=beam)
    np.testing.assert_array_equal(compiled, python)
    wide = metrics.get("meteor", lang="cs", resources=str(resources))
    wide = np.vstack([wide.stats(g["hypothesis"].tolist(), [g["reference"].tolist()])
                      for _, g in rows.groupby("system", sort=True)])
    assert (compiled != wide).any(), "a narrow beam should change some alignments, or the test shows nothing"


def test_czech_preset(fetch_sources):
    resources, rows = segments(fetch_sources, "meteor-backends-cs", ["wmt12_data", "function_words_en", "thesaurus_cs"],
                               "wmt12", "en-cs", 500)
    compiled, python = both_backends(resources, rows, "cs")
    np.testing.assert_array_equal(compiled, python)
    assert len(compiled) == 1000 and compiled[:, 8:12].sum() > 0  # paraphrase (thesaurus) matches were made


def naive_paraphrase_candidates(table, hyp, ref):
    """Meteor 1.5's paraphrase candidates, looked up directly (the definition the matcher caches)."""
    def occurrences(words, phrase):
        parts = phrase.split(" ")
        return [(k, len(parts)) for k in range(len(words)) if list(words[k : k + len(parts)]) == parts]

    out = []
    for j in range(len(ref)):
        for length in range(1, min(table.max_length, len(ref) - j) + 1):
            for paraphrase in table.get(" ".join(ref[j : j + length])):
                out += [(j, length, i, n) for i, n in occurrences(hyp, paraphrase)]
    for i in range(len(hyp)):
        for length in range(1, min(table.max_length, len(hyp) - i) + 1):
            for paraphrase in table.get(" ".join(hyp[i : i + length])):
                out += [(j, n, i, length) for j, n in occurrences(ref, paraphrase)]
    return out


def compiled_candidates(arrays, pairs):
    """The compiled matcher's candidates of each (hyp, ref) pair, as lists of 4-tuples."""
    hyp_ids = arrays.ids(w for hyp, _ in pairs for w in hyp)
    ref_ids = arrays.ids(w for _, ref in pairs for w in ref)
    hyp_off = np.cumsum([0, *(len(hyp) for hyp, _ in pairs)])
    ref_off = np.cumsum([0, *(len(ref) for _, ref in pairs)])
    rows, off = arrays.candidates(hyp_ids, hyp_off, ref_ids, ref_off, [False] * len(pairs))
    return [[tuple(r) for r in rows[off[k] : off[k + 1]].tolist()] for k in range(len(pairs))]


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_paraphrase_candidates_equal_direct_lookup(request, fetch_sources, lang):
    from mtmeta.lexicons.paraphrases import ParaphraseTable, reference_phrases

    if lang == "en":
        resources, rows, table = request.getfixturevalue("english_sample")
        params = {"paraphrase": str(table)}
    else:
        params = {}
        resources, rows = segments(fetch_sources, "meteor-backends-cs",
                                   ["wmt12_data", "function_words_en", "thesaurus_cs"], "wmt12", "en-cs", 300)
    metric = metrics.get("meteor", lang=lang, resources=str(resources), **params)
    tokens = metric._tokenizer
    pairs = [(tokens(h), tokens(r)) for h, r in zip(rows["hypothesis"], rows["reference"], strict=True)]
    aligner = metric._aligner_for([[ref] for _, ref in pairs])
    module = metric.modules.index("paraphrase")
    keep = reference_phrases(ref for _, ref in pairs)
    table = ParaphraseTable(metric._paraphrase_entries(keep), keep)
    compiled = compiled_candidates(metric._phrases, pairs)
    found = 0
    for (hyp, ref), fast in zip(pairs, compiled, strict=True):
        cached = [(m.start, m.length, m.hyp_start, m.hyp_length) for m in aligner.matchers[module](hyp, ref, module)]
        assert cached == fast == naive_paraphrase_candidates(table, hyp, ref)
        found += len(cached)
    assert found > 1000  # the tables do match, in both directions and with phrases


def test_whole_english_table_gives_the_candidates_of_the_selected_entries(tmp_path, fetch_sources):
    """METEOR's default English set-up reads Meteor's whole table from its integer arrays; the
    candidates equal those of the entries selected for the references, looked up directly."""
    from mtmeta.lexicons.paraphrases import ParaphraseTable, read_meteor_paraphrases, reference_phrases
    from mtmeta.metrics.meteor import indexes
    from mtmeta.metrics.meteor.phrases import PhraseArrays

    table = meteor_english_table()
    indexes.build_paraphrase_index(((a, b) for a, b, _ in read_meteor_paraphrases(table)), tmp_path / "arrays")
    arrays = PhraseArrays.load(tmp_path / "arrays")
    assert len(arrays.key_paraphrases) > 5_000_000 and arrays.max_length == 7
    _, rows = segments(fetch_sources, "meteor-backends-en", ["wmt13_data"], "wmt13", "de-en", 300)
    tokens = metrics.get("meteor", lang="en", paraphrase=str(table))._tokenizer
    pairs = [(tokens(h), tokens(r)) for h, r in zip(rows["hypothesis"], rows["reference"], strict=True)]
    keep = reference_phrases(ref for _, ref in pairs)
    selected = ParaphraseTable(((a, b) for a, b, _ in read_meteor_paraphrases(table)), keep)
    found = 0
    for (hyp, ref), fast in zip(pairs, compiled_candidates(arrays, pairs), strict=True):
        assert fast == naive_paraphrase_candidates(selected, hyp, ref)
        found += len(fast)
    assert found > 1000


def test_thesaurus_arrays_equal_the_thesaurus_read_in_memory(tmp_path, fetch_sources):
    """The Czech thesaurus's cached arrays (rule index_paraphrase_table) hold the entries, ids and slot
    tables that METEOR builds in memory from the parsed thesaurus, array for array."""
    from mtmeta.data.prepare import source_file
    from mtmeta.lexicons.mythes import MyThes
    from mtmeta.metrics.meteor import indexes
    from mtmeta.metrics.meteor.phrases import ARRAYS, PhraseArrays

    resources = fetch_sources("meteor-backends-cs", ["wmt12_data", "function_words_en", "thesaurus_cs"])
    path = source_file(resources, "thesaurus_cs")[0]
    indexes.build_paraphrase_index(indexes.paraphrase_index_entries("thesaurus_cs", path), tmp_path / "arrays")
    loaded = PhraseArrays.load(tmp_path / "arrays")
    built = PhraseArrays.from_entries((a, b) for a, b, _ in MyThes(path, lowercase=True).pairs())
    assert loaded.words == built.words and len(loaded.key_paraphrases) > 100_000
    for name in ARRAYS:
        np.testing.assert_array_equal(getattr(loaded, name), getattr(built, name), err_msg=name)
