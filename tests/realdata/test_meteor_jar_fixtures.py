"""METEOR against the Meteor 1.5 jar on raw WMT text, from the jar's stored output
(``tests/fixtures/meteor_jar``, written by its ``make_fixtures.py``): no Java needed.

The jar's three input modes are mtmeta settings (``MODE_PARAMS`` there): ``-norm`` is
``tokenize=meteor-norm, lowercase=True``, ``-lower`` is ``tokenize=whitespace, lowercase=True``,
neither is ``tokenize=whitespace, lowercase=False``. With ``exact_equality=java-hash`` (the jar's
exact module compares Java hashes) every statistic of every segment and every system score is the
jar's; by default (words compared as strings) only segments with a hash collision differ.
"""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from mtmeta import metrics
from mtmeta.app.config import load_config
from mtmeta.data.corpus import Layout, load_segments
from mtmeta.metrics.meteor.aligner import java_hash

pytestmark = pytest.mark.realdata
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "meteor_jar"


def _fixtures():
    spec = importlib.util.spec_from_file_location("meteor_jar_fixtures", FIXTURES / "make_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE = _fixtures()
DIGEST = MAKE.ter_fixtures().texts_digest  # the digest both fixture scripts store
# Segments of WMT12 en-cs (of 39,039) where the jar matched two different words by their hash.
COLLISIONS = {"norm": 26, "lower": 17, "none": 14}


@pytest.fixture(scope="module")
def resources(fetch_sources, install_meteor_jar):
    """The mirror's sources, and pycocoevalcap's jar installed as source meteor_jar."""
    resources = fetch_sources("meteor-jar-fixtures", ["wmt12_data", "wmt13_data", "function_words_en"])
    assert install_meteor_jar(resources) == MAKE.jar_path()
    return resources


def systems_of(resources, dataset, lp, stored):
    """Each system's (hypotheses, references), checked to be the texts the jar scored."""
    config = load_config()
    layout = Layout.from_config(config["datasets"][dataset]["layout"])
    segments = load_segments(resources / f"{dataset}_data" / "extracted", layout, lp)
    out = []
    for k, (system, rows) in enumerate(segments.groupby("system", sort=True)):
        rows = rows.sort_values("seg_id")
        hyps, refs = rows["hypothesis"].tolist(), rows["reference"].tolist()
        assert stored["systems"][k] == system
        assert stored["digests"][k] == DIGEST(hyps, refs), f"{system}: not the texts of the fixture"
        out.append((system, hyps, refs))
    return out


def as_ours(jar_stats: np.ndarray, stages: int) -> np.ndarray:
    """The jar's 23 fields in mtmeta's order (per stage: hyp content, hyp function, ref content, ref function)."""
    columns = [jar_stats[:, :4]]
    for stage in range(stages):
        tc, rc, tf, rf = jar_stats[:, 4 + 4 * stage : 8 + 4 * stage].T
        columns.append(np.stack([tc, tf, rc, rf], axis=1))
    columns.append(jar_stats[:, -3:])
    return np.hstack(columns).astype(np.int64)  # stored as uint16


@pytest.mark.parametrize("mode", ["norm", "lower", "none"])
def test_czech_exact_equals_the_jar_in_each_input_mode(resources, mode):
    stored = np.load(MAKE.fixture_path("wmt12", "en-cs", "exact", mode))
    assert str(stored["args"]).startswith(f"-l cz {' '.join(MAKE.MODE_OPTIONS[mode])}".rstrip())
    params = dict(lang="cs", modules=["exact"], weights=[1.0], resources=str(resources), **MAKE.MODE_PARAMS[mode])
    as_jar = metrics.get("meteor", exact_equality="java-hash", **params)
    ours = metrics.get("meteor", **params)
    start, collisions = 0, 0
    for k, (system, hyps, refs) in enumerate(systems_of(resources, "wmt12", "en-cs", stored)):
        jar = as_ours(stored["stats"][start : start + len(hyps)], 1)
        start += len(hyps)
        stats = as_jar.stats(hyps, [refs])
        np.testing.assert_array_equal(stats, jar, err_msg=system)
        assert abs(as_jar.corpus_score(stats) - stored["scores"][k]) < 1e-6, system
        # Words compared as strings: only segments where the jar matched two words by their hash differ.
        plain = ours.stats(hyps, [refs])
        for i in np.nonzero(~np.all(plain == jar, axis=1))[0]:
            hyp_words, ref_words = set(as_jar._tokenizer(hyps[i])), set(as_jar._tokenizer(refs[i]))
            assert any(java_hash(h) == java_hash(r) for h in hyp_words - ref_words for r in ref_words - hyp_words)
            assert plain[i, -1] < jar[i, -1]
            collisions += 1
    assert start == len(stored["stats"]) == 13 * 3003
    assert collisions == COLLISIONS[mode]


def test_jhu_hiero_scores_of_the_issue(resources):
    """The numbers that opened the question: the jar gives jhu-hiero 0.178825 under -norm."""
    stored = np.load(MAKE.fixture_path("wmt12", "en-cs", "exact", "norm"))
    k = list(stored["systems"]).index("jhu-hiero")
    assert round(float(stored["scores"][k]), 6) == 0.178825


def test_english_without_synonyms_equals_the_jar(resources):
    """WMT13 de-en under -norm, exact + stem + paraphrase (Meteor 1.5's own table): every statistic is
    the jar's. Synonyms are left out: the jar reads its own WordNet export, mtmeta NLTK's WordNet
    (test_meteor_jar.py measures that difference with the live jar)."""
    stored = np.load(MAKE.fixture_path("wmt13", "de-en", "nosyn", "norm"))
    assert str(stored["args"]) == "-l en -norm -m exact stem paraphrase -w 1.0 0.6 0.6"
    metric = metrics.get("meteor", lang="en", resources=str(resources), modules=["exact", "stem", "paraphrase"],
                         weights=[1.0, 0.6, 0.6], paraphrase=str(MAKE.jar_path().parent / "data" / "paraphrase-en.gz"),
                         **MAKE.MODE_PARAMS["norm"])
    start, checked = 0, 0
    for k, (system, hyps, refs) in enumerate(systems_of(resources, "wmt13", "de-en", stored)):
        end = start + len(hyps)
        if k % 3 == 0:  # a third of the systems, for the suite's time (loading the table is most of it)
            stats = metric.stats(hyps, [refs])
            np.testing.assert_array_equal(stats, as_ours(stored["stats"][start:end], 3), err_msg=system)
            assert abs(metric.corpus_score(stats) - stored["scores"][k]) < 1e-6, system
            checked += 1
        start = end
    assert checked == 8 and start == len(stored["stats"]) == 69000
