package numeric

import (
	"fmt"
	"math"
	"testing"
)

// planRule is the rule package plan uses: h = 1/16, nodes to 44·h = 2.75.
func planRule(t *testing.T) Rule {
	t.Helper()
	r, err := TanhSinh(1.0/16, 44)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The rule against integrals with closed forms. Bounds from the package
// doc: a bounded f is within 4δ·max|f| (δ = Rule.Tail(), 1.08·10⁻¹¹ for
// the plan's rule), plus the rounding of 89 terms of at most max|f| each
// (89·2⁻⁵³·max|f| < 10⁻¹⁴·max|f|); −ln q within δ(1 − ln δ) cut at 0 plus
// 4δ of normalisation and cut at 1; q^(−1/2) within 2√δ plus the same 4δ
// times its mean, 2.
func TestTanhSinhClosedForms(t *testing.T) {
	t.Parallel()
	r := planRule(t)
	d := r.Tail()
	// Beta(a, b) density: x^(a−1)(1−x)^(b−1)/B(a, b), B from Γ; its
	// largest value is at the mode (a−1)/(a+b−2).
	beta := func(a, b float64) (func(x, xc float64) float64, float64) {
		la, _ := math.Lgamma(a)
		lb, _ := math.Lgamma(b)
		lab, _ := math.Lgamma(a + b)
		f := func(x, xc float64) float64 {
			return math.Exp((a-1)*math.Log(x) + (b-1)*math.Log(xc) + lab - la - lb)
		}
		m := (a - 1) / (a + b - 2)
		return f, f(m, 1-m)
	}
	type tc struct {
		name     string
		f        func(x, xc float64) float64
		want, ok float64
	}
	var cases []tc
	for k := 0; k <= 10; k++ {
		kk := float64(k)
		cases = append(cases, tc{fmt.Sprintf("x^%d", k), func(x, _ float64) float64 { return math.Pow(x, kk) }, 1 / (kk + 1), 4*d + 1e-14})
	}
	for _, ab := range [][2]float64{{2.5, 3.5}, {2, 2}, {30, 3}} {
		f, m := beta(ab[0], ab[1])
		cases = append(cases, tc{fmt.Sprintf("Beta%v", ab), f, 1, (4*d + 1e-14) * m})
	}
	cases = append(cases,
		tc{"-ln q", func(x, _ float64) float64 { return -math.Log(x) }, 1, d*(1-math.Log(d)) + 4*d + 1e-14},
		tc{"q^-1/2", func(x, _ float64) float64 { return 1 / math.Sqrt(x) }, 2, 2*math.Sqrt(d) + 8*d + 1e-14},
		// The arcsine law, Beta(1/2, 1/2): singular at both ends, where
		// its mass is (2/π)√δ each.
		tc{"arcsine", func(x, xc float64) float64 { return 1 / (math.Pi * math.Sqrt(x*xc)) }, 1, 4/math.Pi*math.Sqrt(d) + 4*d + 1e-14},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := r.Integrate(c.f); !(math.Abs(got-c.want) <= c.ok) {
				t.Errorf("∫ = %.17g, want %.17g within %.2g (off by %.2g)", got, c.want, c.ok, got-c.want)
			}
		})
	}
}

// δ and the nodes against their definitions: the outermost node of the
// plan's rule is 1/(1 + e^(π sinh 2.75)) = 2.357·10⁻¹¹ from each end
// (e^(π sinh 2.75) = 4.24·10¹⁰ by hand: sinh 2.75 = 7.7894, π·7.7894 =
// 24.471), δ at 2.78125 is 1.077·10⁻¹¹; the nodes are symmetric to the
// bit (sinh is odd in float64) and the weights sum to 1.
func TestTanhSinhNodes(t *testing.T) {
	t.Parallel()
	r := planRule(t)
	if len(r.X) != 89 || len(r.XC) != 89 || len(r.W) != 89 {
		t.Fatalf("%d, %d, %d nodes, want 89", len(r.X), len(r.XC), len(r.W))
	}
	// 4 digits: the hand values above are rounded to 4.
	if d := r.Tail(); math.Abs(d-1.077e-11) > 0.001e-11 {
		t.Errorf("Tail = %g, want 1.077e-11", d)
	}
	if e := r.XC[88]; math.Abs(e-2.357e-11) > 0.001e-11 || r.X[0] != e {
		t.Errorf("outermost node %g (and %g), want 2.357e-11", e, r.X[0])
	}
	sum := 0.0
	for i := range r.W {
		sum += r.W[i]
		j := len(r.W) - 1 - i
		if r.X[i] != r.XC[j] || r.W[i] != r.W[j] {
			t.Errorf("node %d: (%g, %g) not the mirror of %d: (%g, %g)", i, r.X[i], r.W[i], j, r.XC[j], r.W[j])
		}
		if i > 0 && !(r.X[i] > r.X[i-1]) {
			t.Errorf("node %d: %g not above %g", i, r.X[i], r.X[i-1])
		}
	}
	// 89 additions of terms ≤ 1 round by 89·2⁻⁵³ at most.
	if math.Abs(sum-1) > 1e-14 {
		t.Errorf("Σw = %.17g, want 1", sum)
	}
}

// A finer rule reaches further and is exact to rounding on the same
// integrands: its δ (at 5.5) is 10⁻¹⁶⁹, so the truncation is gone and what
// is left is the discretisation error, which the package doc says is below
// rounding.
func TestTanhSinhFine(t *testing.T) {
	t.Parallel()
	r, err := TanhSinh(1.0/32, 176)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		f    func(x, xc float64) float64
		want float64
	}{
		{"-ln q", func(x, _ float64) float64 { return -math.Log(x) }, 1},
		{"q^-1/2", func(x, _ float64) float64 { return 1 / math.Sqrt(x) }, 2},
		{"x^7", func(x, _ float64) float64 { return math.Pow(x, 7) }, 1.0 / 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			// 353 terms: rounding 353·2⁻⁵³ relative to the largest term
			// (w·f ≤ 1 here); 10⁻¹³ leaves room.
			if got := r.Integrate(c.f); math.Abs(got-c.want) > 1e-13 {
				t.Errorf("∫ = %.17g, want %.17g", got, c.want)
			}
		})
	}
}

func TestTanhSinhRefuses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		h float64
		n int
	}{{0, 4}, {-1, 4}, {math.NaN(), 4}, {math.Inf(1), 4}, {0.1, -1}, {1e-9, MaxRuleNodes + 1}, {0.5, 13}} {
		t.Run(fmt.Sprint(c.h, c.n), func(t *testing.T) {
			if _, err := TanhSinh(c.h, c.n); err == nil || err.Error()[:9] != "numeric: " {
				t.Errorf("TanhSinh(%g, %d) = %v, want an error starting numeric: ", c.h, c.n, err)
			}
		})
	}
	if got := (Rule{}).Integrate(func(x, _ float64) float64 { return x }); !math.IsNaN(got) {
		t.Errorf("the zero Rule integrates to %g, want NaN", got)
	}
}
