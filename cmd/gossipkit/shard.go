package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gossipkit/gossipkit/sim"
)

func init() {
	moreCommands = append(moreCommands,
		&command{name: "merge", summary: "combine the part files of a sharded sim or tree run, exactly", run: cmdMerge},
	)
}

// maxShards bounds M in --shard I/M.
const maxShards = 1_000_000

// parseShard parses "I/M" with 1 ≤ I ≤ M ≤ maxShards.
func parseShard(s string) (sim.ShardID, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	m, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return sim.ShardID{}, fmt.Errorf("%q: want I/M with integers 1 ≤ I ≤ M", s)
	}
	if m < 1 || m > maxShards || i < 1 || i > m {
		return sim.ShardID{}, fmt.Errorf("%q: need 1 ≤ I ≤ M ≤ %d", s, maxShards)
	}
	return sim.ShardID{Index: i, Count: m}, nil
}

// resolveShard decides whether this run is a shard: --shard wins; otherwise
// a batch scheduler's array index variable is used, with the shard count
// from --shards or, under Slurm, SLURM_ARRAY_TASK_COUNT:
//
//	Kubernetes Indexed Job  JOB_COMPLETION_INDEX = 0..M−1
//	Slurm job array         SLURM_ARRAY_TASK_ID = MIN..MIN+COUNT−1, with
//	                        SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT
//	AWS Batch array job     AWS_BATCH_JOB_ARRAY_INDEX = 0..M−1
//
// The choice is reported on stderr.
func resolveShard(e *env, flagVal string, shards int, useEnv bool) (*sim.ShardID, error) {
	if flagVal != "" {
		id, err := parseShard(flagVal)
		if err != nil {
			return nil, usagef("--shard %v", err)
		}
		return &id, nil
	}
	if !useEnv {
		return nil, nil
	}
	atoi := func(name string) (int, error) {
		v, err := strconv.Atoi(strings.TrimSpace(e.getenv(name)))
		if err != nil {
			return 0, usagef("%s=%q: not an integer", name, e.getenv(name))
		}
		return v, nil
	}
	var idx0, count int
	var source string
	switch {
	case e.getenv("JOB_COMPLETION_INDEX") != "":
		v, err := atoi("JOB_COMPLETION_INDEX")
		if err != nil {
			return nil, err
		}
		idx0, count, source = v, shards, "JOB_COMPLETION_INDEX (Kubernetes Indexed Job)"
	case e.getenv("SLURM_ARRAY_TASK_ID") != "":
		id, err := atoi("SLURM_ARRAY_TASK_ID")
		if err != nil {
			return nil, err
		}
		lo := 0
		if e.getenv("SLURM_ARRAY_TASK_MIN") != "" {
			if lo, err = atoi("SLURM_ARRAY_TASK_MIN"); err != nil {
				return nil, err
			}
		}
		count = shards
		if count == 0 && e.getenv("SLURM_ARRAY_TASK_COUNT") != "" {
			if count, err = atoi("SLURM_ARRAY_TASK_COUNT"); err != nil {
				return nil, err
			}
		}
		idx0, source = id-lo, "SLURM_ARRAY_TASK_ID (Slurm job array)"
	case e.getenv("AWS_BATCH_JOB_ARRAY_INDEX") != "":
		v, err := atoi("AWS_BATCH_JOB_ARRAY_INDEX")
		if err != nil {
			return nil, err
		}
		idx0, count, source = v, shards, "AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array job)"
	default:
		return nil, nil
	}
	if count < 1 {
		return nil, usagef("--shards: %s is set, so the number of shards is needed (--shards M, 1..%d)", source, maxShards)
	}
	if idx0 < 0 || idx0 >= count || count > maxShards {
		return nil, usagef("%s gives shard index %d, outside 0..%d for %d shards", source, idx0, count-1, count)
	}
	id := sim.ShardID{Index: idx0 + 1, Count: count}
	fmt.Fprintf(e.stderr, "gossipkit sim: running shard %d/%d from %s\n", id.Index, id.Count, source)
	return &id, nil
}

// partPath is where a shard writes: -o FILE, or a file named after the
// shard inside -o DIR/ (or the current directory).
func partPath(out string, id sim.ShardID) string {
	name := fmt.Sprintf("part-%06d-of-%06d.gkpart", id.Index, id.Count)
	if out == "" {
		return name
	}
	if strings.HasSuffix(out, "/") || isDir(out) {
		return filepath.Join(out, name)
	}
	return out
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func runShard(ctx context.Context, e *env, cfg sim.Config, opt sim.Options, id *sim.ShardID, out string) error {
	opt.Indices = id.Indices(cfg.Reps)
	if len(opt.Indices) == 0 {
		return usagef("--shard %d/%d: no replication falls in this shard (--reps %d)", id.Index, id.Count, cfg.Reps)
	}
	path := partPath(out, *id)
	if dir := filepath.Dir(path); !isDir(dir) {
		return usagef("-o %s: directory %s does not exist", out, dir)
	}
	res, err := sim.Run(ctx, cfg, opt)
	if err != nil {
		return simError(err)
	}
	if err := writeFileAtomic(path, func(w io.Writer) error { return sim.WritePart(w, res, *id) }); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "gossipkit sim: wrote %s (replications %s of %d)\n", path, sim.Ranges(opt.Indices), cfg.Reps)
	return nil
}

func cmdMerge(ctx context.Context, e *env, args []string) error {
	fs := newFlags("merge")
	out := fs.String("o", "", "write to FILE instead of standard output (atomically)")
	format := fs.String("format", "csv", "output format: csv, json, text or markdown (as `gossipkit sim`)")
	allowMissing := fs.Bool("allow-missing", false, "merge even if some replications are missing (they are listed on stderr)")
	// Flags may follow the part files: parse them out first.
	var files, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") && a != "-" {
			rest = append(rest, a)
			if !strings.Contains(a, "=") && (a == "-o" || a == "--o" || a == "-format" || a == "--format") && i+1 < len(args) {
				rest = append(rest, args[i+1])
				i++
			}
			continue
		}
		files = append(files, a)
	}
	if err := parseFormatted(fs, e, rest, format); err != nil {
		return err
	}
	// A directory stands for the *.gkpart files in it (so a container
	// without a shell can merge a folder).
	var expanded []string
	for _, f := range files {
		if isDir(f) {
			m, _ := filepath.Glob(filepath.Join(f, "*.gkpart"))
			if len(m) == 0 {
				return usagef("%s: no *.gkpart files in this directory", f)
			}
			expanded = append(expanded, m...)
			continue
		}
		expanded = append(expanded, f)
	}
	files = expanded
	if len(files) == 0 {
		return usagef("no part files given (usage: gossipkit merge PART|DIR... [-o FILE])")
	}
	parts := make([]*sim.Part, 0, len(files))
	var tparts []*treePart
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			return usagef("%s: cannot read: %v", f, errors.Unwrap(err))
		}
		format, plain, err := partFormat(raw)
		if err != nil {
			return usagef("%s: %v", f, err)
		}
		switch format {
		case treePartFormat:
			p, err := readTreePart(plain)
			if err != nil {
				return usagef("%s: %v", f, err)
			}
			tparts = append(tparts, p)
		default:
			p, err := sim.ReadPart(bytes.NewReader(raw))
			if err != nil {
				return usagef("%s: %v", f, err)
			}
			parts = append(parts, p)
		}
	}
	if len(tparts) > 0 {
		if len(parts) > 0 {
			return usagef("%s: simulation and tree parts cannot be merged together", files[0])
		}
		x, res, err := mergeTree(tparts, files, *allowMissing, e)
		if err != nil {
			return usagef("%v", err)
		}
		return output(e, *out, *format, x.table(res))
	}
	res, missing, err := sim.Merge(parts, files, *allowMissing)
	if err != nil {
		return usagef("%v", err)
	}
	if len(missing) > 0 {
		fmt.Fprintf(e.stderr, "gossipkit merge: %d of %d replications missing: %s\n", len(missing), res.Config.Reps, sim.Ranges(missing))
	}
	return writeSimResult(e, res, *format, *out)
}
