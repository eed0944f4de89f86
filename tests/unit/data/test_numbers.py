"""One number parser at every reader: plain ASCII decimals; digit groups, other scripts' digits and
integers past 64 bits are named errors, never read by one reader and refused by another."""

import numpy as np
import pytest

from mtmeta.data import numbers
from mtmeta.data.mqm import read_avg_seg_scores
from mtmeta.data.mtme_scores import read_score_file
from mtmeta.data.tables import read_table
from mtmeta.data.textio import parse_int
from mtmeta.data.user_scores import read_score_file as read_user_scores
from mtmeta.errors import InputError

DIGIT_GROUPS = "(digit-group separators such as '_' are not read)"
OTHER_DIGITS = "(only the ASCII digits 0-9 are read)"


@pytest.mark.parametrize(("value", "why"), [("1_000", DIGIT_GROUPS), ("١٢", OTHER_DIGITS)])
def test_every_reader_refuses_digit_groups_and_other_digits(tmp_path, value, why):
    table = tmp_path / "scores.tsv"
    table.write_text(f"system\tscore\nA\t0.5\nB\t{value}\n")
    with pytest.raises(InputError) as info:
        read_table(table, {"system": "name", "score": "number"}, what="scores")
    assert str(info.value) == (f"{table}:3: score {value!r} is not a number {why}; expected a number in ASCII "
                               "digits (like 12, -0.5 or 1e-3)")
    mtme = tmp_path / "x.seg.score"
    mtme.write_text(f"A 0.5\nA {value}\n")
    with pytest.raises(InputError) as info:
        read_score_file(mtme, "seg", human=True)
    assert str(info.value) == (f"{mtme}:2: score {value!r} is not a number {why}; expected SYSNAME SCORE (SCORE a "
                               "number or None)")
    with pytest.raises(InputError) as info:
        parse_int(value, "judgments.csv", 7, "srcIndex")
    assert str(info.value) == (f"judgments.csv:7: column srcIndex: {value!r} is not an integer {why}; expected an "
                               "integer from -9223372036854775808 to 9223372036854775807 (ASCII digits)")
    seg = tmp_path / "mine.seg.tsv"
    seg.write_text(f"dataset\tlp\tsystem\tseg_id\tscore\nd\ten-de\tA\t{value}\t0.5\n")
    with pytest.raises(InputError, match=rf"mine.seg.tsv:2: seg_id {value!r} is not an integer"):
        read_user_scores(seg, "segment")


def test_a_seg_id_past_64_bits_is_a_named_error_with_its_bounds(tmp_path):
    seg = tmp_path / "mine.seg.tsv"
    seg.write_text("dataset\tlp\tsystem\tseg_id\tscore\nd\ten-de\tA\t99999999999999999999\t0.5\n")
    with pytest.raises(InputError) as info:
        read_user_scores(seg, "segment")
    assert str(info.value) == (f"{seg}:2: seg_id '99999999999999999999' is out of range; expected an integer from "
                               "-9223372036854775808 to 9223372036854775807 (ASCII digits)")
    avg = tmp_path / "x.avg_seg_scores.tsv"
    avg.write_text("system mqm_avg_score seg_id\nA -1.0 99999999999999999999\n")
    with pytest.raises(InputError, match=r"x.avg_seg_scores.tsv:2: seg_id '99999999999999999999' is out of range; "
                                         r"expected an integer 1, 2, ... \(ASCII digits\)"):
        read_avg_seg_scores(avg)


def test_plain_decimals_are_read_exactly():
    cells = ["12", "-0.5", ".25", "1e-3", "+7.", " 3 ", "None"]
    got = numbers.parse_numbers(cells, "f", range(1, 8), "score", missing="None")
    assert got[:6].tolist() == [12.0, -0.5, 0.25, 0.001, 7.0, 3.0] and np.isnan(got[6])
    with pytest.raises(InputError, match=r"f:2: score '1e999' is not a finite number \(too large\)"):
        numbers.parse_numbers(["1", "1e999"], "f", [1, 2], "score")
    with pytest.raises(InputError, match=r"f:1: score 'nan' is not a finite number"):
        numbers.parse_number("nan", "f", 1, "score")
    assert numbers.parse_number("-inf", "f", 1, "score", special=True) == -np.inf
    assert numbers.parse_integers(["3", "1", "3"], "f", [1, 2, 3], "seg_id", minimum=1).tolist() == [3, 1, 3]
