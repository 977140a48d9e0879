package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// merge refuses tampered parts: a part with bytes
// appended, two parts concatenated, /dev/zero, parts that disagree on
// connected, and a part holding negative counters (with its moments kept
// consistent, so only the range check can catch it).
func TestMergeRefusesTamperedParts(t *testing.T) {
	dir := t.TempDir()
	for i := 1; i <= 2; i++ {
		shardRun(t, dir, nil, "--shard", fmt.Sprintf("%d/2", i))
	}
	p1 := filepath.Join(dir, "part-000001-of-000002.gkpart")
	p2 := filepath.Join(dir, "part-000002-of-000002.gkpart")
	raw1, _ := os.ReadFile(p1)
	raw2, _ := os.ReadFile(p2)
	plain := func(raw []byte) map[string]any {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(zr)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	encode := func(m map[string]any) []byte {
		b, _ := json.Marshal(m)
		return gz(string(b))
	}
	disconnected := plain(raw2)
	disconnected["connected"] = !disconnected["connected"].(bool)
	negative := plain(raw2)
	negative["reps"].([]any)[0].(map[string]any)["shuffles"] = -5.0
	write := func(name string, b []byte) string {
		f := filepath.Join(t.TempDir(), name)
		os.WriteFile(f, b, 0o644)
		return f
	}
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"appended", []string{write("appended", append(append([]byte{}, raw1...), "junk"...)), p2}, "after the end"},
		{"concatenated", []string{write("concatenated", append(append([]byte{}, raw1...), raw2...))}, "after the end"},
		{"/dev/zero", []string{"/dev/zero", p2}, "not a regular file"},
		{"connected", []string{p1, write("connected", encode(disconnected))}, "connected"},
		{"negative", []string{p1, write("negative", encode(negative))}, "negative counter"},
	} {
		out, errOut, code := runCLI(t, nil, append([]string{"merge"}, tc.files...)...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, stdout %d bytes, stderr %q (want one line with %q)", tc.name, code, len(out), errOut, tc.want)
		}
	}
}
