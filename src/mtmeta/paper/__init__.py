"""The paper artefacts: the seed documents' tables, regenerated from the study's results, with the
reported numbers beside.

Every function takes result tables (and the transcribed reported values of ``config/reported``)
and returns artefact tables; each row that has a reported counterpart carries ``reported``,
``reproduced``, ``delta`` and ``reason`` columns, which :func:`mtmeta.paper.ledger.ledger_rows` collects.

One module per topic: :mod:`.meteor_tuning` (seed 001), :mod:`.parmesan` (seed 002),
:mod:`.overview` (seed 003), :mod:`.softbleu_table` (seed 000), :mod:`.mqm_tables` and
:mod:`.mqm_figures` (the MQM tables, their figures), :mod:`.levels` (metrics between chance and
a human), :mod:`.task_figures` (the official task sets'
ranking figure), :mod:`.official` (the official WMT12 record),
:mod:`.wmt_baselines` (the WMT tasks' baselines), :mod:`.sensitivity` (how a correlation moves with
one setting); :mod:`.ledger` (reported vs reproduced), :mod:`.figures` (the figures) and
:mod:`.report_page` (a table or figure as a page of the report).
"""
