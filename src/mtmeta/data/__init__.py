"""Data acquisition and preparation: sources, archives, corpora and human judgments."""
