package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gossipkit/gossipkit/broadcast"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/plan"
	"github.com/gossipkit/gossipkit/sim"
)

// The flags that belong to one family of protocols only: a flag of the
// other family is refused (planFamily).
var (
	shuffleOnly   = []string{"n", "c", "s", "initial", "pdrop", "model", "accuracy", "topology"}
	broadcastOnly = []string{"fanout", "failed", "budget", "interval", "message-bytes", "max-miss", "preset", "sync-interval"}
)

// design is a design answer, written as plan prints it (plan.Design,
// plan.LossDesign, broadcast.Design).
type design interface {
	Write(w io.Writer, format string) error
}

// maxSettings bounds the settings one plan sweeps (exchange sizes, or
// fanouts × budgets): the libraries' bound (plan.MaxSettings =
// broadcast.MaxSettings), checked here on the flags' ranges before they
// are expanded.
const maxSettings = plan.MaxSettings

func cmdPlan(fs *cli.FlagSet) cli.Run {
	protocols := append([]string{"shuffle"}, broadcast.ProtocolNames()...)
	protocol := fs.String("protocol", "shuffle", "shuffle (the paper's protocol: -n -c -s --initial --time --pdrop --model --accuracy --topology) or a broadcast protocol, push, pull or push-pull (--fanout --failed --budget --interval --message-bytes); both take --loss")
	// The shuffle's configuration holds the flags both families share.
	cfg := plan.Config{Nodes: 1000, Shuffle: defaultShuffle, Initial: 1, Level: 0.99, Confidence: 0.95}
	fs.IntParam(&cfg.Nodes, "N", "Config", plan.Nodes, "the exact method "+plan.ExactNodes.Range+" for the shuffle")
	cli.ShuffleFlags(fs, &cfg.Shuffle, "Config.", false)
	sS := fs.String("s", "50", "exchange size s: V, or a range LO:HI[:STEP] (1 ≤ s ≤ c, s < n; s < c except with --method exact)")
	fs.Bind("Config.Shuffle.Exchange", "s")
	// Not IntParam, whose refusal of a 0 given reads "1..N": planShuffle
	// refuses it with N's value.
	fs.IntField(&cfg.Initial, "initial", plan.Initial.Path("Config"), plan.Initial.Usage())
	fs.FloatParam(&cfg.Level, "level", "Config", plan.Level, "T_L is the time until ⌈L·N⌉ nodes have held the item (broadcast: ⌈L·M⌉ of the M live nodes are informed)")
	fs.FloatParam(&cfg.Deadline, "deadline", "Config", plan.Deadline, "P(T_L ≤ D) and which settings meet it with probability --confidence")
	fs.FloatParam(&cfg.Confidence, "confidence", "Config", plan.Confidence, "t_confidence is the smallest deadline met with probability P")
	var set plan.Settings
	cli.Enum(fs, &set.Method, "method", "Settings.Method", "method (auto: exact where it fits the budget, else asymptotic; for broadcast, else mc where the asymptotic law does not apply)")
	set.Reps, set.Seed = 1000, 1
	cli.MCFlags(fs, &set.Reps, "Settings", sim.Reps, &set.Seed, &set.Workers, sim.DefaultWorkers())
	set.Model = sim.Markov
	cli.Enum(fs, &set.Model, "model", "Settings.Model", "what --method mc simulates (markov: the pairwise model shuffle by shuffle; lumped: the same law on its state (X, Y), event by event, O(N) work a replication; protocol: every cache)", sim.Markov, sim.Protocol, sim.Lumped)
	fs.FloatParam(&set.Accuracy, "accuracy", "Settings", plan.AutoAccuracy)
	tm := planTimeFlag(fs)
	loss := cli.LossFlag(fs, nil, "Config.Loss", true)
	topologyFlag(fs, &cfg.Topology, "the shuffle's network for --method mc (markov or protocol): full, regular:DEG or torus:RADIUS; no exact or asymptotic law covers another")
	pdropFlag(fs, &cfg.PDrop, "Config.PDrop")
	var bc broadcast.Config
	fs.Bind("Config.Protocol", "protocol")
	fanout := fs.RangeParam("fanout", "Config", broadcast.Fanout, "3", "K or a range LO:HI[:STEP]")
	fs.FloatParam(&bc.Failed, "failed", "Config", broadcast.Failed)
	budget := fs.RangeParam("budget", "Config", broadcast.Budget, "0", "B, a range LO:HI[:STEP], or memberlist[:MULT] = MULT·⌈log10(N+1)⌉ (MULT 4 by default)")
	fs.FloatParam(&bc.Interval, "interval", "Config", broadcast.Interval, "answers also in seconds")
	fs.IntParam(&bc.MessageBytes, "message-bytes", "Config", broadcast.MessageBytes, "answers also in bytes per node")
	fs.FloatParam(&bc.MaxMiss, "max-miss", "Config", broadcast.MaxMiss, "cheapest is then the feasible setting with the fewest messages, and each fanout's smallest feasible budget is named")
	format, out := fs.Output("text")
	mf := planMemberlistFlags(fs)
	shardS := fs.String("shard", "", "broadcast with --method mc: run only shard I/M of the replications (r mod M = I−1) of one fanout and budget, and write a part file for `gossipkit merge` to -o (a file, or a directory ending in /)")
	return func(ctx context.Context, e *env) error {
		if err := mf.protocol(fs.FlagSet, protocol); err != nil {
			return err
		}
		if !slices.Contains(protocols, *protocol) {
			return usagef("--protocol %q: valid values are %s", *protocol, strings.Join(protocols, ", "))
		}
		if err := planFamily(fs.FlagSet, *protocol); err != nil {
			return err
		}
		// The libraries read 0 as 0.95 (FloatParam refuses a 0 given);
		// the flag promises plan.Confidence's range to both families.
		if err := plan.Confidence.Check("plan", "Config", cfg.Confidence); err != nil {
			return err
		}
		if set.Reps < 1 || set.Reps > broadcast.MaxReps { // the libraries read 0 as 1000
			return usagef("--reps %d: valid range 1..%d", set.Reps, broadcast.MaxReps)
		}
		if err := cli.CheckWorkers(set.Workers); err != nil {
			return err
		}
		var d design
		var err error
		if *shardS == "" && *out != "" && *out != "-" {
			// A folder is -o only for a shard (the parser lets it pass
			// for commands that have --shard).
			if err := cli.CheckOut("-o", *out); err != nil {
				return err
			}
		}
		if *shardS != "" && (*protocol == "shuffle" || set.Method != plan.MonteCarlo) {
			return usagef("--shard %q: shards are for a broadcast protocol's Monte Carlo (--protocol push|pull|push-pull --method mc)", *shardS)
		}
		if *protocol == "shuffle" {
			if cfg.Time, err = tm.shuffle(); err != nil {
				return err
			}
			d, err = planShuffle(ctx, e, cfg, *sS, *loss, set)
		} else {
			if len(*loss) > 1 {
				return usagef("--loss: a grid of %d values of ε is for --protocol shuffle; give one value", len(*loss))
			}
			bc.Loss = (*loss)[0]
			bc.Protocol, _ = broadcast.ParseProtocol(*protocol)
			bc.Nodes, bc.Level, bc.Deadline, bc.Confidence = cfg.Nodes, cfg.Level, cfg.Deadline, cfg.Confidence
			bset := broadcast.Settings{Method: set.Method, Reps: set.Reps, Seed: set.Seed, Workers: set.Workers}
			if err := mf.apply(fs.FlagSet, &bc, fanout, budget, tm, *protocol, *shardS != ""); err != nil {
				return err
			}
			if *shardS != "" {
				return planShard(ctx, e, bc, *fanout, *budget, bset, *shardS, *out)
			}
			d, err = planBroadcast(ctx, e, bc, *fanout, *budget, bset)
		}
		if err != nil {
			return err
		}
		return output(e, *out, func(w io.Writer) error { return d.Write(w, *format) })
	}
}

// planFamily refuses the flags of the other family of protocols, naming
// every one given.
func planFamily(fs *flag.FlagSet, protocol string) error {
	other, family := broadcastOnly, "broadcast"
	if protocol != "shuffle" {
		other, family = shuffleOnly, "shuffle"
	}
	var given []string
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(other, f.Name) {
			given = append(given, cli.FlagName(f.Name))
		}
	})
	if len(given) > 0 {
		return usagef("%s: %s flags, not used with --protocol %s", strings.Join(given, ", "), family, protocol)
	}
	return nil
}

// planRange parses a flag's V or LO:HI[:STEP] (values ≥ lo, a range's
// ends within p's range).
func planRange(flag, val string, lo int, p gossip.Param) ([]int, error) {
	r, err := cli.IntRange(flag, val, lo, p)
	if err != nil {
		return nil, err
	}
	if (r.Hi-r.Lo)/r.Step+1 > maxSettings {
		return nil, usagef("%s %q: at most %d values", flag, val, maxSettings)
	}
	return r.Values(), nil
}

func planShuffle(ctx context.Context, e *env, cfg plan.Config, sS string, losses []float64, set plan.Settings) (design, error) {
	// The library reads 0 as 1 (plan.Initial.Default) and refuses the
	// rest of what is outside 1..N (plan.Check).
	if cfg.Initial == 0 {
		return nil, usagef("--initial 0: valid range 1..%d", max(cfg.Nodes, 1))
	}
	ss, err := planRange("-s", sS, 1, gossip.Exchange)
	if err != nil {
		return nil, err
	}
	if len(losses)*len(ss) > maxSettings {
		return nil, usagef("--loss, -s: %d settings; at most %d", len(losses)*len(ss), maxSettings)
	}
	cfg.Loss = losses[len(losses)-1] // the largest: LossSweep checks each
	if err := plan.Check(cfg, ss, set); err != nil {
		return nil, err
	}
	if set.Method == plan.MonteCarlo || cfg.Topology.Kind != sim.Full {
		// The replications' memory, as sim checks it (rounds do not matter
		// to the caches; 1000 bounds the trajectories of a usual run).
		sc := sim.Config{Model: set.Model, Nodes: cfg.Nodes, Shuffle: cfg.Shuffle, Rounds: 1000, Reps: set.Reps, Initial: cfg.Initial, Topology: cfg.Topology}
		sc.Shuffle.Exchange = ss[0]
		if sc.Model == sim.Lumped {
			sc.Model = sim.Markov // plan samples the lumped chain itself: bounded by Markov's trajectories
		}
		var fe *sim.FieldError
		if err := sc.CheckMemory(max(set.Workers, 1), sim.AvailableMemory()); errors.As(err, &fe) && fe.Field == "Config.Rounds" {
			return nil, usagef("--reps %d: the trajectories of the Monte Carlo would take more than %d GiB; use fewer replications", set.Reps, sim.MaxResultBytes>>30)
		} else if err != nil {
			return nil, err
		}
	}
	if set.Method == plan.MonteCarlo {
		// Under a deadline (serve): every replication runs one round of N
		// shuffles at least (sim.Config.MinCPUSeconds' speed).
		sc := sim.Config{Model: set.Model, Nodes: cfg.Nodes, Rounds: 1, Reps: set.Reps * len(ss) * len(losses)}
		if err := cli.CheckTime(ctx, sc.MinCPUSeconds(), set.Workers, fmt.Sprintf("the Monte Carlo (%d settings × %d replications at N = %d)", len(ss)*len(losses), set.Reps, cfg.Nodes), "--reps or -N, or use --method asymptotic"); err != nil {
			return nil, err
		}
	}
	prog := newProgress(e, "plan")
	set.Progress = func(done, total int64) { prog(min(done, total), total) }
	if len(losses) > 1 {
		ld, err := plan.LossSweep(ctx, cfg, ss, losses, set)
		if err != nil {
			return nil, err
		}
		return ld, nil
	}
	d, err := plan.Sweep(ctx, cfg, ss, set)
	if err != nil {
		return nil, err
	}
	return d, nil
}

func planBroadcast(ctx context.Context, e *env, cfg broadcast.Config, fanout, budget string, set broadcast.Settings) (design, error) {
	ks, bs, err := planSettings(cfg, fanout, budget)
	if err != nil {
		return nil, err
	}
	if set.Method == plan.MonteCarlo || cfg.Time == broadcast.Async {
		// Under a deadline (serve), a Monte Carlo that cannot end in time
		// is refused at once: each replication visits every node, at 5 ns
		// a node or more (measured: 35–40 ns for push, pull and push–pull).
		n := len(ks) * len(bs)
		cpu := float64(n) * float64(set.Reps) * float64(cfg.Nodes) * 5e-9
		if cfg.Time == broadcast.Async {
			cpu = asyncCPU(cfg, ks, bs, set.Reps)
		}
		if err := cli.CheckTime(ctx, cpu, set.Workers, fmt.Sprintf("the Monte Carlo (%d settings × %d replications at N = %d)", n, set.Reps, cfg.Nodes), "--reps or -N, or use --method asymptotic"); err != nil {
			return nil, err
		}
	}
	if err := planResolvable(cfg, set); err != nil {
		return nil, err
	}
	prog := newProgress(e, "plan")
	set.Progress = func(done, total int64) { prog(min(done, total), total) }
	d, err := broadcast.Sweep(ctx, cfg, ks, bs, set)
	if errors.Is(err, broadcast.ErrNotCovered) {
		// A method asked for by name that has no law here (the exact
		// chain past its size, the asymptotic law with a budget below
		// broadcast.LumpedMinLive live nodes): the
		// combination of flags is refused, as bad input.
		return nil, usagef("--method %v: %v", set.Method, err)
	}
	if err != nil {
		return nil, err
	}
	if u := d.Unresolved(); u != nil { // a confidence no method of the rows resolves
		return nil, planUnresolved(u, set.Reps, true)
	}
	return d, nil
}

// planShard runs one shard of a broadcast Monte Carlo (one fanout and
// budget) and writes its part file; `gossipkit merge` combines the parts
// into the answer the single run prints, exactly.
func planShard(ctx context.Context, e *env, cfg broadcast.Config, fanout, budget string, set broadcast.Settings, shardS, out string) error {
	id, err := shard.Parse(shardS)
	if err != nil {
		return usagef("--shard %v", err)
	}
	ks, bs, err := planSettings(cfg, fanout, budget)
	if err != nil {
		return err
	}
	if len(ks) != 1 || len(bs) != 1 {
		return usagef("--shard %s: one fanout and one budget a run (--fanout %q, --budget %q)", shardS, fanout, budget)
	}
	cfg.Fanout, cfg.Budget = ks[0], bs[0]
	sset := broadcast.SimSettings{Reps: set.Reps, Seed: set.Seed, Workers: set.Workers, Indices: id.Indices(set.Reps)}
	if len(sset.Indices) == 0 {
		return usagef("--shard %s: no replication falls in this shard (--reps %d)", shardS, set.Reps)
	}
	path, err := cli.ShardOut(e, out, shard.FileName(id))
	if err != nil {
		return err
	}
	prog := newProgress(e, "plan")
	sset.Progress = func(done, total int64) { prog(min(done, total), total) }
	smp, err := broadcast.Simulate(ctx, cfg, sset)
	if err != nil {
		return err
	}
	return cli.WritePart(e, "plan", path, func(w io.Writer) error { return broadcast.WritePart(w, smp, id) },
		fmt.Sprintf("%d of %d replications: r mod %d = %d", len(sset.Indices), set.Reps, id.Count, id.Index-1), "")
}

// planSettings expands --fanout and --budget and checks every setting
// before any work.
func planSettings(cfg broadcast.Config, fanout, budget string) (ks, bs []int, err error) {
	ks, err = planRange("--fanout", fanout, 0, broadcast.Fanout)
	if err != nil {
		return nil, nil, err
	}
	if rest, ok := strings.CutPrefix(budget, "memberlist"); ok {
		mult := broadcast.DefaultRetransmitMult
		if rest != "" {
			m, err := strconv.Atoi(strings.TrimPrefix(rest, ":"))
			if err != nil || !strings.HasPrefix(rest, ":") || m < 1 || m > 1000 {
				return nil, nil, usagef("--budget %q: want memberlist or memberlist:MULT with MULT in 1..1000", budget)
			}
			mult = m
		}
		bs = []int{broadcast.MemberlistBudget(cfg.Nodes, mult)}
	} else if bs, err = planRange("--budget", budget, 0, broadcast.Budget); err != nil {
		return nil, nil, err
	}
	if len(ks)*len(bs) > maxSettings {
		return nil, nil, usagef("--fanout %q, --budget %q: %d settings; at most %d", fanout, budget, len(ks)*len(bs), maxSettings)
	}
	// Every setting is checked before any work (Sweep checks each as it
	// comes to it).
	for _, k := range ks {
		for _, b := range bs {
			c := cfg
			c.Fanout, c.Budget = k, b
			if err := c.Validate(); err != nil {
				return nil, nil, err
			}
		}
	}
	return ks, bs, nil
}
