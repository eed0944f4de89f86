"""ter-wmt (tercom -N with tercom's tokenizer) on real WMT12 English->Czech text, whose reference holds
U+00A0 in about 500 segments: the compiled counting equals sacrebleu's on tercom's tokens, and the
tokenizer rule changes the statistics exactly where non-ASCII whitespace occurs."""

import re

import numpy as np
import pytest

from mtmeta import metrics
from mtmeta.app.config import load_config
from mtmeta.data.corpus import Layout, load_segments

pytestmark = pytest.mark.realdata

OTHER_SPACE = re.compile(r"[^\S \t\n\x0b\f\r]")


@pytest.fixture(scope="module")
def onlineb_en_cs(fetch_sources):
    resources = fetch_sources("ter_wmt", ["wmt12_data"])
    layout = Layout.from_config(load_config()["datasets"]["wmt12"]["layout"])
    segments = load_segments(resources / "wmt12_data/extracted", layout, "en-cs")
    return segments[segments["system"] == "onlineB"].reset_index(drop=True)


def test_ter_wmt_on_real_czech(onlineb_en_cs):
    hyps, refs = onlineb_en_cs["hypothesis"].tolist(), [onlineb_en_cs["reference"].tolist()]
    spaced = np.array([bool(OTHER_SPACE.search(h + r)) for h, r in zip(hyps, refs[0], strict=True)])
    assert 450 < spaced.sum() < 600
    wmt = metrics.get("ter", normalized=True, tokenizer="tercom")
    ours = wmt.stats(hyps, refs)
    # sacrebleu's counting on tercom's tokens, on every segment with other whitespace and 200 without
    sample = np.flatnonzero(spaced).tolist() + np.flatnonzero(~spaced)[:200].tolist()
    reference = metrics.get("ter", normalized=True, tokenizer="tercom", backend="sacrebleu")
    expected = reference.stats([hyps[k] for k in sample], [[refs[0][k] for k in sample]])
    np.testing.assert_array_equal(ours[sample], expected)
    # sacrebleu's own tokens differ exactly on segments with non-ASCII whitespace
    norm = metrics.get("ter", normalized=True).stats(hyps, refs)
    changed = (ours != norm).any(axis=1)
    assert not changed[~spaced].any() and changed[spaced].mean() > 0.9
    assert wmt.corpus_score(ours) == pytest.approx(66.2607, abs=5e-5)  # benchmarks/results/ter_variants.md
