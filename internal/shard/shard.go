// Package shard is the one sharding concept of gossipkit's simulators: a
// shard's identity, the replications (or seeds) it runs, the array-index
// variables of the batch engines that start shards, and the gzip-compressed
// JSON envelope of part files. Package sim and package tree re-export ID
// (sim.ShardID, tree.ShardID) so that library users can shard a run.
//
// # Contract
//
// No function takes a context: each reads at most MaxRaw bytes of a file
// and MaxPlain of its decompression, and of that at most PlainPerRaw
// times the compressed bytes read plus RatioSlack (a decompression bomb
// stops there), so none runs long. A part file is
// untrusted input: what is not one (nil, empty, not gzip, not a JSON
// object, two members, more than its header's limits, a path that is no
// regular file such as /dev/zero) is refused with a one-line error before
// what it declares is allocated; Parse and FromEnv refuse a shard outside
// 1 ≤ I ≤ M ≤ MaxCount; WriteJSON's errors (a NaN, a failed write) are
// returned, and a nil writer is one. TestContract checks the
// refusals, the fuzz and hostile-part tests the bounds.
package shard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// MaxCount bounds the number of shards M.
const MaxCount = 1_000_000

// ID is shard Index of Count (1 ≤ Index ≤ Count). Shard I of M runs the
// replications r with r mod M = I − 1.
type ID struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Indices returns the replications of shard s among R: r mod Count = Index−1.
// It is nil for an ID that is not Valid (the zero ID among them) or R ≤ 0.
func (s ID) Indices(R int) []int {
	if !s.Valid() || R <= 0 {
		return nil
	}
	var out []int
	for r := s.Index - 1; r < R; r += s.Count {
		out = append(out, r)
	}
	return out
}

// Valid reports whether 1 ≤ Index ≤ Count ≤ MaxCount.
func (s ID) Valid() bool {
	return s.Count >= 1 && s.Count <= MaxCount && s.Index >= 1 && s.Index <= s.Count
}

// Owns reports whether replication r belongs to shard s; no replication
// belongs to an ID that is not Valid.
func (s ID) Owns(r int) bool { return s.Valid() && r >= 0 && r%s.Count == s.Index-1 }

// Parse parses "I/M" with 1 ≤ I ≤ M ≤ MaxCount.
func Parse(s string) (ID, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	m, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return ID{}, fmt.Errorf("%q: want I/M with integers 1 ≤ I ≤ M", s)
	}
	if id := (ID{Index: i, Count: m}); id.Valid() {
		return id, nil
	}
	return ID{}, fmt.Errorf("%q: need 1 ≤ I ≤ M ≤ %d", s, MaxCount)
}

// ErrNeedCount is returned by FromEnv when an index variable is set but the
// number of shards is known neither from the caller nor from the scheduler.
var ErrNeedCount = errors.New("the number of shards is needed")

// FromEnv reads a batch scheduler's array index, with the shard count from
// count (0: unknown) or, under Slurm, SLURM_ARRAY_TASK_COUNT:
//
//	Kubernetes Indexed Job  JOB_COMPLETION_INDEX = 0..M−1
//	Slurm job array         SLURM_ARRAY_TASK_ID = MIN..MIN+COUNT−1, with
//	                        SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT
//	AWS Batch array job     AWS_BATCH_JOB_ARRAY_INDEX = 0..M−1
//
// It returns nil when no such variable is set, and otherwise the shard and
// a description of its source. A missing count is ErrNeedCount (wrapped
// with the source).
func FromEnv(getenv func(string) string, count int) (*ID, string, error) {
	atoi := func(name string) (int, error) {
		v, err := strconv.Atoi(strings.TrimSpace(getenv(name)))
		if err != nil {
			return 0, fmt.Errorf("%s=%q: not an integer", name, getenv(name))
		}
		return v, nil
	}
	var idx0 int
	var source string
	var err error
	switch {
	case getenv("JOB_COMPLETION_INDEX") != "":
		idx0, err = atoi("JOB_COMPLETION_INDEX")
		source = "JOB_COMPLETION_INDEX (Kubernetes Indexed Job)"
	case getenv("SLURM_ARRAY_TASK_ID") != "":
		source = "SLURM_ARRAY_TASK_ID (Slurm job array)"
		var id, lo int
		if id, err = atoi("SLURM_ARRAY_TASK_ID"); err != nil {
			return nil, source, err
		}
		if getenv("SLURM_ARRAY_TASK_MIN") != "" {
			if lo, err = atoi("SLURM_ARRAY_TASK_MIN"); err != nil {
				return nil, source, err
			}
		}
		if count == 0 && getenv("SLURM_ARRAY_TASK_COUNT") != "" {
			if count, err = atoi("SLURM_ARRAY_TASK_COUNT"); err != nil {
				return nil, source, err
			}
		}
		idx0 = id - lo
	case getenv("AWS_BATCH_JOB_ARRAY_INDEX") != "":
		idx0, err = atoi("AWS_BATCH_JOB_ARRAY_INDEX")
		source = "AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array job)"
	default:
		return nil, "", nil
	}
	if err != nil {
		return nil, source, err
	}
	if count < 1 {
		return nil, source, fmt.Errorf("%s is set: %w", source, ErrNeedCount)
	}
	if idx0 < 0 || idx0 >= count || count > MaxCount {
		return nil, source, fmt.Errorf("%s gives shard index %d, outside 0..%d for %d shards", source, idx0, count-1, count)
	}
	return &ID{Index: idx0 + 1, Count: count}, source, nil
}

// FileName is the part file name of shard id inside a folder.
func FileName(id ID) string { return fmt.Sprintf("part-%06d-of-%06d.gkpart", id.Index, id.Count) }

// Ranges writes sorted indices compactly: "0-3, 7, 9-10".
func Ranges(v []int) string {
	var b bytes.Buffer
	for i := 0; i < len(v); {
		j := i
		for j+1 < len(v) && v[j+1] == v[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		if j > i {
			fmt.Fprintf(&b, "%d-%d", v[i], v[j])
		} else {
			fmt.Fprintf(&b, "%d", v[i])
		}
		i = j + 1
	}
	return b.String()
}

// Span is the indices Lo..Hi, both included.
type Span struct{ Lo, Hi int }

// Spans is a set of indices as increasing, disjoint spans with a gap
// between any two, as Gaps returns it: what a merge lacks, held in memory
// bounded by what the parts hold rather than by the count they claim (a
// part of 5 KB claiming 10^7 replications cost 95 MB to merge when each
// missing index took 8 bytes; as spans it costs two).
type Spans []Span

// Len is the number of indices in s.
func (s Spans) Len() int {
	n := 0
	for _, sp := range s {
		n += sp.Hi - sp.Lo + 1
	}
	return n
}

// Contains reports whether i is in s.
func (s Spans) Contains(i int) bool {
	k := sort.Search(len(s), func(k int) bool { return s[k].Hi >= i })
	return k < len(s) && s[k].Lo <= i
}

// String writes s as Ranges does: "0-3, 7, 9-10".
func (s Spans) String() string {
	var b strings.Builder
	for _, sp := range s {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(sp.Lo))
		if sp.Hi > sp.Lo {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(sp.Hi))
		}
	}
	return b.String()
}

// Gaps returns the indices in 0..n−1 that have does not yield, as spans;
// have yields increasing indices (those outside 0..n−1, or not above the
// previous, are skipped). It allocates at most one span more than have
// yields, never n: n comes from a part's header, the indices from its
// body.
func Gaps(n int, have iter.Seq[int]) Spans {
	var out Spans
	next := 0 // the smallest index not yet covered
	for h := range have {
		if h < next || h >= n {
			continue
		}
		if h > next {
			out = append(out, Span{next, h - 1})
		}
		next = h + 1
	}
	if next < n {
		out = append(out, Span{next, n - 1})
	}
	return out
}

// MaxPlain bounds the decompressed size of a part file (1 GiB): a larger
// part (or a gzip bomb) is refused after reading at most MaxPlain bytes of
// it. A run whose shards would be larger is split into more shards.
const MaxPlain = 1 << 30

// maxPlain is MaxPlain (tests lower it).
var maxPlain int64 = MaxPlain

// MaxRaw bounds the size of a part file as stored (gzip compresses the
// JSON of a part at least 2:1, so no valid part is larger).
const MaxRaw = MaxPlain / 2

// ReadFile reads a part file from path: a regular file (a device or FIFO
// such as /dev/zero is refused instead of read forever) of at most MaxRaw
// bytes, that starts as gzip does (a file that does not is refused after
// its first two bytes, not read whole: 400 MB of zeros cost 911 MB before),
// read into one buffer of its size. It opens the path without blocking
// (O_NONBLOCK), so that a FIFO with no writer is refused at once instead
// of hanging the open; the flag changes nothing for the regular file that
// is then read.
func ReadFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if st.Size() > MaxRaw {
		return nil, fmt.Errorf("%d bytes: larger than any part file (at most %d MiB)", st.Size(), MaxRaw>>20)
	}
	var magic [2]byte
	if _, err := io.ReadFull(f, magic[:]); err != nil || magic != [2]byte{0x1f, 0x8b} {
		return nil, errors.New("not a gossipkit part file (not gzip)")
	}
	// Its size, and room for bytes.Buffer's read of 512 more (a file that
	// grew since Stat is read on, up to MaxRaw).
	b := bytes.NewBuffer(make([]byte, 0, st.Size()+1024))
	b.Write(magic[:])
	if _, err := b.ReadFrom(io.LimitReader(f, MaxRaw+1-2)); err != nil {
		return nil, err
	}
	if b.Len() > MaxRaw {
		return nil, fmt.Errorf("larger than any part file (at most %d MiB)", MaxRaw>>20)
	}
	return b.Bytes(), nil
}

// ReadFormat decompresses a part file and reads its "format" field; it
// returns the format and the plain JSON.
func ReadFormat(raw []byte) (string, []byte, error) {
	plain, err := Decompress(bytes.NewReader(raw))
	if err != nil {
		return "", nil, err
	}
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(plain, &head); err != nil {
		return "", nil, fmt.Errorf("not a gossipkit part file: %v", err)
	}
	return head.Format, plain, nil
}

// MergeError is a set of parts that cannot be merged; sim.MergeError and
// tree.MergeError are aliases of it.
type MergeError struct {
	Pkg string // the package that merges ("sim", "tree")
	Msg string // what is wrong, naming the parts
	// Missing lists the replications (seeds) that no part holds, when that
	// is what stopped the merge: the caller may merge without them.
	Missing Spans
}

// Error returns "pkg: msg".
func (e *MergeError) Error() string {
	if e == nil {
		return "merge error (nil)"
	}
	return e.Pkg + ": " + e.Msg
}
