package part

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"syscall"

	"github.com/gossipkit/gossipkit/broadcast"
	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/sim"
	"github.com/gossipkit/gossipkit/tree"
)

// Merged is what MergeFiles merged from the part files of one sharded
// run: exactly one of Sim (a simulation's result), Tree (a tree
// experiment and its seeds' results) and Design (a broadcast protocol's
// Monte Carlo design) is set.
type Merged struct {
	// Missing are the replications (or seeds) no part held, of Total;
	// Unit names them ("replications" or "seeds").
	Missing shard.Spans
	Total   int
	Unit    string

	Sim    *sim.Result
	Tree   *tree.Experiment
	Seeds  []tree.SeedResult
	Design *broadcast.Design
}

// MergeFiles reads the part files written by the shards of one run of
// `gossipkit sim`, `gossipkit tree` or `gossipkit plan` (broadcast, Monte
// Carlo) and merges them into the answer the single run gives, exactly.
// Parts of different kinds are refused. A file that cannot be read or
// decoded, or of another kind, is an *Error naming it; an incomplete or
// inconsistent set is the merging package's error (a *shard.MergeError
// where it is one), unless allowMissing lets missing replications pass
// (they are in Missing).
func MergeFiles(ctx context.Context, files []string, allowMissing bool) (*Merged, error) {
	if ctx == nil {
		return nil, errors.New("report: MergeFiles: nil context")
	}
	if len(files) == 0 {
		return nil, &Error{Msg: "no part files"}
	}
	var parts []*sim.Part
	var tparts []*tree.Part
	var bparts []*broadcast.Part
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		raw, err := shard.ReadFile(f)
		if err != nil {
			if u := errors.Unwrap(err); u != nil {
				err = u
			}
			return nil, errorf("%q: cannot read: %v", f, err)
		}
		format, plain, err := shard.ReadFormat(raw)
		if err != nil {
			return nil, errorf("%q: %v", f, err)
		}
		switch format {
		case broadcast.PartFormat:
			var p *broadcast.Part
			if p, err = broadcast.DecodePart(plain); err == nil {
				bparts = append(bparts, p)
			}
		case tree.PartFormat:
			var p *tree.Part
			if p, err = tree.DecodePart(plain); err == nil {
				tparts = append(tparts, p)
			}
		default:
			var p *sim.Part
			if p, err = sim.DecodePart(plain); err == nil {
				parts = append(parts, p)
			}
		}
		if err != nil {
			return nil, errorf("%q: %v", f, err)
		}
	}
	switch {
	case len(bparts) > 0:
		if len(parts)+len(tparts) > 0 {
			return nil, errorf("%q: broadcast parts cannot be merged with other parts", files[0])
		}
		smp, missing, err := broadcast.MergeParts(bparts, files, allowMissing)
		if err != nil {
			return nil, err
		}
		a := smp.Law().Answer(smp.Config)
		a.Method = broadcast.MonteCarlo
		d := broadcast.NewDesign(smp.Config, []broadcast.Answer{a})
		return &Merged{Missing: missing, Total: smp.Total, Unit: "replications", Design: d}, nil
	case len(tparts) > 0:
		if len(parts) > 0 {
			return nil, errorf("%q: simulation and tree parts cannot be merged together", files[0])
		}
		x, res, missing, err := tree.Merge(tparts, files, allowMissing)
		if err != nil {
			return nil, err
		}
		return &Merged{Missing: missing, Total: x.Seeds, Unit: "seeds", Tree: &x, Seeds: res}, nil
	}
	res, missing, err := sim.Merge(parts, files, allowMissing)
	if err != nil {
		return nil, err
	}
	return &Merged{Missing: missing, Total: res.Config.Reps, Unit: "replications", Sim: res}, nil
}

// MergeMemoryEstimate returns the bytes MergeFiles needs to merge files:
// 6 times the parts' plain JSON (each part's size as its gzip trailer
// states it, at most what shard.Decompress lets its size on disk inflate
// to) plus 16 MiB. Decoded, a part holds 3–6 times its JSON at the
// collector's peak (measured on 2 parts each: sim Markov, 20,000
// replications of 400 rounds, 67.7 MB of JSON, 352 MB beyond the
// process's own; broadcast push, 10^6 replications, 48.9 MB, 278 MB; tree
// build, 20,000 seeds, 8.0 MB, 27 MB). It reads each file's last 4 bytes,
// not the part: a file it cannot stat or read is an *Error.
func MergeMemoryEstimate(files []string) (uint64, error) {
	var plain uint64
	for _, f := range files {
		n, err := plainSize(f)
		if err != nil {
			if u := errors.Unwrap(err); u != nil {
				err = u // as MergeFiles says it
			}
			return 0, errorf("%q: cannot read: %v", f, err)
		}
		plain += n
	}
	return 6*plain + 16<<20, nil
}

// plainSize is the plain size of the gzip file at path as its trailer
// (ISIZE, the size mod 2^32; a part is at most shard.MaxPlain = 1 GiB)
// states it, at most shard.PlainPerRaw times its size plus
// shard.RatioSlack (what its decompression may reach before it is
// refused).
func plainSize(path string) (uint64, error) {
	// Stat before opening: opening a FIFO without a writer would block.
	st, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	if !st.Mode().IsRegular() || st.Size() < 4 {
		return 0, nil // refused by MergeFiles before any work
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() < 4 {
		return 0, err // replaced since: MergeFiles reads it again
	}
	var b [4]byte
	if _, err := f.ReadAt(b[:], st.Size()-4); err != nil {
		return 0, err
	}
	isize := uint64(binary.LittleEndian.Uint32(b[:]))
	return min(isize, uint64(shard.PlainPerRaw)*uint64(st.Size())+uint64(shard.RatioSlack), shard.MaxPlain), nil
}
