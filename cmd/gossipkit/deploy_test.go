package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeployExamples builds the binary and runs deploy/test-local.sh, which
// runs the Slurm, Kubernetes and xargs examples locally with the index
// variables set as each engine sets them and compares each merge with the
// single-machine run byte for byte: sim's array job, then (through
// deploy/test-reproduce.sh) the reproduction's, whose merged reports must
// equal the single run's and whose batch log must show its steps.
func TestDeployExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin := filepath.Join(t.TempDir(), "gossipkit")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command("bash", filepath.Join("..", "..", "deploy", "test-local.sh"))
	cmd.Env = append(os.Environ(), "GOSSIPKIT="+bin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("deploy/test-local.sh: %v\n%s", err, out)
	}
	for _, want := range []string{"slurm: merge", "kubernetes: merge of 3", "xargs -P: merge",
		"slurm: report merged from 3", "kubernetes: report merged from 3", "the batch log shows the steps"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
