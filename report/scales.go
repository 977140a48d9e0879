package report

import (
	"strings"

	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// scales are the scales Run offers, known by their Name.
var scales = []func() Scale{Quick, Paper, Smoke}

// ScaleNamed returns the scale whose Name is name: quick, paper or smoke.
// Another name is a *fielderr.Error on Scale.Name listing the valid ones.
func ScaleNamed(name string) (Scale, error) {
	var names []string
	for _, f := range scales {
		sc := f()
		if sc.Name == name {
			return sc, nil
		}
		names = append(names, sc.Name)
	}
	return Scale{}, fielderr.New("report", "Scale.Name", "%q: valid values are %s", name, strings.Join(names, ", "))
}
