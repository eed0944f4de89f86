"""The official WMT12 record (config/reported/wmt12.yaml) checked against itself: the transcribed
Spearman cells, their printed means, and the per-system official scores they recompute from come from
two independent public sources, so a mistyped number shows up as a disagreement."""

import numpy as np
import pytest
import yaml

from mtmeta.stats.correlation import pearson, spearman


@pytest.fixture(scope="module")
def record(repo):
    return yaml.safe_load((repo / "config" / "reported" / "wmt12.yaml").read_text(encoding="utf-8"))


def vectors(scores: dict, metric: str) -> tuple[np.ndarray, np.ndarray]:
    human = scores["HUMAN"]
    assert set(scores[metric]) == set(human), f"{metric}: other systems than the human scores'"
    systems = sorted(human)
    return np.array([scores[metric][s] for s in systems]), np.array([human[s] for s in systems])


def test_every_cell_is_a_number_for_each_pair(record):
    pairs = {"cs-en", "de-en", "es-en", "fr-en", "en-cs", "en-de", "en-es", "en-fr"}
    assert set(record["spearman"]) == set(record["study_metrics"]) == {"bleu", "ter", "meteor"}
    for metric, cells in record["spearman"].items():
        assert set(cells) == pairs, metric
        assert all(0 < value < 1 for value in cells.values()), metric


def test_printed_means_are_the_means_of_the_transcribed_cells(record):
    into = ["cs-en", "de-en", "es-en", "fr-en"]
    out = ["en-cs", "en-de", "en-es", "en-fr"]
    for metric, cells in record["spearman"].items():
        means = record["spearman_printed_means"][metric]
        # The reprint rounds means of two-decimal cells; allow for its rounding of an exact half.
        assert abs(np.mean([cells[lp] for lp in into]) - means["into_english"]) <= 0.005 + 1e-9, metric
        assert abs(np.mean([cells[lp] for lp in out]) - means["out_of_english"]) <= 0.005 + 1e-9, metric
        assert abs(np.mean(list(cells.values())) - means["all"]) <= 0.005 + 1e-9, metric


def test_official_system_scores_recompute_the_reprinted_spearman(record):
    """Graham's per-system files (the official WMT12 scores) give the reprint's two-decimal cells:
    es-en BLEU 0.874, TER 0.916 (an error rate: negated), METEOR 0.951; en-fr BLEU 0.714."""
    checked = 0
    for lp, scores in record["system_scores"].items():
        for name, metric in record["system_score_metrics"].items():
            if name not in scores:
                continue
            values, human = vectors(scores, name)
            sign = -1.0 if metric == "ter" else 1.0
            rho = spearman(sign * values, human)[0]
            assert round(rho, 2) == record["spearman"][metric][lp], (lp, metric, rho)
            checked += 1
    assert checked == 4


def test_per_system_bleu_and_human_give_the_repository_s_own_pearson(record):
    """The repository's stored output (example-output/orig.pearson-corr.es-en) is Pearson of
    BLEU_4_closest_cased with HUMAN on es-en: every transcribed es-en BLEU and human score enters it."""
    values, human = vectors(record["system_scores"]["es-en"], "BLEU_4_closest_cased")
    published = record["sources"]["graham_williams"]["published_pearson"]["es-en"]["BLEU_4_closest_cased"]
    assert pearson(values, human)[0] == pytest.approx(published, abs=1e-12)
    assert len(values) == 12 and len(record["system_scores"]["en-fr"]["HUMAN"]) == 15
