"""Pure statistics (numpy/scipy/pandas, no I/O): human system scores and correlations."""
