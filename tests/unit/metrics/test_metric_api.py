"""Every registered metric honours the interface: statistics, scores, signature, reference shape."""

import numpy as np
import pytest

from mtmeta import metrics

# METEOR needs fetched lexical resources and softBLEU trained vectors; their interfaces are covered
# in test_meteor.py and test_softbleu.py.
SELF_CONTAINED = sorted(set(metrics.METRICS) - {"meteor", "softbleu"})
HYPS = ["the cat sat on the mat .", "", "a dog barked loudly"]
REFS = [["the cat is on the mat .", "nothing here", "a dog barked"]]


@pytest.mark.parametrize("name", SELF_CONTAINED)
def test_interface(name):
    metric = metrics.get(name, lang="en")
    stats = metric.stats(HYPS, REFS)
    assert stats.shape == (3, len(metric.stat_names))
    segment = metric.segment_scores(stats)
    assert segment.shape == (3,) and np.isfinite(segment).all()
    assert np.isfinite(metric.corpus_score(stats))
    assert metric.signature() and "|mtmeta:0.1.0" in metric.signature()
    # A segment's score depends on its own row of statistics only (NIST's information weights come
    # from the whole test set, but they are already inside the row).
    for i in range(3):
        assert metric.segment_scores(stats[i : i + 1])[0] == pytest.approx(segment[i])


@pytest.mark.parametrize("name", SELF_CONTAINED)
@pytest.mark.parametrize("refs", [REFS[0], "one string", [["too", "short"]]])
def test_wrong_reference_shape_is_an_error(name, refs):
    with pytest.raises((TypeError, ValueError)):
        metrics.get(name, lang="en").stats(HYPS, refs)


def test_direction_of_every_metric():
    lower_is_better = {name for name in metrics.METRICS if not metrics.metric_class(name).higher_is_better}
    assert lower_is_better == {"ter", "wer", "per"}


@pytest.mark.parametrize("name", SELF_CONTAINED)
def test_weighted_corpus_score_equals_repeating_segments(name):
    metric = metrics.get(name, lang="en")
    stats = metric.stats(HYPS, REFS)
    weights = np.array([2, 0, 3])
    repeated = np.repeat(stats, weights, axis=0)
    assert metric.corpus_score_weighted(stats, weights) == pytest.approx(metric.corpus_score(repeated), abs=1e-12)


@pytest.mark.parametrize("name", SELF_CONTAINED)
def test_cached_statistics_score_without_the_object_that_made_them(name):
    """Bootstrap and sweeps score stored statistics with a fresh metric object: the rows must
    carry everything the score needs (NIST once kept the number of references on the object)."""
    two_refs = REFS + [["the cat sat on a mat .", "nothing", "the dog barked loudly"]]
    if name in ("lepor", "hlepor"):  # defined for one reference
        two_refs = REFS
    stats = metrics.get(name, lang="en").stats(HYPS, two_refs)
    fresh = metrics.get(name, lang="en")
    original = metrics.get(name, lang="en")
    original.stats(HYPS, two_refs)
    assert fresh.corpus_score(stats) == original.corpus_score(stats)
    assert fresh.corpus_score_weighted(stats, np.array([1, 2, 0])) == pytest.approx(
        original.corpus_score_weighted(stats, np.array([1, 2, 0])), abs=1e-12)
    np.testing.assert_array_equal(fresh.segment_scores(stats), original.segment_scores(stats))


def test_code_files_follow_each_metrics_imports():
    """The files whose edits rerun a metric's scoring: its module, its kernels and shared code of
    mtmeta.metrics reached through imports (also imports inside functions), never another metric's."""
    code = {name: set(metrics.code_files(name)) for name in metrics.METRICS}
    assert {"mtmeta/metrics/nist.py", "mtmeta/metrics/nist_kernel.py", "mtmeta/metrics/ngrams.py",
            "mtmeta/metrics/ngram_kernel.py", "mtmeta/data/tokenize.py"} <= code["nist"]
    assert {"mtmeta/metrics/soft_kernel.py", "mtmeta/metrics/assign_kernel.py", "mtmeta/metrics/bleu.py"} <= code[
        "softbleu"]  # softBLEU is BLEU with soft credit: BLEU's code is its code
    assert "mtmeta/metrics/meteor/paraphrase_kernel.py" in code["meteor"] and "mtmeta/metrics/ter_kernel.py" in code[
        "ter"]
    using = {name for name, files in code.items() if "mtmeta/metrics/nist_kernel.py" in files}
    assert using == {"nist"}
    assert "mtmeta/metrics/__init__.py" not in set().union(*code.values())  # the registry is no metric's code
    assert not any(f.startswith("mtmeta/metrics/meteor/") for f in code["bleu"] | code["chrf"])


def test_metric_spec_knows_direction_and_builds_the_configured_metric():
    from mtmeta.metrics.spec import MetricSpec

    entry = {"id": "chrf-b1", "name": "chrf", "params": {"beta": 1}}
    spec = MetricSpec.of(entry)
    assert (spec.id, spec.name, spec.params) == ("chrf-b1", "chrf", {"beta": 1}) and MetricSpec.of(spec) is spec
    assert spec.higher_is_better and not MetricSpec.of({"id": "ter", "name": "ter"}).higher_is_better
    built = spec.build("en")
    stats = built.stats(HYPS, REFS)
    assert built.corpus_score(stats) == metrics.get("chrf", lang="en", beta=1).corpus_score(stats)
    assert built.corpus_score(stats) != metrics.get("chrf", lang="en").corpus_score(stats)  # beta 1 is not beta 2
