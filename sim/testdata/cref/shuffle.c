/*
 * shuffle.c: a plain C implementation of the shuffle protocol, the reference
 * for the speed of gossipkit's protocol Monte Carlo (package sim, model
 * Protocol). Rules of docs/MODEL.md section 1: N nodes each hold c distinct
 * items of n (plus the tracked item d = n once inserted); a round is every
 * node, in a fresh random order, starting a shuffle with a partner uniform
 * among the other N-1; in a shuffle A and B each pick s of their items
 * uniformly (S_A, S_B) and send copies; each side adds the received items
 * it lacks, overwriting items it sent and did not also receive, both sides
 * acting on the caches as they were before the shuffle. Under loss eps the
 * request is lost with probability eps (nothing happens), else the reply
 * with probability eps (B does its part, A's cache is unchanged).
 *
 * The random choices are made in the order the package sim makes them, so a
 * replication here is the same replication there (sim's TestProtocolMatchesC):
 *   - the initial placement: slot j of node v holds pi((v*c + j) mod n) for
 *     a permutation pi drawn by Fisher-Yates from the top;
 *   - each round a Fisher-Yates permutation of the nodes, and for each node
 *     in that order a partner drawn uniformly among the other N-1;
 *   - a buffer of s out of c is a partial Fisher-Yates shuffle of the cache
 *     slots, from the front (s draws) when 2s <= c, else choosing the c-s
 *     slots left out from the back; the raw 32-bit draws of one buffer are
 *     taken first, two per 64-bit output (low half first), then mapped by
 *     Lemire's multiply-shift, a rejected draw redrawn from the stream;
 *   - which sent items a side overwrites: when 2s <= c, the first ones in
 *     buffer order (the buffer is already in uniformly random order), else
 *     a uniform subset of them chosen by a partial Fisher-Yates shuffle of
 *     their slot numbers, as for a buffer; new items go in the order they
 *     were received;
 *   - d replaces a uniformly drawn slot of a uniformly drawn node after the
 *     warm-up, then the observation rounds follow.
 * The generator is internal/rng's: wyrand streams seeded by SplitMix64 of
 * (seed, replication), Lemire's bounded draws, 53-bit uniform floats.
 *
 * Items are int32_t; build with -DITEM=uint16_t for n < 65536 to store them
 * in 16 bits as sim does (run.sh times that build).
 *
 * usage: shuffle N n c s W T seed rep eps [each]
 * With "each": prints "t X Y Yround" for t = 0..T of replication rep (X the
 * holders of d, Y the nodes that have held it, Yround those that held it at
 * a round's end), then the counters of the observation (as sim.Counters)
 * and, when eps > 0, the items other than d alive at t = 0.
 * Without: runs the replication and prints the CPU and wall nanoseconds a
 * shuffle of the warm-up rounds after the 300th (the untimed 300 mix the
 * structured initial placement, as sim's BenchmarkProtocol does).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef ITEM
#define ITEM int32_t
#endif
typedef ITEM item;

static uint64_t splitmix64(uint64_t x) {
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

typedef struct { uint64_t s; } rng;

static rng stream(uint64_t seed, uint64_t st) {
	rng r = { splitmix64(seed ^ splitmix64(st ^ 0x632be59bd9b4e019ULL)) };
	return r;
}

static inline uint64_t next(rng *r) {
	r->s += 0xa0761d6478bd642fULL;
	__uint128_t m = (__uint128_t)r->s * (r->s ^ 0xe7037ed1a0b428dbULL);
	return (uint64_t)(m >> 64) ^ (uint64_t)m;
}

/* uniform in [0, n), Lemire's multiply-and-reject on a 64-bit draw */
static inline uint32_t intn(rng *r, uint32_t n) {
	__uint128_t m = (__uint128_t)next(r) * n;
	uint64_t lo = (uint64_t)m;
	if (lo < n) {
		uint64_t t = -(uint64_t)n % n;
		while (lo < t) {
			m = (__uint128_t)next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint32_t)(m >> 64);
}

/* k raw 32-bit draws: low then high half of each 64-bit output */
static void fill(rng *r, uint32_t *buf, int k) {
	for (int i = 0; i < k; i += 2) {
		uint64_t v = next(r);
		buf[i] = (uint32_t)v;
		if (i + 1 < k)
			buf[i + 1] = (uint32_t)(v >> 32);
	}
}

/* a raw 32-bit draw u mapped to [0, n), Lemire's multiply-shift */
static inline uint32_t bounded(rng *r, uint32_t u, uint32_t n) {
	uint64_t m = (uint64_t)u * n;
	if ((uint32_t)m < n) {
		uint32_t t = -n % n;
		while ((uint32_t)m < t)
			m = (uint64_t)(uint32_t)next(r) * n;
	}
	return (uint32_t)(m >> 32);
}

static inline double uniform(rng *r) { return (double)(next(r) >> 11) * 0x1p-53; }

/* selection of s of the len entries of a, moved to a[0..s-1]; one version
   for cache slots, one for slot numbers */
#define SELECT(name, T)                                                        \
	static void name(rng *r, T *a, int len, int s, uint32_t *raw) {        \
		if (2 * s <= len) {                                            \
			fill(r, raw, s);                                       \
			for (int i = 0; i < s; i++) {                          \
				int j = i + (int)bounded(r, raw[i], len - i);  \
				T t = a[i]; a[i] = a[j]; a[j] = t;             \
			}                                                      \
		} else {                                                       \
			fill(r, raw, len - s);                                 \
			for (int k = 0; k < len - s; k++) {                    \
				int i = len - 1 - k;                           \
				int j = (int)bounded(r, raw[k], i + 1);        \
				T t = a[i]; a[i] = a[j]; a[j] = t;             \
			}                                                      \
		}                                                              \
	}
SELECT(select_items, item)
SELECT(select_slots, int)

enum { DELIVERED, REPLY_LOST, REQUEST_LOST };

typedef struct {
	long long shuffles, failed, select_trials, select_hits, drop_candidates, drops;
	long long trans[4][4];
} counters;

static int N, n, c, s;
static double eps;
static item *cache, *newA, *newB;
static uint8_t *inA, *inB; /* 0: not held, 1: held, not sent, 2: sent */
static int *candA, *candB;
static uint32_t *raw;
static uint8_t *holds, *covered, *seen;
static int X, Y, Yround, tracking;
static counters cnt;

static void note(int v, int had, int has) {
	if (has && !had) {
		holds[v] = 1;
		X++;
		if (!covered[v]) {
			covered[v] = 1;
			Y++;
		}
	} else if (had && !has) {
		holds[v] = 0;
		X--;
	}
}

/* overwrite the first m slots of buf[0..s-1] whose item the other side did
   not send (other[x] != 2) with items[0..m-1], clearing the overwritten
   item's mark in own (nothing reads it later: it is not in the other
   side's buffer); returns 1 if d was overwritten */
static int drop_in_order(item *buf, uint8_t *own, const uint8_t *other, const item *items, int m) {
	int lost = 0;
	for (int i = 0, k = 0; k < m; i++)
		if (other[buf[i]] != 2) {
			lost |= buf[i] == n;
			own[buf[i]] = 0;
			buf[i] = items[k++];
		}
	return lost;
}

/* overwrite a uniform m-subset of the kc candidate slots cand of cv (marks
   as drop_in_order) */
static int replace(rng *r, item *cv, uint8_t *own, int *cand, int kc, const item *items, int m) {
	int lost = 0;
	if (m == 0)
		return 0;
	select_slots(r, cand, kc, m, raw);
	for (int k = 0; k < m; k++) {
		lost |= cv[cand[k]] == n;
		own[cv[cand[k]]] = 0;
		cv[cand[k]] = items[k];
	}
	return lost;
}

static void shuffle(rng *r, int a, int b) {
	item *ca = cache + (size_t)a * c, *cb = cache + (size_t)b * c;
	int out = DELIVERED;
	if (eps > 0) {
		double u = uniform(r);
		if (u < eps)
			out = REQUEST_LOST;
		else if (u < eps * (2 - eps))
			out = REPLY_LOST;
	}
	if (out == REQUEST_LOST) {
		if (tracking) {
			cnt.shuffles++;
			if (holds[a] || holds[b]) {
				int f = holds[a] << 1 | holds[b];
				cnt.trans[f][f]++;
			}
		}
		return;
	}
	select_items(r, ca, c, s, raw);
	select_items(r, cb, c, s, raw);
	for (int i = 0; i < c; i++) {
		inA[ca[i]] = i < s ? 2 : 1;
		inB[cb[i]] = i < s ? 2 : 1;
	}
	int na = 0, nb = 0, shared = 0;
	for (int i = 0; i < s; i++) {
		if (!inB[ca[i]])
			newB[nb++] = ca[i];
		if (!inA[cb[i]])
			newA[na++] = cb[i];
		shared += inB[ca[i]] == 2;
	}
	int aHad = inA[n] != 0, bHad = inB[n] != 0;
	int aGets = out == DELIVERED && inB[n] == 2, bGets = inA[n] == 2;
	if (tracking) {
		cnt.shuffles++;
		if (aHad) {
			cnt.select_trials++;
			cnt.select_hits += inA[n] == 2;
		}
		if (bHad) {
			cnt.select_trials++;
			cnt.select_hits += inB[n] == 2;
		}
		cnt.drops += nb + (out == DELIVERED ? na : 0);
		cnt.drop_candidates += (s - shared) * (out == DELIVERED ? 2 : 1);
	}
	int lostA = 0, lostB = 0;
	if (2 * s <= c) {
		lostB = drop_in_order(cb, inB, inA, newB, nb);
		if (out == DELIVERED)
			lostA = drop_in_order(ca, inA, inB, newA, na);
	} else {
		int ka = 0, kb = 0;
		for (int i = 0; i < s; i++) {
			if (inA[cb[i]] != 2)
				candB[kb++] = i;
			if (inB[ca[i]] != 2)
				candA[ka++] = i;
		}
		lostB = replace(r, cb, inB, candB, kb, newB, nb);
		if (out == DELIVERED)
			lostA = replace(r, ca, inA, candA, ka, newA, na);
	}
	/* clear the marks: the overwritten items' were cleared as they went */
	for (int i = 0; i < c; i++) {
		inA[ca[i]] = 0;
		inB[cb[i]] = 0;
	}
	if (aHad || bHad) {
		int aHas = (aHad && !lostA) || (!aHad && aGets);
		int bHas = (bHad && !lostB) || (!bHad && bGets);
		if (tracking)
			cnt.trans[aHad << 1 | bHad][aHas << 1 | bHas]++;
		note(a, aHad, aHas);
		note(b, bHad, bHas);
	}
}

int main(int argc, char **argv) {
	if (argc != 10 && argc != 11) {
		fprintf(stderr, "usage: shuffle N n c s W T seed rep eps [each]\n");
		return 2;
	}
	N = atoi(argv[1]), n = atoi(argv[2]), c = atoi(argv[3]), s = atoi(argv[4]);
	int W = atoi(argv[5]), T = atoi(argv[6]);
	uint64_t seed = strtoull(argv[7], 0, 10), rep = strtoull(argv[8], 0, 10);
	eps = atof(argv[9]);
	int each = argc == 11;
	if (N < 2 || s < 1 || s > c || c > n || s >= n || W < 0 || T < 1 || !(eps >= 0 && eps < 1) ||
	    (sizeof(item) == 2 && n + 1 > 65536)) {
		fprintf(stderr, "shuffle: need N >= 2, 1 <= s <= c <= n, s < n, W >= 0, T >= 1, 0 <= eps < 1 (n < 65536 with 16-bit items)\n");
		return 2;
	}
	cache = malloc(sizeof(item) * (size_t)N * c);
	newA = malloc(sizeof(item) * s), newB = malloc(sizeof(item) * s);
	candA = malloc(sizeof(int) * s), candB = malloc(sizeof(int) * s);
	raw = malloc(sizeof(uint32_t) * c);
	inA = calloc(n + 1, 1), inB = calloc(n + 1, 1);
	holds = calloc(N, 1), covered = calloc(N, 1), seen = calloc(N, 1);
	int *pi = malloc(sizeof(int) * n), *perm = malloc(sizeof(int) * N);
	rng r = stream(seed, rep);
	for (int i = 0; i < n; i++)
		pi[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)intn(&r, i + 1), t = pi[i];
		pi[i] = pi[j], pi[j] = t;
	}
	for (long long k = 0; k < (long long)N * c; k++)
		cache[k] = (item)pi[k % n];
	struct timespec t0, t1, c0, c1;
	for (int t = -W; t <= T; t++) {
		if (t == 0) {
			int v = (int)intn(&r, N), j = (int)intn(&r, c);
			cache[(size_t)v * c + j] = (item)n;
			note(v, 0, 1);
			tracking = 1;
			if (eps > 0 && each) {
				/* items other than d held somewhere */
				uint8_t *alive = calloc(n + 1, 1);
				int k = 0;
				for (long long i = 0; i < (long long)N * c; i++)
					if (cache[i] != n && !alive[cache[i]])
						alive[cache[i]] = 1, k++;
				printf("alive %d\n", k);
				free(alive);
			}
		} else {
			if (t == 300 - W) {
				clock_gettime(CLOCK_MONOTONIC, &t0);
				clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
			}
			for (int i = 0; i < N; i++)
				perm[i] = i;
			for (int i = N - 1; i > 0; i--) {
				int j = (int)intn(&r, i + 1), x = perm[i];
				perm[i] = perm[j], perm[j] = x;
			}
			for (int i = 0; i < N; i++) {
				int a = perm[i], b = (int)intn(&r, N - 1);
				shuffle(&r, a, b >= a ? b + 1 : b);
			}
			if (t == -1 && W > 300) {
				clock_gettime(CLOCK_MONOTONIC, &t1);
				clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
			}
		}
		if (t >= 0) {
			for (int v = 0; v < N; v++)
				if (holds[v] && !seen[v])
					seen[v] = 1, Yround++;
			if (each)
				printf("%d %d %d %d\n", t, X, Y, Yround);
		}
	}
	if (each) {
		printf("counters %lld %lld %lld %lld %lld %lld\ntransitions", cnt.shuffles, cnt.failed, cnt.select_trials,
		       cnt.select_hits, cnt.drop_candidates, cnt.drops);
		for (int i = 0; i < 16; i++)
			printf(" %lld", cnt.trans[i / 4][i % 4]);
		printf("\n");
	} else if (W > 300) {
		double sh = (double)(W - 300) * N;
		double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
		double cpu = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
		printf("shuffles %.0f ns/shuffle %.1f cpu-ns/shuffle %.1f\n", sh, 1e9 * sec / sh, 1e9 * cpu / sh);
	}
	return 0;
}
