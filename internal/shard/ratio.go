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
	z, err := compress(func(zw io.Writer) error { return json.NewEncoder(zw).Encode(v) })
	if err != nil {
		return err
	}
	_, err = w.Write(z)
	return err
}

// compress writes what write writes as one gzip member within MaxRatio,
// as WriteJSON writes it: at best compression, or else by Huffman coding
// alone, calling write again rather than keeping its plain bytes (a
// part's JSON can be as large as its replications).
func compress(write func(io.Writer) error) ([]byte, error) {
	var z bytes.Buffer
	for _, level := range []int{gzip.BestCompression, gzip.HuffmanOnly} {
		z.Reset()
		zw, err := gzip.NewWriterLevel(&z, level)
		if err != nil {
			return nil, err
		}
		if err := write(zw); err != nil {
			return nil, err
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		if withinRatio(z.Bytes()) {
			return z.Bytes(), nil
		}
	}
	return nil, fmt.Errorf("no compression keeps the part within %d times its size on disk", PlainPerRaw)
}

// withinRatio reports whether the gzip member z decompresses within
// MaxRatio at every point, as Decompress reads it.
func withinRatio(z []byte) bool {
	rd := bytes.NewReader(z)
	cnt := &counter{raw: func() int64 { return rd.Size() - int64(rd.Len()) }, lim: &Limits{}}
	return member(bufio.NewReaderSize(rd, 32<<10), cnt, true) == nil
}

// WriteJSONArray is WriteJSON for a value whose last field, key, is an
// array of n elements too large to encode at once: v must encode as an
// object whose last field is key with the value null (a nil slice), and
// elem(i) returns element i. The array is encoded one element at a time,
// so writing costs the compressed part and one element instead of the
// part's whole JSON and its growth (a sim shard of 20,000 replications of
// 400 rounds: 397 MB peak, 67 MB of JSON encoded whole); the bytes are
// those WriteJSON writes for v with the array in place.
func WriteJSONArray(w io.Writer, v any, key string, n int, elem func(i int) any) error {
	if w == nil {
		return errors.New("nil writer")
	}
	head, err := json.Marshal(v)
	if err != nil {
		return err
	}
	tail := []byte(`,"` + key + `":null}`)
	if !bytes.HasSuffix(head, tail) {
		return fmt.Errorf("WriteJSONArray: the value does not end with %s", tail)
	}
	head = head[:len(head)-len(tail)+len(`,"`+key+`":`)]
	z, err := compress(func(zw io.Writer) error {
		if _, err := zw.Write(head); err != nil {
			return err
		}
		buf := bytes.NewBuffer(nil)
		enc := json.NewEncoder(buf)
		for i := range n {
			buf.Reset()
			if i == 0 {
				buf.WriteByte('[')
			} else {
				buf.WriteByte(',')
			}
			if err := enc.Encode(elem(i)); err != nil {
				return err
			}
			buf.Truncate(buf.Len() - 1) // Encode's newline
			if _, err := zw.Write(buf.Bytes()); err != nil {
				return err
			}
		}
		if n == 0 {
			_, err := zw.Write([]byte("[]}\n"))
			return err
		}
		_, err := zw.Write([]byte("]}\n"))
		return err
	})
	if err != nil {
		return err
	}
	_, err = w.Write(z)
	return err
}
