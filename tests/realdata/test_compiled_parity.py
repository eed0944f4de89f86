"""The compiled TER, chrF++ and BLEU against sacrebleu's own counting on every segment of every
system of WMT12 English->Czech and WMT13 German->English (both are what the study scores), and the
accelerated 13a tokeniser against sacrebleu's on every text. chrF++ covers chrF's counts too: its
statistics are chrF's character orders followed by the word orders.

sacrebleu's statistics are stored (``tests/fixtures/sacrebleu_stats``, written by its
``make_fixtures.py``): its TER would take about 12 minutes on 2 cores and its chrF++ and BLEU about
70 s, so TER's statistics are stored per segment and chrF++'s and BLEU's as one digest per system.
The test checks that they belong to these texts and to the installed sacrebleu, re-runs sacrebleu on
a sample of segments, and, where a system's digest differs, on that system, to name its segments.
"""

import functools
import importlib.util
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from mtmeta.app.config import load_config
from mtmeta.data.corpus import Layout, load_segments

pytestmark = pytest.mark.realdata
PAIRS = [("wmt12", "wmt12_data", "en-cs"), ("wmt13", "wmt13_data", "de-en")]
METRICS = ["ter", "chrf++", "bleu"]
DIGESTED = ["chrf++", "bleu"]  # sacrebleu's statistics stored as a digest per system (TER's per segment)
LIVE_SAMPLE = 150  # segments per pair that sacrebleu re-scores live, for each metric
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sacrebleu_stats"


@functools.cache
def _fixtures():
    spec = importlib.util.spec_from_file_location("ter_fixtures", FIXTURES / "make_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("ter_fixtures", module)
    spec.loader.exec_module(module)
    return module


def _compare(extracted: str, layout: dict, dataset: str, lp: str) -> dict:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    from mtmeta import metrics
    from mtmeta.data.tokenize import accelerated

    segments = load_segments(extracted, Layout.from_config(layout), lp)
    ours, theirs = accelerated(Tokenizer13a()), Tokenizer13a()
    texts = list(dict.fromkeys([*segments["hypothesis"], *segments["reference"]]))
    results = {"13a": {"texts": len(texts), "different": [t for t in texts if ours(t) != theirs(t)]}}
    stored = np.load(_fixtures().fixture_path(dataset, lp))
    digests = json.loads(_fixtures().DIGESTS.read_text(encoding="utf-8"))
    results["ter_fixture"] = {"sacrebleu": str(stored["sacrebleu"]), "systems": stored["systems"].tolist(),
                              "digests": stored["digests"].tolist(), "data_digests": []}
    results["digest_fixture"] = {"sacrebleu": digests["sacrebleu"],
                                 "systems": {name: sorted(digests[f"{dataset} {lp}"][name]) for name in DIGESTED}}
    sample = np.random.default_rng(0).choice(len(segments), LIVE_SAMPLE, replace=False)
    for name in METRICS:
        result = results[name] = {"segments": 0, "systems": 0, "different": [], "first_column": 0,
                                  "live_different": [], "live": 0}
        ours, reference = metrics.get(name), metrics.get(name, backend="sacrebleu")
        start = 0
        for system, rows in segments.groupby("system", sort=True):
            rows = rows.sort_values("seg_id")
            hyps, refs = rows["hypothesis"].tolist(), [rows["reference"].tolist()]
            a = ours.stats(hyps, refs)
            end = start + len(rows)
            if name == "ter":  # sacrebleu's statistics as stored
                results["ter_fixture"]["data_digests"].append(_fixtures().texts_digest(hyps, refs[0]))
                b = np.full_like(a, -1)  # other segments than stored: every row differs
                if np.array_equal(stored["seg_ids"][start:end], rows["seg_id"].to_numpy()):
                    b[:] = np.column_stack([stored["edits"][start:end], stored["ref_lengths"][start:end]])
            elif _fixtures().stats_digest(a) == digests[f"{dataset} {lp}"][name].get(system):
                b = a
            else:  # sacrebleu live on this system, to name the segments (or the stale digest)
                b = reference.stats(hyps, refs)
                if np.array_equal(a, b):
                    result["different"].append((system, "stored digest"))
            for i in sample[(sample >= start) & (sample < end)] - start:  # sacrebleu live on the sample
                result["live"] += 1
                if not np.array_equal(reference.stats([hyps[i]], [[refs[0][i]]])[0], b[i]):
                    result["live_different"].append((system, int(rows["seg_id"].iloc[i])))
            start = end
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
                                    config["datasets"][dataset]["layout"], dataset, lp))
        return {lp: job.result() for (_, _, lp), job in zip(PAIRS, jobs, strict=True)}


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("lp, systems, segments", [("en-cs", 13, 13 * 3003), ("de-en", 23, 23 * 3000)])
def test_identical_statistics_on_every_segment(parity, metric, lp, systems, segments):
    result = parity[lp][metric]
    assert (result["systems"], result["segments"]) == (systems, segments)
    assert result["different"] == []
    # real counts, not an empty run: TER's edits, chrF++'s hypothesis characters, BLEU's hypothesis words
    assert result["first_column"] > {"ter": 0.3, "chrf++": 50, "bleu": 10}[metric] * segments
    # sacrebleu itself, live, on a sample: what is stored is its counting
    assert result["live"] == LIVE_SAMPLE and result["live_different"] == []


@pytest.mark.parametrize("lp, texts", [("en-cs", 30000), ("de-en", 50000)])
def test_identical_13a_tokens_on_every_text(parity, lp, texts):
    assert parity[lp]["13a"]["texts"] > texts
    assert parity[lp]["13a"]["different"] == []


@pytest.mark.parametrize("lp, systems", [("en-cs", 13), ("de-en", 23)])
def test_stored_statistics_are_sacrebleus_on_these_texts(parity, lp, systems):
    import sacrebleu

    stored, digested = parity[lp]["ter_fixture"], parity[lp]["digest_fixture"]
    for version in (stored["sacrebleu"], digested["sacrebleu"]):
        assert version == sacrebleu.__version__, "re-run tests/fixtures/sacrebleu_stats/make_fixtures.py"
    assert len(stored["systems"]) == systems
    assert stored["digests"] == stored["data_digests"], "the stored statistics belong to other texts"
    assert digested["systems"] == {name: stored["systems"] for name in DIGESTED}
