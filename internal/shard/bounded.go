package shard

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Limits are what a part's header allows of the whole part: its plain
// JSON size in bytes and its number of JSON objects (each '{' byte counts,
// a bound that strings cannot lower), at most. Zero is no bound beyond
// MaxPlain.
type Limits struct {
	Bytes, Objects int64
}

// HeaderBytes is how much of a part's plain JSON is read for its header
// (its fields that are not arrays) before its limits apply.
const HeaderBytes = 64 << 10

var limits struct {
	sync.RWMutex
	m map[string]func(header []byte) (Limits, error)
}

// RegisterLimits declares, for the parts of format, what a header allows:
// f gets the header (the fields of the part's first HeaderBytes that are
// not arrays, as one JSON object: HeaderOf) and returns the limits of the
// whole part, or an error refusing it (another build, a bad
// configuration, a run too large for one part); a header that lacks
// fields f needs (a part written with its fields in another order) is
// best given no limits (the zero Limits), the part's full check comes
// after. Decompress applies them while it counts the plain
// bytes, before it allocates anything of their size; a format without
// limits is bounded by MaxPlain only. Packages register in their init.
func RegisterLimits(format string, f func(header []byte) (Limits, error)) {
	limits.Lock()
	defer limits.Unlock()
	if limits.m == nil {
		limits.m = map[string]func([]byte) (Limits, error){}
	}
	limits.m[format] = f
}

func limitsOf(format string) func([]byte) (Limits, error) {
	limits.RLock()
	defer limits.RUnlock()
	return limits.m[format]
}

// HeaderOf returns the header of a part's plain JSON prefix: its fields
// whose values are not arrays (the replications, seeds and runs a part
// holds are), in order, as one JSON object (the field cut by the end of
// the prefix, and those after it, are left out), and the value of its
// "format" field ("" if it has none). A
// prefix that does not start with an object is not a part file: an
// error.
func HeaderOf(prefix []byte) (format string, header []byte, err error) {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "", nil, errors.New("not a gossipkit part file (its JSON is not an object)")
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for i := 0; dec.More(); i++ {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			break
		}
		array := isArray(prefix[dec.InputOffset():])
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			break // cut by the end of the prefix
		}
		if array {
			i--
			continue
		}
		if key == "format" {
			json.Unmarshal(v, &format)
		}
		if i > 0 {
			out.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		out.Write(k)
		out.WriteByte(':')
		out.Write(v)
	}
	out.WriteByte('}')
	return format, out.Bytes(), nil
}

// isArray reports whether the value after a key (": [") is an array.
func isArray(rest []byte) bool {
	for _, b := range rest {
		switch b {
		case ' ', '\t', '\n', '\r', ':':
			continue
		case '[':
			return true
		}
		return false
	}
	return false
}

// Decompress reads a part file: exactly one gzip member (its CRC-32 and
// length checked) of plain JSON within its limits, and nothing after it
// (trailing bytes, or a second member as when two parts are concatenated,
// are refused). A part is untrusted input, so nothing is read or
// allocated beyond what the part has shown it may need:
//
//   - r is read as the gzip stream goes: a stream that is not gzip
//     (/dev/zero, a text file) is refused after its first bytes, not after
//     MaxRaw of them; the compressed bytes kept are the file's own (at
//     most MaxRaw);
//   - the plain JSON is first counted without being kept: its first
//     bytes must be an object whose first field is "format" (a gzip bomb
//     of zeros or spaces is refused at its first bytes), and once its
//     header is read (HeaderBytes, HeaderOf) the limits registered for its
//     format (RegisterLimits) bound the count of bytes and of objects,
//     which stops at the first byte beyond them; every part stops at
//     MaxPlain, and at every point the plain bytes counted are at most
//     PlainPerRaw times the compressed bytes read so far, plus RatioSlack
//     (MaxRatio): a bomb (a valid header, then a GiB of spaces in a MiB
//     of gzip) stops there, whatever its header claims;
//   - only then is a buffer of exactly the plain size filled.
//
// So a part costs at most its size on disk, plus the least of what its
// header allows (MaxPlain for a format without limits) and PlainPerRaw
// times its size on disk plus RatioSlack, plus HeaderBytes.
func Decompress(r io.Reader) ([]byte, error) {
	if r == nil {
		return nil, errors.New("nil reader")
	}
	var raw bytes.Buffer
	kept := &keepRaw{buf: &raw}
	// A ByteReader, so that gzip (flate) reads no more than its stream.
	br := bufio.NewReaderSize(io.TeeReader(io.LimitReader(r, MaxRaw+1), kept), 32<<10)
	cnt := &counter{raw: func() int64 { return int64(raw.Len()) }}
	if err := member(br, cnt, true); err != nil {
		if kept.over {
			return nil, fmt.Errorf("larger than any part file (at most %d MiB)", MaxRaw>>20)
		}
		return nil, err
	}
	// Nothing after the member: read what is left of r (at most MaxRaw in
	// all), into the kept bytes.
	if n, err := io.Copy(io.Discard, br); err != nil {
		return nil, err
	} else if n > 0 {
		if kept.over {
			return nil, fmt.Errorf("larger than any part file (at most %d MiB)", MaxRaw>>20)
		}
		return nil, errors.New("corrupted part file: data after the end of its gzip stream (two files concatenated?)")
	}
	if err := cnt.finish(); err != nil {
		return nil, err
	}
	plain := bytes.NewBuffer(make([]byte, 0, cnt.n))
	if err := member(bufio.NewReader(bytes.NewReader(raw.Bytes())), plain, false); err != nil {
		return nil, err
	}
	return plain.Bytes(), nil
}

// member decompresses one gzip member of br into w, refusing more than
// maxPlain bytes of it.
func member(br *bufio.Reader, w io.Writer, first bool) error {
	zr, err := gzip.NewReader(br)
	if err != nil {
		return fmt.Errorf("not a gossipkit part file (not gzip: %v)", err)
	}
	zr.Multistream(false)
	n, err := io.Copy(w, io.LimitReader(zr, maxPlain+1))
	if c, ok := w.(*counter); ok && c.err != nil {
		return c.err
	}
	if err != nil {
		return fmt.Errorf("corrupted or truncated part file: %v", err)
	}
	if n > maxPlain {
		return fmt.Errorf("decompresses to more than %d MiB: not a part file of gossipkit (split the run into more shards)", maxPlain>>20)
	}
	return nil
}

// keepRaw keeps the compressed bytes read, up to MaxRaw.
type keepRaw struct {
	buf  *bytes.Buffer
	over bool
}

func (k *keepRaw) Write(p []byte) (int, error) {
	if k.buf.Len()+len(p) > MaxRaw {
		k.over = true
		return 0, errors.New("too large")
	}
	return k.buf.Write(p)
}

// counter counts plain bytes and objects without keeping them, but for
// the first HeaderBytes: from those it reads the header and the limits of
// the part's format, and fails the write that passes them.
type counter struct {
	n, objects int64
	prefix     []byte
	lim        *Limits // nil until the header is read
	err        error
	// raw, if set, is the compressed bytes read so far: the plain count
	// stays within MaxRatio of it.
	raw func() int64
}

func (c *counter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if c.lim == nil {
		c.prefix = append(c.prefix, p[:min(len(p), HeaderBytes-len(c.prefix))]...)
		// What is not a part is refused at its first bytes.
		if t := bytes.TrimLeft(c.prefix, " \t\r\n"); len(t) > 0 && t[0] != '{' {
			c.err = errors.New("not a gossipkit part file (its JSON is not an object)")
			return 0, c.err
		}
	}
	c.n += int64(len(p))
	c.objects += int64(bytes.Count(p, []byte("{")))
	if c.lim == nil && len(c.prefix) >= HeaderBytes {
		c.readLimits()
	}
	if c.check() != nil {
		return 0, c.err
	}
	return len(p), nil
}

// finish reads the limits of a part shorter than HeaderBytes and checks
// the counts against them.
func (c *counter) finish() error {
	if c.err == nil && c.lim == nil {
		c.readLimits()
	}
	return c.check()
}

// check fails once the counts pass the limits, or the plain bytes pass
// MaxRatio of the compressed ones read.
func (c *counter) check() error {
	if c.err == nil && c.raw != nil {
		if raw := c.raw(); c.n > MaxRatio(raw) {
			c.err = ratioError(raw)
			return c.err
		}
	}
	if c.err == nil && c.lim != nil {
		switch {
		case c.lim.Bytes > 0 && c.n > c.lim.Bytes:
			c.err = fmt.Errorf("corrupted part file: more bytes of JSON than its header allows (%d)", c.lim.Bytes)
		case c.lim.Objects > 0 && c.objects > c.lim.Objects:
			c.err = fmt.Errorf("corrupted part file: more JSON objects than its header allows (%d)", c.lim.Objects)
		}
	}
	return c.err
}

// readLimits reads the header from the prefix and the limits of its format.
func (c *counter) readLimits() {
	c.lim = &Limits{}
	format, header, err := HeaderOf(c.prefix)
	if err != nil {
		c.err = err
		return
	}
	if f := limitsOf(format); f != nil {
		lim, err := f(header)
		if err != nil {
			c.err = err
			return
		}
		c.lim = &lim
	}
}
