#!/usr/bin/env python3
"""Exact laws of rumour broadcast at tiny N, by enumeration in rationals.

Independent of gossipkit's chain: for every state it lists, for each acting
node, every choice of distinct peers and every loss pattern of its messages,
as a law over the *set* of uninformed live nodes it informs; the nodes act
independently, so the round's law of the newly informed set is the
OR-combination of these laws. The chain is then run on the full state
(informed count by age, for a budget) in fractions.Fraction for ROUNDS
rounds.

Model (docs/MODEL.md, "Rumour broadcast"): nodes 0..N-1, the source 0;
floor(phi*(N-1)) nodes other than the source are down (by symmetry the
last ones); push: each informed live node with budget left sends to k
distinct peers among the N-1 others, each push lost with probability eps;
pull: each uninformed live node asks k distinct peers, informed if for some
asked informed peer request and reply both arrive; push-pull: both. Budget
B: a node pushes k a round for R = ceil(B/k) rounds, the last B-k(R-1).

Usage: python3 enumerate.py > enum_N5.csv
Output: config,quantity,round,numerator/denominator,float
quantity: cdf (P(T_L <= round)); for push with a budget also never,
residue, pmiss (round empty), once the chain has stopped.
"""
import itertools
import math
import sys
from fractions import Fraction as F

ROUNDS = 12


def subsets(items, size):
    return list(itertools.combinations(items, size))


def actor_law(node, N, informed, live, fan, eps, asker):
    """Law over frozensets of uninformed live nodes this actor informs."""
    others = [u for u in range(N) if u != node]
    law = {}
    choices = subsets(others, fan)
    for ch in choices:
        # each message: a set-valued outcome with its probability
        outs = {frozenset(): F(1, len(choices))}
        for u in ch:
            if asker:
                if u in informed:
                    ok = (1 - eps) * (1 - eps)  # request and reply
                    gain = frozenset([node])
                else:
                    continue
            else:
                if u in live and u not in informed:
                    ok = 1 - eps
                    gain = frozenset([u])
                else:
                    continue
            new = {}
            for s, p in outs.items():
                new[s | gain] = new.get(s | gain, 0) + p * ok
                new[s] = new.get(s, 0) + p * (1 - ok)
            outs = new
        for s, p in outs.items():
            law[s] = law.get(s, 0) + p
    return law


def combine(a, b):
    out = {}
    for s, p in a.items():
        for t, q in b.items():
            u = s | t
            out[u] = out.get(u, 0) + p * q
    return out


def run(name, N, proto, k, eps, phi, B, L):
    failed = math.floor(phi * (N - 1))
    M = N - failed
    live = set(range(M))
    target = max(1, math.ceil(L * M - 1e-9))
    R = (B + k - 1) // k if B > 0 else 0
    kl = B - k * (R - 1) if B > 0 else k
    push, pull = proto in ("push", "push-pull"), proto in ("pull", "push-pull")
    # state: ages tuple (count of informed by rounds pushed, a < R) + done,
    # or just (i,) without a budget.
    start = (1,) + (0,) * R if B > 0 else (1,)
    dist = {start: F(1)}
    cdf, never, residue, pmiss = [], F(0), F(0), F(0)
    reached = F(1) if target <= 1 else F(0)
    cdf.append(reached)
    cache = {}

    def count(st):
        return sum(st)

    for r in range(1, ROUNDS + 1):
        nxt = {}
        for st, p in dist.items():
            i = count(st)
            key = st
            if key not in cache:
                informed = set(range(i))
                law = {frozenset(): F(1)}
                if push:
                    # senders 0..i-1 with their fanouts by age
                    fans = []
                    if B > 0:
                        for a in range(R):
                            fans += [k if a < R - 1 else kl] * st[a]
                    else:
                        fans = [k] * i
                    for s, f in enumerate(fans):
                        law = combine(law, actor_law(s, N, informed, live, f, eps, False))
                if pull:
                    for v in range(i, M):
                        law = combine(law, actor_law(v, N, informed, live, k, eps, True))
                byd = {}
                for s, q in law.items():
                    byd[len(s)] = byd.get(len(s), 0) + q
                cache[key] = byd
            for d, q in cache[key].items():
                pq = p * q
                if B > 0:
                    ns = (d,) + st[: R - 1] + (st[R - 1] + st[R],)
                else:
                    ns = (i + d,)
                ni = count(ns)
                if i < target <= ni:
                    reached += pq
                stopped = ni == M or (B > 0 and not pull and ns[R] == ni)
                if B == 0 and ni >= target:
                    continue  # absorbed: T_L reached, nothing else asked
                if stopped:
                    if ni < target:
                        never += pq
                    residue += pq * F(M - ni, M)
                    if ni < M:
                        pmiss += pq
                    continue
                nxt[ns] = nxt.get(ns, 0) + pq
        dist = nxt
        cdf.append(reached)
    out = []
    for r, c in enumerate(cdf):
        out.append((name, "cdf", r, c))
    if B > 0 and not pull:
        if dist:
            sys.exit(f"{name}: chain not stopped after {ROUNDS} rounds")
        out += [(name, "never", "", never), (name, "residue", "", residue), (name, "pmiss", "", pmiss)]
    return out


CONFIGS = [
    # name, N, protocol, k, eps, phi, B, L
    ("push_N5_k2_e1/4", 5, "push", 2, F(1, 4), 0, 0, 1),
    ("pull_N5_k2_e1/4_phi1/4", 5, "pull", 2, F(1, 4), F(1, 4), 0, 1),
    ("pushpull_N5_k1_e3/8_L0.6", 5, "push-pull", 1, F(3, 8), 0, 0, F(3, 5)),
    ("push_N5_k2_B3_e1/8", 5, "push", 2, F(1, 8), 0, 3, 1),
    ("pushpull_N4_k1_B2_e1/4", 4, "push-pull", 1, F(1, 4), 0, 2, 1),
]

if __name__ == "__main__":
    print("config,quantity,round,exact,float")
    for c in CONFIGS:
        for name, q, r, v in run(*c):
            print(f"{name},{q},{r},{v.numerator}/{v.denominator},{float(v)!r}")
