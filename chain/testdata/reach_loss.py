#!/usr/bin/env python3
"""P(coverage L before extinction) of the pairwise model with message loss,
in exact fractions, by first-step analysis on (X, Y): an independent
reference for chain.ReachProbability (reach_loss_test.go).

It shares no code with package chain: the one-item transitions are written
from the loss semantics (a lost request changes nothing; a lost reply leaves
A as it was while B has done its part), the shuffle's ordered pair is
enumerated by kind (holder with a node that never held d, holder with a
node that held it before, two holders), and the linear system
h = sum P(next) h(next), h = 1 once Y >= ceil(L N), h = 0 at X = 0, is solved
by Gauss-Jordan elimination over the rationals.

Run: python3 reach_loss.py
"""
from fractions import Fraction as F
import math


def matrix(n, c, s, eps):
    p, q, a = F(s, c), F(n - c, n - s), 1 - eps
    return {
        (1, 0): {(1, 1): a * p * (a * (1 - q) + eps), (0, 1): a * a * p * q},
        (0, 1): {(1, 1): a * a * p * (1 - q), (1, 0): a * a * p * q, (0, 0): a * eps * p * q},
        (1, 1): {(1, 0): a * p * (1 - p) * q, (0, 1): a * a * p * (1 - p) * q},
    }


def reach(N, n, c, s, eps, L, x0=1):
    T = matrix(n, c, s, eps)
    target = math.ceil(L * N)
    D = N * (N - 1)
    unknown = [(x, y) for y in range(N + 1) for x in range(1, y + 1) if y < target]
    ui = {st: i for i, st in enumerate(unknown)}
    m = len(unknown)
    A = [[F(0)] * (m + 1) for _ in range(m)]
    for (x, y) in unknown:
        row = A[ui[(x, y)]]
        trans = {}

        def add(ns, pr):
            trans[ns] = trans.get(ns, 0) + pr

        # (state of A, state of B, ordered pairs of that kind, partner never held d)
        for ca, cb, cnt, fresh in [(1, 0, x * (N - y), True), (0, 1, x * (N - y), True),
                                   (1, 0, x * (y - x), False), (0, 1, x * (y - x), False),
                                   (1, 1, x * (x - 1), False)]:
            if cnt == 0:
                continue
            for (ta, tb), pr in T[(ca, cb)].items():
                nx = x - ca - cb + ta + tb
                gets = fresh and ((tb == 1) if ca == 1 else (ta == 1))
                add((nx, y + (1 if gets else 0)), F(cnt, D) * pr)
        # h = P_stay·h + Σ P(move)·h(next): the coefficient of h is 1 − P_stay.
        row[ui[(x, y)]] += sum(trans.values())
        for ns, pr in trans.items():
            if ns[1] >= target:
                row[m] += pr
            elif ns[0] > 0:
                row[ui[ns]] -= pr
    for i in range(m):
        piv = next(r for r in range(i, m) if A[r][i] != 0)
        A[i], A[piv] = A[piv], A[i]
        inv = 1 / A[i][i]
        A[i] = [v * inv for v in A[i]]
        for r in range(m):
            if r != i and A[r][i] != 0:
                f = A[r][i]
                A[r] = [vr - f * vi for vr, vi in zip(A[r], A[i])]
    return A[ui[(x0, x0)]][m]


if __name__ == "__main__":
    for N, n, c, s, eps, L in [(2, 5, 2, 1, F(1, 10), 1), (4, 6, 3, 2, F(1, 10), 1),
                               (5, 7, 4, 2, F(3, 10), F(1, 2)), (6, 10, 4, 3, F(1, 5), 1),
                               (8, 12, 5, 2, F(1, 20), F(3, 4))]:
        r = reach(N, n, c, s, eps, L)
        print(N, n, c, s, eps, L, "%.17g" % float(r))
