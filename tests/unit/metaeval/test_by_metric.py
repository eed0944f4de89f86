import pandas as pd
import pytest

from mtmeta.metaeval.bootstrap import bootstrap_table
from mtmeta.metaeval.by_metric import PairInputs, evaluate_metric, join_pieces
from mtmeta.metaeval.segment_level import segment_level_agreement
from mtmeta.metaeval.system_level import system_level_correlations
from mtmeta.metrics.spec import MetricSpec


def test_join_sorts_pieces_into_the_study_order_keeping_rows_of_one_key_together():
    bleu = pd.DataFrame({"dataset": ["a", "a", "b"], "lp": ["x-y"] * 3, "metric": ["bleu"] * 3,
                         "human_score": ["gt", "ge", "gt"], "value": [1, 2, 3]})
    chrf = pd.DataFrame({"dataset": ["b", "a"], "lp": ["x-y"] * 2, "metric": ["chrf"] * 2,
                         "human_score": ["gt", "gt"], "value": [4, 5]})
    order = [("a", "x-y", "chrf"), ("a", "x-y", "bleu"), ("b", "x-y", "bleu"), ("b", "x-y", "chrf")]
    joined = join_pieces([bleu, pd.DataFrame(columns=bleu.columns), chrf], order)
    assert joined["value"].tolist() == [5, 1, 2, 3, 4]
    with pytest.raises(ValueError, match=r"rows for \[\('b', 'x-y', 'chrf'\)\] are not in the study's"):
        join_pieces([chrf], order[:3])


def _pair(dataset, systems, human, comparisons, n_segments=4):
    """A toy pair: each system's segment scores of a user's metric (statistics: score and count)."""
    from mtmeta.metaeval.user_metric_tables import segment_table, system_table
    from mtmeta.metrics.user_metric import ExternalScores

    metric = ExternalScores("toy")
    rows = pd.DataFrame([{"system": s, "seg_id": k + 1, "score": score}
                         for s, scores in systems.items() for k, score in enumerate(scores[:n_segments])])
    segments = segment_table(rows, metric)
    systems = system_table(metric, None, segments)
    summary = {"dataset": dataset, "lp": "xx-en", "n_segments": n_segments, "n_judged_segments": n_segments,
               "n_tasks": 1, "n_comparisons": len(comparisons), "description": "toy"}
    return PairInputs(summary, human, comparisons, segments, systems, system_level=True, judged=True)


def _judged_toy_pair():
    """Four systems' scores on four segments, six pairwise judgments (a tie among them), their human
    scores, and a spec for the scores: (pair, comparisons, human, spec)."""
    from mtmeta.stats.human import system_scores

    systems = {"s1": [0.1, 0.5, 0.3, 0.9], "s2": [0.2, 0.1, 0.8, 0.4], "s3": [0.7, 0.6, 0.2, 0.1],
               "s4": [0.3, 0.3, 0.3, 0.5]}
    comparisons = pd.DataFrame({"seg_id": [1, 2, 3, 4, 1, 2], "sys_a": ["s1", "s2", "s3", "s4", "s3", "s1"],
                                "sys_b": ["s2", "s3", "s4", "s1", "s4", "s4"],
                                "outcome": ["a", "b", "tie", "a", "a", "b"], "task": ["t"] * 6})
    human = system_scores(comparisons)
    return (_pair("toy", systems, human, comparisons), comparisons, human,
            MetricSpec("toy", "external", {"higher_is_better": True}))


def test_a_metrics_piece_equals_its_rows_of_the_all_metrics_computation():
    pair, comparisons, human, spec = _judged_toy_pair()
    tables = evaluate_metric(spec, [pair], draws=50, seed=7)
    expected = system_level_correlations(pair.summary, human, pair.systems, "toy", True)
    pd.testing.assert_frame_equal(tables["system_level"], expected)
    expected = segment_level_agreement(pair.summary, comparisons, pair.segments, "toy", True, seed=7)
    pd.testing.assert_frame_equal(tables["segment_level"], expected)
    expected = bootstrap_table(pair.summary, comparisons, human, {"toy": pair.segments},
                               {"toy": spec.build("en")}, draws=50, seed=7)
    pd.testing.assert_frame_equal(tables["system_bootstrap"], expected)
    assert len(tables["system_bootstrap"]) == 3 and (tables["system_bootstrap"]["draws"] == 50).all()
    # A pair with only segment judgments (the evaluator set) has no system-level rows; the tables keep
    # their columns.
    pair.system_level = False
    tables = evaluate_metric(spec, [pair], draws=50, seed=7)
    assert tables["system_level"].empty and list(tables["system_level"].columns)[:3] == ["dataset", "lp", "metric"]
    assert len(tables["segment_level"]) == 1


def test_shared_human_draws_give_the_same_rows_and_are_used_only_where_they_fit(tmp_path, caplog):
    """Rule resample_human_scores computes the judgments' human-score draws once per pair; each metric's
    bootstrap reads them: the same rows as computing them itself, and the draws of other systems,
    segments or seeds are not used (computed again, with a warning naming the pair)."""
    import dataclasses

    from mtmeta.metaeval.bootstrap import human_draws, read_human_draws, write_human_draws

    pair, comparisons, human, spec = _judged_toy_pair()
    alone = evaluate_metric(spec, [pair], draws=50, seed=7)["system_bootstrap"]
    write_human_draws(human_draws(comparisons, human, [4, 2, 3, 1], draws=50, seed=7), tmp_path / "draws.parquet")
    shared = read_human_draws(tmp_path / "draws.parquet")
    assert shared.systems == ["s1", "s2", "s3", "s4"] and shared.seg_ids.tolist() == [1, 2, 3, 4]
    assert {name: values.shape for name, values in shared.scores.items()} == {
        "gt_others": (50, 4), "expected_wins": (50, 4), "ge_others": (50, 4)}
    pair.human_draws = shared
    pd.testing.assert_frame_equal(evaluate_metric(spec, [pair], draws=50, seed=7)["system_bootstrap"], alone)
    # Used: other values in the file move the intervals.
    pair.human_draws = dataclasses.replace(shared, scores={name: values[::-1, ::-1].copy()
                                                           for name, values in shared.scores.items()})
    moved = evaluate_metric(spec, [pair], draws=50, seed=7)["system_bootstrap"]
    intervals = ["pearson_low", "pearson_high", "spearman_low", "spearman_high", "kendall_low", "kendall_high"]
    assert not moved[intervals].equals(alone[intervals])
    pd.testing.assert_series_equal(moved["pearson"], alone["pearson"])  # the point values read no draws
    # Another seed's draws do not fit: computed again, the same rows as alone, and a warning.
    pair.human_draws = dataclasses.replace(shared, seed=8)
    with caplog.at_level("WARNING", logger="mtmeta.metaeval.bootstrap"):
        again = evaluate_metric(spec, [pair], draws=50, seed=7)["system_bootstrap"]
    pd.testing.assert_frame_equal(again, alone)
    assert "toy xx-en: the shared human-score draws are not those of 4 judged systems, 4 segments" in caplog.text
    # A parquet file without the metadata is refused, named.
    pd.DataFrame({"draw": [0]}).to_parquet(tmp_path / "other.parquet")
    with pytest.raises(ValueError, match="other.parquet: not a file of human-score draws"):
        read_human_draws(tmp_path / "other.parquet")
