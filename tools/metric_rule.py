"""`make metric`'s check: the rule of one metric id of a study, or an error naming the study's ids.

    python tools/metric_rule.py ID [CONFIG]

Prints the suffix of the id's rules (``bleu_w2v`` for ``bleu-w2v``: score_bleu_w2v scores it,
metric_bleu_w2v is its own results), so that the Makefile's names follow
mtmeta.app.config.score_rule_name instead of repeating it. CONFIG: the study's config file, as
``make ... CONFIG=FILE`` (default config/config.yaml).
"""

from __future__ import annotations

import sys

from mtmeta.app.config import load_config, results_rule_name, scored_metric_ids
from mtmeta.errors import ConfigError


def main(argv: list[str]) -> int:
    metric_id = argv[0] if argv else ""
    config_file = argv[1] if len(argv) > 1 and argv[1] else None
    if not metric_id:
        print("make metric needs METRIC=<a metric id of the study>, e.g. make metric METRIC=bleu", file=sys.stderr)
        return 2
    try:
        ids = scored_metric_ids(load_config(config_file, checksums=False))
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 2
    if metric_id not in ids:
        print(f"METRIC={metric_id}: the study ({config_file or 'config/config.yaml'}) scores no metric of that id; "
              f"its ids: {', '.join(ids)}", file=sys.stderr)
        return 2
    print(results_rule_name(metric_id).removeprefix("metric_"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
