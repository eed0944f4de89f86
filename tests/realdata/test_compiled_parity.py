"""The compiled TER, chrF++ and BLEU against sacrebleu's own counting on every segment of every
system of WMT12 English->Czech and WMT13 German->English (both are what the study scores), and the
accelerated 13a tokeniser against sacrebleu's on every text. chrF++ covers chrF's counts too: its
statistics are chrF's character orders followed by the word orders.

sacrebleu takes about 80 s (TER), 30 s (chrF++) and 10 s (BLEU) per language pair here, so each pair
runs in its own process.
"""

from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from mtmeta.config import load_config
from mtmeta.data.corpus import Layout, load_segments

pytestmark = pytest.mark.realdata
PAIRS = [("wmt12", "wmt12_data", "en-cs"), ("wmt13", "wmt13_data", "de-en")]
METRICS = ["ter", "chrf++", "bleu"]


def _compare(extracted: str, layout: dict, lp: str) -> dict:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    from mtmeta import metrics
    from mtmeta.metrics.tokenize import accelerated

    segments = load_segments(extracted, Layout.from_config(layout), lp)
    ours, theirs = accelerated(Tokenizer13a()), Tokenizer13a()
    texts = list(dict.fromkeys([*segments["hypothesis"], *segments["reference"]]))
    results = {"13a": {"texts": len(texts), "different": [t for t in texts if ours(t) != theirs(t)]}}
    for name in METRICS:
        result = results[name] = {"segments": 0, "systems": 0, "different": [], "first_column": 0}
        ours, reference = metrics.get(name), metrics.get(name, backend="sacrebleu")
        for system, rows in segments.groupby("system", sort=True):
            rows = rows.sort_values("seg_id")
            hyps, refs = rows["hypothesis"].tolist(), [rows["reference"].tolist()]
            a, b = ours.stats(hyps, refs), reference.stats(hyps, refs)
            result["different"] += [(system, int(rows["seg_id"].iloc[i])) for i in np.flatnonzero((a != b).any(axis=1))]
            result["segments"] += len(rows)
            result["systems"] += 1
            result["first_column"] += int(a[:, 0].sum())
    return results


@pytest.fixture(scope="module")
def parity(fetch_sources):
    config = load_config()
    jobs = []
    with ProcessPoolExecutor(max_workers=2) as pool:
        for dataset, source, lp in PAIRS:
            resources = fetch_sources(f"parity-{dataset}", [source])
            jobs.append(pool.submit(_compare, str(resources / source / "extracted"),
                                    config["datasets"][dataset]["layout"], lp))
        return {lp: job.result() for (_, _, lp), job in zip(PAIRS, jobs, strict=True)}


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("lp, systems, segments", [("en-cs", 13, 13 * 3003), ("de-en", 23, 23 * 3000)])
def test_identical_statistics_on_every_segment(parity, metric, lp, systems, segments):
    result = parity[lp][metric]
    assert (result["systems"], result["segments"]) == (systems, segments)
    assert result["different"] == []
    # real counts, not an empty run: TER's edits, chrF++'s hypothesis characters, BLEU's hypothesis words
    assert result["first_column"] > {"ter": 0.3, "chrf++": 50, "bleu": 10}[metric] * segments


@pytest.mark.parametrize("lp, texts", [("en-cs", 30000), ("de-en", 50000)])
def test_identical_13a_tokens_on_every_text(parity, lp, texts):
    assert parity[lp]["13a"]["texts"] > texts
    assert parity[lp]["13a"]["different"] == []
