package part

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/gossipkit/gossipkit/internal/buildinfo"
	"github.com/gossipkit/gossipkit/internal/shard"
)

// A reproduction part is untrusted input, read as it streams (shard.Stream:
// its plain JSON is never held whole) with every count bounded before it
// is decoded, as sim's, tree's and broadcast's parts are:
//
//   - its header (format, version, the build, the shard) is checked when
//     the first HeaderBytes of it are counted, before the rest is read: a
//     part of another build is refused there (RegisterLimits below);
//   - the scale is at most maxScaleBytes of JSON;
//   - timing holds at most one entry a section (the report's sections,
//     decode's argument), each at most maxEntryBytes;
//   - runs holds at most MaxRuns simulations, each checked against
//     the limits its own format (sim, tree) states for its configuration
//     and shard (shard.CheckLimits) before it is kept.
//
// A part of 87 KiB on disk whose timing held 3·10⁷ empty entries (90 MB
// of JSON) cost 6.4 GB and 83 s before (decoded whole); it is refused at
// its (sections+1)-th entry.
const (
	maxScaleBytes = 1 << 20
	maxEntryBytes = 64 << 10
	// MaxRuns bounds the simulations of one reproduction (the paper
	// scale runs a few hundred).
	MaxRuns = 1 << 16
)

func init() {
	shard.RegisterLimits(Format, func(header []byte) (shard.Limits, error) {
		var h struct {
			Format    string  `json:"format"`
			Version   *int    `json:"version"`
			Gossipkit *string `json:"gossipkit"`
			Shard     *ID     `json:"shard"`
		}
		if json.Unmarshal(header, &h) != nil || h.Version == nil || h.Gossipkit == nil || h.Shard == nil {
			return shard.Limits{}, nil // fields in another order: checked whole below
		}
		switch {
		case *h.Version != Version:
			return shard.Limits{}, fmt.Errorf("part format version %d, this gossipkit reads version %d", *h.Version, Version)
		case !h.Shard.Valid():
			return shard.Limits{}, fmt.Errorf("bad shard %d/%d", h.Shard.Index, h.Shard.Count)
		case *h.Gossipkit != buildinfo.Identity():
			return shard.Limits{}, fmt.Errorf("from gossipkit %s, this is %s: rerun the shard with this build", *h.Gossipkit, buildinfo.Identity())
		}
		return shard.Limits{}, nil
	})
}

// decode decodes a reproduction part's plain JSON from r with the bounds
// above, its timing at most sections entries; unknown fields are refused. A part whose format is
// another is returned as soon as its format is read, without an error (the
// caller names its kind).
func decode[S any](r io.Reader, sections int) (*File[S], error) {
	cr := &shard.CapReader{R: r, Left: maxScaleBytes, Err: errors.New("a value larger than a reproduction part holds")}
	rr := &runReader{r: cr}
	dec := json.NewDecoder(rr)
	dec.DisallowUnknownFields()
	// value decodes the next value into v, reading at most limit bytes
	// more of the stream.
	value := func(v any, limit int64) error {
		cr.Left = limit
		return dec.Decode(v)
	}
	delim := func(want json.Delim) error {
		cr.Left = maxEntryBytes
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if tok != want {
			return fmt.Errorf("want %v, found %v", want, tok)
		}
		return nil
	}
	var p File[S]
	if err := delim('{'); err != nil {
		return nil, err
	}
	for dec.More() {
		cr.Left = maxEntryBytes
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		switch key {
		case "format":
			if err = value(&p.Format, maxEntryBytes); err == nil && p.Format != Format {
				return &p, nil // another kind of part: the caller names it
			}
		case "version":
			err = value(&p.Version, maxEntryBytes)
		case "gossipkit":
			err = value(&p.Gossipkit, maxEntryBytes)
		case "shard":
			err = value(&p.Shard, maxEntryBytes)
		case "scale":
			err = value(&p.Scale, maxScaleBytes)
		case "timing":
			err = array(dec, delim, func() error {
				if len(p.Timing) >= sections {
					return fmt.Errorf("timing holds more entries than the report has sections (%d)", sections)
				}
				var t SectionTime
				err := value(&t, maxEntryBytes)
				p.Timing = append(p.Timing, t)
				return err
			})
		case "runs":
			err = array(dec, delim, func() error {
				if len(p.Runs) >= MaxRuns {
					return fmt.Errorf("more than %d simulations", MaxRuns)
				}
				var run Run
				rr.begin(dec.Buffered(), len(p.Runs)+1)
				err := value(&run, shard.MaxPlain)
				rr.on = false
				if rr.err != nil {
					return rr.err
				}
				if err != nil {
					return err
				}
				if err := shard.CheckLimits(run.Part); err != nil {
					return fmt.Errorf("simulation %d: %v", len(p.Runs)+1, err)
				}
				p.Runs = append(p.Runs, run)
				return nil
			})
		default:
			err = fmt.Errorf("unknown field %q", key)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := delim('}'); err != nil {
		return nil, err
	}
	return &p, nil
}

// array reads a JSON array element by element with elem.
func array(dec *json.Decoder, delim func(json.Delim) error, elem func() error) error {
	if err := delim('['); err != nil {
		return err
	}
	for dec.More() {
		if err := elem(); err != nil {
			return err
		}
	}
	return delim(']')
}

// A run's part is bounded while it is read, not after: json.Decoder reads
// a value whole before decoding it, so a run of 1000 MiB of spaces was
// held whole (3.1 GB, 42 s) before its limits were checked. runReader
// sits between the decoder and the part's stream and, while a run is
// decoded, counts the bytes and '{' read since the run began and keeps
// the run's first runPrefix bytes. From those it reads the limits the
// run's own part declares (shard.LimitsOf: sim's and tree's headers state
// their replications, rounds and nodes), and fails the read that passes
// twice them plus runSlack (the decoder reads ahead of the value it
// decodes by at most what it holds): the run then costs the decoder's
// buffer, at most about twice what its header allows, never the stream's
// 1 GiB. A run whose part does not begin within its first runHead bytes
// ("section" and "kind" are a few bytes: a run of our writer begins
// {"section":3,"kind":"sim","part":{...), or whose part's header states
// no size, is bounded by runFallback.
const (
	runHead     = 4 << 10
	runPrefix   = runHead + shard.HeaderBytes
	runSlack    = 64 << 10
	runFallback = 64 << 20
)

type runReader struct {
	r      io.Reader
	on     bool // a run is being decoded
	run    int  // its number, from 1
	prefix []byte
	n, obj int64 // bytes and '{' read since the run began (with what the decoder held then)
	known  bool  // the limits below are read
	maxN   int64
	maxObj int64 // 0: no bound
	err    error
}

// begin starts counting run number run; buffered is what the decoder
// holds of the stream already (the run's first bytes, and perhaps more).
func (s *runReader) begin(buffered io.Reader, run int) {
	b, _ := io.ReadAll(buffered)
	s.on, s.run, s.known, s.err = true, run, false, nil
	s.prefix = append(s.prefix[:0], b[:min(len(b), runPrefix)]...)
	s.n, s.obj = int64(len(b)), int64(bytes.Count(b, []byte("{")))
	s.maxN, s.maxObj = runFallback, 0
	s.step()
}

func (s *runReader) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.r.Read(p)
	if s.on && n > 0 {
		if !s.known {
			s.prefix = append(s.prefix, p[:min(n, runPrefix-len(s.prefix))]...)
		}
		s.n += int64(n)
		s.obj += int64(bytes.Count(p[:n], []byte("{")))
		if s.step(); s.err != nil {
			return 0, s.err
		}
	}
	return n, err
}

// step reads the limits once runPrefix bytes are held, and checks the
// counts against them.
func (s *runReader) step() {
	if !s.known && len(s.prefix) >= runPrefix {
		s.known = true
		s.limits()
	}
	switch {
	case s.err != nil:
	case s.n > s.maxN:
		s.err = fmt.Errorf("simulation %d: corrupted part file: more bytes of JSON than its header allows (%d, read as it streams)", s.run, s.maxN)
	case s.maxObj > 0 && s.obj > s.maxObj:
		s.err = fmt.Errorf("simulation %d: corrupted part file: more JSON objects than its header allows (%d, read as it streams)", s.run, s.maxObj)
	}
}

// limits finds the run's part in the prefix and reads its header's limits.
func (s *runReader) limits() {
	t := bytes.TrimLeft(s.prefix, " \t\r\n,")
	skipped := int64(len(s.prefix) - len(t))
	dec := json.NewDecoder(bytes.NewReader(t))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		s.err = fmt.Errorf("simulation %d is not a JSON object", s.run)
		return
	}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok || skipped+dec.InputOffset() > runHead {
			break
		}
		if key != "part" {
			var v json.RawMessage
			if dec.Decode(&v) != nil {
				break
			}
			continue
		}
		at := dec.InputOffset()
		lim, err := shard.LimitsOf(bytes.TrimLeft(t[at:], " \t\r\n:"))
		if err != nil {
			s.err = fmt.Errorf("simulation %d: %v", s.run, err)
			return
		}
		if lim.Bytes > 0 {
			s.maxN = 2*(lim.Bytes+skipped+at) + runSlack
		}
		if lim.Objects > 0 {
			s.maxObj = 2*lim.Objects + runSlack
		}
		return
	}
	s.err = fmt.Errorf("simulation %d: its part does not begin within its first %d bytes", s.run, runHead)
}
