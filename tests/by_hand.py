"""Statistics written out by hand from the literature, independently of mtmeta, for tests to compare with."""

import math

from scipy import stats


def meng_by_hand(r12, r13, r23, n):
    """Meng, Rosenthal and Rubin (1992), eqs. 1-3, written out independently of mtmeta."""
    rbar2 = (r12 * r12 + r13 * r13) / 2
    f = min(1.0, (1 - r23) / (2 * (1 - rbar2)))
    h = (1 - f * rbar2) / (1 - rbar2)
    z = (math.atanh(r12) - math.atanh(r13)) * math.sqrt((n - 3) / (2 * (1 - r23) * h))
    return z, 2 * (1 - stats.norm.cdf(abs(z)))
