package report

import (
	"errors"
	"testing"

	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestScaleNamed: each of the three scales by its name; another name is a
// field error on Scale.Name listing them.
func TestScaleNamed(t *testing.T) {
	for _, name := range []string{"quick", "paper", "smoke"} {
		t.Run(name, func(t *testing.T) {
			sc, err := ScaleNamed(name)
			if err != nil || sc.Name != name {
				t.Errorf("got %q, %v", sc.Name, err)
			}
		})
	}
	_, err := ScaleNamed("huge")
	var fe *fielderr.Error
	if !errors.As(err, &fe) || fe.Field != "Scale.Name" || fe.Msg != `"huge": valid values are quick, paper, smoke` {
		t.Errorf("got %v", err)
	}
	probe.Func(t, "ScaleNamed", ScaleNamed, probe.Settings{}, "quick")
}
