package broadcast

import (
	"context"

	"github.com/gossipkit/gossipkit/broadcast/internal/literal"
)

// literalEngine is the reference engine (SimSettings.Literal): every node,
// every message, as the package doc states the rules (package
// internal/literal).
type literalEngine struct{ *literal.Engine }

func newLiteral(cfg Config, seed uint64) literalEngine {
	return literalEngine{literal.New(literal.Params{N: cfg.Nodes, M: cfg.Live(), K: cfg.Fanout, Budget: cfg.Budget, Target: cfg.Target(),
		Eps: cfg.Loss, Push: cfg.Protocol.pushes(), Pull: cfg.Protocol.pulls()}, seed)}
}

// run is replication index as a Replication.
func (l literalEngine) run(ctx context.Context, index int) (Replication, error) {
	r, err := l.Run(ctx, index)
	return Replication{Index: index, T: r.T, Messages: r.Messages, Missed: r.Missed}, err
}
