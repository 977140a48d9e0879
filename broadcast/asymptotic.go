package broadcast

import (
	"context"
	"fmt"
)

// AsymptoticLaw is the limit law of T_L at large N. (To be written.)
func AsymptoticLaw(ctx context.Context, cfg Config) (*Law, error) {
	return nil, fmt.Errorf("broadcast: asymptotic law: %w", ErrNotCovered)
}
