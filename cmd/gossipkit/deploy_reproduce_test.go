package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeployReproduce builds the binary and runs deploy/test-reproduce.sh:
// the reproduction's Slurm array and Kubernetes Indexed Job, run locally
// with 3 shards at the smoke scale, each merged report compared with the
// single run byte for byte.
func TestDeployReproduce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin := filepath.Join(t.TempDir(), "gossipkit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command("bash", filepath.Join("..", "..", "deploy", "test-reproduce.sh"))
	cmd.Env = append(os.Environ(), "GOSSIPKIT="+bin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("deploy/test-reproduce.sh: %v\n%s", err, out)
	}
	for _, want := range []string{"slurm: report merged from 3", "kubernetes: report merged from 3", "the batch log shows the steps"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
