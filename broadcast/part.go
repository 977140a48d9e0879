package broadcast

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/gossipkit/gossipkit/broadcast/internal/fixsum"
	"github.com/gossipkit/gossipkit/internal/buildinfo"
	"github.com/gossipkit/gossipkit/internal/shard"
)

// PartFormat and PartVersion identify a broadcast part file.
const (
	PartFormat  = "gossipkit-broadcast-part"
	PartVersion = 2
)

// Part is one shard's share of a Monte Carlo run, as written to a part
// file.
//
// # File format (version 2)
//
// A part file is one gzip member (internal/shard) whose content is a JSON
// object:
//
//	format       "gossipkit-broadcast-part"
//	version      2
//	build        the identity of the gossipkit that wrote it
//	             (buildinfo.Identity: version, VCS revision, hash of the
//	             executable); a part of another build is refused (a change
//	             of the engine would change the draws)
//	config       every field of Config (protocol by name)
//	seed         the seed, as a decimal string
//	reps         R, the replications of the whole run
//	engine       "default" or "literal" (SimSettings.Literal)
//	shard        {"index": I, "count": M}: the part holds replications
//	             r with r mod M = I − 1
//	replications per replication: index, t (T_L, −1 for ∞), messages,
//	             missed, and the watched runs' values (w1, w2,
//	             w1_deadline, w2_deadline, w1_late, w1_miss, where
//	             run; version 1 had neither of the last two);
//	             increasing index,
//	             each owned by the shard
//	curves       at level 1, the sums of the shard's watched runs' curves
//	             (Curves: runs, capped, and per round the exact sums in
//	             fixed point, three hexadecimal words each)
//
// A reader treats a part as untrusted input: before it decodes the
// replications it reads the header alone and refuses a part whose plain
// size or number of JSON objects exceeds what its own shard allows
// (partBounds), so that a small hostile file cannot make it allocate
// gigabytes. gzip's CRC-32 and length reject truncated or corrupted files; the
// decoder rejects unknown fields and every value out of its range. A merge
// sorts the replications by index, so it is exact and independent of the
// order of the parts: the merged law is the single run's, bit for bit.
type Part struct {
	Format       string        `json:"format"`
	Version      int           `json:"version"`
	Build        string        `json:"build"`
	Config       partConfig    `json:"config"`
	Seed         string        `json:"seed"`
	Reps         int           `json:"reps"`
	Engine       string        `json:"engine"`
	Shard        ShardID       `json:"shard"`
	Replications []Replication `json:"replications"`
	// Curves: the sums of the shard's watched runs' curves at level 1
	// (Sample.Curves; absent elsewhere).
	Curves *Curves `json:"curves,omitempty"`
}

type partConfig struct {
	Nodes        int     `json:"nodes"`
	Protocol     string  `json:"protocol"`
	Fanout       int     `json:"fanout"`
	Loss         float64 `json:"loss"`
	Failed       float64 `json:"failed"`
	Budget       int     `json:"budget"`
	Level        float64 `json:"level"`
	Deadline     float64 `json:"deadline"`
	Confidence   float64 `json:"confidence"`
	MaxMiss      float64 `json:"max_miss,omitempty"`
	Interval     float64 `json:"interval"`
	MessageBytes int     `json:"message_bytes"`
}

func toPartConfig(c Config) partConfig {
	return partConfig{Nodes: c.Nodes, Protocol: c.Protocol.String(), Fanout: c.Fanout, Loss: c.Loss, Failed: c.Failed,
		Budget: c.Budget, Level: c.Level, Deadline: c.Deadline, Confidence: c.Confidence, MaxMiss: c.MaxMiss, Interval: c.Interval, MessageBytes: c.MessageBytes}
}

func (p partConfig) config() (Config, error) {
	proto, err := ParseProtocol(p.Protocol)
	if err != nil {
		return Config{}, err
	}
	return Config{Nodes: p.Nodes, Protocol: proto, Fanout: p.Fanout, Loss: p.Loss, Failed: p.Failed, Budget: p.Budget,
		Level: p.Level, Deadline: p.Deadline, Confidence: p.Confidence, MaxMiss: p.MaxMiss, Interval: p.Interval, MessageBytes: p.MessageBytes}, nil
}

func engineName(literal bool) string {
	if literal {
		return "literal"
	}
	return "default"
}

// WritePart writes s, the replications of shard id of its run, as a part
// file. Every replication of s must belong to id.
func WritePart(w io.Writer, s *Sample, id ShardID) error {
	if s == nil || !id.Valid() {
		return errors.New("broadcast: WritePart needs a sample and a valid shard")
	}
	for _, r := range s.Reps {
		if !id.Owns(r.Index) {
			return fmt.Errorf("broadcast: replication %d does not belong to shard %d/%d", r.Index, id.Index, id.Count)
		}
	}
	p := Part{Format: PartFormat, Version: PartVersion, Build: buildinfo.Identity(), Config: toPartConfig(s.Config),
		Seed: strconv.FormatUint(s.Seed, 10), Reps: s.Total, Engine: engineName(s.Literal), Shard: id, Replications: s.Reps, Curves: s.Curves}
	if p.Replications == nil {
		p.Replications = []Replication{}
	}
	return shard.WriteJSON(w, &p)
}

// ReadPartFile reads and checks the part file at path: a regular file (a
// device or FIFO is refused, not read forever) of at most shard.MaxRaw
// bytes, then as ReadPart.
func ReadPartFile(path string) (*Part, error) {
	raw, err := shard.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("broadcast: %s: %w", path, err)
	}
	p, err := ReadPart(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return p, nil
}

// ReadPart reads and checks one part file: its gzip integrity and size
// (shard.Decompress), then as DecodePart.
func ReadPart(r io.Reader) (*Part, error) {
	plain, err := shard.Decompress(r)
	if err != nil {
		return nil, fmt.Errorf("broadcast: %w", err)
	}
	return DecodePart(plain)
}

// DecodePart is ReadPart on a part file's decompressed JSON: its format,
// version and build, its configuration (Config.Validate), its shard, and
// every replication (owned by the shard, listed once in increasing order,
// each value in its range).
func DecodePart(plain []byte) (*Part, error) {
	if err := checkPartHeader(plain); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(plain))
	dec.DisallowUnknownFields()
	var p Part
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("broadcast: not a gossipkit broadcast part file: %v", err)
	}
	if dec.More() {
		return nil, errors.New("broadcast: corrupted part file: data after its object")
	}
	if _, err := p.view(); err != nil {
		return nil, err
	}
	return &p, nil
}

// checkPartHeader reads the header of a part (format, version, build,
// replications, shard) without decoding its replications, and checks the
// size of the rest against what that header allows.
func checkPartHeader(plain []byte) error {
	var h struct {
		Format  string  `json:"format"`
		Version int     `json:"version"`
		Build   string  `json:"build"`
		Reps    int     `json:"reps"`
		Shard   ShardID `json:"shard"`
	}
	// Unmarshal skips the fields h lacks without allocating for them.
	if err := json.Unmarshal(plain, &h); err != nil {
		return fmt.Errorf("broadcast: not a gossipkit broadcast part file: %v", err)
	}
	if h.Format != PartFormat {
		return fmt.Errorf("broadcast: not a gossipkit broadcast part file (format %q)", h.Format)
	}
	if h.Version != PartVersion {
		return fmt.Errorf("broadcast: part format version %d, this gossipkit reads version %d (rerun the shard)", h.Version, PartVersion)
	}
	if id := buildinfo.Identity(); h.Build != id {
		return fmt.Errorf("broadcast: part written by another build of gossipkit (%q; this is %q): rerun the shard with this build", h.Build, id)
	}
	if h.Reps < 1 || h.Reps > MaxReps || !h.Shard.Valid() {
		return fmt.Errorf("broadcast: corrupted part file: reps = %d, shard %d/%d", h.Reps, h.Shard.Index, h.Shard.Count)
	}
	maxBytes, maxObjects := partBounds(h.Reps, h.Shard)
	switch {
	case len(plain) > maxBytes:
		return fmt.Errorf("broadcast: corrupted part file: %d bytes of JSON, more than its shard can hold (%d)", len(plain), maxBytes)
	case bytes.Count(plain, []byte("{")) > maxObjects:
		return fmt.Errorf("broadcast: corrupted part file: more JSON objects than its shard holds (%d)", maxObjects)
	}
	return nil
}

// partBounds are the largest plain size and number of JSON objects of a
// valid part of shard id of a run of R replications: a replication's
// object is at most 128 bytes (four integers of up to 20 digits and their
// keys: 115), the rest under 4 KiB (a string field is at most a few
// hundred bytes: the build, the protocol's name, floats of up to 24
// characters); the objects are one per replication and the part's,
// config's, shard's and curves' own.
func partBounds(R int, id ShardID) (maxBytes, maxObjects int) {
	reps := (R - id.Index + id.Count) / id.Count // r < R with r ≡ I−1 (mod M)
	// A replication is at most about 300 bytes of JSON (its six watched
	// values at 17 digits each included). The curves (level 1) are one
	// object of at most 4·Kinds (12) arrays of maxCurveRounds + 1 sums, each five
	// hexadecimal words of 16 digits, four dots, quotes and a comma (87
	// bytes), and their keys and counts (under 128 bytes).
	return 4096 + 384*reps + curvesBytes, reps + 4
}

// curvesBytes bounds the plain JSON of a part's curves.
const curvesBytes = 128 + 4*fixsum.Kinds*(maxCurveRounds+1)*87

// view checks the part's fields and returns its replications as a Sample
// that shares them (no copy: DecodePart only checks, MergeSamples copies
// what it keeps).
func (p *Part) view() (*Sample, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("broadcast: corrupted part file: "+format, a...)
	}
	cfg, err := p.Config.config()
	if err != nil {
		return nil, bad("configuration: %v", err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, bad("configuration: %v", err)
	}
	seed, err := strconv.ParseUint(p.Seed, 10, 64)
	if err != nil {
		return nil, bad("seed %q", p.Seed)
	}
	if p.Reps < 1 || p.Reps > MaxReps {
		return nil, bad("reps = %d outside 1..%d", p.Reps, MaxReps)
	}
	if p.Engine != "default" && p.Engine != "literal" {
		return nil, bad("engine %q", p.Engine)
	}
	if !p.Shard.Valid() {
		return nil, bad("shard %d/%d", p.Shard.Index, p.Shard.Count)
	}
	M, target := cfg.Live(), cfg.Target()
	budgeted := cfg.Protocol == Push && cfg.Budget > 0
	maxT := PartMaxT(cfg)
	for i, r := range p.Replications {
		switch {
		case r.Index < 0 || r.Index >= p.Reps || !p.Shard.Owns(r.Index):
			return nil, bad("replication %d does not belong to shard %d/%d of %d", r.Index, p.Shard.Index, p.Shard.Count, p.Reps)
		case i > 0 && r.Index <= p.Replications[i-1].Index:
			return nil, bad("replications not listed once each in increasing order (%d after %d)", r.Index, p.Replications[i-1].Index)
		case r.T < -1 || r.T < 0 && !budgeted:
			return nil, bad("replication %d: T = %d", r.Index, r.T)
		case r.T > maxT:
			return nil, bad("replication %d: T = %d rounds, beyond the %d a run of this configuration can reach (about %.3g expected; PartMaxT)", r.Index, r.T, maxT, MeanRounds(cfg))
		case int64(r.T) > r.Messages:
			return nil, bad("replication %d: T = %d rounds with %d messages (every round before T_L sends one at least)", r.Index, r.T, r.Messages)
		case r.Messages < 0:
			return nil, bad("replication %d: %d messages", r.Index, r.Messages)
		case r.Missed < 0 || r.Missed > M-1 || r.Missed > 0 && !budgeted:
			return nil, bad("replication %d: %d live nodes missed of %d", r.Index, r.Missed, M)
		case r.T < 0 && M-r.Missed >= target:
			return nil, bad("replication %d: T = ∞ with %d of %d live nodes informed (the level is %d)", r.Index, M-r.Missed, M, target)
		}
	}
	want := NeedWatched(cfg) && curvesWanted(cfg)
	switch {
	case want && p.Curves == nil:
		return nil, bad("no curves of the watched runs (level 1)")
	case !want && p.Curves != nil:
		return nil, bad("curves of watched runs below level 1")
	case p.Curves != nil && p.Curves.Runs != len(p.Replications):
		return nil, bad("curves of %d watched runs for %d replications", p.Curves.Runs, len(p.Replications))
	}
	return &Sample{Config: cfg, Seed: seed, Total: p.Reps, Literal: p.Engine == "literal", Reps: p.Replications, Curves: p.Curves}, nil
}

// PartMaxT bounds the T_L (in rounds) a part's replication of cfg may
// state: 1024 times MeanRounds(cfg), at least 4096, at most MaxLawRounds.
// The law of a sample holds one entry a round up to its largest T_L, so
// without it a part of 300 bytes on disk stating T = 2^26 for a
// configuration that reaches its level in about 10 rounds cost 5.9 GB and
// 24 s to merge. No run reaches it but with a vanishing chance: T_L
// exceeds a multiple m of its mean with a chance of the order e^−m (every
// round informs the next node with a chance of at least the rate g of
// MeanRounds's estimate, which is the order of the truth; with a budget on
// push, T_L < ∞ is at most M·⌈B/k⌉ rounds).
func PartMaxT(cfg Config) int {
	r := MeanRounds(cfg)
	if !(r < MaxLawRounds/1024) {
		return MaxLawRounds
	}
	return max(4096, int(1024*math.Ceil(r)))
}

// MergeParts combines the parts of one run into the Sample the single run
// would have produced. names label the parts in errors. It refuses parts
// of different runs or builds and replications present twice; missing
// replications are returned (as spans: what a part claims costs no memory
// beyond what it holds), and refused unless allowMissing.
func MergeParts(parts []*Part, names []string, allowMissing bool) (*Sample, shard.Spans, error) {
	if len(parts) == 0 {
		return nil, nil, mergeErr("no parts to merge")
	}
	if len(names) < len(parts) {
		return nil, nil, mergeErr("%d names for %d parts", len(names), len(parts))
	}
	samples := make([]*Sample, len(parts))
	for i, p := range parts {
		if p == nil {
			return nil, nil, mergeErr("%s: no part (nil)", names[i])
		}
		if p.Build != parts[0].Build {
			return nil, nil, mergeErr("%s and %s were written by different builds (%s, %s)", names[0], names[i], parts[0].Build, p.Build)
		}
		if p.Config != parts[0].Config || p.Seed != parts[0].Seed || p.Reps != parts[0].Reps || p.Engine != parts[0].Engine {
			return nil, nil, mergeErr("%s and %s are from different runs (configuration, seed, replications or engine)", names[0], names[i])
		}
		s, err := p.view()
		if err != nil {
			return nil, nil, fmt.Errorf("%w (%s)", err, names[i])
		}
		samples[i] = s
	}
	// No map of the owners (about 50 bytes a replication): a replication
	// held twice is found in the merged order, then its parts by search
	// (each part's replications increase).
	out, missing, dup, err := mergeSamples(samples, allowMissing)
	if dup >= 0 {
		var in []string
		for i, p := range parts {
			if _, ok := slices.BinarySearchFunc(p.Replications, dup, func(r Replication, t int) int { return r.Index - t }); ok {
				in = append(in, names[i])
			}
		}
		if len(in) >= 2 {
			return nil, nil, mergeErr("replication %d is in both %s and %s", dup, in[0], in[1])
		}
	}
	return out, missing, err
}
