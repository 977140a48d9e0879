package plots

import (
	"math"
	"strconv"
)

// PlusMinus writes a value with its accuracy e as "v ± e": v to the
// decimals that e's two significant digits reach (six significant digits
// where e is finer), "v ± 0" for e = 0, v alone (six digits) where no
// accuracy is stated (NaN), "–" for a value that is not a number.
func PlusMinus(v, e float64) string {
	g6 := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	g2 := func(x float64) string { return strconv.FormatFloat(x, 'g', 2, 64) }
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "–"
	case math.IsNaN(e) || math.IsInf(e, 0) || e < 0:
		return g6(v)
	case e == 0:
		return g6(v) + " ± 0"
	}
	dec := 1 - int(math.Floor(math.Log10(e)))
	if mag := int(math.Floor(math.Log10(math.Abs(v)))); v != 0 && mag+dec+1 > 6 || dec > 15 {
		return g6(v) + " ± " + g2(e)
	}
	if dec < 0 {
		return strconv.FormatFloat(v, 'f', 0, 64) + " ± " + g2(e)
	}
	return strconv.FormatFloat(v, 'f', dec, 64) + " ± " + strconv.FormatFloat(e, 'f', dec, 64)
}
