package harness

import (
	"testing"
	"time"

	"github.com/hashicorp/memberlist"
)

// preset is one of memberlist's named configurations, in the fields
// gossipkit's presets (issue 41: plan --preset memberlist-lan|wan|local)
// take from it.
type preset struct {
	Name             string
	Config           func() *memberlist.Config
	GossipNodes      int
	GossipInterval   time.Duration
	RetransmitMult   int
	PushPullInterval time.Duration
	ProbeInterval    time.Duration
}

// gossipkitPresets is the table gossipkit states. gossipkit does not
// export its presets yet, so the table is written here, each value read
// from memberlist v0.7.0's config.go (line numbers of that file); when
// gossipkit exports its table, return it from here instead and the test
// checks gossipkit's values against the pinned module.
func gossipkitPresets() []preset {
	return []preset{
		{
			Name: "memberlist-lan", Config: memberlist.DefaultLANConfig,
			GossipNodes:      3,                      // config.go:322 GossipNodes: 3
			GossipInterval:   200 * time.Millisecond, // config.go:323 GossipInterval: 200 * time.Millisecond
			RetransmitMult:   4,                      // config.go:313 RetransmitMult: 4
			PushPullInterval: 30 * time.Second,       // config.go:316 PushPullInterval: 30 * time.Second
			ProbeInterval:    1 * time.Second,        // config.go:318 ProbeInterval: 1 * time.Second
		},
		{
			// DefaultWANConfig starts from DefaultLANConfig (config.go:347).
			Name: "memberlist-wan", Config: memberlist.DefaultWANConfig,
			GossipNodes:      4,                      // config.go:353 conf.GossipNodes = 4
			GossipInterval:   500 * time.Millisecond, // config.go:354 conf.GossipInterval = 500 * time.Millisecond
			RetransmitMult:   4,                      // inherited, config.go:313
			PushPullInterval: 60 * time.Second,       // config.go:350 conf.PushPullInterval = 60 * time.Second
			ProbeInterval:    5 * time.Second,        // config.go:352 conf.ProbeInterval = 5 * time.Second
		},
		{
			// DefaultLocalConfig starts from DefaultLANConfig (config.go:381).
			Name: "memberlist-local", Config: memberlist.DefaultLocalConfig,
			GossipNodes:      3,                      // inherited, config.go:322
			GossipInterval:   100 * time.Millisecond, // config.go:389 conf.GossipInterval = 100 * time.Millisecond
			RetransmitMult:   2,                      // config.go:384 conf.RetransmitMult = 2
			PushPullInterval: 15 * time.Second,       // config.go:386 conf.PushPullInterval = 15 * time.Second
			ProbeInterval:    1 * time.Second,        // config.go:388 conf.ProbeInterval = time.Second
		},
	}
}

// TestPresets reads memberlist's named configurations from the pinned
// module and compares them with gossipkit's table, field by field.
func TestPresets(t *testing.T) {
	for _, p := range gossipkitPresets() {
		t.Run(p.Name, func(t *testing.T) {
			c := p.Config()
			for _, f := range []struct {
				field     string
				got, want any
			}{
				{"GossipNodes", c.GossipNodes, p.GossipNodes},
				{"GossipInterval", c.GossipInterval, p.GossipInterval},
				{"RetransmitMult", c.RetransmitMult, p.RetransmitMult},
				{"PushPullInterval", c.PushPullInterval, p.PushPullInterval},
				{"ProbeInterval", c.ProbeInterval, p.ProbeInterval},
			} {
				if f.got != f.want {
					t.Errorf("memberlist %s: %s = %v, gossipkit's table says %v", MemberlistVersion, f.field, f.got, f.want)
				}
			}
		})
	}
}
