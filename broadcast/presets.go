package broadcast

import (
	"math"
	"time"
)

// Preset is one of memberlist's named configurations, in the fields the
// model takes from it. The values are memberlist v0.7.0's (config.go);
// validate/memberlist's TestPresets reads them from the pinned module and
// compares them with Presets.
type Preset struct {
	// Name is gossipkit's name (plan --preset), Memberlist the function of
	// memberlist that returns the configuration.
	Name, Memberlist string
	// GossipNodes is the fanout k; GossipInterval one interval of the
	// asynchronous clock; RetransmitMult sets the budget,
	// MemberlistBudget(N, RetransmitMult).
	GossipNodes    int
	GossipInterval time.Duration
	RetransmitMult int
	// PushPullInterval is the anti-entropy sync interval before
	// memberlist's scaling (PushPullScale).
	PushPullInterval time.Duration
	// ProbeInterval is the failure detector's period; the model does not
	// use it (broadcasts that ride on probes and acks are not modelled:
	// docs/MODEL.md §6).
	ProbeInterval time.Duration
}

var presets = []Preset{
	{Name: "memberlist-lan", Memberlist: "DefaultLANConfig", GossipNodes: 3, GossipInterval: 200 * time.Millisecond, RetransmitMult: 4,
		PushPullInterval: 30 * time.Second, ProbeInterval: time.Second},
	{Name: "memberlist-wan", Memberlist: "DefaultWANConfig", GossipNodes: 4, GossipInterval: 500 * time.Millisecond, RetransmitMult: 4,
		PushPullInterval: 60 * time.Second, ProbeInterval: 5 * time.Second},
	{Name: "memberlist-local", Memberlist: "DefaultLocalConfig", GossipNodes: 3, GossipInterval: 100 * time.Millisecond, RetransmitMult: 2,
		PushPullInterval: 15 * time.Second, ProbeInterval: time.Second},
}

// Presets returns memberlist's named configurations, in order (a copy).
func Presets() []Preset { return append([]Preset(nil), presets...) }

// PresetNames are the presets' names, in order.
func PresetNames() []string {
	var n []string
	for _, p := range presets {
		n = append(n, p.Name)
	}
	return n
}

// PresetByName returns the preset of a name and whether there is one.
func PresetByName(name string) (Preset, bool) {
	for _, p := range presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// Apply returns cfg with the preset's fanout, budget (for cfg.Nodes),
// interval (seconds), sync interval (seconds) and the asynchronous clock.
func (p Preset) Apply(cfg Config) Config {
	cfg.Fanout = p.GossipNodes
	cfg.Budget = MemberlistBudget(cfg.Nodes, p.RetransmitMult)
	cfg.Interval = p.GossipInterval.Seconds()
	cfg.SyncInterval = p.PushPullInterval.Seconds()
	cfg.Time = Async
	return cfg
}

// PushPullScale is memberlist's scaling of the sync interval (util.go,
// pushPullScale) for a cluster of n members: the interval itself up to 32
// members, else ⌈log2 n − log2 32⌉ + 1 times it, computed as memberlist
// computes it.
func PushPullScale(interval float64, n int) float64 {
	if n <= 32 {
		return interval
	}
	return (math.Ceil(math.Log2(float64(n))-math.Log2(32)) + 1) * interval
}
