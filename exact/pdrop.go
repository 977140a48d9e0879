package exact

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"

	"github.com/ALTree/bigfloat"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// MaxBits bounds the size of C(n, s), on which PDrop's work and its
// result's size depend: PDrop and Validate accept a shuffle only when
//
//	min(s, n−s) · bitlen(n) ≤ MaxBits,
//
// where bitlen(n) = ⌊log2 n⌋ + 1, an upper bound on the bits of
// C(n, s) = C(n, n−s) < n^min(s, n−s). At 2^21 every s ≤ 51150 passes at
// every n ≤ gossip.MaxItems. PDrop at the largest such point (n = 2^40,
// s = 51150, C(n, s) of 1.3 million bits) takes a fraction of a second
// (BenchmarkPDropClosed), and writing its fraction out in decimal, some
// 400,000 digits in numerator and in denominator, about as long again.
const MaxBits = 1 << 21

// ErrUndefined reports a quantity that is 0/0 at the given shuffle, such as
// Ecs at n = c, where E = S = 0.
var ErrUndefined = errors.New("exact: undefined (0/0) at this point")

// Validate checks that PDrop accepts p: p.Validate() (1 ≤ s ≤ c ≤ n ≤
// gossip.MaxItems, s < n) and the size bound MaxBits on C(n, s). A problem
// is a *gossip.FieldError of package exact naming the field
// (Shuffle.Exchange).
func Validate(p gossip.Shuffle) error {
	if err := p.Validate(); err != nil {
		return shuffleError("", err)
	}
	if b := binomialBitsBound(p.Items, p.Exchange); b > MaxBits {
		return fielderr.New("exact", "Shuffle.Exchange",
			"= %d with Items = %d: C(n, s) may have min(s, n−s)·bitlen(n) = %d bits, above the limit MaxBits = %d", p.Exchange, p.Items, b, MaxBits)
	}
	return nil
}

// shuffleError reports err, a problem with a gossip.Shuffle, as package
// exact's: a *gossip.FieldError keeps its message and, under a parent
// (Config.Shuffles[3]), names the field there (Config.Shuffles[3].Exchange);
// other errors are wrapped.
func shuffleError(parent string, err error) error {
	var fe *gossip.FieldError
	if !errors.As(err, &fe) {
		return fmt.Errorf("exact: %w", err)
	}
	field := fe.Field
	if parent != "" {
		field = parent + strings.TrimPrefix(fe.Field, "Shuffle")
	}
	return &gossip.FieldError{Pkg: "exact", Field: field, Msg: fe.Msg}
}

// binomialBitsBound returns min(s, n−s)·bitlen(n) ≥ log2 C(n, s), for
// 0 ≤ s ≤ n ≤ gossip.MaxItems (no overflow: both factors are below 2^41).
func binomialBitsBound(n, s int) int64 {
	return int64(min(s, n-s)) * int64(bits.Len64(uint64(n)))
}

// PDrop returns formula (1), E(n, c, s), the paper's "accurate" expected
// drop probability, as a reduced fraction, by Theorem A of the package doc:
//
//	E(n, c, s) = S·(1 − 1/C(n, s)) = (n−c)·(C(n,s) − 1) / ((n−s)·C(n,s)).
//
// It costs one binomial coefficient (Binomial) and a few products, so it
// takes any shuffle that Validate accepts; PDropDoubleSum evaluates the
// double sum itself, for s ≤ MaxS. The fraction is reduced without a
// greatest common divisor of big numbers: with g = gcd(n−c, n−s),
// a = (n−c)/g and b = (n−s)/g coprime, and C and C − 1 coprime,
//
//	gcd(a·(C−1), b·C) = gcd(a, C) · gcd(b, C−1),
//
// (for each prime, at most one of a, b and at most one of C−1, C carry
// it), and both factors are gcds of a word with a big number modulo it.
func PDrop(p gossip.Shuffle) (*big.Rat, error) {
	if err := Validate(p); err != nil {
		return nil, err
	}
	n, c, s := int64(p.Items), int64(p.Cache), int64(p.Exchange)
	if n == c {
		return new(big.Rat), nil
	}
	C := Binomial(new(big.Int), n, s)
	g := gcd64(n-c, n-s)
	a, b := (n-c)/g, (n-s)/g
	t := new(big.Int)
	ga := gcd64(a, t.Mod(C, big.NewInt(a)).Int64())
	Cm1 := new(big.Int).Sub(C, big.NewInt(1))
	gb := gcd64(b, t.Mod(Cm1, big.NewInt(b)).Int64())
	num := Cm1.Quo(Cm1, big.NewInt(gb))
	num.Mul(num, big.NewInt(a/ga))
	den := C.Quo(C, big.NewInt(ga))
	den.Mul(den, big.NewInt(b/gb))
	return reducedRat(num, den), nil
}

// reducedRat returns num/den for a numerator and a positive denominator
// already known to be coprime, without the greatest common divisor that
// big.Rat.SetFrac would compute (quadratic in their size: seconds at a
// million bits). It writes through Num and Denom, which for an initialised
// Rat are references to its numerator and denominator (math/big's doc).
func reducedRat(num, den *big.Int) *big.Rat {
	z := new(big.Rat).SetInt64(1) // initialised: Denom is a reference
	z.Num().Set(num)
	z.Denom().Set(den)
	return z
}

// gcd64 returns gcd(a, b) for a, b ≥ 0, not both 0.
func gcd64(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// PDropSimplified returns S(n,c,s) = (n−c)/(n−s).
func PDropSimplified(p gossip.Shuffle) (*big.Rat, error) {
	if err := p.Validate(); err != nil {
		return nil, shuffleError("", err)
	}
	return big.NewRat(int64(p.Items-p.Cache), int64(p.Items-p.Exchange)), nil
}

// Ecs returns the paper's e_{c,s}(n) = (E(n,c,s)^{−1} − S(n,c,s)^{−1})^{−1},
// computed from formula (1) (PDrop) by its definition. It is ErrUndefined
// when n = c (E = S = 0). Theorems A and B of the package doc give
// e_{c,s}(n) = (n−c)·γ_s(n) = (n−c)·(C(n,s) − 1)/(n−s); the tests check
// that against this definition.
func Ecs(p gossip.Shuffle) (*big.Rat, error) {
	e, err := PDrop(p)
	if err != nil {
		return nil, err
	}
	if p.Items == p.Cache {
		return nil, ErrUndefined
	}
	simp := big.NewRat(int64(p.Items-p.Cache), int64(p.Items-p.Exchange))
	ie := new(big.Rat).Inv(e)
	is := new(big.Rat).Inv(simp)
	ie.Sub(ie, is)
	if ie.Sign() == 0 {
		return nil, ErrUndefined
	}
	return ie.Inv(ie), nil
}

// log10Prec is the precision, in bits, at which Log10AbsDiff works: the
// difference is rounded to it once (relative error ≤ 2⁻¹²⁸), and
// bigfloat's Log and the division by ln 10 add a few ulp of it, far below
// float64's 2⁻⁵³. It stays below the ~960 bits above which bigfloat's Log
// shares a cache unsafely between goroutines.
const log10Prec = 128

// ln10 is ln 10 at log10Prec bits.
var ln10 = bigfloat.Log(new(big.Float).SetPrec(log10Prec).SetInt64(10))

// Log10AbsDiff returns log10|a − b| and true, or 0 and false when a = b.
// The difference is formed as an unreduced fraction (big.Rat.Sub would
// reduce it, a gcd quadratic in the size of a million-bit operand) and
// rounded once to a 128-bit big.Float, the correctly rounded value of
// |a − b| whatever its representation; the exponent range (±2³¹ binary
// digits) holds differences far below float64's 1e-308, and the logarithm
// is taken with github.com/ALTree/bigfloat. The result is within one ulp
// of the exact log10|a − b| (TestLog10AbsDiff checks 10^−k, 7·10^−5000 and
// 4/21 to that accuracy).
//
// A nil a or b gives (NaN, false).
func Log10AbsDiff(a, b *big.Rat) (float64, bool) {
	if a == nil || b == nil {
		return math.NaN(), false
	}
	num := new(big.Int).Mul(a.Num(), b.Denom())
	num.Sub(num, new(big.Int).Mul(b.Num(), a.Denom()))
	if num.Sign() == 0 {
		return 0, false
	}
	den := new(big.Int).Mul(a.Denom(), b.Denom())
	// SetInt at precision 0 keeps every bit, so the quotient is rounded once.
	q := new(big.Float).SetPrec(log10Prec).Quo(new(big.Float).SetInt(num.Abs(num)), new(big.Float).SetInt(den))
	l := bigfloat.Log(q)
	v, _ := l.Quo(l, ln10).Float64()
	return v, true
}
