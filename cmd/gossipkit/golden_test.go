package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// goldenDir holds the recorded invocations of the CLI (cases.txt) and one
// file per case with its exit status, stdout, stderr and the SHA-256 of
// every file it wrote. They were recorded from the CLI at commit a6bd5b8,
// before the command-table redesign, so that the redesign can be checked to
// change no output byte; the only files rewritten since are named, with
// the reason, in testdata/README.md. The numbers in them are claims of the
// tests that check each command against its sources, not of this test:
// this test checks only that the CLI still says the same thing.
const goldenDir = "../../testdata/cli/golden"

// goldenCase is one line of cases.txt: NAME ARG…; an argument may be a
// Go-quoted string, and $DIR stands for a fresh temporary folder.
type goldenCase struct {
	name string
	args []string
}

func readCases(t *testing.T) []goldenCase {
	t.Helper()
	f, err := os.Open(filepath.Join(goldenDir, "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []goldenCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		c := goldenCase{name: fields[0]}
		for _, a := range fields[1:] {
			if strings.HasPrefix(a, `"`) {
				u, err := strconv.Unquote(a)
				if err != nil {
					t.Fatalf("%s: %v", line, err)
				}
				a = u
			}
			c.args = append(c.args, a)
		}
		cases = append(cases, c)
	}
	return cases
}

// buildField is a part file's build identity (buildinfo.Identity), which
// holds the hash of the executable and so changes with every build.
var buildField = regexp.MustCompile(`"build":"[^"]*"`)

// withoutBuild returns a part file's plain JSON with its build identity
// replaced by a placeholder, so that its golden hash changes only when the
// part's content does; other files are returned as they are.
func withoutBuild(t *testing.T, name string, data []byte) []byte {
	if !strings.HasSuffix(name, ".gkpart") {
		return data
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return buildField.ReplaceAll(plain, []byte(`"build":"BUILD"`))
}

// TestGoldenInvocations replays every recorded invocation in-process and
// compares the result byte for byte (go test -run Golden -update rewrites
// them: review the diff).
func TestGoldenInvocations(t *testing.T) {
	cases := readCases(t)
	if len(cases) < 60 {
		t.Fatalf("%d cases; the safety net needs at least 60", len(cases))
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Fatalf("case %s twice", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := slices.Clone(c.args)
			for i := range args {
				args[i] = strings.ReplaceAll(args[i], "$DIR", dir)
			}
			var o, e strings.Builder
			en := &env{Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }}
			code := runEnv(context.Background(), en, args)
			var b strings.Builder
			fmt.Fprintf(&b, "exit %d\n--- stdout\n%s--- stderr\n%s--- files\n", code, o.String(), strings.ReplaceAll(e.String(), dir, "$DIR"))
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(dir, p)
				fmt.Fprintf(&b, "%s %x\n", rel, sha256.Sum256(withoutBuild(t, rel, data)))
				return nil
			})
			path := filepath.Join(goldenDir, c.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("gossipkit %q differs from %s:\n--- got ---\n%s\n--- want ---\n%s", args, path, b.String(), want)
			}
		})
	}
}
