"""Meta-evaluation: metric scores against human judgments (tables in, tables out; no files).

- ``system_level``, ``segment_level``: correlations with human system scores, agreement with
  pairwise comparisons;
- ``bootstrap``: intervals of system-level correlations; ``significance``: Williams tables between
  metrics; ``clusters``: mt-metrics-eval's permutation clusters beside them;
- ``sweeps``: parameter sweeps from cached statistics; ``by_metric``: one metric on every pair, and
  the study-wide joins;
- ``protocols``: mt-metrics-eval's protocols, one metric on one pair; ``ceiling_levels``: the human
  ceiling and chance levels on three-rater MQM; ``crowd``: WMT's DA scored as a metric against MQM;
  ``annotators``: a second annotator on WMT12-14's pairwise judgments; ``level_draws``: bootstrap
  intervals of the levels and of the headroom share;
- ``tasks``, ``task_tables``: mt-metrics-eval's task sets and their tables; ``task_levels``: a
  task's chance, all-tied and human levels; ``export``: metric
  scores in mt-metrics-eval's layout;
- ``user_metric_tables``: every table of a user's metric on one pair (``mtmeta evaluate``);
  ``system_comparison``: confidence and paired tests between systems (``mtmeta score``).
"""
