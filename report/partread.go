package report

import (
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
//   - timing holds at most one entry a section (len(Sections())), each at
//     most maxEntryBytes;
//   - runs holds at most maxReportRuns simulations, each checked against
//     the limits its own format (sim, tree) states for its configuration
//     and shard (shard.CheckLimits) before it is kept.
//
// A part of 87 KiB on disk whose timing held 3·10⁷ empty entries (90 MB
// of JSON) cost 6.4 GB and 83 s before (decoded whole); it is refused at
// its (len(Sections())+1)-th entry.
const (
	maxScaleBytes = 1 << 20
	maxEntryBytes = 64 << 10
	// maxReportRuns bounds the simulations of one reproduction (the paper
	// scale runs a few hundred).
	maxReportRuns = 1 << 16
)

func init() {
	shard.RegisterLimits(ReportPartFormat, func(header []byte) (shard.Limits, error) {
		var h struct {
			Format    string   `json:"format"`
			Version   *int     `json:"version"`
			Gossipkit *string  `json:"gossipkit"`
			Shard     *ShardID `json:"shard"`
		}
		if json.Unmarshal(header, &h) != nil || h.Version == nil || h.Gossipkit == nil || h.Shard == nil {
			return shard.Limits{}, nil // fields in another order: checked whole below
		}
		switch {
		case *h.Version != ReportPartVersion:
			return shard.Limits{}, fmt.Errorf("part format version %d, this gossipkit reads version %d", *h.Version, ReportPartVersion)
		case !h.Shard.Valid():
			return shard.Limits{}, fmt.Errorf("bad shard %d/%d", h.Shard.Index, h.Shard.Count)
		case *h.Gossipkit != buildinfo.Identity():
			return shard.Limits{}, fmt.Errorf("from gossipkit %s, this is %s: rerun the shard with this build", *h.Gossipkit, buildinfo.Identity())
		}
		return shard.Limits{}, nil
	})
}

// decodeReportPart decodes a reproduction part's plain JSON from r with
// the bounds above; unknown fields are refused. A part whose format is
// another is returned as soon as its format is read, without an error (the
// caller names its kind).
func decodeReportPart(r io.Reader) (*reportPart, error) {
	cr := &shard.CapReader{R: r, Left: maxScaleBytes, Err: errors.New("a value larger than a reproduction part holds")}
	dec := json.NewDecoder(cr)
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
	var p reportPart
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
			if err = value(&p.Format, maxEntryBytes); err == nil && p.Format != ReportPartFormat {
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
				if len(p.Timing) >= len(Sections()) {
					return fmt.Errorf("timing holds more entries than the report has sections (%d)", len(Sections()))
				}
				var t sectionTiming
				err := value(&t, maxEntryBytes)
				p.Timing = append(p.Timing, t)
				return err
			})
		case "runs":
			err = array(dec, delim, func() error {
				if len(p.Runs) >= maxReportRuns {
					return fmt.Errorf("more than %d simulations", maxReportRuns)
				}
				var run runPart
				if err := value(&run, shard.MaxPlain); err != nil {
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
