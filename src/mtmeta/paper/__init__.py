"""The paper artefacts: the seed documents' tables, regenerated from the study's results, with the
reported numbers beside.

Every function takes result tables (and the transcribed reported values of ``config/reported``)
and returns artefact tables; each row that has a reported counterpart carries ``reported``,
``reproduced``, ``delta`` and ``reason`` columns, which :func:`mtmeta.paper.ledger.ledger_rows` collects.

One module per topic: :mod:`.meteor_tuning`, :mod:`.parmesan`, :mod:`.overview`, :mod:`.softbleu`;
:mod:`.ledger` and :mod:`.figures`.
"""
