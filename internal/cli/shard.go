package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gossipkit/gossipkit/internal/shard"
)

// ShardOpts are the flags of a command that can run one shard of its
// work: --shard I/M, --shards M and --no-scheduler-env.
type ShardOpts struct {
	shard     *string
	shards    *int
	ignoreEnv *bool
}

// ShardFlags declares them; usage is --shard's help.
func ShardFlags(fs *FlagSet, usage string) ShardOpts {
	return ShardOpts{
		shard:     fs.String("shard", "", usage),
		shards:    fs.Int("shards", 0, "number of shards M when the shard index comes from JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX (Slurm: SLURM_ARRAY_TASK_COUNT)"),
		ignoreEnv: fs.Bool("no-scheduler-env", false, "ignore JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID and AWS_BATCH_JOB_ARRAY_INDEX"),
	}
}

// Resolve decides whether this run is a shard: --shard wins; otherwise a
// batch scheduler's array index variable is used (shard.FromEnv), with the
// shard count from --shards or, under Slurm, SLURM_ARRAY_TASK_COUNT. The
// choice comes back as note, for the caller to print on stderr once every
// other check has passed (a refused run prints one line only). Without a
// shard, -o out must be a file (checked here, before any work), and
// --shards alone is refused: the count says nothing of which shard to run.
func (o ShardOpts) Resolve(e *Env, fs *flag.FlagSet, out string) (id *shard.ID, note string, err error) {
	shards := *o.shards
	if shards < 0 || shards > shard.MaxCount || shards == 0 && Given(fs, "shards") {
		return nil, "", Usagef("--shards %d: valid range 1..%d", shards, shard.MaxCount)
	}
	defer func() {
		if err == nil && id == nil && shards > 0 {
			err = Usagef("--shards %d: no shard index: set by a batch scheduler (JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or AWS_BATCH_JOB_ARRAY_INDEX), or give --shard I/M instead", shards)
		}
		if err == nil && id == nil && out != "" && out != "-" {
			err = CheckOut("-o", out)
		}
	}()
	if *o.shard != "" {
		id, err := shard.Parse(*o.shard)
		if err != nil {
			return nil, "", Usagef("--shard %v", err)
		}
		if shards > 0 && shards != id.Count {
			return nil, "", Usagef("--shards %d: --shard %s already gives %d shards", shards, *o.shard, id.Count)
		}
		return &id, "", nil
	}
	if *o.ignoreEnv {
		return nil, "", nil
	}
	id, source, err := shard.FromEnv(e.Getenv, shards)
	switch {
	case errors.Is(err, shard.ErrNeedCount):
		return nil, "", Usagef("--shards: %s is set, so the number of shards is needed (--shards M, 1..%d)", source, shard.MaxCount)
	case err != nil:
		return nil, "", Usagef("%v", err)
	case id != nil:
		note = fmt.Sprintf("running shard %d/%d from %s", id.Index, id.Count, source)
	}
	return id, note, nil
}

// PartPath is where a shard writes: -o FILE, or a file named after the
// shard inside -o DIR/ (or the current directory).
func PartPath(out, name string) string {
	if out == "" {
		return name
	}
	if strings.HasSuffix(out, "/") || IsDir(out) {
		return filepath.Join(out, name)
	}
	return out
}

// ShardOut resolves and checks where shard id writes, before any work: a
// folder named with a trailing / is created if missing (docs/BATCH.md's
// `-o parts/`), and the part file must be writable there.
func ShardOut(e *Env, out, name string) (string, error) {
	if strings.HasSuffix(out, "/") {
		// Registered in the run's scope: removed again if the run does not
		// succeed (Program.Run).
		if _, err := e.Files.MkdirAll(out); err != nil {
			return "", Usagef("-o %q: cannot create the folder: %v", out, errors.Unwrap(err))
		}
	}
	path := PartPath(out, name)
	return path, CheckOut("-o", path)
}

// PartFiles lists the part files to merge: a folder stands for the
// *.gkpart files in it (so that a container without a shell can merge a
// folder); none, or -o naming one of them, is a usage error.
func PartFiles(args []string, out string) ([]string, error) {
	var files []string
	for _, f := range args {
		if IsDir(f) {
			m, _ := filepath.Glob(filepath.Join(f, "*.gkpart"))
			if len(m) == 0 {
				return nil, Usagef("%q: no *.gkpart files in this directory", f)
			}
			files = append(files, m...)
			continue
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, Usagef("no part files given (usage: gossipkit merge PART|DIR... [-o FILE])")
	}
	if st, err := os.Stat(out); out != "" && err == nil {
		for _, f := range files {
			if fst, err := os.Stat(f); err == nil && os.SameFile(st, fst) {
				return nil, Usagef("-o %q: is one of the part files being merged", out)
			}
		}
	}
	return files, nil
}

// MergeUsage turns a merge error into a usage error without the library's
// package prefix, pointing to --allow-missing when parts are missing.
func MergeUsage(err error) error {
	var me *shard.MergeError // = sim.MergeError = tree.MergeError
	if !errors.As(err, &me) {
		return Usagef("%v", err)
	}
	if len(me.Missing) > 0 {
		return Usagef("%s (pass --allow-missing to merge what is there)", me.Msg)
	}
	return Usagef("%s", me.Msg)
}

// WritePart writes a shard's part file to path (atomically) with write,
// then says so on stderr: "gossipkit CMD: wrote PATH (WHAT; NOTE)".
func WritePart(e *Env, cmd, path string, write func(io.Writer) error, what, note string) error {
	if err := Output(e, path, write); err != nil {
		return err
	}
	if note != "" {
		what += "; " + note
	}
	_, err := fmt.Fprintf(e.Stderr, "gossipkit %s: wrote %s (%s)\n", cmd, path, what)
	return err
}
