package shard

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// Stream checks the part file held in raw as Decompress does (exactly one
// gzip member, its plain JSON within MaxPlain and the limits its format
// registered, nothing after it) without keeping its plain JSON, and returns
// a reader of that JSON: a second decompression of raw. A reader that
// decodes the part as it streams (a reproduction part, whose arrays it
// bounds one element at a time) then holds raw and what it decodes, never
// the plain JSON whole (a part of 87 KiB on disk can be 90 MB of JSON).
func Stream(raw []byte) (io.Reader, error) {
	if len(raw) > MaxRaw {
		return nil, fmt.Errorf("larger than any part file (at most %d MiB)", MaxRaw>>20)
	}
	rd := bytes.NewReader(raw)
	br := bufio.NewReaderSize(rd, 32<<10)
	cnt := &counter{raw: func() int64 { return rd.Size() - int64(rd.Len()) }}
	if err := member(br, cnt, true); err != nil {
		return nil, err
	}
	if n, _ := io.Copy(io.Discard, br); n > 0 {
		return nil, errors.New("corrupted part file: data after the end of its gzip stream (two files concatenated?)")
	}
	if err := cnt.finish(); err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("not a gossipkit part file (not gzip: %v)", err)
	}
	zr.Multistream(false)
	return zr, nil
}

// CheckLimits checks the plain JSON of a part held inside another (a
// reproduction part's run) against the limits its format registered
// (RegisterLimits), as Decompress checks a part file's: its header is read
// from its first HeaderBytes, then its size and its objects are counted.
// A format without limits passes.
func CheckLimits(plain []byte) error {
	format, header, err := HeaderOf(plain[:min(len(plain), HeaderBytes)])
	if err != nil {
		return err
	}
	f := limitsOf(format)
	if f == nil {
		return nil
	}
	lim, err := f(header)
	if err != nil {
		return err
	}
	c := &counter{lim: &lim, n: int64(len(plain)), objects: int64(bytes.Count(plain, []byte("{")))}
	return c.check()
}

// CapReader reads R and fails once more than Left bytes have been read
// since Left was last set: a decoder that reads a value whole (a
// json.Decoder) is stopped there instead of buffering a hostile value of
// any size. Err is the error it returns then.
type CapReader struct {
	R    io.Reader
	Left int64
	Err  error
}

func (c *CapReader) Read(p []byte) (int, error) {
	if c.Left <= 0 {
		return 0, c.Err
	}
	if int64(len(p)) > c.Left {
		p = p[:c.Left]
	}
	n, err := c.R.Read(p)
	c.Left -= int64(n)
	return n, err
}
