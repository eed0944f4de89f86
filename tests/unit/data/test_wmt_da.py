"""WMT21 DA files: segment means to system means as WMT's (R) scripts computed them."""

import pytest

from mtmeta.data.wmt_da import (
    compare_da_system_scores,
    da_system_name,
    da_system_scores,
    r_mean,
    read_da_segment_scores,
    read_da_system_scores,
)
from mtmeta.errors import InputError

# As WMT wrote them: space-separated, every line ending in a space.
SEGMENTS = "".join(line + " \n" for line in [
    "SYS SID RAW.SCR Z.SCR N", "XMU.17 1 70 -0.5 2", "XMU.17 3 80.5 0.25 1", "HUMAN.0 1 90 1.0 3", "HUMAN.0 2 60 -1 1",
    "HUMAN.0 3 75 0.1 2"])

def test_system_means_by_hand(tmp_path):
    path = tmp_path / "ad-seg-scores-zh-en.csv"
    path.write_text(SEGMENTS)
    segments = read_da_segment_scores(path)
    assert list(segments["system"]) == ["XMU", "XMU", "HUMAN", "HUMAN", "HUMAN"]
    systems = da_system_scores(segments).set_index("system_id")
    assert systems.loc["XMU.17", "raw"] == 75.25 and systems.loc["XMU.17", "z"] == -0.125
    assert systems.loc["HUMAN.0", "raw"] == 75 and systems.loc["HUMAN.0", "z"] == pytest.approx(0.1 / 3, abs=1e-17)
    assert list(systems["n"]) == [3, 2] and list(systems["n_all"]) == [6, 3]
    published = tmp_path / "ad-sys-scores-zh-en.csv"
    published.write_text("RAW.SCR Z.SCR N SYS N.ALL \n75.25 -0.125 2 XMU.17 3 \n75 0.0333333333333333 3 HUMAN.0 6 \n")
    compared = compare_da_system_scores(da_system_scores(segments), read_da_system_scores(published))
    assert compared["counts_equal"].all() and compared["raw_printed_equal"].all() and compared["z_printed_equal"].all()


def test_r_mean_is_the_long_double_mean_with_a_correction():
    # Three values whose double sum rounds: R's mean (and this) gives the correctly rounded 0.1.
    values = [0.1, 0.1, 0.1]
    assert sum(values) / 3 != 0.1 and r_mean(values) == 0.1


def test_names_and_errors(tmp_path):
    assert da_system_name("Machine_Translation.19") == "Machine_Translation" and da_system_name("HUMAN.0") == "HUMAN"
    assert da_system_name("a.b") == "a.b"
    path = tmp_path / "seg.csv"
    for body, message in [("XMU.17 1 70 -0.5\n", r":2: found 4 fields"), ("XMU.17 one 70 -0.5 2\n", r":2: SID 'one'"),
                          ("XMU.17 1 70 x 2\n", r":2: score 'x'"), ("XMU.17 1 70 1 2\nXMU.17 1 70 1 2\n",
                                                                   r":3: XMU.17 segment 1 is given twice")]:
        path.write_text("SYS SID RAW.SCR Z.SCR N\n" + body)
        with pytest.raises(InputError, match=message):
            read_da_segment_scores(path)
    path.write_text("SYS SID RAW Z N\n")
    with pytest.raises(InputError, match=r":1: unexpected header"):
        read_da_segment_scores(path)
