"""A configured metric: its id, the registry name it instantiates and its parameters.

The workflow passes metrics to its scripts as ``{"id", "name", "params"}`` entries (plain data, so
Snakemake can compare them between runs); :meth:`MetricSpec.of` reads one. A spec knows its
direction and builds the metric for a dataset, so no caller looks either up in the registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mtmeta.metrics.base import Metric
from mtmeta.metrics.user_metric import ExternalScores


@dataclass(frozen=True)
class MetricSpec:
    id: str
    name: str
    params: dict = field(default_factory=dict)

    @classmethod
    def of(cls, entry: dict | MetricSpec) -> MetricSpec:
        if isinstance(entry, MetricSpec):
            return entry
        return cls(entry["id"], entry["name"], dict(entry.get("params", {})))

    @property
    def higher_is_better(self) -> bool:
        from mtmeta import metrics

        if self.name == ExternalScores.name:  # a user's metric says its direction
            return bool(self.params.get("higher_is_better", True))
        return metrics.metric_class(self.name).higher_is_better

    def build(self, lang: str, tokenized: bool = False, resources: str = "resources") -> Metric:
        """The metric as the workflow scores a dataset in target language ``lang``
        (:func:`mtmeta.metrics.get_for_dataset`); for a user's metric, the object that turns its
        segment scores into system scores."""
        from mtmeta import metrics

        if self.name == ExternalScores.name:
            return ExternalScores(self.id, self.higher_is_better)

        return metrics.get_for_dataset(self.name, lang, self.params, tokenized=tokenized, resources=resources)
