"""Scoring every system against its own references (paraphrased references) reuses what the
references share: sacrebleu's per-segment reference statistics, METEOR's reference tokens and its
paraphrase table, built once for all systems. The statistics must equal a fresh metric per system."""

import numpy as np
import pandas as pd
import pytest

from mtmeta import metrics
from mtmeta.app.config import load_config
from mtmeta.data.corpus import Layout, load_segments
from mtmeta.metrics.score_tables import score_segments

pytestmark = pytest.mark.realdata


@pytest.fixture(scope="module")
def own_references(fetch_sources):
    """Three WMT12 en-cs systems, 400 segments; each system's references differ from the real ones in
    a different third of the segments (another system's output stands in for a paraphrased reference)."""
    resources = fetch_sources("own-references", ["wmt12_data", "function_words_en", "thesaurus_cs"])
    layout = Layout.from_config(load_config()["datasets"]["wmt12"]["layout"])
    table = load_segments(resources / "wmt12_data" / "extracted", layout, "en-cs")
    systems = sorted(table["system"].unique())[:3]
    rows = table[table["system"].isin(systems)].sort_values(["system", "seg_id"]).groupby("system").head(400)
    rows = rows.reset_index(drop=True)
    donor = rows.loc[rows["system"] == systems[0], "hypothesis"].to_numpy()
    for k, system in enumerate(systems):
        index = rows.index[rows["system"] == system]
        changed = index[(np.arange(len(index)) % 3) == k]
        rows.loc[changed, "reference"] = donor[(np.arange(len(index)) % 3) == k]
    return resources, rows


@pytest.mark.parametrize("metric_id, params", [
    ("meteor", {}),  # Czech preset: MyThes thesaurus as paraphrase table
    ("meteor", {"paraphrase_filter": "one-word"}),
    ("bleu", {}),
    ("chrf", {}),
])
def test_shared_references_give_each_systems_statistics(own_references, metric_id, params):
    resources, rows = own_references
    extra = {"resources": str(resources)} if metric_id == "meteor" else {}
    shared = metrics.get_for_dataset(metric_id, "cs", {**params, **extra})
    together, systems = score_segments(rows, shared, own_references=True)
    columns = shared.stat_names
    for system, group in rows.groupby("system", sort=True):
        fresh = metrics.get_for_dataset(metric_id, "cs", {**params, **extra})
        alone = fresh.stats(group["hypothesis"].tolist(), [group["reference"].tolist()])
        mine = together.loc[together["system"] == system, columns].to_numpy()
        np.testing.assert_array_equal(mine, alone)
        score = systems.loc[systems["system"] == system, "score"].iloc[0]
        assert score == fresh.corpus_score(alone)
    if metric_id == "meteor":  # one aligner served all three systems: the compiled backend's paraphrase
        # table is the whole thesaurus, built once for any references (not one per reference set)
        assert shared._aligner is not None and shared._aligner_references == set()
        assert shared._phrases is not None
    assert isinstance(together, pd.DataFrame) and len(together) == 1200
