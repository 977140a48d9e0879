package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlotOneFigure(t *testing.T) {
	dir := t.TempDir()
	_, errOut, code := runCLI(t, nil, "plot", "fig4", "--out", dir, "--cs", "20", "--ss", "1,2", "--n-max", "200", "--step", "20")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "fig4.png,fig4.svg" {
		t.Errorf("files %v, want only fig4.png and fig4.svg", names)
	}
	_, errOut, code = runCLI(t, nil, "plot", "fig8", "--out", dir, "-N", "100", "-c", "10", "-s", "5", "--ns", "50", "--warmup", "5", "--rounds", "30", "--reps", "2")
	if code != 0 {
		t.Fatalf("fig8: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "fig8.png")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "fig7.png")); err == nil {
		t.Error("plot fig8 also wrote fig7")
	}
}

func TestPlotBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"plot"}, "name a figure"},
		{[]string{"plot", "fig9"}, "valid figures are"},
		{[]string{"plot", "fig7", "--ns", "500,x"}, "--ns"},
		{[]string{"plot", "fig7", "-s", "200"}, "-s"},
		{[]string{"plot", "fig4", "--step", "0"}, "--step"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			expectUsage(t, nil, tc.args, tc.want)
		})
	}
}
