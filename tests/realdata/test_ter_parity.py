"""TER's compiled edit counting against sacrebleu's own TER on every segment of every system of
WMT12 English->Czech and WMT13 German->English (both are what the study scores).

sacrebleu takes about 80 s per language pair here, so each pair runs in its own process.
"""

from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from mtmeta.config import load_config
from mtmeta.data.corpus import Layout, load_segments

pytestmark = pytest.mark.realdata
PAIRS = [("wmt12", "wmt12_data", "en-cs"), ("wmt13", "wmt13_data", "de-en")]


def _compare(extracted: str, layout: dict, lp: str, params: dict) -> dict:
    from mtmeta.metrics.ter import TER

    segments = load_segments(extracted, Layout.from_config(layout), lp)
    result = {"segments": 0, "systems": 0, "different": [], "edits": 0}
    ours, reference = TER(**params), TER(backend="sacrebleu", **params)
    for system, rows in segments.groupby("system", sort=True):
        rows = rows.sort_values("seg_id")
        hyps, refs = rows["hypothesis"].tolist(), [rows["reference"].tolist()]
        a, b = ours.stats(hyps, refs), reference.stats(hyps, refs)
        result["different"] += [(system, int(rows["seg_id"].iloc[i])) for i in np.flatnonzero((a != b).any(axis=1))]
        result["segments"] += len(rows)
        result["systems"] += 1
        result["edits"] += int(a[:, 0].sum())
    return result


@pytest.fixture(scope="module")
def parity(fetch_sources):
    config = load_config()
    jobs = []
    with ProcessPoolExecutor(max_workers=2) as pool:
        for dataset, source, lp in PAIRS:
            resources = fetch_sources(f"ter-{dataset}", [source])
            jobs.append(pool.submit(_compare, str(resources / source / "extracted"),
                                    config["datasets"][dataset]["layout"], lp, {}))
        return {lp: job.result() for (_, _, lp), job in zip(PAIRS, jobs, strict=True)}


@pytest.mark.parametrize("lp, systems, segments", [("en-cs", 13, 13 * 3003), ("de-en", 23, 23 * 3000)])
def test_identical_statistics_on_every_segment(parity, lp, systems, segments):
    result = parity[lp]
    assert (result["systems"], result["segments"]) == (systems, segments)
    assert result["different"] == []
    assert result["edits"] > 0.3 * segments  # real edits were counted, not an empty run
