"""`mtmeta correlate` on scores whose correlation is undefined: a stated reason and exit 2, never a
printed nan; scores near the float limits correlate as their scaled values."""

from mtmeta.app.cli import main


def test_correlate_states_why_a_correlation_is_undefined(tmp_path, capsys):
    human = tmp_path / "human.tsv"
    human.write_text("system\tgt_others\na\t0.1\nb\t0.2\nc\t0.5\nd\t0.3\n", encoding="utf-8")
    infinite = tmp_path / "inf.tsv"
    infinite.write_text("system\tscore\na\tinf\nb\t2\nc\t5\nd\t3\n", encoding="utf-8")
    # Before: nan printed for every coefficient, exit 0.
    assert main(["correlate", str(infinite), str(human)]) == 2
    out, err = capsys.readouterr()
    assert "nan" not in out
    assert (f"{infinite} and {human}: the correlation is undefined: a non-finite metric score (inf) among the 4 "
            "systems; expected finite scores that differ") in err


def test_correlate_scores_near_the_float_limits(tmp_path, capsys):
    human = tmp_path / "human.tsv"
    human.write_text("system\tgt_others\na\t0.1\nb\t0.2\nc\t0.5\nd\t0.3\n", encoding="utf-8")
    # Linear functions of the human scores at either end of the float range: Pearson 1 (before: nan
    # near 1e308, where the mean overflowed).
    for scores in (("1.0e308", "1.1e308", "1.4e308", "1.2e308"), ("1e-320", "2e-320", "5e-320", "3e-320")):
        path = tmp_path / "scores.tsv"
        path.write_text("system\tscore\n" + "".join(f"{s}\t{v}\n" for s, v in zip("abcd", scores, strict=True)),
                        encoding="utf-8")
        assert main(["correlate", str(path), str(human)]) == 0
        values = dict(line.split("\t") for line in capsys.readouterr().out.splitlines())
        assert abs(float(values["pearson"]) - 1.0) < 1e-12, (scores, values)
