"""Data acquisition and preparation: sources, archives, corpora and human judgments.

- ``fetch``: a declared source from the mirror or upstream, sha256-verified; ``archive``: safe
  extraction of tar and zip files;
- ``textio``: strict UTF-8 text, errors located by line; ``names``, ``numbers``: one name policy
  and one number parser for every reader; ``tables``: the checked reader of a user's TSV tables;
- ``corpus``: a test set's outputs, references and sources as one table; ``judgments``: every
  human-judgment format as pairwise comparisons; ``prepare``: one dataset x pair's tables;
  ``report``: what a preparation left out; ``tokenize``: the tokenisers the metrics share;
- ``user_scores``: a user's metric score files, checked against the prepared datasets;
- WMT21 and WMT23 MQM: ``mqm`` (Google's MQM annotation, MQM scores), ``wmt_da`` (WMT21 DA
  scores), ``neural_scores`` (published neural metric scores, WMT21 en-ru), ``wmt21`` (the six
  eval sets), ``wmt23`` (side-by-side MQM, three raters per segment);
- mt-metrics-eval's data: ``evalset`` (its EvalSet layout), ``mtme_scores`` (its score files),
  ``mtme_meta`` (its meta-information: standard references, gold, outliers, primaries).
"""
