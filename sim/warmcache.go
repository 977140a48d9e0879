package sim

import "sync"

// A WarmCache keeps the warm states (Config.WarmStates) that protocol runs
// compute, so that a later run needing the same ones copies them instead
// of warming again (Settings.Warm). Warm state j is a function of the
// seed, j and what the warm-up reads: N, the shuffle (n, c, s), Warmup,
// the schedule and its ticks, the topology, the loss and Check; not of
// Initial, Rounds, Reps, WarmStates, FailFraction or PDrop, which act
// after d's insertion (or only in the Markov models). Two runs that differ
// only in those share their warm states, and a run that finds its states
// here returns replications byte for byte equal to those of a run that
// computes them (TestWarmCacheSameReplications). A report whose sections
// repeat an experiment with other Rounds, Reps or Initial (the refined
// mean field's runs and those of Figs. 7–8) saves those warm-ups.
//
// The cache holds every state put in it until it is dropped, each the
// size Config.MemoryEstimate counts for a warm state (the caches, N·c·2
// bytes, N·c·4 with n > 65535, and per-node arrays). A WarmCache is safe
// for concurrent use; its zero value is an empty cache.
type WarmCache struct {
	mu       sync.Mutex
	m        map[warmKey]*warmState
	computed int
}

// warmKey names warm state j of the warm-up of cfg, cfg with the fields
// the warm-up does not read set to zero (warmKeyOf).
type warmKey struct {
	cfg Config
	j   int
}

// NewWarmCache returns an empty cache (as new(WarmCache)).
func NewWarmCache() *WarmCache { return new(WarmCache) }

// warmKeyOf is the key of warm state j of cfg.
func warmKeyOf(cfg Config, j int) warmKey {
	cfg.Initial, cfg.Rounds, cfg.Reps, cfg.WarmStates, cfg.FailFraction, cfg.PDrop = 0, 0, 0, 0, 0, 0
	return warmKey{cfg: cfg, j: j}
}

// Computed is the number of warm-ups the runs given this cache have
// computed (the others they found in it); 0 for a nil cache.
func (c *WarmCache) Computed() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.computed
}

// Len is the number of warm states held; 0 for a nil cache.
func (c *WarmCache) Len() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// get returns warm state j of cfg, or nil.
func (c *WarmCache) get(cfg Config, j int) *warmState {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[warmKeyOf(cfg, j)]
}

// put stores warm state j of cfg, computed by the caller.
func (c *WarmCache) put(cfg Config, j int, w *warmState) {
	if c == nil || w == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[warmKey]*warmState{}
	}
	c.m[warmKeyOf(cfg, j)] = w
	c.computed++
}
