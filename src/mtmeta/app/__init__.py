"""The application: the ``mtmeta`` command line and the study's configuration, the top layer
(docs/architecture.md). Nothing below it imports it.

- ``cli``: the ``mtmeta`` entry point (``main``), its parser and the small commands;
- ``score_cli``: ``mtmeta score``, with mtmeta's command line and sacrebleu's;
- ``score_output``: what ``mtmeta score`` prints (sacrebleu's forms and mtmeta's);
- ``tasks_cli``: ``mtmeta tasks``, an mt-metrics-eval task set on a data root;
- ``study_tasks``: the study's official task tables (rule official_tasks) made by ``mtmeta tasks``' code;
- ``evaluate``: ``mtmeta evaluate``, a user's metric through the study's meta-evaluation;
- ``evaluate_inputs``: what ``evaluate`` needs of a pair the results lack: its prepared files (the
  study's workflow, run for them) and built-in scores (computed here where nothing else is needed);
- ``options``: the command-line argument types (counts, seeds, the config schema's ranges);
- ``config``: the study's config, loaded and validated with the workflow's schema;
- ``config_file``: where the study's config file is, and its ``metric_settings`` read quickly.
"""
