/*
 * push.c: a plain C implementation of push broadcast, the reference for the
 * speed of gossipkit's Monte Carlo (package broadcast). Same model and
 * rules as the package doc: N nodes, node 0 the source; floor(phi*(N-1))
 * failed nodes drawn uniformly among the others; every round each node
 * informed before the round sends the rumour to k distinct peers drawn
 * uniformly among the other N-1 (Floyd's algorithm); every message is lost
 * with probability eps; a node informed in round r sends from round r+1;
 * the replication ends at the first round after which every live node is
 * informed (level 1, no budget). Messages: every transmit, lost or wasted.
 *
 * Same generator class as gossipkit's internal/rng: wyrand streams seeded
 * by SplitMix64 of (seed, replication), Lemire's bounded draws, 53-bit
 * uniform floats.
 *
 * usage: push N k eps phi reps seed [each]
 * with a 7th argument, it also prints "rep T messages" for each replication
 * prints: reps, mean T, messages, wall and CPU seconds, and ns per message
 * of each (the machine may be shared: compare CPU times)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* uniform in [0, n), Lemire's multiply-and-reject */
static inline uint32_t bounded(rng *r, uint32_t n) {
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

static inline double uniform(rng *r) { return (double)(next(r) >> 11) * 0x1p-53; }

enum { UNINFORMED = 0, INFORMED = 1, FAILED = 2, FRESH = 3 };

int main(int argc, char **argv) {
	if (argc != 7 && argc != 8) {
		fprintf(stderr, "usage: push N k eps phi reps seed [each]\n");
		return 2;
	}
	int N = atoi(argv[1]), k = atoi(argv[2]);
	double eps = atof(argv[3]), phi = atof(argv[4]);
	int reps = atoi(argv[5]);
	uint64_t seed = strtoull(argv[6], 0, 10);
	int F = (int)(phi * (N - 1));
	int M = N - F;
	if (N < 2 || k < 1 || k >= M || k > 64 || reps < 1) {
		fprintf(stderr, "push: need N >= 2, 1 <= k < live nodes, k <= 64, reps >= 1\n");
		return 2;
	}
	uint8_t *state = malloc(N);
	int32_t *senders = malloc(sizeof(int32_t) * N), *fresh = malloc(sizeof(int32_t) * N);
	int32_t picks[64];
	long long messages = 0, sumT = 0, before = 0;
	struct timespec t0, t1, c0, c1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	for (int rep = 0; rep < reps; rep++) {
		rng r = stream(seed, rep);
		memset(state, UNINFORMED, N);
		state[0] = INFORMED;
		for (int j = N - 1 - F; j < N - 1; j++) { /* Floyd: F of 1..N-1 */
			int x = (int)bounded(&r, j + 1) + 1;
			if (state[x] == FAILED)
				x = j + 1;
			state[x] = FAILED;
		}
		int ns = 1, informed = 1, T = 0;
		senders[0] = 0;
		while (informed < M) {
			T++;
			int nf = 0;
			for (int i = 0; i < ns; i++) {
				int s = senders[i], np = 0;
				for (int j = N - 1 - k; j < N - 1; j++) { /* Floyd: k of the N-1 others */
					int x = (int)bounded(&r, j + 1);
					for (int q = 0; q < np; q++)
						if (picks[q] == x) {
							x = j;
							break;
						}
					picks[np++] = x;
				}
				for (int q = 0; q < np; q++) {
					int p = picks[q] >= s ? picks[q] + 1 : picks[q];
					messages++;
					if (eps > 0 && uniform(&r) < eps)
						continue;
					if (state[p] == UNINFORMED) {
						state[p] = FRESH;
						fresh[nf++] = p;
					}
				}
			}
			for (int i = 0; i < nf; i++) {
				state[fresh[i]] = INFORMED;
				senders[ns++] = fresh[i];
			}
			informed += nf;
		}
		sumT += T;
		if (argc == 8)
			printf("%d %d %lld\n", rep, T, messages - before);
		before = messages;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	double cpu = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
	printf("reps %d mean_T %.3f messages/rep %.0f wall-s %.3f cpu-s %.3f ns/message %.2f cpu-ns/message %.2f\n", reps,
	       (double)sumT / reps, (double)messages / reps, sec, cpu, 1e9 * sec / (double)messages, 1e9 * cpu / (double)messages);
	free(state);
	free(senders);
	free(fresh);
	return 0;
}
