package main

import (
	"strings"
	"testing"
)

// A preset sets memberlist's transmit budget; with --protocol pull, which
// has no budget, the refusal names the flag the user gave (--preset), not
// the --budget the preset filled in, and still takes one line and exit 2.
func TestPlanPresetWithPullNamesPreset(t *testing.T) {
	t.Parallel()
	out, errOut, code := runCLI(t, nil, "plan", "--protocol", "pull", "-N", "100", "--preset", "memberlist-lan")
	if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2, nothing on stdout, one line", code, out, errOut)
	}
	if !strings.Contains(errOut, "--preset memberlist-lan") || strings.Contains(errOut, "--budget 12") {
		t.Errorf("stderr %q: want it to name --preset memberlist-lan, not the preset's --budget 12", errOut)
	}
	// An explicit --budget with pull keeps its own refusal.
	_, errOut, code = runCLI(t, nil, "plan", "--protocol", "pull", "-N", "100", "--preset", "memberlist-lan", "--budget", "5")
	if code != 2 || !strings.Contains(errOut, "--budget 5") {
		t.Errorf("explicit --budget 5 with pull: exit %d, %q", code, errOut)
	}
}
