package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/internal/rng"
	"github.com/gossipkit/gossipkit/internal/shard"
)

// TestInvariantsItemsDie: with 6 nodes of 12 slots and n = 60 items (1.2
// copies an item), loss makes items die in the warm-up; the checking mode
// must accept exactly those deaths (an item B overwrote in a shuffle whose
// reply was lost, held by nobody else) and the run must record fewer than
// n items alive at t = 0, on both buffer paths and under every schedule.
func TestInvariantsItemsDie(t *testing.T) {
	for _, s := range []int{5, 9} {
		for _, sched := range []Schedule{Rounds, Async, Continuous} {
			cfg := small()
			cfg.Nodes, cfg.Shuffle.Exchange, cfg.Schedule, cfg.Ticks, cfg.Check = 6, s, sched, 10, true
			cfg.Loss, cfg.Reps, cfg.Warmup, cfg.Rounds = 0.3, 2, 100, 20
			res, err := Run(context.Background(), cfg, Settings{Workers: 2})
			if err != nil {
				t.Fatalf("s=%d %v: %v", s, sched, err)
			}
			for _, rep := range res.Reps {
				// 6·12 = 72 slots hold at most 60 items, and at least 12
				// (a cache's c distinct items); d takes one slot.
				if rep.Alive >= 60 || rep.Alive < 11 {
					t.Errorf("s=%d %v: %d items alive at t = 0, want items to have died in 100 rounds at ε = 0.3", s, sched, rep.Alive)
				}
			}
		}
	}
}

// TestCheckCatchesLossViolations: the checking mode fails when a shuffle
// changes a cache the outcome must leave alone. Two disjoint caches (the
// initial placement of N = 2, c = 12, n = 60) exchange 5 items, so both
// change; verified as if the reply (or the request) had been lost, the
// check must panic.
func TestCheckCatchesLossViolations(t *testing.T) {
	for _, out := range []outcome{replyLost, requestLost} {
		cfg := small()
		cfg.Nodes, cfg.Check = 2, true
		st := newProtocolState[uint16](cfg, rng.NewStream(1, 1))
		copy(st.before, st.cache)
		st.check = false // shuffle without its own verification
		st.shuffle(rng.NewStream(1, 2), 0, 1)
		func() {
			defer func() {
				if _, ok := recover().(*InvariantError); !ok {
					t.Errorf("outcome %d: a delivered shuffle passed as one with a lost message", out)
				}
			}()
			st.verify(0, 1, out)
		}()
	}
}

// TestLossTransitionsOneShuffle: one shuffle of two disjoint caches but for
// d, repeated, against approx.NewTransitionsLoss(p, 1, ε). Disjoint caches
// make P_drop exactly 1: every item a side receives is new, and it has as
// many items to overwrite (those it sent, less d when both sent it) as it
// receives, so an item sent and not received is always overwritten. With
// p = s/c the matrix of docs/MODEL.md, "The shuffle protocol under loss",
// then reads, a = 1 − ε:
//
//	from 10: 11 a·ε·p, 01 a²·p;  from 01: 10 a²·p, 00 a·ε·p;
//	from 11: 10 a·p(1−p), 01 a²·p(1−p)
//
// and the lossless rows (ε = 0) are the limits. Both buffer paths (2s ≤ c
// and 2s > c) and ε ∈ {0, 0.2, 0.5}. The counts of each row are
// multinomial; the statistic Σ(O−E)²/E over the targets of probability in
// (0, 1), summed over the rows, is χ² with Σ(k_row − 1) degrees of freedom.
// Seed 7 (logged); the test fails at p < 0.001, and (a second check, not
// correlated with the first in its failure mode) when one frequency is more
// than 5 binomial standard errors from the matrix.
func TestLossTransitionsOneShuffle(t *testing.T) {
	const trials = 20000
	for _, sc := range []struct{ n, c, s int }{{60, 12, 5}, {60, 12, 9}} {
		for _, eps := range []float64{0, 0.2, 0.5} {
			cfg := small()
			cfg.Nodes, cfg.Shuffle.Items, cfg.Shuffle.Cache, cfg.Shuffle.Exchange, cfg.Loss = 2, sc.n, sc.c, sc.s, eps
			r := rng.NewStream(7, uint64(sc.s*100+int(eps*10)))
			var counts [4][4]int64
			for i := range trials {
				st := newProtocolState[uint16](cfg, r)
				// Caches are disjoint (slots 0..11 and 12..23 of a
				// permutation of 60 items); d replaces one item at A, at
				// B or at both, cycling through the three states.
				from := approx.State(1 + i%3)
				if from&2 != 0 {
					st.insert(r, []int32{0})
				}
				if from&1 != 0 {
					st.insert(r, []int32{1})
				}
				st.tracking = true
				st.shuffle(r, 0, 1)
				for f := range 4 {
					for to := range 4 {
						counts[f][to] += st.cnt.Transitions[f][to]
					}
				}
			}
			p := float64(sc.s) / float64(sc.c)
			model := approx.NewTransitionsLoss(p, 1, eps)
			chi, df := 0.0, 0
			for f := 1; f < 4; f++ {
				var row int64
				for to := range 4 {
					row += counts[f][to]
				}
				k := 0
				for to := range 4 {
					e := model[f][to] * float64(row)
					if model[f][to] <= 0 || model[f][to] >= 1 {
						if model[f][to] == 0 && counts[f][to] != 0 {
							t.Errorf("n,c,s=%v ε=%g: %d transitions %v→%v, which the matrix forbids", sc, eps, counts[f][to], approx.State(f), approx.State(to))
						}
						continue
					}
					chi += (float64(counts[f][to]) - e) * (float64(counts[f][to]) - e) / e
					k++
				}
				df += max(k-1, 0)
			}
			pv := 1.0
			if df > 0 {
				pv = distuv.ChiSquared{K: float64(df)}.Survival(chi)
			}
			z := TransitionZ(counts, model)
			t.Logf("n,c,s=%v ε=%g: χ² = %.2f on %d df, p = %.3f; max z = %.2f", sc, eps, chi, df, pv, z.MaxZ)
			if pv < 0.001 || z.MaxZ > 5 {
				t.Errorf("n,c,s=%v ε=%g: transitions against the loss matrix: χ² = %.2f on %d df (p = %.2g), max z = %.2f", sc, eps, chi, df, pv, z.MaxZ)
			}
		}
	}
}

// TestLossDeterminismAndStats: a lossy run is the same for 1 and 3 workers;
// PExtinct is the share of replications with X = 0, never decreases, and
// agrees with Extinction; a lossless run of the same seed never loses d;
// Alive is recorded under loss only.
func TestLossDeterminismAndStats(t *testing.T) {
	cfg := small()
	cfg.Nodes, cfg.Reps, cfg.Rounds, cfg.Loss = 10, 40, 200, 0.3
	a, err := Run(context.Background(), cfg, Settings{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), cfg, Settings{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a.Reps)
	jb, _ := json.Marshal(b.Reps)
	if !bytes.Equal(ja, jb) {
		t.Fatal("a lossy run differs between 1 and 3 workers")
	}
	sum := a.Summary()
	died := 0
	for _, rep := range a.Reps {
		if e := rep.Extinction(); e >= 0 {
			died++
			if rep.X[e] != 0 || e > 0 && rep.X[e-1] == 0 {
				t.Errorf("replication %d: Extinction() = %d but X = %v", rep.Index, e, rep.X[max(e-1, 0):e+1])
			}
		}
		if rep.Alive == 0 || rep.Alive > cfg.Shuffle.Items {
			t.Errorf("replication %d: alive %d", rep.Index, rep.Alive)
		}
	}
	for i := 1; i < len(sum); i++ {
		if sum[i].PExtinct < sum[i-1].PExtinct {
			t.Errorf("PExtinct decreases at t = %d", i)
		}
	}
	last := sum[len(sum)-1]
	if want := float64(died) / float64(cfg.Reps); last.PExtinct != want || died == 0 {
		t.Errorf("PExtinct(T) = %v, %d of %d replications extinct (want some)", last.PExtinct, died, cfg.Reps)
	}
	if want := math.Sqrt(last.PExtinct * (1 - last.PExtinct) / float64(cfg.Reps)); last.PExtinctSE != want {
		t.Errorf("PExtinctSE = %v, want %v", last.PExtinctSE, want)
	}
	if m, _ := a.AliveMean(); !(m > 0) {
		t.Errorf("AliveMean = %v", m)
	}
	cfg.Loss = 0
	l, err := Run(context.Background(), cfg, Settings{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, rep := range l.Reps {
		if rep.Extinction() != -1 || rep.Alive != 0 {
			t.Errorf("lossless replication %d: Extinction %d, Alive %d", rep.Index, rep.Extinction(), rep.Alive)
		}
	}
	if m, _ := l.AliveMean(); !math.IsNaN(m) {
		t.Errorf("lossless AliveMean = %v, want NaN (not recorded)", m)
	}
}

// TestLossPartsMerge: the parts of a lossy run merge into the single run,
// and a lossless part carries no "loss" and no "alive" (byte for byte the
// part of a gossipkit without loss; the CLI's golden part checks that).
func TestLossPartsMerge(t *testing.T) {
	for _, loss := range []float64{0, 0.25} {
		cfg := small()
		cfg.Nodes, cfg.Reps, cfg.Rounds, cfg.Loss = 10, 5, 40, loss
		single, err := Run(context.Background(), cfg, Settings{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		var parts []*Part
		for i := 1; i <= 2; i++ {
			id := ShardID{Index: i, Count: 2}
			res, err := Run(context.Background(), cfg, Settings{Workers: 1, Indices: id.Indices(cfg.Reps)})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := WritePart(&buf, res, id); err != nil {
				t.Fatal(err)
			}
			plain, _ := shard.Decompress(bytes.NewReader(buf.Bytes()))
			if has := bytes.Contains(plain, []byte(`"loss"`)) || bytes.Contains(plain, []byte(`"alive"`)); has != (loss > 0) {
				t.Errorf("ε=%g: part carries loss/alive: %v", loss, has)
			}
			p, err := ReadPart(&buf)
			if err != nil {
				t.Fatalf("ε=%g: %v", loss, err)
			}
			parts = append(parts, p)
		}
		merged, _, err := Merge(parts, []string{"a", "b"}, false)
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(single)
		jm, _ := json.Marshal(merged)
		if !bytes.Equal(js, jm) {
			t.Errorf("ε=%g: the merge differs from the single run", loss)
		}
	}
}

// TestLossHostileParts: a lossy part altered in the fields loss brought
// (the loss itself, alive, an extinct d that comes back) is refused.
func TestLossHostileParts(t *testing.T) {
	cfg := small()
	cfg.Nodes, cfg.Reps, cfg.Rounds, cfg.Loss = 10, 2, 30, 0.25
	res, err := Run(context.Background(), cfg, Settings{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WritePart(&buf, res, ShardID{Index: 1, Count: 1}); err != nil {
		t.Fatal(err)
	}
	plain, _ := shard.Decompress(bytes.NewReader(buf.Bytes()))
	if _, err := DecodePart(plain); err != nil {
		t.Fatalf("the valid part: %v", err)
	}
	edit := func(f func(p map[string]any)) []byte {
		var m map[string]any
		dec := json.NewDecoder(bytes.NewReader(plain))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		f(m)
		out, _ := json.Marshal(m)
		return out
	}
	conf := func(m map[string]any) map[string]any { return m["config"].(map[string]any) }
	rep0 := func(m map[string]any) map[string]any { return m["reps"].([]any)[0].(map[string]any) }
	for _, tc := range []struct {
		name, want string
		f          func(m map[string]any)
	}{
		{"loss 0 spelled out", "loss", func(m map[string]any) { conf(m)["loss"] = "0" }},
		{"loss 1", "loss", func(m map[string]any) { conf(m)["loss"] = "1" }},
		{"loss not shortest", "loss", func(m map[string]any) { conf(m)["loss"] = "0.250" }},
		{"loss NaN", "loss", func(m map[string]any) { conf(m)["loss"] = "NaN" }},
		{"alive above n", "alive", func(m map[string]any) { rep0(m)["alive"] = 61 }},
		{"alive in a lossless part", "alive", func(m map[string]any) { delete(conf(m), "loss") }},
		{"d comes back", "comes back", func(m map[string]any) {
			// x = 0 at t = 1, then 1 again at t = 2; the moments are
			// recomputed from the edited trajectory so only the range check
			// can object.
			x := rep0(m)["x"].([]any)
			x[1], x[2] = json.Number("0"), json.Number("1")
			y := rep0(m)["y"].([]any)
			yr := rep0(m)["y_round"].([]any)
			y[1], y[2], yr[1], yr[2] = y[0], y[0], yr[0], yr[0]
			var reps []Replication
			rb, _ := json.Marshal(m["reps"])
			_ = json.Unmarshal(rb, &reps)
			T := cfg.Rounds
			m["moments"] = partMoments{X: momentsOf(reps, T, pickX), Y: momentsOf(reps, T, pickY), YR: momentsOf(reps, T, pickYR)}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodePart(edit(tc.f))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one about %q", err, tc.want)
			}
		})
	}
}

// TestLossTimeChange: under loss the mean field is the lossless one on a
// clock slowed by f = (1−ε)(1−ε/2) (docs/MODEL.md, "The shuffle protocol
// under loss": dx/dt = f·2p[(1−q)x(1−x) − (1−p)q x²]), so the time x needs
// to reach a level L under ε is 1/f times the lossless one. The protocol
// at N = 2000 (n = 100, c = 20, s = 10, 20 initial copies, so that
// neither d's extinction nor the death of items, with 400 copies each,
// plays a part) is run at ε = 0 and ε = 0.3 (f = 0.595), seed 1; each
// replication's first passage of x = L (interpolated between rounds,
// FirstReach) gives a sample, and f·mean(T_ε(L)) must agree with
// mean(T_0(L)) within 4 standard errors of the difference (the two runs
// independent, each se the replications' sd over √R), at L = 0.05, 0.1 and
// 0.15 (K = 0.2). The mean field is exact only as N → ∞; the measured
// differences are logged.
func TestLossTimeChange(t *testing.T) {
	if testing.Short() {
		t.Skip("about 2 s of protocol")
	}
	const eps = 0.3
	f := (1 - eps) * (1 - eps/2)
	run := func(loss float64, rounds int) *Result {
		cfg := DefaultConfig()
		cfg.Nodes, cfg.Shuffle.Items, cfg.Shuffle.Cache, cfg.Shuffle.Exchange = 2000, 100, 20, 10
		cfg.Warmup, cfg.Rounds, cfg.Reps, cfg.Initial, cfg.Loss, cfg.Seed = 20, rounds, 16, 20, loss, 1
		res, err := Run(context.Background(), cfg, Settings{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	r0, re := run(0, 60), run(eps, 100)
	passage := func(res *Result, L float64) (mean, se float64) {
		v := make([]float64, len(res.Reps))
		for i, rep := range res.Reps {
			ts, xs := make([]float64, len(rep.X)), make([]float64, len(rep.X))
			for k, x := range rep.X {
				ts[k], xs[k] = float64(k), float64(x)/float64(res.Config.Nodes)
			}
			v[i] = FirstReach(ts, xs, L)
			if math.IsNaN(v[i]) {
				t.Fatalf("ε=%g: replication %d never reaches x = %g", res.Config.Loss, i, L)
			}
		}
		m, sd := meanSD(v)
		return m, sd / math.Sqrt(float64(len(v)))
	}
	for _, L := range []float64{0.05, 0.1, 0.15} {
		m0, s0 := passage(r0, L)
		me, se := passage(re, L)
		d, sd := f*me-m0, math.Hypot(f*se, s0)
		t.Logf("L = %g: T_0 = %.3f ± %.3f, f·T_ε = %.3f ± %.3f (T_ε = %.3f): difference %.3f = %.2f se (%.2f %%)", L, m0, s0, f*me, f*se, me, d, d/sd, 100*d/m0)
		if math.Abs(d) > 4*sd {
			t.Errorf("L = %g: f·T_ε = %.3f, T_0 = %.3f: %.1f standard errors apart", L, f*me, m0, math.Abs(d)/sd)
		}
	}
}
