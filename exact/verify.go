package exact

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"strconv"

	"github.com/gossipkit/gossipkit/internal/ctxguard"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// Grid is the box of shuffles that VerifyGamma checks: every (n, c, s) with
//
//	1 ≤ s ≤ MaxExchange,  s ≤ c ≤ MaxCache,  c ≤ n ≤ MaxItems,  n > s.
type Grid struct {
	MaxItems    int // 1 ≤ MaxItems ≤ gossip.MaxItems
	MaxCache    int // ≥ 1
	MaxExchange int // 1 ≤ MaxExchange ≤ MaxS
}

// The parameters of Grid that VerifyGamma checks, each stated once (a
// program writes its help from them). MaxItems' upper end is
// gossip.MaxItems.
var (
	GridExchange = gossip.Param{Field: "MaxExchange", Symbol: "s", Meaning: "largest exchange size", Range: "1.." + strconv.Itoa(MaxS), Lo: gossip.AtLeast(1), Hi: gossip.AtMost(MaxS)}
	GridCache    = gossip.Param{Field: "MaxCache", Symbol: "c", Meaning: "largest cache size", Range: "≥ 1", Lo: gossip.AtLeast(1)}
)

// GammaMismatch describes a shuffle where the γ form and formula (1) differ.
type GammaMismatch struct {
	gossip.Shuffle
	Exact, Gamma *big.Rat
}

// MaxVerifyMemory bounds the memory VerifyGamma accepts (VerifyGammaMemory).
const MaxVerifyMemory = 4 << 30

// VerifyGammaMemory estimates the bytes VerifyGamma keeps for grid g: for
// the largest s it holds γ_s(n) as a fraction for every n ≤ MaxItems, two
// numbers of about s·log₂(MaxItems) bits each (γ_s(n) is a sum of s terms
// C(n, d)/(s·C(s−1, d)) over a common denominator), plus 40 bytes of
// header each. The estimate is an upper bound in the bits and exact in the
// count; 0 for a grid Validate would refuse.
func VerifyGammaMemory(g Grid) uint64 {
	sMax := min(g.MaxExchange, g.MaxCache)
	if sMax < 1 || g.MaxItems < sMax || g.MaxItems > gossip.MaxItems {
		return 0
	}
	count := float64(g.MaxItems-sMax+1) * 2
	bytesEach := 40 + float64(sMax)*float64(bits.Len(uint(g.MaxItems)))/8
	return uint64(min(count*bytesEach, 1<<62))
}

// VerifyGamma checks, at every shuffle of the grid, the γ form with γ from
// its sum (Gamma) against formula (1) by its double sum (Formula1): two
// evaluations that share neither the closed forms of the package doc nor
// each other's code. The fractions are compared exactly by
// cross-multiplication. It returns the number of shuffles checked and the
// first mismatch (in order of s, c, n), or nil. It stops early with
// ctx.Err() if ctx is cancelled; set.Progress counts exchange sizes s. An
// invalid grid is a *gossip.FieldError naming the Grid field.
//
// The theorems of the package doc prove the identity everywhere; this is
// the computation that would catch an error in them or in the code.
func VerifyGamma(ctx context.Context, g Grid, set Settings) (checked int64, mismatch *GammaMismatch, err error) {
	if err := ctxguard.Check("exact", ctx); err != nil {
		return 0, nil, err
	}
	switch {
	case !GridExchange.In(float64(g.MaxExchange)):
		return 0, nil, fielderr.New("exact", "Grid.MaxExchange", "= %d: need 1 ≤ MaxExchange ≤ MaxS = %d", g.MaxExchange, MaxS)
	case !GridCache.In(float64(g.MaxCache)):
		return 0, nil, fielderr.New("exact", "Grid.MaxCache", "= %d: need MaxCache ≥ 1", g.MaxCache)
	case g.MaxItems < 1 || g.MaxItems > gossip.MaxItems:
		return 0, nil, fielderr.New("exact", "Grid.MaxItems", "= %d: need 1 ≤ MaxItems ≤ gossip.MaxItems = %d", g.MaxItems, gossip.MaxItems)
	}
	sMax := min(g.MaxExchange, g.MaxCache)
	if m := VerifyGammaMemory(g); m > MaxVerifyMemory {
		return 0, nil, fmt.Errorf("exact: Grid.MaxItems = %d with MaxExchange %d keeps about %.3g GiB of γ sums (at most %d GiB): %w",
			g.MaxItems, sMax, float64(m)/(1<<30), MaxVerifyMemory>>30, gossip.ErrTooLarge)
	}
	lhs, rhs := new(big.Int), new(big.Int)
	gn, gd := new(big.Int), new(big.Int)
	for s := 1; s <= sMax; s++ {
		// γ_s(n) = gs[n]/hs[n] (unreduced) for every n: it does not depend on c.
		gs := make([]*big.Int, g.MaxItems+1)
		hs := make([]*big.Int, g.MaxItems+1)
		for n := s; n <= g.MaxItems; n++ {
			gs[n], hs[n] = gammaSum(int64(n), int64(s))
		}
		for c := s; c <= g.MaxCache && c <= g.MaxItems; c++ {
			if err := ctx.Err(); err != nil {
				return checked, nil, err
			}
			f, ferr := NewFormula1(ctx, c, s)
			if ferr != nil {
				return checked, nil, ferr
			}
			for n := max(c, s+1); n <= g.MaxItems; n++ {
				if n%4096 == 0 && ctx.Err() != nil {
					return checked, nil, ctx.Err()
				}
				num, den := f.fraction(n)
				// γ form = (n−c)·g / ((n−s)·g + h) with γ = g/h.
				gn.Mul(gs[n], big.NewInt(int64(n-c)))
				gd.Mul(gs[n], big.NewInt(int64(n-s)))
				gd.Add(gd, hs[n])
				lhs.Mul(num, gd)
				rhs.Mul(den, gn)
				checked++
				if lhs.Cmp(rhs) != 0 {
					return checked, &GammaMismatch{
						Shuffle: gossip.Shuffle{Items: n, Cache: c, Exchange: s},
						Exact:   new(big.Rat).SetFrac(num, den),
						Gamma:   new(big.Rat).SetFrac(gn, gd),
					}, nil
				}
			}
		}
		if set.Progress != nil {
			set.Progress(int64(s), int64(sMax))
		}
	}
	return checked, nil, nil
}
