// Package part is the reproduction as an array job, apart from its
// rendering: the part file a shard writes (File), its bounded reading
// (Read), the runner through which every simulation of the report goes
// (Runner: in full, a shard's share, or served from the merged parts) and
// the merge of the part files of one sharded `gossipkit sim`, `tree` or
// `plan` run (MergeFiles). It knows nothing of the report's sections or
// of how anything is drawn: package report builds on it (report.RunShard,
// report.Merge, report.MergeFiles), and it imports no report package.
//
// The design (report's shard.go states it for the report): a single run
// runs each simulation in full; a shard (ShardRunner) runs only its share
// of each one's replications (or seeds), records that share, and hands the
// partial result to the section's compute step, whose output is thrown
// away; the part file holds every share, keyed by call number and
// configuration. A merge (MergeRunner) runs the same compute steps, and
// the runner serves call k the merge of every shard's share of call k
// (sim.Merge, tree.Merge: the single run's result, replication for
// replication), after checking that call k asks for the configuration
// the shards ran. So the merged report's tables and figures equal the
// single run's byte for byte.
//
// The files: file.go the part file's format, its timing and its name;
// read.go the bounded decoding of a part (untrusted input); runner.go
// the runner; merge.go the checks of a set of parts and the merger;
// files.go the merge of the CLI's sim, tree and broadcast parts.
//
// # Contract
//
// The errors of this package are the report's: a set of part files that
// cannot be merged is an *Error (report.PartError), whose message starts
// with "report:", naming the file. A part file is untrusted input: a
// regular file opened without blocking, its header read first (a part of
// another build is refused there) and the rest bounded by what the header
// allows (read.go). Read and MergeFiles refuse no files, and MergeFiles a
// nil context, with an error before any work; the methods of a nil
// *Runner run every simulation in full, those of a nil *Merger and *Error
// return zero values or an error, never panic. TestContract checks the
// refusals.
package part
