package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/internal/cli"
)

// The README's set-up block is exactly these two commands: .ci/run takes
// them from the README and runs them as written (the main job at its
// default scale, then the tests), so a change to the block changes what CI
// runs; this test keeps the block to the two commands that CI can run.
var readmeSetup = []string{"go run ./cmd/gossipkit reproduce", "go test ./..."}

// setupBlock returns the lines of the first ```sh block under "## Set-up".
func setupBlock(readme string) []string {
	_, after, ok := strings.Cut(readme, "\n## Set-up\n")
	if !ok {
		return nil
	}
	_, after, ok = strings.Cut(after, "```sh\n")
	if !ok {
		return nil
	}
	block, _, _ := strings.Cut(after, "```")
	return strings.Split(strings.TrimSuffix(block, "\n"), "\n")
}

// TestReadmeSetup: the README's set-up block holds exactly the two
// commands, the first runs a command of the table (reproduce) with no
// flag, and every document the README links to exists.
func TestReadmeSetup(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	if got := setupBlock(readme); !slices.Equal(got, readmeSetup) {
		t.Errorf("README's set-up block = %q, want %q", got, readmeSetup)
	}
	name := strings.TrimPrefix(readmeSetup[0], "go run ./cmd/gossipkit ")
	if !slices.ContainsFunc(program.Commands, func(c *cli.Command) bool { return c.Name == name }) {
		t.Errorf("README's main job runs %q, which is not a command", name)
	}
	for _, m := range regexp.MustCompile(`\]\(([^)#:]+)\)`).FindAllStringSubmatch(readme, -1) {
		if _, err := os.Stat(filepath.Join("../..", m[1])); err != nil {
			t.Errorf("README links to %s: %v", m[1], err)
		}
	}
	if len(data) > 20<<10 {
		t.Errorf("README.md is %d bytes; the set-up and the table of times must stay quick to read (at most 20 KiB; the rest belongs in docs/)", len(data))
	}
}

// TestSetupBlockParse: setupBlock finds the block under its heading and
// nothing elsewhere (a test of the checker, so that TestReadmeSetup cannot
// pass on a README it cannot read).
func TestSetupBlockParse(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"two", "# x\n\n## Set-up\n\ntext\n\n```sh\na b\nc\n```\n\n## Next\n```sh\nd\n```\n", []string{"a b", "c"}},
		{"three", "## Set-up\n```sh\na\nb\nc\n```\n", []string{"a", "b", "c"}},
		{"no heading", "# x\n```sh\na\n```\n", nil},
		{"no block", "# x\n## Set-up\ntext\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := setupBlock("\n" + c.text); !slices.Equal(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestCLIReferenceContract: docs/CLI.md, where the README points for the
// command line, states each part of the contract that the package doc
// states (bad input, write errors, signals, exit codes, formats, progress).
func TestCLIReferenceContract(t *testing.T) {
	data, err := os.ReadFile("../../docs/CLI.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"**Bad input**", "**Write errors**", "**Signals**", "**Exit codes**", "**Formats**", "**Progress**"} {
		if !strings.Contains(string(data), "- "+part) {
			t.Errorf("docs/CLI.md lacks the contract's %s", part)
		}
	}
}
