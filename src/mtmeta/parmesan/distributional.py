"""Co-occurrence-based distributional similarity (PPMI vectors, cosine), to rank paraphrase pairs.

Each target word is represented by its positive pointwise mutual information with the most
frequent context words within a symmetric window; two words are as similar as the cosine of their
vectors (0 when either never occurs). The marginals come from the co-occurrences of every word of
the corpus, not only of the target words, so that PMI has its usual meaning.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
from scipy import sparse


def ppmi_cosine(sentences: Sequence[Sequence[str]], pairs: Sequence[tuple[str, str]], window: int = 2,
                max_contexts: int = 10000) -> np.ndarray:
    """Cosine of the PPMI vectors of each pair's two words."""
    from mtmeta.parmesan.distributional_kernel import row_dots  # numba: imported when first ranked

    frequency = Counter(token for sentence in sentences for token in sentence)
    contexts = {w: k for k, (w, _) in enumerate(sorted(frequency.items(), key=lambda x: (-x[1], x[0]))[:max_contexts])}
    targets = {w: k for k, w in enumerate(sorted({w for pair in pairs for w in pair}))}
    # Every token of the corpus in one array: its context column and target row (-1: none), its
    # position in its sentence and its sentence's length.
    lengths = np.fromiter((len(sentence) for sentence in sentences), dtype=np.int64, count=len(sentences))
    col_of = np.fromiter((contexts.get(w, -1) for sentence in sentences for w in sentence), dtype=np.int64,
                         count=int(lengths.sum()))
    row_of = np.fromiter((targets.get(w, -1) for sentence in sentences for w in sentence), dtype=np.int64,
                         count=len(col_of))
    length = np.repeat(lengths, lengths)
    position = np.arange(len(col_of)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    # Co-occurrence is symmetric: each occurrence of a context word co-occurs with every other
    # position of its window, whatever word that is. Counts are whole numbers: they add up exactly in
    # any order.
    is_context = col_of >= 0
    spans = (np.minimum(length, position + window + 1) - np.maximum(0, position - window) - 1)[is_context]
    col_sums = np.bincount(col_of[is_context], weights=spans.astype(float), minlength=len(contexts))
    rows, cols = [], []
    for offset in (*range(-window, 0), *range(1, window + 1)):
        at = np.flatnonzero((row_of >= 0) & (position + offset >= 0) & (position + offset < length))
        at = at[col_of[at + offset] >= 0]
        rows.append(row_of[at])
        cols.append(col_of[at + offset])
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    counts = sparse.coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(targets), len(contexts))).tocsr()
    counts.sum_duplicates()
    total = col_sums.sum()
    if counts.sum() == 0:
        return np.zeros(len(pairs))
    row_sums = np.asarray(counts.sum(axis=1)).ravel()
    coo = counts.tocoo()
    pmi = np.log(coo.data * total / (row_sums[coo.row] * col_sums[coo.col]))
    keep = pmi > 0
    ppmi = sparse.csr_matrix((pmi[keep], (coo.row[keep], coo.col[keep])), shape=counts.shape)
    ppmi.sort_indices()
    norms = np.sqrt(np.asarray(ppmi.multiply(ppmi).sum(axis=1)).ravel())
    first = np.array([targets[a] for a, _ in pairs], dtype=np.int64)
    second = np.array([targets[b] for _, b in pairs], dtype=np.int64)
    out = np.zeros(len(pairs))
    both = (norms[first] > 0) & (norms[second] > 0)
    dots = row_dots(ppmi.indptr.astype(np.int64), ppmi.indices.astype(np.int64), ppmi.data, first[both], second[both])
    out[both] = dots / (norms[first[both]] * norms[second[both]])
    return out
