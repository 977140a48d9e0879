package exact

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestTransitionOptimaByHand: cases derived by hand.
//
// n = 4, c = 2, s ∈ {1, 2}. S = (4−2)/(4−s): 2/3 at s = 1, 1 at s = 2.
// s = 1: p = 1/2, P(11|10) = 1/2·1/3 = 1/6, P(01|11) = 1/2·1/2·2/3 = 1/6;
// s = 2: p = 1, both 0. Formula (1): E = S(1 − 1/C(4,s)): 2/3·3/4 = 1/2
// at s = 1, 1·5/6 = 5/6 at s = 2; P(11|10) = 1/4 and 1/6, P(01|11) = 1/8
// and 0.
//
// n = 72, c = 16: under S, s(c−s)/(c(n−s)) is 8·8/(16·64) = 1/16 at s = 8
// and 9·7/(16·63) = 1/16 at s = 9 (a tie), P(01|11) = P(11|10)·(n−c)/c =
// 1/16·56/16 = 7/32 at both. Under formula (1) P(11|10) gains p·S/C(n,s):
// at s = 8, (1/2)(7/8)/C(72,8) = (56/128)/C(72,8); at s = 9,
// (9/16)(8/9)/C(72,9) and C(72,9) = C(72,8)·64/9, so (9/128)/C(72,8): s = 8
// wins. P(01|11) loses p(1−p)S/C(n,s) = (7/32)/C(n,s), less at s = 9 (the
// larger binomial): s = 9 wins. The argmaxes part.
//
// n = 3, c = 3: S = 0, P(11|10) = p = s/3 over s ∈ {1, 2}: s = 2, 2/3;
// P(01|11) = 0 at every s (a tie of all).
//
// The paper's n = 500, 1000, 2000 with c = 100: P(11|10) ∝ s(c−s)/(n−s),
// whose real argmax s* = n − √(n(n−c)) is 52.79, 51.32, 50.64; comparing
// the neighbours, 52·48/448 = 5.5714 < 53·47/447 = 5.5727 (s = 53),
// 51·49/949 = 2.63330 > 52·48/948 = 2.63291 (s = 51), 50·50/1950 =
// 1.282051 < 51·49/1949 = 1.282196 (s = 51). P(01|11) ∝ P(11|10) under S has
// the same argmax, and is 0 at s = c = 100 (p = 1), its minimum. Formula
// (1) lowers q by S/C(n,s) ≤ 1/C(n,s), which moves either probability by
// at most that. For 40 ≤ s ≤ 100, C(n,s) ≥ C(500,40) > 10⁵⁹, far below the
// gaps between neighbours above (≥ 10⁻⁴ relative). For 2 ≤ s < 40 the
// values under S are at most those at s = 39 (they rise up to the argmax),
// short of the optimum of P(11|10) by 0.0041, 0.0016, 0.00069 at n = 500,
// 1000, 2000 (and P(01|11) by (n−c)/c times that), against a move of at
// most 1/C(500,2) = 8·10⁻⁶. At s = 1, q = (n−c)/n and P(11|10) = 1/n ≤
// 0.002, far below the optima 0.0557, 0.0263, 0.0128. So the optima are the
// same under formula (1), and P(01|11) is still 0 at s = c.
func TestTransitionOptimaByHand(t *testing.T) {
	r := big.NewRat
	for _, tc := range []struct {
		n, c           int
		f              DropFormula
		p11Arg         []int
		p11            *big.Rat
		p01Max, p01Min []int
		p01Mx, p01Mn   *big.Rat
	}{
		{4, 2, DropSimplified, []int{1}, r(1, 6), []int{1}, []int{2}, r(1, 6), r(0, 1)},
		{4, 2, DropFormula1, []int{1}, r(1, 4), []int{1}, []int{2}, r(1, 8), r(0, 1)},
		{72, 16, DropSimplified, []int{8, 9}, r(1, 16), []int{8, 9}, []int{16}, r(7, 32), r(0, 1)},
		{72, 16, DropFormula1, []int{8}, nil, []int{9}, []int{16}, nil, r(0, 1)},
		{3, 3, DropSimplified, []int{2}, r(2, 3), []int{1, 2}, []int{1, 2}, r(0, 1), r(0, 1)},
		{3, 3, DropFormula1, []int{2}, r(2, 3), []int{1, 2}, []int{1, 2}, r(0, 1), r(0, 1)},
		{500, 100, DropSimplified, []int{53}, nil, []int{53}, []int{100}, nil, r(0, 1)},
		{1000, 100, DropSimplified, []int{51}, nil, []int{51}, []int{100}, nil, r(0, 1)},
		{2000, 100, DropSimplified, []int{51}, nil, []int{51}, []int{100}, nil, r(0, 1)},
		{500, 100, DropFormula1, []int{53}, nil, []int{53}, []int{100}, nil, r(0, 1)},
		{1000, 100, DropFormula1, []int{51}, nil, []int{51}, []int{100}, nil, r(0, 1)},
		{2000, 100, DropFormula1, []int{51}, nil, []int{51}, []int{100}, nil, r(0, 1)},
	} {
		t.Run(fmt.Sprint(tc.n, tc.c, tc.f), func(t *testing.T) {
			o, err := TransitionOptima(context.Background(), tc.n, tc.c, tc.f)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(o.P11ArgMax, tc.p11Arg) || !slices.Equal(o.P01ArgMax, tc.p01Max) || !slices.Equal(o.P01ArgMin, tc.p01Min) {
				t.Errorf("argmax P(11|10) %v, argmax P(01|11) %v, argmin %v; by hand %v, %v, %v", o.P11ArgMax, o.P01ArgMax, o.P01ArgMin, tc.p11Arg, tc.p01Max, tc.p01Min)
			}
			for _, v := range [][2]*big.Rat{{o.P11Max, tc.p11}, {o.P01Max, tc.p01Mx}, {o.P01Min, tc.p01Mn}} {
				if v[1] != nil && v[0].Cmp(v[1]) != 0 {
					t.Errorf("optimum %v, by hand %v", v[0], v[1])
				}
			}
		})
	}
}

// floatOptima is TransitionOptima in float64 by brute force, with the
// binomial as a float product and q = S or S(1 − 1/C(n,s)); it returns the
// argmax of P(11|10), the argmax and argmin of P(01|11) (first attained),
// and whether each is clear: the runner-up is more than 1e-12 relative
// away (float64 rounding of these few operations is ~1e-15, so a closer
// runner-up may be an exact tie or a reversal the floats cannot see).
func floatOptima(n, c int, f DropFormula) (arg [3]int, clear [3]bool) {
	var vals [2][]float64
	for s := 1; s <= min(c, n-1); s++ {
		p := float64(s) / float64(c)
		q := float64(n-c) / float64(n-s)
		if f == DropFormula1 {
			b := 1.0
			for i := 1; i <= s; i++ {
				b = b * float64(n-s+i) / float64(i)
			}
			q *= 1 - 1/b
		}
		vals[0] = append(vals[0], p*(1-q))
		vals[1] = append(vals[1], p*(1-p)*q)
	}
	for k, spec := range []struct {
		v    []float64
		sign float64
	}{{vals[0], 1}, {vals[1], 1}, {vals[1], -1}} {
		best, second := 0, -1
		for i := 1; i < len(spec.v); i++ {
			if spec.sign*(spec.v[i]-spec.v[best]) > 0 {
				best, second = i, best
			} else if second < 0 || spec.sign*(spec.v[i]-spec.v[second]) > 0 {
				second = i
			}
		}
		arg[k] = best + 1
		clear[k] = second < 0 || math.Abs(spec.v[best]-spec.v[second]) > 1e-12*math.Abs(spec.v[best])
	}
	return arg, clear
}

// TestTransitionOptimaAgainstFloat: on every (n, c) with 2 ≤ n ≤ 60, the
// exact optima against floatOptima wherever the float answer is clear;
// for c < n, under S, P(01|11) = P(11|10)·(n−c)/c exactly (so the argmaxes
// and their ties coincide); and the grid must contain points where formula
// (1) parts the two argmaxes, or the comparison could not see a parting.
func TestTransitionOptimaAgainstFloat(t *testing.T) {
	t.Parallel()
	compared, parted := 0, 0
	for n := 2; n <= 60; n++ {
		for c := 1; c <= n; c++ {
			for _, f := range []DropFormula{DropSimplified, DropFormula1} {
				o, err := TransitionOptima(context.Background(), n, c, f)
				if err != nil {
					t.Fatal(err)
				}
				arg, clear := floatOptima(n, c, f)
				got := [3][]int{o.P11ArgMax, o.P01ArgMax, o.P01ArgMin}
				for k := range 3 {
					if clear[k] {
						compared++
						if len(got[k]) != 1 || got[k][0] != arg[k] {
							t.Errorf("n=%d c=%d %v: optimum %d exactly %v, float %d", n, c, f, k, got[k], arg[k])
						}
					}
				}
				if c == n {
					continue // q = 0: P(01|11) = 0 at every s
				}
				if f == DropSimplified {
					want := new(big.Rat).Mul(o.P11Max, big.NewRat(int64(n-c), int64(c)))
					if !slices.Equal(o.P11ArgMax, o.P01ArgMax) || o.P01Max.Cmp(want) != 0 {
						t.Errorf("n=%d c=%d: under S argmax P(11|10) %v, P(01|11) %v (max %v, want %v)", n, c, o.P11ArgMax, o.P01ArgMax, o.P01Max, want)
					}
				} else if !slices.Equal(o.P11ArgMax, o.P01ArgMax) {
					parted++
				}
			}
		}
	}
	if parted == 0 {
		t.Error("formula (1) never parts the argmaxes on the grid")
	}
	t.Logf("%d clear float optima compared; formula (1) parts the argmaxes of P(11|10) and P(01|11) at %d of the (n, c) with c < n ≤ 60", compared, parted)
}

func TestTransitionOptimaLimits(t *testing.T) {
	for _, tc := range []struct {
		n, c  int
		field string
	}{{10, 0, "Cache"}, {10000, MaxOptimaCache + 1, "Cache"}, {5, 6, "Items"}, {1, 1, "Items"}} {
		_, err := TransitionOptima(context.Background(), tc.n, tc.c, DropSimplified)
		var fe *gossip.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("n=%d c=%d: %v, want a field error on %s", tc.n, tc.c, err, tc.field)
		}
	}
	if _, err := TransitionOptima(context.Background(), 10, 5, DropFormula(7)); err == nil {
		t.Error("an unknown formula was accepted")
	}
	//lint:ignore SA1012 a nil context must be an error, not a panic
	if _, err := TransitionOptima(nil, 10, 5, DropSimplified); err == nil {
		t.Error("a nil context was accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := TransitionOptima(ctx, 10, 5, DropFormula1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if f, err := ParseDropFormula("formula1"); err != nil || f != DropFormula1 || f.String() != "formula1" {
		t.Errorf("ParseDropFormula: %v, %v", f, err)
	}
	if _, err := ParseDropFormula("gamma"); err == nil {
		t.Error("ParseDropFormula accepted gamma")
	}
}
