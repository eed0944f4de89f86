"""mtmeta: a reproducible study of MT evaluation metrics against human judgments."""

__version__ = "0.1.0"
