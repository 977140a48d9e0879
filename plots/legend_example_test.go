package plots_test

import (
	"fmt"

	"github.com/gossipkit/gossipkit/plots"
)

// A figure whose dots have no legend entry is refused; a Key entry of
// their style, in a colour the legend names, explains them.
func ExampleCheckLegend() {
	x, y := []float64{1, 2, 3}, []float64{1, 4, 9}
	sp := &plots.Spec{Title: "t", Series: []plots.Series{
		{Name: "limit law", X: x, Y: y},
		{X: x[:2], Y: []float64{1.2, 3.7}, Points: true},
	}}
	fmt.Println(plots.CheckLegend(sp))
	sp.Key = []plots.Series{{Name: "dots: the exact chain", Points: true, Color: 6}}
	fmt.Println(plots.CheckLegend(sp))
	// Output:
	// plots: figure "t": series 2 (colour 0, filled dots) has no legend entry
	// <nil>
}
