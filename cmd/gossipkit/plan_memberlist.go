package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/gossipkit/gossipkit/broadcast"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/cli"
)

// planTime is plan's --time: the shuffle's clock (gossip.Time: continuous
// or shuffles) or a broadcast's (broadcast.Time: rounds or async). Which
// applies is known once --protocol is, so the value is checked then.
type planTime struct{ s string }

func (p *planTime) String() string     { return p.s }
func (p *planTime) Set(s string) error { p.s = s; return nil }

// shuffle is the shuffle's clock (continuous when not given).
func (p *planTime) shuffle() (gossip.Time, error) {
	if p.s == "" {
		return gossip.Continuous, nil
	}
	for _, t := range []gossip.Time{gossip.Continuous, gossip.Shuffles} {
		if t.String() == p.s {
			return t, nil
		}
	}
	return 0, usagef("--time %q: valid values are continuous, shuffles", p.s)
}

// broadcast is a broadcast protocol's clock (rounds when not given).
func (p *planTime) broadcast(protocol string) (broadcast.Time, error) {
	if p.s == "" {
		return broadcast.Rounds, nil
	}
	t, err := broadcast.ParseTime(p.s)
	if err != nil {
		return 0, usagef("--time %q: valid values for --protocol %s are %s", p.s, protocol, strings.Join(broadcast.TimeNames(), ", "))
	}
	return t, nil
}

// planTimeFlag declares --time bound to the shuffle's Config.Time.
func planTimeFlag(fs *cli.FlagSet) *planTime {
	p := &planTime{}
	fs.Var(p, "time", "time model: the shuffle's continuous (default) or shuffles (go doc ./gossip Time); a broadcast protocol's rounds (default) or async, every node's gossip ticker at its own uniform phase, times in intervals (go doc ./broadcast Time)")
	fs.Bind("Config.Time", "time")
	return p
}

// memberlistFlags are plan's --preset and --sync-interval.
type memberlistFlags struct {
	preset       *string
	syncInterval *float64
}

func planMemberlistFlags(fs *cli.FlagSet) memberlistFlags {
	return memberlistFlags{
		preset: fs.String("preset", "", "a broadcast protocol set as memberlist's named configuration, "+strings.Join(broadcast.PresetNames(), ", ")+
			": --fanout (GossipNodes), --interval (GossipInterval), --budget memberlist:RetransmitMult, --sync-interval (PushPullInterval) and --time async; a flag given explicitly overrides the preset's value; implies --protocol push where it is not given"),
		syncInterval: fs.Float64("sync-interval", 0, "seconds between a node's anti-entropy syncs (memberlist's PushPullInterval, scaled as memberlist scales it above 32 nodes): the chance a live node still lacks the update t seconds after the broadcast (for what a sync carries: Serf user events; not queries or plain memberlist broadcasts); 0: none"),
	}
}

// protocol checks --preset's name before any other flag and makes a
// preset imply --protocol push where --protocol is not given (memberlist
// pushes).
func (m memberlistFlags) protocol(fs *flag.FlagSet, protocol *string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if !given["preset"] {
		return nil
	}
	if _, ok := broadcast.PresetByName(*m.preset); !ok {
		return usagef("--preset %q: valid values are %s", *m.preset, strings.Join(broadcast.PresetNames(), ", "))
	}
	if !given["protocol"] {
		*protocol = broadcast.Push.String()
	}
	return nil
}

// apply sets a broadcast's flags from the preset where they were not
// given explicitly, then the clock (--time) and the sync interval into
// bc. A shard runs the rounds only (its part file carries no clock).
func (m memberlistFlags) apply(fs *flag.FlagSet, bc *broadcast.Config, fanout, budget *string, tm *planTime, protocol string, shard bool) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	sync := *m.syncInterval
	if given["sync-interval"] && !(sync > 0 && sync <= 1e9) {
		return usagef("--sync-interval %v: valid range (0, 1e9] seconds", sync)
	}
	if given["preset"] {
		p, _ := broadcast.PresetByName(*m.preset) // checked by protocol
		if !given["fanout"] {
			*fanout = strconv.Itoa(p.GossipNodes)
		}
		if !given["budget"] {
			if protocol == broadcast.Pull.String() {
				return usagef("--preset %s: sets memberlist's transmit budget (--budget memberlist:%d), and --protocol pull does not push; use --protocol push or push-pull", *m.preset, p.RetransmitMult)
			}
			*budget = fmt.Sprintf("memberlist:%d", p.RetransmitMult)
		}
		if !given["interval"] {
			bc.Interval = p.GossipInterval.Seconds()
		}
		if !given["time"] {
			tm.s = broadcast.Async.String()
		}
		if !given["sync-interval"] {
			sync = p.PushPullInterval.Seconds()
		}
	}
	t, err := tm.broadcast(protocol)
	if err != nil {
		return err
	}
	if shard && t != broadcast.Rounds {
		return usagef("--shard: shards run the rounds' Monte Carlo (--time rounds); --time %v is not sharded", t)
	}
	if shard && sync > 0 {
		return usagef("--shard: the repair (--sync-interval or a preset's) is computed by plan itself, not in shards")
	}
	bc.Time, bc.SyncInterval = t, sync
	return nil
}

// asyncCPU is a lower bound on the CPU seconds of the asynchronous Monte
// Carlo over the settings: every live node's transmits (its budget, or k
// a tick) at 50 ns each or more (measured: about 300 ns at N = 10^5 on a
// loaded machine).
func asyncCPU(cfg broadcast.Config, ks, bs []int, reps int) float64 {
	cpu := 0.0
	for _, k := range ks {
		for _, b := range bs {
			cpu += float64(reps) * float64(cfg.Nodes) * float64(max(b, k)) * 5e-8
		}
	}
	return cpu
}
