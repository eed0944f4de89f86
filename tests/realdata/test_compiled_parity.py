"""The compiled TER, chrF++ and BLEU against sacrebleu's own counting on every segment of every
system of WMT12 English->Czech and WMT13 German->English (both are what the study scores), and the
accelerated 13a tokeniser against sacrebleu's on every text. chrF++ covers chrF's counts too: its
statistics are chrF's character orders followed by the word orders.

sacrebleu's chrF++ and BLEU run live (about 30 s and 10 s per language pair; each pair runs in its own
process). Its TER would take about 12 minutes on 2 cores, so its statistics are stored
(``tests/fixtures/sacrebleu_ter``, written by its ``make_fixtures.py``); the test checks that they
belong to these texts and to the installed sacrebleu, and re-runs sacrebleu's TER on a sample.
"""

import functools
import importlib.util
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
LIVE_TER_SAMPLE = 150  # segments per pair that sacrebleu's TER re-scores live
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sacrebleu_ter"


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
    results["ter_fixture"] = {"sacrebleu": str(stored["sacrebleu"]), "systems": stored["systems"].tolist(),
                              "digests": stored["digests"].tolist(), "data_digests": [], "live_different": []}
    sample = np.random.default_rng(0).choice(len(segments), LIVE_TER_SAMPLE, replace=False)
    live = metrics.get("ter", backend="sacrebleu")
    for name in METRICS:
        result = results[name] = {"segments": 0, "systems": 0, "different": [], "first_column": 0}
        ours, reference = metrics.get(name), metrics.get(name, backend="sacrebleu")
        start = 0
        for system, rows in segments.groupby("system", sort=True):
            rows = rows.sort_values("seg_id")
            hyps, refs = rows["hypothesis"].tolist(), [rows["reference"].tolist()]
            a = ours.stats(hyps, refs)
            if name == "ter":  # sacrebleu's statistics as stored, then a live sample of them
                results["ter_fixture"]["data_digests"].append(_fixtures().texts_digest(hyps, refs[0]))
                end = start + len(rows)
                b = np.full_like(a, -1)  # other segments than stored: every row differs
                if np.array_equal(stored["seg_ids"][start:end], rows["seg_id"].to_numpy()):
                    b[:] = np.column_stack([stored["edits"][start:end], stored["ref_lengths"][start:end]])
                for i in sample[(sample >= start) & (sample < end)] - start:
                    if not np.array_equal(live.stats([hyps[i]], [[refs[0][i]]])[0], b[i]):
                        results["ter_fixture"]["live_different"].append((system, int(rows["seg_id"].iloc[i])))
                start = end
            else:
                b = reference.stats(hyps, refs)
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


@pytest.mark.parametrize("lp, texts", [("en-cs", 30000), ("de-en", 50000)])
def test_identical_13a_tokens_on_every_text(parity, lp, texts):
    assert parity[lp]["13a"]["texts"] > texts
    assert parity[lp]["13a"]["different"] == []


@pytest.mark.parametrize("lp, systems", [("en-cs", 13), ("de-en", 23)])
def test_stored_ter_statistics_are_sacrebleus_on_these_texts(parity, lp, systems):
    import sacrebleu

    stored = parity[lp]["ter_fixture"]
    assert stored["sacrebleu"] == sacrebleu.__version__, "re-run tests/fixtures/sacrebleu_ter/make_fixtures.py"
    assert len(stored["systems"]) == systems
    assert stored["digests"] == stored["data_digests"], "the stored statistics belong to other texts"
    assert stored["live_different"] == []
