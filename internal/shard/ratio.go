package shard

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// PlainPerRaw and RatioSlack bound how much JSON a part file may hold for
// its size on disk: at every point of its decompression, the plain bytes
// so far are at most PlainPerRaw times the compressed bytes read so far,
// plus RatioSlack (MaxRatio). A part is untrusted input, and gzip inflates
// up to 1032:1 (64 MiB of zeros is 64 KiB of gzip), so without this bound
// a small file could claim, and be given, up to MaxPlain of memory; with
// it, a part costs a stated multiple of its size on disk whatever its
// header claims. The parts gossipkit writes compress 6–20:1 (sim 14–19,
// broadcast 6–10, reproduction 8, tree 3; measured on parts of each
// command), and WriteJSON keeps every part it writes within the bound
// (TestWriteJSONWithinRatio), so no valid part is refused by it.
const (
	PlainPerRaw = 32
	RatioSlack  = HeaderBytes
)

// MaxRatio is the most plain JSON a part may have decompressed after raw
// compressed bytes: PlainPerRaw·raw + RatioSlack.
func MaxRatio(raw int64) int64 { return PlainPerRaw*max(raw, 0) + RatioSlack }

func ratioError(raw int64) error {
	return fmt.Errorf("decompresses to more than %d times the %d compressed bytes read (plus %d KiB): a decompression bomb, not a part file of gossipkit", PlainPerRaw, raw, RatioSlack>>10)
}

// WriteJSON writes v as one gzip member of JSON: best compression, or,
// where that would inflate past MaxRatio at some point (runs of one
// repeated value: a trajectory stuck at N for 10^5 rounds compresses
// 1000:1), Huffman coding alone, which spends at least one bit a byte
// (at most 8:1 within each block of at most 64 KiB), so that every part
// it writes passes Decompress's ratio bound.
func WriteJSON(w io.Writer, v any) error {
	if w == nil {
		return errors.New("nil writer")
	}
	var plain bytes.Buffer
	if err := json.NewEncoder(&plain).Encode(v); err != nil {
		return err
	}
	z, err := compress(plain.Bytes())
	if err != nil {
		return err
	}
	_, err = w.Write(z)
	return err
}

// compress is plain as one gzip member within MaxRatio, as WriteJSON
// writes it.
func compress(plain []byte) ([]byte, error) {
	var z bytes.Buffer
	for _, level := range []int{gzip.BestCompression, gzip.HuffmanOnly} {
		z.Reset()
		zw, err := gzip.NewWriterLevel(&z, level)
		if err != nil {
			return nil, err
		}
		if _, err := zw.Write(plain); err != nil {
			return nil, err
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		if withinRatio(z.Bytes()) {
			return z.Bytes(), nil
		}
	}
	return nil, fmt.Errorf("%d bytes of JSON: no compression keeps it within %d times its size on disk", len(plain), PlainPerRaw)
}

// withinRatio reports whether the gzip member z decompresses within
// MaxRatio at every point, as Decompress reads it.
func withinRatio(z []byte) bool {
	rd := bytes.NewReader(z)
	cnt := &counter{raw: func() int64 { return rd.Size() - int64(rd.Len()) }, lim: &Limits{}}
	return member(bufio.NewReaderSize(rd, 32<<10), cnt, true) == nil
}
