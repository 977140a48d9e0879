package exact_test

import (
	"fmt"

	"github.com/gossipkit/gossipkit/exact"
)

func ExamplePDrop() {
	e, _ := exact.PDrop(7, 4, 2)
	g, _ := exact.PDropGamma(7, 4, 2)
	s, _ := exact.PDropSimplified(7, 4, 2)
	fmt.Println(e, g, s)
	// Output: 4/7 4/7 3/5
}

func ExamplePDropEnumerated() {
	en, _ := exact.PDropEnumerated(7, 4, 2)
	fmt.Println("per item:", en.PerItem, "per shuffle:", en.PerShuffle)
	// Output: per item: 3/5 per shuffle: 4/7
}
