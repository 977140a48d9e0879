package broadcast

import (
	"context"
	"testing"
)

// BenchmarkPushMillion is one replication of push at N = 10^6, k = 3, no
// budget, level 1, on one worker, by each engine; it reports ns/message
// (the messages of the rule in the package doc), to set beside the C
// reference of testdata/cref (its script prints the same figure).
func BenchmarkPushMillion(b *testing.B) {
	cfg := Config{Nodes: 1_000_000, Protocol: Push, Fanout: 3, Level: 1}
	for _, lit := range []bool{false, true} {
		name := "engine=default"
		if lit {
			name = "engine=literal"
		}
		b.Run(name, func(b *testing.B) {
			var msgs int64
			var run func(context.Context, int) (Replication, error)
			if lit {
				run = newLiteral(cfg, 1).run
			} else {
				run = newEngine(cfg, 1).run
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rep, err := run(context.Background(), i)
				if err != nil {
					b.Fatal(err)
				}
				msgs += rep.Messages
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(msgs), "ns/message")
			b.ReportMetric(float64(msgs)/float64(b.N), "messages/op")
		})
	}
}
