package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

var smallTree = []string{"--nodes", "300", "--degree", "4", "--seeds", "5", "--seed", "3"}

func TestTreeBuildJSON(t *testing.T) {
	out, errOut, code := runCLI(t, nil, append([]string{"tree", "build", "--format", "json"}, smallTree...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"depth", "messages_per_node", "propagation_ms"} {
		st, ok := v[k].(map[string]any)
		if !ok {
			t.Fatalf("%s missing or not an object: %v", k, v[k])
		}
		if _, ok := st["mean"]; !ok {
			t.Errorf("%s has no mean", k)
		}
		if _, ok := st["sd"]; !ok {
			t.Errorf("%s has no sd", k)
		}
	}
	// 300 nodes, k = 4: a complete 4-ary tree of 300 nodes has depth 4
	// (1 + 4 + 16 + 64 = 85 < 300 ≤ 341); joins from the top cannot do better.
	if d := v["depth"].(map[string]any)["mean"].(float64); d < 4 {
		t.Errorf("depth %v below the complete tree's 4", d)
	}
}

func TestTreeFailReconnected(t *testing.T) {
	for _, rep := range []string{"breakout", "preservation", "election"} {
		out, errOut, code := runCLI(t, nil, append([]string{"tree", "fail", "--fraction", "0.5", "--repair", rep, "--format", "json"}, smallTree...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", rep, code, errOut)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		if v["reconnected"] != true {
			t.Errorf("%s: reconnected = %v", rep, v["reconnected"])
		}
		// 150 of 300 nodes fail: round(0.5·300) = 150 in every seed.
		if f := v["failed"].(map[string]any); f["mean"].(float64) != 150 || f["sd"].(float64) != 0 {
			t.Errorf("%s: failed %v", rep, f)
		}
	}
}

func TestTreeShardMerge(t *testing.T) {
	for _, sub := range []string{"build", "fail"} {
		single, _, code := runCLI(t, nil, append([]string{"tree", sub, "--format", "csv"}, smallTree...)...)
		if code != 0 {
			t.Fatal(code)
		}
		for _, M := range []int{1, 2, 3} {
			dir := t.TempDir()
			for i := 1; i <= M; i++ {
				if _, errOut, code := runCLI(t, nil, append([]string{"tree", sub, "--shard", fmt.Sprintf("%d/%d", i, M), "-o", dir + "/"}, smallTree...)...); code != 0 {
					t.Fatalf("%s shard %d/%d: %s", sub, i, M, errOut)
				}
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*.gkpart"))
			merged, errOut, code := runCLI(t, nil, append(append([]string{"merge"}, files...), "--format", "csv")...)
			if code != 0 || merged != single {
				t.Errorf("%s M=%d: exit %d (%s), identical %v", sub, M, code, errOut, merged == single)
			}
		}
	}
}

func TestTreeBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tree"}, "name a subcommand: build, fail, sweep"},
		{[]string{"tree", "grow"}, "subcommands"},
		{[]string{"tree", "build", "--degree", "0"}, "--degree"},
		{[]string{"tree", "build", "--nodes", "0"}, "-N"},
		{[]string{"tree", "build", "--join", "leaf"}, "--join"},
		{[]string{"tree", "build", "--redirect", "far"}, "--redirect"},
		{[]string{"tree", "fail", "--fraction", "1"}, "--fraction"},
		{[]string{"tree", "fail", "--fraction", "-0.1"}, "--fraction"},
		{[]string{"tree", "fail", "--repair", "glue"}, "--repair"},
		{[]string{"tree", "fail", "--elect", "age"}, "--elect"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			expectUsage(t, nil, tc.args, tc.want)
		})
	}
}
