"""Meta-evaluation: metric scores against human judgments (tables in, tables out; no files).

:mod:`.system_level`, :mod:`.segment_level`, :mod:`.bootstrap`, :mod:`.significance`, :mod:`.sweeps`.
"""
