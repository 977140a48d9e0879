package harness_test

import (
	"fmt"

	"github.com/gossipkit/gossipkit/validate/memberlist/harness"
)

// A harness setting and the model it is compared with: memberlist's LAN
// fanout and RetransmitMult on 200 nodes give the transmit limit
// 4·⌈log10 201⌉ = 4·3 = 12; with φ = 0.1, ⌊0.1·199⌋ = 19 nodes are down.
func ExampleSetting_Model() {
	s := harness.Setting{Nodes: 200, Fanout: 3, RetransmitMult: 4, Loss: 0.2, Failed: 0.1, Broadcasts: 100}
	cfg := s.Model(1)
	fmt.Println("budget", s.Budget(), "live", cfg.Live(), "fanout", cfg.Fanout, "valid:", s.Validate() == nil)
	// Output:
	// budget 12 live 181 fanout 3 valid: true
}
