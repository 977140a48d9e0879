package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/gossipkit/gossipkit/internal/buildinfo"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/shard"
)

// PartFormat and PartVersion identify a part file.
const (
	PartFormat  = "gossipkit-sim-part"
	PartVersion = 3
)

// Part is one shard's share of an experiment, as written to a part file.
//
// # File format (version 3)
//
// A part file is one gzip member whose content is a JSON object:
//
//	format       "gossipkit-sim-part"
//	version      3
//	build        the identity of the gossipkit that wrote it
//	             (buildinfo.Identity: version, VCS revision, hash of the
//	             executable); a part of another build is refused
//	config       the experiment: every field of Config (seed as a decimal
//	             string, enums as their names); identical in every part
//	connected    whether the topology is connected
//	shard        {"index": I, "count": M}: this part ran the replications r
//	             with r mod M = I − 1
//	replications the indices it holds, increasing
//	moments      per round t = 0..T, for x, y and y_round: {"count", "sum", "sumsq"},
//	             exact integers (sumsq as a decimal string): count, Σv, Σv²
//	             of the node counts over this part's replications. A reader
//	             recomputes them from the trajectories and rejects a part
//	             where they differ.
//	reps         per replication: index, x, y and y_round (node counts at
//	             t = 0..T: holders, nodes that have held d, nodes that held
//	             it at a snapshot), alive (Replication.Alive; present only
//	             in a lossy protocol run) and its integer counters
//
// The configuration's "loss" (Config.Loss, a decimal string like "fail")
// and a replication's "alive" are present only when the loss is not 0, so
// a lossless part is byte for byte what it was before loss existed, and
// the version stays 3: a part of another build is refused anyway, so no
// reader ever sees a field it does not know. Version 1 had no y_round,
// version 2 no build; this gossipkit refuses them (rerun the shard).
//
// A reader treats a part as untrusted input: before it decodes the
// replications, it reads the header alone and refuses a part whose plain
// size or number of JSON objects exceeds what its own configuration and
// shard allow (partBounds), or whose replications would need more than
// MaxPartMemory bytes, so that a small hostile file (10^8 empty objects
// compress to a few megabytes) cannot make it allocate gigabytes.
//
// gzip's CRC-32 and length check reject truncated or corrupted files; the
// decoder rejects unknown fields. Merging adds the integer power sums, so a
// merge is exact and independent of the order of the parts; the
// trajectories give exact quantiles.
type Part struct {
	Format       string        `json:"format"`
	Version      int           `json:"version"`
	Build        string        `json:"build"`
	Config       partConfig    `json:"config"`
	Connected    bool          `json:"connected"`
	Shard        ShardID       `json:"shard"`
	Replications []int         `json:"replications"`
	Moments      partMoments   `json:"moments"`
	Reps         []Replication `json:"reps"`
}

// ShardID is shard Index of Count (1 ≤ Index ≤ Count); shard I of M runs
// the replications r with r mod M = I − 1 (ShardID.Indices). It is the same
// type as tree.ShardID.
type ShardID = shard.ID

// ShardFromEnv reads the shard of this process from a batch scheduler's
// array-index variable (Kubernetes, Slurm, AWS Batch); count is the
// number of shards where the scheduler does not give it (0 or less:
// unknown). It returns nil when no such variable is set, and otherwise the
// shard and a description of the variable it came from.
// A nil getenv reads no variable: nil.
func ShardFromEnv(getenv func(string) string, count int) (*ShardID, string, error) {
	if getenv == nil {
		return nil, "", nil
	}
	return shard.FromEnv(getenv, count)
}

type partConfig struct {
	Model    string `json:"model"`
	Nodes    int    `json:"N"`
	Items    int    `json:"n"`
	Cache    int    `json:"c"`
	Exchange int    `json:"s"`
	Warmup   int    `json:"warmup"`
	Rounds   int    `json:"rounds"`
	Reps     int    `json:"reps"`
	Seed     string `json:"seed"`
	Initial  int    `json:"initial"`
	Schedule string `json:"schedule"`
	Ticks    int    `json:"ticks"`
	Topology string `json:"topology"`
	PDrop    string `json:"pdrop"`
	Fail     string `json:"fail"`
	// Loss is absent in a lossless part, which is then byte for byte the
	// part of a gossipkit without loss.
	Loss string `json:"loss,omitempty"`
	// WarmStates is absent when 0 (every replication warms its own
	// caches), so such a part is byte for byte that of a gossipkit without
	// warm states; parts of one experiment must agree on it.
	WarmStates int `json:"warm_states,omitempty"`
}

type momentJSON struct {
	Count int64  `json:"count"`
	Sum   int64  `json:"sum"`
	SumSq string `json:"sumsq"`
}

type partMoments struct {
	X  []momentJSON `json:"x"`
	Y  []momentJSON `json:"y"`
	YR []momentJSON `json:"y_round"`
}

func toPartConfig(c Config) partConfig {
	return partConfig{Model: c.Model.String(), Nodes: c.Nodes, Items: c.Shuffle.Items, Cache: c.Shuffle.Cache, Exchange: c.Shuffle.Exchange,
		Warmup: c.Warmup, Rounds: c.Rounds, Reps: c.Reps, Seed: strconv.FormatUint(c.Seed, 10), Initial: c.Initial,
		Schedule: c.Schedule.String(), Ticks: c.Ticks, Topology: c.Topology.String(), PDrop: c.PDrop.String(), Fail: strconv.FormatFloat(c.FailFraction, 'g', -1, 64),
		Loss: formatLoss(c.Loss), WarmStates: c.WarmStates}
}

// formatLoss is ε as a part file stores it: "" (absent) for 0, else the
// shortest decimal that reads back as ε.
func formatLoss(eps float64) string {
	if eps == 0 {
		return ""
	}
	return strconv.FormatFloat(eps, 'g', -1, 64)
}

func (p partConfig) config() (Config, error) {
	c := Config{Nodes: p.Nodes, Shuffle: gossip.Shuffle{Items: p.Items, Cache: p.Cache, Exchange: p.Exchange}, Warmup: p.Warmup,
		Rounds: p.Rounds, Reps: p.Reps, Initial: p.Initial, Ticks: p.Ticks, WarmStates: p.WarmStates}
	var err error
	if c.Model, err = ParseModel(p.Model); err != nil {
		return c, err
	}
	if c.Schedule, err = ParseSchedule(p.Schedule); err != nil {
		return c, err
	}
	if c.Topology, err = ParseTopology(p.Topology); err != nil {
		return c, err
	}
	if c.PDrop, err = approx.ParseVariant(p.PDrop); err != nil {
		return c, err
	}
	if c.Seed, err = strconv.ParseUint(p.Seed, 10, 64); err != nil {
		return c, fmt.Errorf("seed %q: %w", p.Seed, err)
	}
	if c.FailFraction, err = strconv.ParseFloat(p.Fail, 64); err != nil {
		return c, fmt.Errorf("fail %q: %w", p.Fail, err)
	}
	if p.Loss != "" {
		// Only the form formatLoss writes: a loss in (0, 1), shortest
		// decimal, so that two parts of one experiment agree byte for byte.
		if c.Loss, err = strconv.ParseFloat(p.Loss, 64); err != nil || !gossip.ValidLoss(c.Loss) || formatLoss(c.Loss) != p.Loss {
			return c, fmt.Errorf("loss %q: want a number in (0, 1) written as its shortest decimal (absent for 0)", p.Loss)
		}
	}
	return c, nil
}

func momentsOf(reps []Replication, T int, pick func(*Replication) []int32) []momentJSON {
	out := make([]momentJSON, T+1)
	vals := make([]int32, len(reps))
	for t := 0; t <= T; t++ {
		for i := range reps {
			vals[i] = pick(&reps[i])[t]
		}
		m := moments(vals)
		out[t] = momentJSON{Count: m.Count, Sum: m.Sum, SumSq: m.SumSq.String()}
	}
	return out
}

func pickX(r *Replication) []int32 { return r.X }
func pickY(r *Replication) []int32 { return r.Y }

func pickYR(r *Replication) []int32 { return r.YRound }

// WritePart writes res, the replications of shard id, as a part file. It
// refuses a result that is not one Run could have returned for that shard
// (an invalid configuration, trajectories of another length, a
// replication the shard does not own), which no reader would accept.
func WritePart(w io.Writer, res *Result, id ShardID) error {
	if res == nil {
		return errors.New("sim: WritePart: no result (nil)")
	}
	if err := res.Config.Validate(); err != nil {
		return fmt.Errorf("sim: WritePart: %w", err)
	}
	if !id.Valid() {
		return fmt.Errorf("sim: WritePart: bad shard %d/%d", id.Index, id.Count)
	}
	T := res.Config.Rounds
	for _, r := range res.Reps {
		if len(r.X) != T+1 || len(r.Y) != T+1 || len(r.YRound) != T+1 || r.Index < 0 || r.Index >= res.Config.Reps || !id.Owns(r.Index) {
			return fmt.Errorf("sim: WritePart: replication %d is not one of shard %d/%d's %d rounds", r.Index, id.Index, id.Count, T)
		}
	}
	if w == nil {
		return errors.New("sim: WritePart: no writer (nil)")
	}
	p := Part{Format: PartFormat, Version: PartVersion, Build: buildinfo.Identity(), Config: toPartConfig(res.Config), Connected: res.Connected, Shard: id}
	for _, r := range res.Reps {
		p.Replications = append(p.Replications, r.Index)
	}
	p.Moments = partMoments{X: momentsOf(res.Reps, T, pickX), Y: momentsOf(res.Reps, T, pickY), YR: momentsOf(res.Reps, T, pickYR)}
	// The replications, the last field, one at a time: their JSON is as
	// large as they are (MemoryEstimate counts them once).
	return shard.WriteJSONArray(w, &p, "reps", len(res.Reps), func(i int) any { return &res.Reps[i] })
}

// ReadPart reads and checks one part file: its format and version, its
// gzip integrity, its shard's replication set, the trajectory lengths, and
// the stored moments against the trajectories.
func ReadPart(r io.Reader) (*Part, error) {
	if r == nil {
		return nil, errors.New("sim: ReadPart: nil reader")
	}
	raw, err := shard.Decompress(r)
	if err != nil {
		return nil, err
	}
	return DecodePart(raw)
}

// MaxPartMemory bounds the memory the replications of one part may take
// once decoded (2 GiB): a larger shard is split into more shards.
const MaxPartMemory = 2 << 30

// DecodePart is ReadPart on a part file's decompressed JSON.
func DecodePart(raw []byte) (*Part, error) {
	if err := checkPartHeader(raw); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var p Part
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("sim: not a gossipkit part file: %v", err)
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return &p, nil
}

// check is what DecodePart checks of a decoded part, and Merge of the
// parts it is given: the format, a valid configuration and shard, the
// replications the shard owns with trajectories of T+1 rounds, the
// moments against the trajectories, and every value's range
// (checkRanges).
func (p *Part) check() error {
	if p.Format != PartFormat {
		return fmt.Errorf("sim: not a gossipkit part file (format %q)", p.Format)
	}
	cfg, err := p.Config.config()
	if err == nil {
		err = cfg.Validate()
	}
	if err != nil {
		return fmt.Errorf("sim: bad configuration in part file: %v", err)
	}
	if !p.Shard.Valid() {
		return fmt.Errorf("sim: bad shard %d/%d in part file", p.Shard.Index, p.Shard.Count)
	}
	T := cfg.Rounds
	if len(p.Reps) != len(p.Replications) || len(p.Moments.X) != T+1 || len(p.Moments.Y) != T+1 || len(p.Moments.YR) != T+1 {
		return errors.New("sim: corrupted part file: inconsistent lengths")
	}
	for i, rep := range p.Reps {
		if rep.Index != p.Replications[i] || rep.Index >= cfg.Reps || !p.Shard.Owns(rep.Index) {
			return fmt.Errorf("sim: corrupted part file: replication %d does not belong to shard %d/%d of %d", rep.Index, p.Shard.Index, p.Shard.Count, cfg.Reps)
		}
		if len(rep.X) != T+1 || len(rep.Y) != T+1 || len(rep.YRound) != T+1 {
			return fmt.Errorf("sim: corrupted part file: replication %d has %d rounds, want %d", rep.Index, len(rep.X)-1, T)
		}
	}
	for _, pair := range []struct {
		stored []momentJSON
		pick   func(*Replication) []int32
		name   string
	}{{p.Moments.X, pickX, "x"}, {p.Moments.Y, pickY, "y"}, {p.Moments.YR, pickYR, "y_round"}} {
		got := momentsOf(p.Reps, T, pair.pick)
		for t := range got {
			if got[t] != pair.stored[t] {
				return fmt.Errorf("sim: corrupted part file: the moments of %s at t = %d do not match its trajectories", pair.name, t)
			}
		}
	}
	return p.checkRanges(cfg)
}

// checkPartHeader reads the header of a part (format, version, build,
// configuration, shard) without decoding its replications, and checks the
// size of the rest against what that header allows.
func checkPartHeader(raw []byte) error {
	lim, err := partLimits(raw)
	switch {
	case err != nil:
		return err
	case int64(len(raw)) > lim.Bytes:
		return fmt.Errorf("sim: corrupted part file: %d bytes of JSON, more than its shard can hold (%d)", len(raw), lim.Bytes)
	case int64(bytes.Count(raw, []byte("{"))) > lim.Objects:
		return fmt.Errorf("sim: corrupted part file: more JSON objects than its shard holds (%d)", lim.Objects)
	}
	return nil
}

// The limits of a part's plain JSON apply while shard.Decompress counts
// it, before the part is held in memory.
// A header without the fields partLimits needs (a part whose fields come
// in another order, whose first arrays fill the header's bytes) gets no
// limits there: DecodePart checks it whole.
func init() {
	shard.RegisterLimits(PartFormat, func(header []byte) (shard.Limits, error) {
		var keys map[string]json.RawMessage
		if json.Unmarshal(header, &keys) != nil {
			return shard.Limits{}, nil
		}
		for _, k := range []string{"format", "version", "build", "config", "shard"} {
			if _, ok := keys[k]; !ok {
				return shard.Limits{}, nil
			}
		}
		return partLimits(header)
	})
}

// partLimits reads the header of a part (format, version, build,
// configuration, shard; the part's first fields, or the whole part's
// JSON: Unmarshal skips the fields it does not need without allocating
// for them) and returns what it allows of the whole part: partBounds. A
// part whose replications would need more than MaxPartMemory is refused.
func partLimits(header []byte) (shard.Limits, error) {
	var h struct {
		Format  string     `json:"format"`
		Version int        `json:"version"`
		Build   string     `json:"build"`
		Config  partConfig `json:"config"`
		Shard   ShardID    `json:"shard"`
	}
	if err := json.Unmarshal(header, &h); err != nil {
		return shard.Limits{}, fmt.Errorf("sim: not a gossipkit part file: %v", err)
	}
	if h.Format != PartFormat {
		return shard.Limits{}, fmt.Errorf("sim: not a gossipkit part file (format %q)", h.Format)
	}
	if h.Version != PartVersion {
		return shard.Limits{}, fmt.Errorf("sim: part format version %d, this gossipkit reads version %d (rerun the shard)", h.Version, PartVersion)
	}
	if id := buildinfo.Identity(); h.Build != id {
		return shard.Limits{}, fmt.Errorf("sim: part written by another build of gossipkit (%q; this is %q): rerun the shard with this build", h.Build, id)
	}
	cfg, err := h.Config.config()
	if err == nil {
		// Before its limits: a run Validate refuses (a result past
		// MaxResultBytes) is no run a part can come from.
		err = cfg.Validate()
	}
	if err != nil {
		return shard.Limits{}, fmt.Errorf("sim: bad configuration in part file: %v", err)
	}
	if !h.Shard.Valid() {
		return shard.Limits{}, fmt.Errorf("sim: bad shard %d/%d in part file", h.Shard.Index, h.Shard.Count)
	}
	reps, maxBytes, maxObjects, memory := partBounds(cfg, h.Shard)
	if memory > MaxPartMemory {
		return shard.Limits{}, fmt.Errorf("sim: a part of %d replications of %d rounds needs about %d MiB, more than %d MiB: split the run into more shards", reps, cfg.Rounds, memory>>20, MaxPartMemory>>20)
	}
	return shard.Limits{Bytes: int64(min(maxBytes, float64(1<<62))), Objects: int64(maxObjects)}, nil
}

// partBounds are the largest plain size and number of JSON objects a
// valid part of cfg's shard id can have, and the memory its replications
// take decoded. A replication's JSON is at most 3·(T+1) counts of up to 10
// digits and a comma, and 1 KiB for its index, keys, alive and counters
// (23 integers of up to 20 digits: 720 bytes at most); the moments are three
// arrays of T+1 objects of two integers and a decimal string of up to 40
// digits (under 128 bytes each); the rest is under 4 KiB. Objects: one per
// replication, one per moment, and the part's, config's, shard's and
// moments' own.
func partBounds(cfg Config, id ShardID) (reps int, maxBytes float64, maxObjects int, memory uint64) {
	reps = (cfg.Reps - id.Index + id.Count) / id.Count // r < R with r ≡ I−1 (mod M)
	T := float64(cfg.Rounds + 1)
	maxBytes = 4096 + 3*T*128 + float64(reps)*(3*T*11+1024)
	maxObjects = reps + 3*(cfg.Rounds+1) + 4
	return reps, maxBytes, maxObjects, uint64(reps) * repBytes(cfg.Rounds)
}

// MergeError is a set of parts that cannot be merged (the same type as
// tree.MergeError); Missing lists the replications missing when that is
// the reason.
type MergeError = shard.MergeError

func mergeErr(format string, a ...any) error {
	return &MergeError{Pkg: "sim", Msg: fmt.Sprintf(format, a...)}
}

// Merge combines parts of one experiment into the Result the single run
// would have produced. names label the parts in errors. It refuses parts of
// different experiments and replications present twice; missing
// replications are returned, and refused unless allowMissing.
func Merge(parts []*Part, names []string, allowMissing bool) (*Result, shard.Spans, error) {
	if len(parts) == 0 {
		return nil, nil, mergeErr("no parts to merge")
	}
	if err := checkMergeable(parts, names); err != nil {
		return nil, nil, err
	}
	for i, p := range parts {
		// A part made in memory rather than read has not been checked.
		if err := p.check(); err != nil {
			return nil, nil, mergeErr("%s: %s", names[i], strings.TrimPrefix(err.Error(), "sim: "))
		}
	}
	ref, _ := json.Marshal(parts[0].Config)
	cfg, err := parts[0].Config.config()
	if err != nil {
		return nil, nil, fmt.Errorf("sim: %s: %w", names[0], err)
	}
	owner := map[int]string{}
	res := &Result{Config: cfg, Connected: parts[0].Connected}
	for i, p := range parts {
		got, _ := json.Marshal(p.Config)
		if !bytes.Equal(got, ref) {
			return nil, nil, mergeErr("%s and %s are from different experiments: %s", names[0], names[i], configDiff(parts[0].Config, p.Config, names[0], names[i]))
		}
		for _, rep := range p.Reps {
			if prev, dup := owner[rep.Index]; dup {
				return nil, nil, mergeErr("replication %d is in both %s and %s", rep.Index, prev, names[i])
			}
			owner[rep.Index] = names[i]
			res.Reps = append(res.Reps, rep)
		}
	}
	sort.Slice(res.Reps, func(a, b int) bool { return res.Reps[a].Index < res.Reps[b].Index })
	missing := shard.Gaps(cfg.Reps, func(yield func(int) bool) {
		for _, r := range res.Reps {
			if !yield(r.Index) {
				return
			}
		}
	})
	if len(missing) > 0 && !allowMissing {
		return nil, missing, &MergeError{Pkg: "sim", Msg: fmt.Sprintf("%d of %d replications missing: %s", missing.Len(), cfg.Reps, missing), Missing: missing}
	}
	if len(res.Reps) == 0 {
		return nil, missing, mergeErr("the parts hold no replications")
	}
	return res, missing, nil
}

// configDiff names the first field in which two part configurations
// differ, with both values.
func configDiff(a, b partConfig, nameA, nameB string) string {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := range va.NumField() {
		if x, y := va.Field(i).Interface(), vb.Field(i).Interface(); x != y {
			tag, _, _ := strings.Cut(va.Type().Field(i).Tag.Get("json"), ",")
			return fmt.Sprintf("%s is %v in %s and %v in %s", tag, x, nameA, y, nameB)
		}
	}
	return "their configurations differ"
}
