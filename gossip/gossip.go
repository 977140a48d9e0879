package gossip

import (
	"fmt"

	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// MaxItems is the largest number of items any package accepts: C(n, s) has
// about s·log2(n) bits, and the bound keeps n, and products such as n·s,
// inside int64 arithmetic everywhere.
const MaxItems = 1 << 40

// Shuffle holds the parameters of one shuffle: each of the two nodes sends
// Exchange of the Cache items it holds, drawn from Items items in all. The
// zero value is not a valid shuffle.
type Shuffle struct {
	Items    int // n, the number of distinct items, Cache ≤ n ≤ MaxItems
	Cache    int // c, the items a node's cache holds, Exchange ≤ c ≤ n
	Exchange int // s, the items each side sends, 1 ≤ s ≤ c, s < n
}

// Validate checks 1 ≤ s ≤ c ≤ n ≤ MaxItems and s < n: at s = n (so c = n)
// every item is in every cache, S = (n−c)/(n−s) is 0/0 and the model has no
// dynamics. Its error is a *FieldError naming the field.
func (p Shuffle) Validate() error {
	switch {
	case p.Exchange < 1:
		return fieldErr("Shuffle.Exchange", "= %d: need Exchange ≥ 1", p.Exchange)
	case p.Exchange > p.Cache:
		return fieldErr("Shuffle.Exchange", "= %d: need Exchange ≤ Cache = %d", p.Exchange, p.Cache)
	case p.Cache > p.Items:
		return fieldErr("Shuffle.Cache", "= %d: need Cache ≤ Items = %d", p.Cache, p.Items)
	case p.Items > MaxItems:
		return fieldErr("Shuffle.Items", "= %d: need Items ≤ %d", p.Items, MaxItems)
	case p.Exchange == p.Items:
		return fieldErr("Shuffle.Exchange", "= %d: need Exchange < Items = %d", p.Exchange, p.Items)
	}
	return nil
}

// String formats the shuffle as (n=…, c=…, s=…).
func (p Shuffle) String() string {
	return fmt.Sprintf("(n=%d, c=%d, s=%d)", p.Items, p.Cache, p.Exchange)
}

// FieldError names an invalid field and says what is wrong with it.
type FieldError = fielderr.Error

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Pkg: "gossip", Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Progress is the progress callback of every long computation in gossipkit:
// it is called now and then with the work done and the total, in units the
// computation documents (shuffles, replications, points). It is called from
// one goroutine at a time and must return quickly; a nil Progress is never
// called.
type Progress func(done, total int64)
