"""Pure statistics (numpy/scipy/pandas, no I/O, nothing else of mtmeta): numbers in, numbers out.

- ``correlation``: Pearson, Spearman and Kendall with p-values; ``dependent``: Williams and Meng
  tests between two metrics' correlations;
- ``human``: human system scores from pairwise comparisons (WMT definitions); ``pairwise``:
  segment-level agreement with pairwise judgments (WMT's Kendall variants);
- ``paired``: sacrebleu's corpus-score confidence and paired tests between two systems;
- ``chance``: chance levels of each protocol; ``ceiling``: the human ceiling (one rater against the
  mean of the others);
- ``memory_limit``: the memory a statistic would allocate, refused before it does;
- mt-metrics-eval's protocols: ``grouped`` (correlations over grouped systems x items matrices),
  ``kendall_counts`` (Kendall's statistics of many groups, compiled), ``kendall_like`` (WMT DA's
  Kendall-like tau), ``tie_calibration`` (acc_eq, tau_eq), ``system_pairs`` (protocols over pairs of
  systems), ``permutation`` (permutation tests, significance clusters), ``spa_draws`` (the
  permutation draws of soft pairwise accuracy, shared by every pair of metrics) and ``two_level_bootstrap``
  (intervals resampling systems, segments or both).
"""
