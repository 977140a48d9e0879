package broadcast

import (
	"context"
	"fmt"
	"math"
)

// ExactCost estimates the work of ExactLaw for cfg, in the units of
// Settings.ExactBudget (+Inf where the chain is out of reach).
func ExactCost(cfg Config) float64 { return math.Inf(1) }

// ExactLaw is the law of T_L from the count chain. (To be written.)
func ExactLaw(ctx context.Context, cfg Config) (*Law, error) {
	return nil, fmt.Errorf("broadcast: exact law: %w", ErrNotCovered)
}
