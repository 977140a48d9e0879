"""Independent reference for package chain: the pairwise model's chains
solved by SciPy's general sparse matrix exponential
(scipy.sparse.linalg.expm_multiply, Al-Mohy and Higham 2011).

The generators are built here from the model's formulas, not from
gossipkit: p = s/c, q = (n-c)/(n-s) (simplified P_drop), and from the
transition matrix of Fig. 1 (T(11|10) = p(1-q), T(01|10) = pq,
T(01|11) = p(1-p)q) the per-shuffle jump probabilities, with D = N(N-1),

  replication, X alone:
    X -> X+1 w.p. 2p(1-q) X(N-X)/D,  X -> X-1 w.p. 2p(1-p)q X(X-1)/D;
  joint, (X, Y) with Y the nodes that have held d (1 <= X <= Y <= N):
    (X+1, Y+1) w.p. u X(N-Y)/D,  (X, Y+1) w.p. mv X(N-Y)/D,
    (X+1, Y)   w.p. u X(Y-X)/D,  (X-1, Y) w.p. w X(X-1)/D,
    u = 2p(1-q), mv = 2pq, w = 2p(1-p)q;

and N shuffles per round (continuous time), so Q = N (P - I).

Usage (Debian's python3-scipy):
  /usr/bin/python3 expm_multiply.py [N n c s T]
      replication chain: E[X(t)/N] at t = 0, 1, ..., T as CSV on stdout
  /usr/bin/python3 expm_multiply.py joint N n c s T L
      joint chain from (1, 1): E[X(t)/N], E[Y(t)/N] and
      P(Y(t) >= ceil(L N)) at t = 0, 1, ..., T as CSV on stdout
The wall-clock and CPU time of expm_multiply go to stderr.
"""
import math
import sys
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import expm_multiply


def timed(Q, v0, T):
    wall, cpu = time.perf_counter(), time.process_time()
    laws = expm_multiply(Q.T.tocsr(), v0, start=0, stop=T, num=T + 1, endpoint=True)
    return laws, time.perf_counter() - wall, time.process_time() - cpu


def replication(N, n, c, s, T):
    p, q = s / c, (n - c) / (n - s)
    x = np.arange(1, N + 1, dtype=float)  # states X = 1..N at indices 0..N-1
    D = N * (N - 1)
    up = 2 * p * (1 - q) * x * (N - x) / D
    dn = 2 * p * (1 - p) * q * x * (x - 1) / D
    # Q[i, j]: rate from state i to state j (row-stochastic form, rows sum to 0).
    Q = sp.diags([N * dn[1:], -N * (up + dn), N * up[:-1]], [-1, 0, 1], format="csr")
    v0 = np.zeros(N)
    v0[0] = 1.0
    laws, wall, cpu = timed(Q, v0, T)
    print(f"# expm_multiply N={N} n={n} c={c} s={s} t=0..{T}: {wall:.3f} s wall, {cpu:.3f} s CPU", file=sys.stderr)
    print("t,x_mean")
    for t, law in enumerate(laws):
        print(f"{t},{np.dot(x, law) / N / law.sum():.15g}")


def joint(N, n, c, s, T, L):
    p, q = s / c, (n - c) / (n - s)
    u, mv, w = 2 * p * (1 - q), 2 * p * q, 2 * p * (1 - p) * q
    D = N * (N - 1)
    index = {}
    xs, ys = [], []
    for y in range(1, N + 1):
        for x in range(1, y + 1):
            index[(x, y)] = len(xs)
            xs.append(x)
            ys.append(y)
    rows, cols, vals = [], [], []
    diag = np.zeros(len(xs))
    for i, (x, y) in enumerate(zip(xs, ys)):
        for (tx, ty), r in (((x + 1, y + 1), u * x * (N - y)), ((x, y + 1), mv * x * (N - y)),
                            ((x + 1, y), u * x * (y - x)), ((x - 1, y), w * x * (x - 1))):
            if r > 0:
                rate = N * r / D
                rows.append(i)
                cols.append(index[(tx, ty)])
                vals.append(rate)
                diag[i] -= rate
    Q = sp.csr_matrix((vals, (rows, cols)), shape=(len(xs), len(xs))) + sp.diags(diag)
    v0 = np.zeros(len(xs))
    v0[index[(1, 1)]] = 1.0
    laws, wall, cpu = timed(Q, v0, T)
    m = math.ceil(L * N - 1e-9)
    x, y = np.array(xs, dtype=float), np.array(ys, dtype=float)
    above = y >= m
    print(f"# expm_multiply joint N={N} n={n} c={c} s={s} t=0..{T} ({len(xs)} states): {wall:.3f} s wall, {cpu:.3f} s CPU", file=sys.stderr)
    print("t,x_mean,y_mean,p_level")
    for t, law in enumerate(laws):
        tot = law.sum()
        print(f"{t},{np.dot(x, law) / N / tot:.15g},{np.dot(y, law) / N / tot:.15g},{law[above].sum() / tot:.15g}")


if len(sys.argv) > 1 and sys.argv[1] == "joint":
    a = sys.argv[2:]
    joint(int(a[0]), int(a[1]), int(a[2]), int(a[3]), int(a[4]), float(a[5]))
else:
    N, n, c, s, T = (int(a) for a in sys.argv[1:6]) if len(sys.argv) > 5 else (2500, 500, 100, 50, 300)
    replication(N, n, c, s, T)
