package exact_test

import (
	"context"
	"fmt"

	"github.com/gossipkit/gossipkit/exact"
)

// The paper's n = 500, c = 100 under formula (1): the exchange size that
// maximises P(11|10) also maximises P(01|11); P(01|11) is smallest at s = c.
func ExampleTransitionOptima() {
	o, err := exact.TransitionOptima(context.Background(), 500, 100, exact.DropFormula1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("argmax P(11|10):", o.P11ArgMax)
	fmt.Println("argmax P(01|11):", o.P01ArgMax, "argmin:", o.P01ArgMin, "minimum:", o.P01Min.RatString())
	// Output:
	// argmax P(11|10): [53]
	// argmax P(01|11): [53] argmin: [100] minimum: 0
}
