"""Meteor 1.5's alignment and statistics for a whole corpus, compiled with numba.

The same procedure as :class:`mtmeta.metrics.meteor.aligner.Aligner` (which stays as the readable
reference; tests check that both give identical statistics), on integer word ids:

1. candidates of the exact, stem and synonym modules are generated here, in module order and, within
   a module, by reference position then hypothesis position; paraphrase candidates (phrase lookups
   in a table) come precomputed from Python, in the paraphrase matcher's order;
2. a reference position with exactly one candidate whose words no other candidate touches is fixed;
3. the beam search walks the reference, ranking paths by coverage, then fewer chunks, then smaller
   summed distance, with Python's stable sort order, Meteor 1.5's integer coverage (alignment weight
   1 for exact, 0.5 for the other modules) and its habit of charging a branch's distance to the parent.

Inputs are flat arrays: token ids of every hypothesis and reference (with offsets per pair), per
token id its stem id, its synsets (CSR, as small ids 0, 1, ...) and whether it is a function word.

Speed: the work arrays (candidates, the pool of search paths, the chains of matches) are allocated
once per corpus and reused by every pair, grown between pairs, never inside the search. A path is one
row of a flat integer pool (its rank fields, then the bit sets of its used words), so that branching
copies a few contiguous integers. Inside the loops no array is created, passed to a function or
reassigned: each of those costs numba two atomic reference-count updates, which were most of the
search's time before. A path's rank is packed into one integer where the bounds of its fields allow
(see ``_search``). Measured on one WMT13 de-en system (3,000 segments, every module), the kernel
went from about 0.3 to 0.04 ms per segment.
"""

from __future__ import annotations

import numpy as np
from numba import njit

EXACT, STEM, SYNONYM, PARAPHRASE = 0, 1, 2, 3
KINDS = {"exact": EXACT, "stem": STEM, "synonym": SYNONYM, "paraphrase": PARAPHRASE}

# A path's row in the pool: -coverage, chunks, distance (its rank, in this order), the next reference
# position, the end of its open chunk in the hypothesis (-1: none), the head of its chain of matches
# (-1: none); then the bit sets of its used hypothesis words and its used reference words.
COV, CHUNKS, DIST, NEXT, LAST, HEAD = 0, 1, 2, 3, 4, 5
FIELDS = 6
NO_SLOT, NO_NODE = -1, -2  # _search's answers when the pool or the chain arrays are too small
RANK_BITS = 62  # a path's rank is one integer when its fields fit in this many bits


@njit(cache=True)
def _candidates(cands, hyp_ids, h0: int, n_h: int, ref_ids, r0: int, n_r: int, modules, n_mod: int, exact_of,
                stem_of, syn_ptr, syn_ids, para, p0: int, p1: int, syn_head, link_next, link_pos, hit) -> int:
    """Candidate matches (module, ref start, ref length, hyp start, hyp length) of one pair into
    ``cands``, in generation order, from the first ``n_mod`` modules; their number. A number above
    ``len(cands)`` means they did not fit: call again with a larger array.

    Synonyms: each synset's hypothesis positions are linked (``syn_head``: one entry per synset,
    all -1 on entry and on return; ``link_next``/``link_pos``: room for every synset of every
    hypothesis word), so that a reference word visits only the positions it shares a synset with,
    marked in ``hit`` (room for the hypothesis's words) with the reference position.
    """
    n_c = 0
    size = len(cands)
    for k in range(n_mod):
        kind = modules[k]
        if kind == PARAPHRASE:
            for e in range(p0, p1):
                if n_c < size:
                    cands[n_c, 0] = k
                    cands[n_c, 1] = para[e, 0]
                    cands[n_c, 2] = para[e, 1]
                    cands[n_c, 3] = para[e, 2]
                    cands[n_c, 4] = para[e, 3]
                n_c += 1
            continue
        if kind == SYNONYM:
            n_links = 0
            for i in range(n_h):
                h = hyp_ids[h0 + i]
                for t in range(syn_ptr[h], syn_ptr[h + 1]):
                    s = syn_ids[t]
                    link_next[n_links] = syn_head[s]
                    link_pos[n_links] = i
                    syn_head[s] = n_links
                    n_links += 1
            for i in range(n_h):
                hit[i] = -1
            for j in range(n_r):
                r = ref_ids[r0 + j]
                for t in range(syn_ptr[r], syn_ptr[r + 1]):
                    q = syn_head[syn_ids[t]]
                    while q != -1:
                        hit[link_pos[q]] = j
                        q = link_next[q]
                for i in range(n_h):
                    if hit[i] == j and hyp_ids[h0 + i] != r:
                        if n_c < size:
                            cands[n_c, 0] = k
                            cands[n_c, 1] = j
                            cands[n_c, 2] = 1
                            cands[n_c, 3] = i
                            cands[n_c, 4] = 1
                        n_c += 1
            for i in range(n_h):  # leave every head empty again
                h = hyp_ids[h0 + i]
                for t in range(syn_ptr[h], syn_ptr[h + 1]):
                    syn_head[syn_ids[t]] = -1
            continue
        for j in range(n_r):
            r = ref_ids[r0 + j]
            for i in range(n_h):
                h = hyp_ids[h0 + i]
                if kind == EXACT:
                    matched = exact_of[h] == exact_of[r]
                else:  # stem: equal stems of different words
                    matched = h != r and stem_of[h] == stem_of[r]
                if matched:
                    if n_c < size:
                        cands[n_c, 0] = k
                        cands[n_c, 1] = j
                        cands[n_c, 2] = 1
                        cands[n_c, 3] = i
                        cands[n_c, 4] = 1
                    n_c += 1
    return n_c


@njit(cache=True, inline="always")
def _before(pool, a: int, b: int) -> bool:
    """The path in row a ranks strictly before the one in row b (rows given as pool offsets)."""
    if pool[a + COV] != pool[b + COV]:
        return pool[a + COV] < pool[b + COV]
    if pool[a + CHUNKS] != pool[b + CHUNKS]:
        return pool[a + CHUNKS] < pool[b + CHUNKS]
    return pool[a + DIST] < pool[b + DIST]


@njit(cache=True, inline="always")
def _bits(value: int) -> int:
    """The number of bits of a non-negative integer (0 for 0)."""
    bits = 0
    while value > 0:
        value >>= 1
        bits += 1
    return bits


@njit(cache=True)
def _search(cands, n_c: int, n_h: int, n_r: int, starts, grouped, gain, fixed, beam: int, pool, free, paths,
            following, top, top_key, node_match, node_prev, chosen, rank_bits: int) -> int:
    """The beam search of one pair: the best alignment's candidates into ``chosen``, in reference
    order; their number, or NO_SLOT / NO_NODE when ``pool`` (and with it ``free``, ``paths``,
    ``following``) or ``node_match`` and ``node_prev`` are too small (call again with larger ones).

    ``starts``/``grouped``: the candidates grouped by reference start, in generation order;
    ``gain``: each candidate's integer coverage; ``fixed``: the candidate fixed at a reference
    position (-1: none). Slot 0 of the pool must hold the start path.
    """
    wh = max((n_h + 63) // 64, 1)
    stride = FIELDS + wh + max((n_r + 63) // 64, 1)
    rb = FIELDS + wh  # where a row's reference bits start
    capacity = min(len(pool) // stride, len(free), len(paths), len(following))
    n_free = 0
    for q in range(capacity - 1, 0, -1):
        free[n_free] = q
        n_free += 1
    paths[0] = 0
    n_paths = 1
    n_nodes = 0
    n_node_room = min(len(node_match), len(node_prev))
    kept = 0
    # A path's rank as one integer when its parts fit in ``rank_bits`` bits: coverage is at least
    # -(n_h + n_r) (its matches are disjoint), a path has at most n_r chunks before the last is closed
    # (each follows a match of its own), its distance is at most the sum of the candidates' distances
    # (a path is charged once per candidate of a position, once per position), its arrival is below
    # the capacity. Otherwise (very long segments) the three fields are compared in turn.
    cov_offset = n_h + n_r
    total_dist = 0
    for c in range(n_c):
        total_dist += abs(cands[c, 1] - cands[c, 3])
    chunk_bits = _bits(n_r + 1)
    dist_bits = _bits(total_dist + 1)
    arrival_bits = _bits(capacity + 1)
    packed = _bits(2 * cov_offset + 1) + chunk_bits + dist_bits + arrival_bits <= rank_bits
    for current in range(n_r + 1):
        # The beam's best paths into top, in the order a stable sort gives them; the others are freed.
        # A path that cannot enter a full beam costs one comparison.
        kept = 0
        if packed:  # ranks as one integer each: (coverage, chunks, distance, arrival) in bit fields
            for idx in range(n_paths):
                item = paths[idx]
                a = item * stride
                rank_key = ((((pool[a + COV] + cov_offset) << chunk_bits | pool[a + CHUNKS]) << dist_bits
                             | pool[a + DIST]) << arrival_bits) | idx
                if kept == beam:
                    if rank_key > top_key[kept - 1]:
                        free[n_free] = item  # ranks after the beam's last path (ties keep the earlier one)
                        n_free += 1
                        continue
                    free[n_free] = top[kept - 1]
                    n_free += 1
                    j = kept - 1
                else:
                    j = kept
                    kept += 1
                while j > 0 and rank_key < top_key[j - 1]:
                    top[j] = top[j - 1]
                    top_key[j] = top_key[j - 1]
                    j -= 1
                top[j] = item
                top_key[j] = rank_key
        else:
            for idx in range(n_paths):
                item = paths[idx]
                a = item * stride
                if kept == beam:
                    if not _before(pool, a, top[kept - 1] * stride):
                        free[n_free] = item
                        n_free += 1
                        continue
                    free[n_free] = top[kept - 1]
                    n_free += 1
                    j = kept - 1
                else:
                    j = kept
                    kept += 1
                while j > 0 and _before(pool, a, top[j - 1] * stride):
                    top[j] = top[j - 1]
                    j -= 1
                top[j] = item
        if current == n_r:
            break
        for x in range(kept):
            paths[x] = top[x]
        m = 0
        best_path = paths[0]
        word = current >> 6
        bit = np.int64(1) << (current & 63)
        for rank in range(kept):
            p = paths[rank]
            pa = p * stride
            if pool[pa + rb + word] & bit:
                nx = pool[pa + NEXT]
                if current < nx:
                    pass  # inside a match taken earlier: the path goes on unchanged
                elif fixed[nx] >= 0:
                    c = fixed[nx]
                    pool[pa + COV] -= gain[c]
                    if pool[pa + LAST] != -1 and cands[c, 3] != pool[pa + LAST]:
                        pool[pa + CHUNKS] += 1
                    pool[pa + DIST] += abs(cands[c, 1] - cands[c, 3])
                    pool[pa + NEXT] = cands[c, 1] + cands[c, 2]
                    pool[pa + LAST] = cands[c, 3] + cands[c, 4]
                    if n_nodes == n_node_room:
                        return NO_NODE
                    node_match[n_nodes] = c
                    node_prev[n_nodes] = pool[pa + HEAD]
                    pool[pa + HEAD] = n_nodes
                    n_nodes += 1
                else:
                    if p != best_path:  # the best path is kept in case no path survives
                        free[n_free] = p
                        n_free += 1
                    continue
                following[m] = p
                m += 1
                continue
            for s in range(starts[current], starts[current + 1]):
                c = grouped[s]
                hs, hl, rs, rl = cands[c, 3], cands[c, 4], cands[c, 1], cands[c, 2]
                clash = False
                for x in range(hs, hs + hl):
                    if pool[pa + FIELDS + (x >> 6)] & (np.int64(1) << (x & 63)):
                        clash = True
                if not clash:
                    for x in range(rs, rs + rl):
                        if pool[pa + rb + (x >> 6)] & (np.int64(1) << (x & 63)):
                            clash = True
                if clash:
                    continue
                if n_free == 0 or m + 1 >= capacity:
                    return NO_SLOT
                if n_nodes == n_node_room:
                    return NO_NODE
                n_free -= 1
                q = free[n_free]
                qa = q * stride
                for x in range(stride):
                    pool[qa + x] = pool[pa + x]
                pool[qa + COV] -= gain[c]
                if pool[pa + LAST] != -1 and hs != pool[pa + LAST]:
                    pool[qa + CHUNKS] += 1
                pool[qa + NEXT] = rs + rl
                pool[qa + LAST] = hs + hl
                for x in range(hs, hs + hl):
                    pool[qa + FIELDS + (x >> 6)] |= np.int64(1) << (x & 63)
                for x in range(rs, rs + rl):
                    pool[qa + rb + (x >> 6)] |= np.int64(1) << (x & 63)
                node_match[n_nodes] = c
                node_prev[n_nodes] = pool[pa + HEAD]
                pool[qa + HEAD] = n_nodes
                n_nodes += 1
                pool[pa + DIST] += abs(rs - hs)  # Meteor 1.5 charges the candidate's distance to the parent
                following[m] = q
                m += 1
            if pool[pa + LAST] != -1:  # skipping this position closes the open chunk
                pool[pa + CHUNKS] += 1
                pool[pa + LAST] = -1
            pool[pa + NEXT] += 1
            following[m] = p
            m += 1
        if m == 0:  # no path survived: keep the best one
            following[0] = best_path
            m = 1
        else:
            ba = best_path * stride
            if pool[ba + rb + word] & bit and current >= pool[ba + NEXT] and fixed[pool[ba + NEXT]] < 0:
                free[n_free] = best_path  # it was dropped after all
                n_free += 1
        for x in range(m):
            paths[x] = following[x]
        n_paths = m
    # Close the last chunk of the finished paths; the best of them is the first that no later one
    # ranks strictly before (a stable sort's first).
    for x in range(kept):
        a = top[x] * stride
        if pool[a + LAST] != -1:
            pool[a + CHUNKS] += 1
    best = top[0] * stride
    for x in range(1, kept):
        if _before(pool, top[x] * stride, best):
            best = top[x] * stride
    n_chosen = 0
    node = pool[best + HEAD]
    while node != -1:
        chosen[n_chosen] = node_match[node]
        n_chosen += 1
        node = node_prev[node]
    for x in range(n_chosen // 2):  # into reference order
        chosen[x], chosen[n_chosen - 1 - x] = chosen[n_chosen - 1 - x], chosen[x]
    return n_chosen


@njit(cache=True)
def corpus_stats(hyp_ids, hyp_off, ref_ids, ref_off, modules, weights, exact_of, stem_of, syn_ptr, syn_ids, func,
                 para, para_off, beam, rank_bits=RANK_BITS):
    """Meteor's sufficient statistics of every (hypothesis, reference) pair (see ``scoring``).

    ``rank_bits``: the most bits a path's rank may take as one integer (more: its fields are compared
    in turn; tests set 0 to check that both ways agree)."""
    n_pairs = len(hyp_off) - 1
    n_mod = len(modules)
    out = np.zeros((n_pairs, 4 + 4 * n_mod + 3), dtype=np.int64)
    longest = 1
    for k in range(n_pairs):
        longest = max(longest, hyp_off[k + 1] - hyp_off[k], ref_off[k + 1] - ref_off[k])
    # Work arrays for every pair, grown between pairs when one needs more.
    starts = np.zeros(longest + 1, dtype=np.int64)
    fill = np.zeros(longest, dtype=np.int64)
    hyp_cover = np.zeros(longest, dtype=np.int64)
    ref_cover = np.zeros(longest, dtype=np.int64)
    fixed = np.full(longest, -1, dtype=np.int64)
    chosen = np.empty(longest, dtype=np.int64)
    cands = np.empty((1024, 5), dtype=np.int64)
    grouped = np.empty(1024, dtype=np.int64)
    gain = np.empty(1024, dtype=np.int64)
    slots = 4 * beam + 2
    pool = np.zeros(slots * (FIELDS + 2 + 2 * ((longest + 63) // 64)), dtype=np.int64)
    free = np.empty(slots, dtype=np.int64)
    paths = np.empty(slots, dtype=np.int64)
    following = np.empty(slots, dtype=np.int64)
    top = np.empty(beam, dtype=np.int64)
    top_key = np.empty(beam, dtype=np.int64)
    node_match = np.empty(64 * beam, dtype=np.int64)
    node_prev = np.empty(64 * beam, dtype=np.int64)
    n_synsets = 0
    for t in range(len(syn_ids)):
        n_synsets = max(n_synsets, syn_ids[t] + 1)
    syn_head = np.full(n_synsets, -1, dtype=np.int64)
    link_next = np.empty(1024, dtype=np.int64)
    link_pos = np.empty(1024, dtype=np.int64)
    hit = np.empty(longest, dtype=np.int64)
    for k in range(n_pairs):
        h0, n_h = hyp_off[k], hyp_off[k + 1] - hyp_off[k]
        r0, n_r = ref_off[k], ref_off[k + 1] - ref_off[k]
        identical = n_h == n_r
        if identical:
            for x in range(n_h):
                if hyp_ids[h0 + x] != ref_ids[r0 + x]:
                    identical = False
                    break
        n_used = 1 if identical else n_mod  # identical sentences: the first module only
        n_links = 0
        for x in range(n_h):
            n_links += syn_ptr[hyp_ids[h0 + x] + 1] - syn_ptr[hyp_ids[h0 + x]]
        if n_links > len(link_next):
            link_next = np.empty(2 * n_links, dtype=np.int64)
            link_pos = np.empty(2 * n_links, dtype=np.int64)
        n_c = _candidates(cands, hyp_ids, h0, n_h, ref_ids, r0, n_r, modules, n_used, exact_of, stem_of, syn_ptr,
                          syn_ids, para, para_off[k], para_off[k + 1], syn_head, link_next, link_pos, hit)
        if n_c > len(cands):
            cands = np.empty((2 * n_c, 5), dtype=np.int64)
            grouped = np.empty(2 * n_c, dtype=np.int64)
            gain = np.empty(2 * n_c, dtype=np.int64)
            n_c = _candidates(cands, hyp_ids, h0, n_h, ref_ids, r0, n_r, modules, n_used, exact_of, stem_of, syn_ptr,
                              syn_ids, para, para_off[k], para_off[k + 1], syn_head, link_next, link_pos, hit)
        # Candidates grouped by reference start, keeping generation order (a stable counting sort),
        # each word's number of candidates, and each candidate's integer coverage.
        starts[: n_r + 1] = 0
        hyp_cover[:n_h] = 0
        ref_cover[:n_r] = 0
        for c in range(n_c):
            starts[cands[c, 1] + 1] += 1
        for j in range(n_r):
            starts[j + 1] += starts[j]
        fill[:n_r] = starts[:n_r]
        for c in range(n_c):
            grouped[fill[cands[c, 1]]] = c
            fill[cands[c, 1]] += 1
            for x in range(cands[c, 3], cands[c, 3] + cands[c, 4]):
                hyp_cover[x] += 1
            for x in range(cands[c, 1], cands[c, 1] + cands[c, 2]):
                ref_cover[x] += 1
            w = weights[cands[c, 0]]
            gain[c] = int(cands[c, 4] * w) + int(cands[c, 2] * w)  # Meteor's integer coverage
        # A position with one candidate whose words no other candidate touches is fixed; its words
        # are marked used in the start path (pool slot 0).
        wh = max((n_h + 63) // 64, 1)
        stride = FIELDS + wh + max((n_r + 63) // 64, 1)
        pool[:stride] = 0
        pool[LAST] = -1
        pool[HEAD] = -1
        open_choices = False
        most = 0  # the most candidates at one position
        n_chosen = 0
        for j in range(n_r):
            fixed[j] = -1
            n_opt = starts[j + 1] - starts[j]
            most = max(most, n_opt)
            if n_opt == 1:
                c = grouped[starts[j]]
                alone = True
                for x in range(cands[c, 1], cands[c, 1] + cands[c, 2]):
                    if ref_cover[x] != 1:
                        alone = False
                for x in range(cands[c, 3], cands[c, 3] + cands[c, 4]):
                    if hyp_cover[x] != 1:
                        alone = False
                if alone:
                    fixed[j] = c
                    for x in range(cands[c, 3], cands[c, 3] + cands[c, 4]):
                        pool[FIELDS + (x >> 6)] |= np.int64(1) << (x & 63)
                    for x in range(cands[c, 1], cands[c, 1] + cands[c, 2]):
                        pool[FIELDS + wh + (x >> 6)] |= np.int64(1) << (x & 63)
                    continue
            if n_opt > 0:
                open_choices = True
        if not open_choices:  # nothing to search: the fixed matches are the alignment
            for j in range(n_r):
                if fixed[j] >= 0:
                    chosen[n_chosen] = fixed[j]
                    n_chosen += 1
        else:
            # At most beam x (1 + most) paths are alive at once (the beam's paths and their branches).
            slots = max(len(free), beam * (1 + most) + 2)
            start_path = pool[:stride].copy()
            while True:
                if len(pool) < slots * stride:
                    pool = np.zeros(slots * stride, dtype=np.int64)
                pool[:stride] = start_path  # a search that stopped may have reused slot 0
                if len(free) < slots:
                    free = np.empty(slots, dtype=np.int64)
                    paths = np.empty(slots, dtype=np.int64)
                    following = np.empty(slots, dtype=np.int64)
                n_chosen = _search(cands, n_c, n_h, n_r, starts, grouped, gain, fixed, beam, pool, free, paths,
                                   following, top, top_key, node_match, node_prev, chosen, rank_bits)
                if n_chosen == NO_SLOT:
                    slots *= 2
                elif n_chosen == NO_NODE:
                    node_match = np.empty(2 * len(node_match), dtype=np.int64)
                    node_prev = np.empty(2 * len(node_prev), dtype=np.int64)
                else:
                    break
        # Statistics of the chosen matches.
        row = out[k]
        row[0], row[1] = n_h, n_r
        for x in range(n_h):
            row[2] += func[hyp_ids[h0 + x]]
        for x in range(n_r):
            row[3] += func[ref_ids[r0 + x]]
        last_end = -1
        last_ref_end = -1
        chunk_count = 0
        for t in range(n_chosen):
            c = chosen[t]
            module, start, length = cands[c, 0], cands[c, 1], cands[c, 2]
            hyp_start, hyp_length = cands[c, 3], cands[c, 4]
            for x in range(hyp_start, hyp_start + hyp_length):
                row[4 + 4 * module + (1 if func[hyp_ids[h0 + x]] else 0)] += 1
            for x in range(start, start + length):
                row[4 + 4 * module + (3 if func[ref_ids[r0 + x]] else 2)] += 1
            row[4 + 4 * n_mod + 1] += hyp_length
            row[4 + 4 * n_mod + 2] += length
            if not (last_end != -1 and hyp_start == last_end and start == last_ref_end):
                chunk_count += 1
            last_end = hyp_start + hyp_length
            last_ref_end = start + length
        row[4 + 4 * n_mod] = chunk_count
    return out
