"""A second annotator on WMT12's real rankings: the inter-annotator agreement the findings report.

The WMT findings of those years report inter-annotator kappas of roughly 0.2-0.45 ("fair" to "moderate")
on the comparisons judged by more than one annotator; the study's own value, from
its own code, must land in that range, on a few thousand pairs of judgments per pair.
"""

import pytest

from mtmeta.data.judgments import read_judgments
from mtmeta.data.prepare import source_file
from mtmeta.metaeval.annotators import annotator_agreement

pytestmark = pytest.mark.realdata


@pytest.fixture(scope="module")
def wmt12(fetch_sources):
    resources = fetch_sources("wmt12-annotators", ["wmt12_judgments"])
    path, manifest = source_file(resources, "wmt12_judgments")
    return read_judgments(manifest["format"], path, None)


@pytest.mark.parametrize("lp", ["cs-en", "en-cs", "de-en"])
def test_wmt12_second_annotator_agrees_as_the_findings_report(wmt12, lp):
    comparisons = wmt12.comparisons[(wmt12.comparisons["lp"] == lp) & (wmt12.comparisons["sys_a"]
                                                                      != wmt12.comparisons["sys_b"])]
    result, repeated = annotator_agreement(comparisons, wmt12.judges)
    assert result["annotators"] == "recorded" and result["unattributed_judgments"] == 0
    assert 0.2 < result["kappa"] < 0.45
    assert 1000 < result["judgment_pairs"] < 5000 and result["same_annotator_pairs"] > 0
    # A second annotator ties often: WMT13's variant (ties dropped) is above WMT12's (ties discordant).
    assert result["tau_wmt12"] < result["tau_wmt14"] < result["tau_wmt13"]
    assert repeated["weight"].sum() == 2 * result["judgment_pairs"]
