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
    frequency = Counter(token for sentence in sentences for token in sentence)
    contexts = {w: k for k, (w, _) in enumerate(sorted(frequency.items(), key=lambda x: (-x[1], x[0]))[:max_contexts])}
    targets = {w: k for k, w in enumerate(sorted({w for pair in pairs for w in pair}))}
    rows, cols = [], []
    # Co-occurrence is symmetric: each occurrence of a context word co-occurs with every other
    # position of its window, whatever word that is.
    col_sums = np.zeros(len(contexts))
    for sentence in sentences:
        for i, word in enumerate(sentence):
            col = contexts.get(word)
            if col is not None:
                col_sums[col] += min(len(sentence), i + window + 1) - max(0, i - window) - 1
            row = targets.get(word)
            if row is None:
                continue
            for j in range(max(0, i - window), min(len(sentence), i + window + 1)):
                col = contexts.get(sentence[j]) if j != i else None
                if col is not None:
                    rows.append(row)
                    cols.append(col)
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
    norms = np.sqrt(np.asarray(ppmi.multiply(ppmi).sum(axis=1)).ravel())
    out = np.zeros(len(pairs))
    for k, (a, b) in enumerate(pairs):
        i, j = targets[a], targets[b]
        if norms[i] > 0 and norms[j] > 0:
            out[k] = float(ppmi[i].multiply(ppmi[j]).sum()) / (norms[i] * norms[j])
    return out
