package plots_test

import (
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/plots"
)

// A value is written to the decimals its accuracy's two significant
// digits reach; a finer accuracy than six digits keeps six; no stated
// accuracy leaves the value alone.
func ExamplePlusMinus() {
	fmt.Println(plots.PlusMinus(9.7843, 0.01843))
	fmt.Println(plots.PlusMinus(214.44, 0.00075))
	fmt.Println(plots.PlusMinus(7.48958, 1.8e-11))
	fmt.Println(plots.PlusMinus(63.1218, math.NaN()))
	// Output:
	// 9.784 ± 0.018
	// 214.44 ± 0.00075
	// 7.48958 ± 1.8e-11
	// 63.1218
}
