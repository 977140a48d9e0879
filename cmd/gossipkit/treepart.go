package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/gossipkit/gossipkit/sim"
	"github.com/gossipkit/gossipkit/tree"
)

// treePart is the part file of a sharded tree experiment: gzip-compressed
// JSON, format "gossipkit-tree-part", version 1, with the experiment (every
// configuration field, the first seed and the number of seeds), the shard,
// and each of its seeds' metrics. The merged output is computed from the
// per-seed metrics in seed order, exactly as a single run computes it.
type treePart struct {
	Format  string            `json:"format"`
	Version int               `json:"version"`
	Exp     treeExperiment    `json:"experiment"`
	Shard   sim.ShardID       `json:"shard"`
	Results []tree.SeedResult `json:"results"`
}

const treePartFormat = "gossipkit-tree-part"

func writeTreePart(w io.Writer, x treeExperiment, id sim.ShardID, res []tree.SeedResult) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	if err := json.NewEncoder(bw).Encode(treePart{Format: treePartFormat, Version: 1, Exp: x, Shard: id, Results: res}); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// partFormat reads the format field of a gzip-compressed JSON part.
func partFormat(raw []byte) (string, []byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return "", nil, fmt.Errorf("not a gossipkit part file (not gzip: %v)", err)
	}
	plain, err := io.ReadAll(io.LimitReader(zr, 1<<34))
	if err != nil {
		return "", nil, fmt.Errorf("corrupted or truncated part file: %v", err)
	}
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(plain, &head); err != nil {
		return "", nil, fmt.Errorf("not a gossipkit part file: %v", err)
	}
	return head.Format, plain, nil
}

func readTreePart(plain []byte) (*treePart, error) {
	dec := json.NewDecoder(bytes.NewReader(plain))
	dec.DisallowUnknownFields()
	var p treePart
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("not a gossipkit tree part file: %v", err)
	}
	if p.Version != 1 {
		return nil, fmt.Errorf("tree part format version %d, this gossipkit reads version 1", p.Version)
	}
	if p.Shard.Count < 1 || p.Shard.Index < 1 || p.Shard.Index > p.Shard.Count {
		return nil, fmt.Errorf("bad shard %d/%d in part file", p.Shard.Index, p.Shard.Count)
	}
	for _, r := range p.Results {
		if r.Index < 0 || r.Index >= p.Exp.Seeds || r.Index%p.Shard.Count != p.Shard.Index-1 || (r.Repair == nil) == p.Exp.Fail {
			return nil, fmt.Errorf("corrupted part file: seed %d does not belong to shard %d/%d", r.Index, p.Shard.Index, p.Shard.Count)
		}
	}
	return &p, nil
}

// mergeTree combines tree parts into the single run's table.
func mergeTree(parts []*treePart, names []string, allowMissing bool, e *env) (treeExperiment, []tree.SeedResult, error) {
	ref, _ := json.Marshal(parts[0].Exp)
	owner := map[int]string{}
	var res []tree.SeedResult
	for i, p := range parts {
		got, _ := json.Marshal(p.Exp)
		if !bytes.Equal(got, ref) {
			return treeExperiment{}, nil, fmt.Errorf("%s and %s are from different experiments", names[0], names[i])
		}
		for _, r := range p.Results {
			if prev, dup := owner[r.Index]; dup {
				return treeExperiment{}, nil, fmt.Errorf("seed %d is in both %s and %s", r.Index, prev, names[i])
			}
			owner[r.Index] = names[i]
			res = append(res, r)
		}
	}
	sort.Slice(res, func(a, b int) bool { return res[a].Index < res[b].Index })
	var missing []int
	for i := 0; i < parts[0].Exp.Seeds; i++ {
		if _, ok := owner[i]; !ok {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		if !allowMissing {
			return treeExperiment{}, nil, fmt.Errorf("%d of %d seeds missing: %s (pass --allow-missing to merge what is there)", len(missing), parts[0].Exp.Seeds, sim.Ranges(missing))
		}
		fmt.Fprintf(e.stderr, "gossipkit merge: %d of %d seeds missing: %s\n", len(missing), parts[0].Exp.Seeds, sim.Ranges(missing))
	}
	return parts[0].Exp, res, nil
}
