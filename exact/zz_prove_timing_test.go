package exact

import (
	"os"
	"testing"
	"time"
)

func TestProveTiming(t *testing.T) {
	if os.Getenv("PROVE_TIMING") == "" {
		t.Skip()
	}
	start := time.Now()
	for s := 1; ; s++ {
		p, _ := ProveGamma(s)
		el := time.Since(start)
		if s%10 == 0 || el > 300*time.Second {
			t.Logf("s = %d proved %v, cumulative %.1f s", s, p.Proved, el.Seconds())
		}
		if el > 300*time.Second {
			return
		}
	}
}
