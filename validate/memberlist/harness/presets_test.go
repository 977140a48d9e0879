package harness

import (
	"testing"

	"github.com/hashicorp/memberlist"

	"github.com/gossipkit/gossipkit/broadcast"
)

// memberlistConfigs are the pinned module's named configurations, by the
// name gossipkit's presets give (broadcast.Preset.Memberlist).
var memberlistConfigs = map[string]func() *memberlist.Config{
	"DefaultLANConfig":   memberlist.DefaultLANConfig,
	"DefaultWANConfig":   memberlist.DefaultWANConfig,
	"DefaultLocalConfig": memberlist.DefaultLocalConfig,
}

// TestPresets reads memberlist's named configurations from the pinned
// module (MemberlistVersion) and compares gossipkit's exported table,
// broadcast.Presets (plan --preset), field by field. Every one of
// memberlist's three must have its preset.
func TestPresets(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range broadcast.Presets() {
		t.Run(p.Name, func(t *testing.T) {
			f, ok := memberlistConfigs[p.Memberlist]
			if !ok {
				t.Fatalf("preset %s names %q, not one of memberlist's configurations", p.Name, p.Memberlist)
			}
			seen[p.Memberlist] = true
			c := f()
			for _, x := range []struct {
				field     string
				got, want any
			}{
				{"GossipNodes", c.GossipNodes, p.GossipNodes},
				{"GossipInterval", c.GossipInterval, p.GossipInterval},
				{"RetransmitMult", c.RetransmitMult, p.RetransmitMult},
				{"PushPullInterval", c.PushPullInterval, p.PushPullInterval},
				{"ProbeInterval", c.ProbeInterval, p.ProbeInterval},
			} {
				if x.got != x.want {
					t.Errorf("memberlist %s %s: %s = %v, gossipkit's preset says %v", MemberlistVersion, p.Memberlist, x.field, x.got, x.want)
				}
			}
		})
	}
	for name := range memberlistConfigs {
		if !seen[name] {
			t.Errorf("memberlist's %s has no preset in broadcast.Presets", name)
		}
	}
}
