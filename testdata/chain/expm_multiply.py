"""Independent reference for package chain: the replication chain of the
pairwise model solved by SciPy's general sparse matrix exponential
(scipy.sparse.linalg.expm_multiply, Al-Mohy and Higham 2011).

The generator is built here from the model's formulas, not from gossipkit:
p = s/c, q = (n-c)/(n-s) (simplified P_drop), per shuffle
X -> X+1 w.p. 2p(1-q) X(N-X)/(N(N-1)),  X -> X-1 w.p. 2p(1-p)q X(X-1)/(N(N-1)),
and N shuffles per round, so Q = N (P - I).

Usage: /usr/bin/python3 expm_multiply.py [N n c s T]   (Debian's python3-scipy)
Prints the time taken and E[X(t)/N] at t = 0, 1, ..., T as CSV on stdout.
"""
import sys
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import expm_multiply

N, n, c, s, T = (int(a) for a in sys.argv[1:6]) if len(sys.argv) > 5 else (2500, 500, 100, 50, 300)
p, q = s / c, (n - c) / (n - s)
x = np.arange(1, N + 1, dtype=float)  # states X = 1..N at indices 0..N-1
D = N * (N - 1)
up = 2 * p * (1 - q) * x * (N - x) / D
dn = 2 * p * (1 - p) * q * x * (x - 1) / D
# Q[i, j]: rate from state i to state j (row-stochastic form, rows sum to 0).
Q = sp.diags([N * dn[1:], -N * (up + dn), N * up[:-1]], [-1, 0, 1], format="csr")
v0 = np.zeros(N)
v0[0] = 1.0
start = time.perf_counter()
laws = expm_multiply(Q.T.tocsr(), v0, start=0, stop=T, num=T + 1, endpoint=True)
elapsed = time.perf_counter() - start
print(f"# expm_multiply N={N} n={n} c={c} s={s} t=0..{T}: {elapsed:.3f} s", file=sys.stderr)
print("t,x_mean")
for t, law in enumerate(laws):
    print(f"{t},{np.dot(x, law) / N / law.sum():.15g}")
