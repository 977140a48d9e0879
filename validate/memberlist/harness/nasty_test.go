package harness

import (
	"context"
	"io"
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestNastyValues calls the entry points with the nastiest value of each
// argument and field (internal/probe): none may panic or hang. Run is
// called on the bad settings Validate refuses (TestSettingValidate); its
// *testing.T is not a value probe can replace.
func TestNastyValues(t *testing.T) {
	ctx := context.Background()
	s := Setting{Nodes: 10, Fanout: 3, RetransmitMult: 1, Loss: 0.1, Clusters: 1, Broadcasts: 20, Seed: 1}
	var set probe.Settings
	probe.Func(t, "Setting.Validate", Setting.Validate, set, s)
	probe.Func(t, "Setting.Model", Setting.Model, set, s, 1.0)
	probe.Func(t, "Setting.Budget", Setting.Budget, set, s)
	probe.Func(t, "NewNetwork", NewNetwork, set, uint64(1))
	probe.Func(t, "Network.SetLoss", (*Network).SetLoss, set, NewNetwork(1), 0.5)
	probe.Func(t, "Network.NewTransport", (*Network).NewTransport, set, NewNetwork(1), "a", 1)
	res, err := Run(ctx, t, s)
	if err != nil {
		t.Fatal(err)
	}
	tm := RoundsModel(100, 2)
	probe.Func(t, "Compare", Compare, set, ctx, res, 100, uint64(1), tm)
	probe.Func(t, "RoundsModel.Time", tm.Time, set, ctx, s.Model(1))
	c, err := Compare(ctx, res, 100, 1, tm)
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "WriteMarkdown", WriteMarkdown, set, io.Discard, Meta{Date: "d"}, []*Comparison{c})
	probe.Func(t, "ProbeMarkdown", ProbeMarkdown, set, Meta{Date: "d"}, []ProbePair{{c, c}})
	probe.Func(t, "Splice", Splice, set, "# a\n\n## b\n", "## b\n\nc\n")
	probe.Func(t, "Network.GossipPackets", (*Network).GossipPackets, set, NewNetwork(1))
	rs := s
	rs.SyncInterval = 2 * rs.IntervalOrDefault()
	probe.Func(t, "RepairModel", RepairModel, set, rs)
	rres := *res
	rres.Setting = rs
	probe.Func(t, "CompareRepair", CompareRepair, set, ctx, &rres, RepairModel(rs), 100, uint64(1))
	rc, err := CompareRepair(ctx, &rres, RepairModel(rs), 100, 1)
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "RepairMarkdown", RepairMarkdown, set, Meta{Date: "d"}, []*RepairComparison{rc})
}
