package approx

import (
	"fmt"
	"math"
	"math/big"

	"github.com/ALTree/bigfloat"
)

// RefPrec is the precision of Reference, in bits: 256 bits carry ~77
// decimal digits, far beyond float64's 53 bits, and stay below the ~960
// bits above which bigfloat's Exp and Log share a cache that is not safe
// for concurrent use.
const RefPrec = 256

// refFar is the exponent beyond which Reference's e^{−kt} and exp(u) are
// below RefPrec bits of what they are added to: e^{−1024} < 2^{−1477}.
const refFar = 1024

// Reference evaluates the closed forms x(t) and y(t) in arbitrary precision
// (RefPrec bits) with github.com/ALTree/bigfloat: the parameters are
// formed exactly from the integers N, n, c, s, the initial count and the
// float64 loss ε — f = (1−ε)(1−ε/2) (exact at RefPrec: ε has 53 bits),
// k = f·2(s/c)(c−s)/(n−s), K = c/n, x0 = y0 = initial/N, p = s/c — and
//
//	x(t) = K / (1 + (K/x0 − 1)·e^{−kt})
//	y(t) = 1 − (1 − y0)·exp(−f·2p·(K/k)·ln(1 + (x0/K)(e^{kt} − 1)))
//
// so the float64 closed forms (X, Y) and the integrators can be measured
// against it. Every operation rounds to RefPrec bits, so the results are
// accurate to far better than float64 for t up to ~10⁸/k. Only the
// simplified P_drop has these exact parameters; other variants are
// refused, and so is a Model whose Config does not validate (Initial 0
// means 1, as in NewModel).
func (m Model) Reference(t float64) (x, y *big.Float, err error) {
	if !(t >= 0) || math.IsInf(t, 0) {
		return nil, nil, fmt.Errorf("approx: Reference at t = %g: need a finite time ≥ 0", t)
	}
	if err := m.Config.Validate(); err != nil {
		// A Model written by hand need not come from NewModel; big.Float
		// panics on 0/0 and bigfloat.Log on a negative argument.
		return nil, nil, err
	}
	if m.PDrop != Simplified {
		return nil, nil, fmt.Errorf("approx: Reference needs the simplified P_drop (got %v)", m.PDrop)
	}
	if m.Shuffle.Exchange == m.Shuffle.Cache {
		return nil, nil, fmt.Errorf("approx: Reference needs s < c (k = 0)")
	}
	f := func(v float64) *big.Float { return new(big.Float).SetPrec(RefPrec).SetFloat64(v) }
	rat := func(a, b int64) *big.Float {
		return new(big.Float).SetPrec(RefPrec).Quo(f(float64(a)), f(float64(b)))
	}
	n, c, s := int64(m.Shuffle.Items), int64(m.Shuffle.Cache), int64(m.Shuffle.Exchange)
	initial := int64(max(m.Initial, 1)) // 0 means 1, as in NewModel
	eps := f(m.Loss)
	lf := new(big.Float).SetPrec(RefPrec).Sub(f(1), eps)
	lf.Mul(lf, new(big.Float).SetPrec(RefPrec).Sub(f(1), new(big.Float).SetPrec(RefPrec).Quo(eps, f(2))))
	k := new(big.Float).SetPrec(RefPrec).Mul(rat(2*s, c), rat(c-s, n-s))
	k.Mul(k, lf) // f = 1 exactly at ε = 0
	K := rat(c, n)
	x0 := rat(initial, int64(m.Nodes))
	p := rat(s, c)
	kt := new(big.Float).SetPrec(RefPrec).Mul(k, f(t))
	one := f(1)
	// Beyond kt = refFar, e^{−kt} < e^{−1024} < 2^{−1477} sits far below
	// RefPrec bits of the terms it is added to (K/x0 = cN/(n·initial) <
	// 2^{64}), so x = K and ∫x = (K/k)(kt + ln(x0/K)) to RefPrec bits;
	// bigfloat's Exp of such an argument would run for hours (t = 1e308).
	far := kt.Cmp(f(refFar)) > 0
	// x = K / (1 + (K/x0 − 1)·e^{−kt})
	var integral *big.Float
	if far {
		x = new(big.Float).SetPrec(RefPrec).Set(K)
		integral = bigfloat.Log(new(big.Float).SetPrec(RefPrec).Quo(x0, K))
		integral.Add(integral, kt)
	} else {
		ekt := bigfloat.Exp(new(big.Float).SetPrec(RefPrec).Neg(kt))
		den := new(big.Float).SetPrec(RefPrec).Quo(K, x0)
		den.Sub(den, one).Mul(den, ekt).Add(den, one)
		x = new(big.Float).SetPrec(RefPrec).Quo(K, den)
		// ∫x = (K/k)·ln(1 + (x0/K)(e^{kt} − 1))
		e := bigfloat.Exp(new(big.Float).SetPrec(RefPrec).Set(kt))
		e.Sub(e, one).Mul(e, new(big.Float).SetPrec(RefPrec).Quo(x0, K)).Add(e, one)
		integral = bigfloat.Log(e)
	}
	integral.Mul(integral, new(big.Float).SetPrec(RefPrec).Quo(K, k))
	// y = 1 − (1 − y0)·exp(−2p·∫x)
	u := new(big.Float).SetPrec(RefPrec).Mul(p, integral)
	u.Mul(u, f(-2))
	u.Mul(u, lf)
	if u.Cmp(f(-refFar)) < 0 {
		// exp(u) < 2^{−1477}: 1 − (1 − y0)·exp(u) rounds to 1 at RefPrec.
		return x, f(1), nil
	}
	y = bigfloat.Exp(u)
	y.Mul(y, new(big.Float).SetPrec(RefPrec).Sub(one, x0))
	y.Sub(one, y)
	return x, y, nil
}
