"""What the figures cost to write: each saved file draws the figure once."""

import pandas as pd
from matplotlib.figure import Figure

from mtmeta.paper import figures


def test_system_scatter_draws_once_per_file(tmp_path, monkeypatch):
    # tight_layout leaves a placeholder layout engine behind, and with one savefig draws the whole
    # figure twice (once only to lay it out): a quarter of a study job's time (24 panels each).
    draws = []
    draw = Figure.draw
    monkeypatch.setattr(Figure, "draw", lambda self, renderer: draws.append(renderer) or draw(self, renderer))
    table = pd.DataFrame({"system": ["a", "b", "c"], "score": [1.0, 2.0, 3.0], "gt_others": [0.2, 0.5, 0.8]})
    panels = [{"title": f"wmt12 {lp}", "table": table, "pearson": 1.0} for lp in ("en-cs", "cs-en")]
    outputs = [tmp_path / "scatter.png", tmp_path / "scatter.pdf"]
    figures.system_scatter(panels, "bleu", "gt_others", outputs)
    assert all(path.stat().st_size > 0 for path in outputs)
    assert len(draws) == len(outputs)
